/**
 * A retention of rows that only grow otherwise (src/server/engine-event-retention.ts,
 * src/server/dequeued-item-retention.ts): each run deletes the rows older than the retention,
 * 500 a statement, oldest first, until none is left; any number of processes may run it at once
 * (each statement skips the rows another is deleting). The first run comes soon after `start()`
 * (a restarted service deletes what aged meanwhile), then one every interval after the previous.
 */
import type { Knex } from 'knex';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';
import type { Logger } from './logger';

const BATCH = 500;

export interface RowRetentionOptions {
  knex: Knex;
  now: () => Date;
  logger: Pick<Logger, 'info' | 'warn'>;
  timers?: TimerClock;
}

/** What one retention deletes, and how often. */
export interface RowRetentionSpec {
  /** The task's name; its log lines say `old <rows> deleted`. */
  name: string;
  rows: string;
  retentionMs: number;
  intervalMs: number;
  /** Delete up to `limit` rows older than `before`, oldest first; resolves with how many. */
  prune: (before: Date, limit: number) => Promise<number>;
}

export class RowRetention {
  private readonly task: PeriodicTask;

  constructor(
    private readonly options: RowRetentionOptions,
    private readonly spec: RowRetentionSpec,
  ) {
    this.task = new PeriodicTask({
      name: spec.name,
      intervalMs: spec.intervalMs,
      tick: () => this.runOnce(),
      onError: (err) => this.options.logger.warn({ err }, `deleting old ${spec.rows} failed`),
      clock: options.timers,
      // A run stops after the statement under way.
      stopWaitMs: null,
    });
  }

  /** Run soon, then every interval after the previous run. */
  start(): void {
    this.task.start(0);
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  /** Delete every row older than the retention (until stopped); resolves with how many. */
  async runOnce(): Promise<number> {
    const before = new Date(this.options.now().getTime() - this.spec.retentionMs);
    let total = 0;
    while (!this.task.stopRequested) {
      const deleted = await this.spec.prune(before, BATCH);
      total += deleted;
      if (deleted < BATCH) {
        break;
      }
    }
    if (total > 0) {
      this.options.logger.info({ rows: total, before: before.toISOString() }, `old ${this.spec.rows} deleted`);
    }
    return total;
  }
}
