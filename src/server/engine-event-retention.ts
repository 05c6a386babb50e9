/**
 * The retention of processed engine events (docs/gating.md#what-is-kept-of-engine-events): every
 * `engine_events` row stays after its scheduler processed it, so without this the table only
 * grows. Each run deletes the events processed more than a day ago, 500 a statement, oldest
 * first, until none is left; any number of processes may run it at once (a row is deleted once).
 * Unprocessed events are never deleted, whatever their age.
 */
import type { Knex } from 'knex';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';
import { EngineEventRepository } from '../store/repositories/engine-events';
import type { Logger } from './logger';

/** How long a processed event is kept: its outcome stays readable for operations that wait on it. */
export const EVENT_RETENTION_MS = 24 * 60 * 60_000;
/** Between the end of one run and the start of the next. */
export const EVENT_RETENTION_INTERVAL_MS = 10 * 60_000;
const BATCH = 500;

export interface EngineEventRetentionOptions {
  knex: Knex;
  now: () => Date;
  logger: Pick<Logger, 'info' | 'warn'>;
  timers?: TimerClock;
}

export class EngineEventRetention {
  private readonly events: EngineEventRepository;
  private readonly task: PeriodicTask;

  constructor(private readonly options: EngineEventRetentionOptions) {
    this.events = new EngineEventRepository(options.knex);
    this.task = new PeriodicTask({
      name: 'engine event retention',
      intervalMs: EVENT_RETENTION_INTERVAL_MS,
      tick: () => this.runOnce(),
      onError: (err) => this.options.logger.warn({ err }, 'deleting old engine events failed'),
      clock: options.timers,
      // A run stops after the statement under way.
      stopWaitMs: null,
    });
  }

  /** Run soon (a restarted service deletes what aged meanwhile), then every interval after the previous run. */
  start(): void {
    this.task.start(0);
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  /** Delete every event processed more than the retention ago (until stopped); resolves with how many. */
  async runOnce(): Promise<number> {
    const before = new Date(this.options.now().getTime() - EVENT_RETENTION_MS);
    let total = 0;
    while (!this.task.stopRequested) {
      const deleted = await this.events.pruneProcessed(before, BATCH);
      total += deleted;
      if (deleted < BATCH) {
        break;
      }
    }
    if (total > 0) {
      this.options.logger.info({ events: total, processedBefore: before.toISOString() }, 'old engine events deleted');
    }
    return total;
  }
}
