/**
 * Wake-ups between roles (docs/operations.md#wake-ups): after a process commits work for another
 * role, it wakes that role at once instead of leaving it to its poll. In the process itself the
 * roles are called directly (src/server/roles.ts); across processes a small message goes over
 * the event bus (Redis pub/sub or PostgreSQL NOTIFY) on the topic `sluice:wake`:
 *
 * - `scheduler` (data: the tenant): an event of the tenant was committed while no scheduler of the
 *   sending process leads it; the leading scheduler runs a pass;
 * - `executor`: a build request can be claimed (new, or a paused build to continue);
 * - `launcher`: a node request or a returned node waits for the launcher;
 * - `intake`: a webhook delivery was stored for the drivers' intake (docs/github.md#webhooks).
 *
 * A wake-up that is lost (the bus is away, a process was restarting) costs only time: every role
 * still polls as a fallback. A burst of wake-ups of one kind (and tenant) is coalesced: while one
 * is being published, later ones make a single publish after it, so a wake is never published
 * before the write that caused it was committed.
 */
import { BusClosedError, type EventBus } from '../../subscriptions/bus/event-bus';

export const WAKE_TOPIC = 'sluice:wake';

export type WakeKind = 'scheduler' | 'executor' | 'launcher' | 'intake';

export interface WakeHandlers {
  scheduler?: (tenant: string) => void;
  executor?: () => void;
  launcher?: () => void;
  intake?: () => void;
}

export class WakeSignals {
  /** Publishes under way per kind and tenant key; true when another was asked for meanwhile. */
  private readonly inFlight = new Map<string, boolean>();
  private closed = false;

  constructor(
    private readonly bus: EventBus,
    private readonly onError: (error: unknown, kind: WakeKind) => void = () => undefined,
  ) {}

  /** False with the in-process bus: every role then runs in this process and is woken directly. */
  get crossProcess(): boolean {
    return this.bus.kind !== 'in-process';
  }

  /** Wake the leading scheduler of `tenant` in another process. */
  scheduler(tenant: string): void {
    this.send('scheduler', tenant);
  }

  /** Wake idle executor workers in other processes. */
  executors(): void {
    this.send('executor', '');
  }

  /** Wake launchers in other processes. */
  launchers(): void {
    this.send('launcher', '');
  }

  /** Wake the drivers' intake of stored webhook deliveries in other processes. */
  intake(): void {
    this.send('intake', '');
  }

  /** Act on the wake-ups other processes send; returns the function that stops listening. */
  listen(handlers: WakeHandlers): () => void {
    return this.bus.subscribe(WAKE_TOPIC, (message) => {
      switch (message.kind) {
        case 'scheduler':
          if (typeof message.data === 'string') {
            handlers.scheduler?.(message.data);
          }
          return;
        case 'executor':
          handlers.executor?.();
          return;
        case 'launcher':
          handlers.launcher?.();
          return;
        case 'intake':
          handlers.intake?.();
          return;
        default:
          return; // a kind of a newer version: its poll covers it
      }
    });
  }

  /** Stop sending (the bus is about to close). */
  close(): void {
    this.closed = true;
  }

  private send(kind: WakeKind, tenant: string): void {
    if (this.closed || !this.crossProcess) {
      return;
    }
    const key = `${kind}\u0000${tenant}`;
    if (this.inFlight.has(key)) {
      this.inFlight.set(key, true);
      return;
    }
    this.inFlight.set(key, false);
    void this.publish(kind, tenant, key);
  }

  private async publish(kind: WakeKind, tenant: string, key: string): Promise<void> {
    for (;;) {
      try {
        await this.bus.publish(WAKE_TOPIC, { kind, data: kind === 'scheduler' ? tenant : null });
      } catch (error) {
        if (!(error instanceof BusClosedError)) {
          this.onError(error, kind);
        }
      }
      if (this.inFlight.get(key) !== true || this.closed) {
        this.inFlight.delete(key);
        return;
      }
      this.inFlight.set(key, false);
    }
  }
}
