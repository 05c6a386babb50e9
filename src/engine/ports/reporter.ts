/**
 * The reporter port: what the engine tells code-review systems about an item (commit status,
 * check run, comment, labels, review) in each reporter phase (docs/github.md#reporters). Called by
 * the tenant's work runner with no transaction open (docs/gating.md#engine-work); the driver
 * retries transient failures, the engine does not.
 */
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
  report(report: ItemReport): Promise<void>;
}
