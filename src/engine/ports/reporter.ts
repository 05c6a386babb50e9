/**
 * The reporter port: what the engine tells code-review systems about an item (commit status,
 * check run, comment, labels, review) in each reporter phase (docs/github.md#reporters). Called by
 * the tenant's work runner with no transaction open (docs/gating.md#engine-work); the driver
 * retries transient failures, the engine does not.
 */
import type { ChangeInfo } from '../../model/changes';
import type { ReporterPhase } from './layout';

/** A build of a job as the notification reporters publish it. */
export interface ReportBuild {
  uuid: string;
  startTime: string | null;
  endTime: string | null;
  executeTime: string;
  logUrl: string | null;
  /** Its result (null while it runs); a retried build's is `RETRY`. */
  result?: string | null;
  /** What the build returned (`zuul_return`). */
  data: Record<string, unknown>;
  artifacts: Array<{ name: string; url: string; metadata: Record<string, unknown> | null }>;
  /** When it paused and was resumed (absent in reports stored before they were kept). */
  events?: Array<{ eventType: string; eventTime: string; description: string | null }>;
}

export interface ItemReport {
  tenant: string;
  pipeline: string;
  phase: ReporterPhase;
  /** The item's changes (the change itself last). */
  change: ChangeInfo;
  /**
   * The other changes of a dependency cycle's item: each is reported the same, as in the
   * reference (docs/gating.md#dependency-cycles).
   */
  otherChanges?: ChangeInfo[];
  buildsetUuid: string;
  /** The item's queue as the reference names it: `""` for a queue of its own (independent, supercedent). */
  queue?: string;
  /** The report text (docs/gating.md#reporting); empty for enqueue and start. */
  message: string;
  /** The buildset result once reported (SUCCESS, FAILURE, MERGE_FAILURE, ...), else null. */
  result: string | null;
  jobs: Array<{
    name: string;
    result: string | null;
    voting: boolean;
    /**
     * The job's uuid in the buildset's job graph (docs/reporters.md#message): derived from the
     * buildset, the job and its change, the same in every report of the buildset (absent in
     * reports stored before it was added).
     */
    uuid?: string;
    /** Index into `[...otherChanges, change]` of the change the job runs for (absent: 0). */
    change?: number;
    /** The job's current build, once it has one (the notification reporters, docs/reporters.md). */
    build?: ReportBuild | null;
    /** Its earlier builds that were retried, oldest first. */
    retryBuilds?: ReportBuild[];
    /** The jobs of the graph it depends on (a soft dependency not in the graph is left out). */
    dependencies?: string[];
    /** The same jobs' uuids by name. */
    dependencyUuids?: Record<string, string>;
  }>;
  /** The item (its uuid, when it was enqueued, and its triggering event's time and id). */
  item?: { uuid: string; enqueueTime: string; eventTimestamp: string | null; eventId: string | null };
  /** The pipeline's start message, `{pipeline.name}` filled in (the start report's `message` is empty). */
  startMessage?: string;
  reporters: Array<{ connection: string; driver: string; options: Record<string, unknown> }>;
}

/**
 * Sends a report to its reporters. A reporter whose send still fails after its driver's retries
 * does not keep the others from sending; `report` then rejects (`ReportNotSent`), and the work
 * runner records the failure (docs/gating.md#engine-work). It never fails the item.
 */
export interface ChangeReporter {
  report(report: ItemReport): Promise<void>;
}

/** A report that some reporters could not send: what each failure was, in the order they came. */
export class ReportNotSent extends Error {
  constructor(readonly failures: readonly string[]) {
    super(failures.join('; '));
    this.name = 'ReportNotSent';
  }
}

/** The text of a failure, for `ReportNotSent`: `<what>: <error's message>`. */
export function sendFailure(what: string, error: unknown): string {
  return `${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Rejects with the failures collected while sending to every reporter, if any. */
export function throwIfNotSent(failures: readonly string[]): void {
  if (failures.length > 0) {
    throw new ReportNotSent(failures);
  }
}
