/**
 * The component records of this process (docs/operations.md#lost-work): one per role it runs
 * (api, scheduler, executor, launcher), registered on start with what tells whether the process
 * is gone, refreshed together every heartbeat interval (registered again if a reclaimer removed
 * them meanwhile), and marked stopped on shutdown.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { SLUICE_VERSION } from '../model/version';
import { ComponentRepository, type ComponentKind } from '../store/repositories/components';
import type { Database } from '../store/database';
import { hostIdentity } from './host-identity';
import type { Logger } from './logger';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';

/** A component of this process: its kind and the id it is known by (an executor's worker id, ...). */
export interface ProcessComponent {
  kind: ComponentKind;
  id: string;
}

export class ComponentHeartbeat {
  private readonly components: ComponentRepository;
  private readonly members: ProcessComponent[];
  private readonly beating: PeriodicTask;

  constructor(
    database: Database,
    private readonly now: () => Date,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    /** The roles' components; the api component is added here when `api` is true. */
    roles: readonly ProcessComponent[] = [],
    api = true,
    /** Runs the heartbeat loop (src/engine/ports/periodic-task.ts); the system clock by default. */
    timers?: TimerClock,
  ) {
    this.components = new ComponentRepository(database.knex);
    this.members = [...(api ? [{ kind: 'api' as const, id: randomUUID() }] : []), ...roles];
    this.beating = new PeriodicTask({
      name: 'component heartbeat',
      intervalMs: intervalMs,
      tick: () => this.beat(),
      onError: (err) => this.logger.warn({ err }, 'component heartbeat failed'),
      clock: timers,
    });
  }

  /** Ids of this process's components. */
  ids(): string[] {
    return this.members.map((member) => member.id);
  }

  async start(): Promise<void> {
    await this.register();
    this.beating.start();
  }

  /** One heartbeat now (the timer calls it; tests with an injected clock too). */
  async beat(): Promise<void> {
    const ids = this.ids();
    if ((await this.components.heartbeat(ids, this.now())) < ids.length) {
      await this.register();
    }
  }

  /** Stops the periodic heartbeat (shutdown, before the background tasks stop); waits for a beat under way. */
  async stopBeating(): Promise<void> {
    await this.beating.stop();
  }

  /** Marks the records stopped; best effort, the database may already be gone. */
  async markStopped(): Promise<void> {
    await this.components.heartbeat(this.ids(), this.now(), 'stopped').catch(() => undefined);
  }

  private async register(): Promise<void> {
    const at = this.now();
    const { bootId, pidNamespace } = hostIdentity();
    for (const member of this.members) {
      await this.components.register(
        {
          id: member.id,
          kind: member.kind,
          hostname: os.hostname(),
          pid: process.pid,
          state: 'running',
          version: SLUICE_VERSION,
          started: at,
          heartbeat: at,
        },
        { bootId, pidNamespace },
      );
    }
  }
}
