/**
 * The vacuum of the embedded store (docs/configuration.md#vacuum-of-the-embedded-store). PGlite
 * runs PostgreSQL in single-user mode, where the autovacuum launcher does not run: without this
 * task no table of an embedded store is ever vacuumed or analyzed. Dead row versions of every
 * update then stay in tables and indexes, the planner keeps the statistics of an empty database,
 * and transaction ids age towards the limit at which PostgreSQL refuses to write. Each run treats
 * the tables autovacuum would (src/store/table-care.ts) one statement at a time, so the store's
 * one session serves other queries between tables.
 */
import type { Knex } from 'knex';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';
import { careFor, tablesNeedingCare, type CareThresholds, type TableCare } from '../store/table-care';
import type { Logger } from './logger';

/** Between the end of one run and the start of the next. */
export const EMBEDDED_VACUUM_INTERVAL_MS = 60_000;

export interface EmbeddedVacuumOptions {
  knex: Knex;
  logger: Pick<Logger, 'info' | 'debug' | 'warn'>;
  intervalMs?: number;
  thresholds?: CareThresholds;
  timers?: TimerClock;
}

/** The periodic vacuum of one embedded store: `start()` once it is migrated, `stop()` before it closes. */
export class EmbeddedVacuum {
  private readonly task: PeriodicTask;

  constructor(private readonly options: EmbeddedVacuumOptions) {
    this.task = new PeriodicTask({
      name: 'embedded vacuum',
      intervalMs: options.intervalMs ?? EMBEDDED_VACUUM_INTERVAL_MS,
      tick: () => this.runOnce(),
      onError: (err) => this.options.logger.warn({ err }, 'vacuum of the embedded store failed'),
      clock: options.timers,
      // A run stops after the statement under way: the store closes after it, not in the middle of it.
      stopWaitMs: null,
    });
  }

  start(): void {
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  /** Treat every table that needs it now (until stopped); resolves with what was done. */
  async runOnce(): Promise<TableCare[]> {
    const { knex, logger } = this.options;
    const cares = await tablesNeedingCare(knex, this.options.thresholds);
    const done: TableCare[] = [];
    for (const care of cares) {
      if (this.task.stopRequested) {
        break;
      }
      const started = Date.now();
      await careFor(knex, care);
      const fields = { table: `${care.schema}.${care.table}`, reason: care.reason, ms: Date.now() - started };
      if (care.kind === 'freeze') {
        logger.info(fields, 'embedded store: table frozen');
      } else {
        logger.debug(fields, `embedded store: ${care.kind} done`);
      }
      done.push(care);
    }
    return done;
  }
}
