/**
 * The intake of stored webhook deliveries (docs/github.md#webhooks, docs/gitlab.md#webhooks):
 * a driver's deliveries become trigger events one at a time, in the order they were stored,
 * exactly once. The delivery's row is locked, `processOne` writes its trigger events and the row
 * is marked processed in one transaction, so neither a second scheduler process nor a crash can
 * make its events twice. A failing round (the code-review system's API is down) rolls back and
 * the delivery waits for the next one.
 */
import type { Knex } from 'knex';
import { ConnectionEventRepository, type ConnectionEventRow } from '../store/repositories/connection-events';
import type { DriverLog } from './driver';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';

/** Milliseconds between looks for stored deliveries when nothing wakes the intake. */
const PROCESS_INTERVAL_MS = 2000;

export interface ConnectionEventIntake {
  wake(): void;
  start(): void;
  stop(): Promise<void>;
  /** Resolves when no stored delivery of its connections waits (tests, shutdown). */
  idle(): Promise<void>;
}

export function connectionEventIntake<P = undefined>(options: {
  knex: Knex;
  /** The driver's connections: only their deliveries are taken. */
  connections: readonly string[];
  /**
   * Write the delivery's trigger events through `trx`, adding the tenants to wake to `woken`;
   * resolve with the outcome stored with the delivery.
   */
  processOne(row: ConnectionEventRow, trx: Knex, woken: Set<string>, prepared?: P): Promise<string>;
  /**
   * Look-ups the delivery needs that are no database work (the code-review system's API), done
   * before its transaction so that no row stays locked while they wait; given to `processOne`.
   */
  prepare?(row: ConnectionEventRow): Promise<P>;
  wake(tenant: string): void;
  now(): Date;
  logger: DriverLog;
  /** A row is taken only once it is this old (Gerrit's `event_delay`); 0 by default. */
  delayMs?: number;
  /** Milliseconds between looks when nothing wakes the intake. */
  intervalMs?: number;
  /** Runs the loop (src/engine/ports/periodic-task.ts); the system clock by default. */
  timers?: TimerClock;
}): ConnectionEventIntake {
  const delayMs = options.delayMs ?? 0;
  const events = new ConnectionEventRepository(options.knex);
  let stopped = false;

  /** Process the oldest waiting delivery; false when none waits. */
  const processNext = async (): Promise<boolean> => {
    const woken = new Set<string>();
    const of = () => ({
      connections: options.connections,
      receivedBefore: delayMs > 0 ? new Date(options.now().getTime() - delayMs) : undefined,
    });
    const peeked = options.prepare ? await events.oldestPending(of()) : null;
    const prepared = peeked !== null && options.prepare ? await options.prepare(peeked) : undefined;
    const found = await options.knex.transaction(async (trx) => {
      const row = await events.lockOldestPending(trx, of());
      if (row === null) {
        return false;
      }
      if (options.prepare && row.id !== peeked?.id) {
        // Another process took the one prepared for: prepare for this one first.
        return true;
      }
      const outcome = await options.processOne(row, trx, woken, prepared);
      await events.markProcessed(row.id, outcome, options.now(), trx);
      return true;
    });
    woken.forEach((tenant) => options.wake(tenant));
    return found;
  };

  /** Every waiting delivery, one per transaction; a failing one waits for the next run. */
  const drain = async (): Promise<void> => {
    try {
      while (!stopped && (await processNext())) {
        // one delivery per transaction
      }
    } catch (err) {
      options.logger.warn({ err }, 'webhook delivery not processed yet');
    }
  };

  // A wake during a run gives one more run right after it.
  const task = new PeriodicTask({
    name: 'webhook intake',
    intervalMs: options.intervalMs ?? PROCESS_INTERVAL_MS,
    tick: drain,
    onError: (err) => options.logger.error({ err }, 'webhook processing failed'),
    clock: options.timers,
    // The delivery under way commits or rolls back before the database closes.
    stopWaitMs: null,
  });

  return {
    wake: () => task.wake(),
    start: () => {
      if (options.connections.length === 0) {
        return;
      }
      task.start();
      task.wake();
    },
    stop: async () => {
      stopped = true;
      await task.stop();
    },
    idle: async () => {
      for (let round = 0; ; round++) {
        await task.idle();
        if (!(await events.anyPending(options.connections))) {
          return;
        }
        if (round > 0) {
          // A delayed row is pending but not yet due: look again shortly.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        task.wake();
      }
    },
  };
}
