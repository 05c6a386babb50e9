/**
 * The reporter port: what the engine tells code-review systems about an item (commit status,
 * check run, comment, labels, review) in each reporter phase (docs/github.md#reporters). Called
 * after the pass commits (or inside it, before a merge); the driver retries transient failures,
 * the engine never does.
 */
import type { Knex } from 'knex';
import type { ChangeInfo } from '../../model/changes';
import type { ReporterPhase } from './layout';

export interface ItemReport {
  tenant: string;
  pipeline: string;
  phase: ReporterPhase;
  /** The item's changes (the change itself last). */
  change: ChangeInfo;
  buildsetUuid: string;
  /** The report text (docs/gating.md#reporting); empty for enqueue and start. */
  message: string;
  /** The buildset result once reported (SUCCESS, FAILURE, MERGE_FAILURE, ...), else null. */
  result: string | null;
  jobs: Array<{ name: string; result: string | null; voting: boolean }>;
  reporters: Array<{ connection: string; driver: string; options: Record<string, unknown> }>;
}

export interface ChangeReporter {
  /**
   * `trx`: the pass's transaction when the report is made inside the pass (before a merge); the
   * reporter's own database reads and writes then go through it (PGlite has one connection).
   */
  report(report: ItemReport, trx?: Knex.Transaction): Promise<void>;
}
