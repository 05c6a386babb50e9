/**
 * The engine events that bring the outcome of a work runner's row back to the next pass
 * (docs/gating.md#engine-work), and the texts the rows' outcomes are recorded with.
 */
import { changeId } from '../../model/changes';
import type { EngineEvent, ReportFailure } from '../../model/engine-events';
import type { EngineWorkRecord } from '../../store/repositories/engine-work';
import type { ItemReport } from '../ports/reporter';
import type { BranchMergeProgress, BranchMergeWork } from './payloads';

/** The event that brings a branch merge's outcome back: merged when there is no error. */
export function branchMergeCompleted(
  row: EngineWorkRecord,
  work: BranchMergeWork,
  error: string | null,
  changes: BranchMergeProgress['merged'],
  extra: { skipped?: true; reportFailure?: ReportFailure } = {},
): EngineEvent {
  return {
    type: 'merge-completed',
    work: row.id,
    mode: 'branch',
    pipeline: work.pipeline,
    buildsetUuid: work.buildsetUuid,
    merged: error === null,
    error,
    files: null,
    repoState: null,
    changes,
    ...(extra.skipped ? { skipped: true } : {}),
    ...(extra.reportFailure ? { reportFailure: extra.reportFailure } : {}),
  };
}

/** What a report that failed was of, for the `report-failed` system event the next pass records. */
export function reportFailure(report: ItemReport, error: string): ReportFailure {
  return {
    pipeline: report.pipeline,
    phase: report.phase,
    project: report.change.project,
    change: changeId(report.change),
    error,
  };
}

/** The outcome of a merge not made because the one it was to follow was not. */
export function skippedMerge(row: EngineWorkRecord, work: BranchMergeWork): { event: EngineEvent; outcome: string } {
  const error = 'the change ahead of it was not merged';
  return { event: branchMergeCompleted(row, work, error, [], { skipped: true }), outcome: `skipped: ${error}` };
}

/** Which changes of a cycle were merged before one was refused: none, or the list. */
export function mergedSoFar(items: BranchMergeWork['items'], merged: BranchMergeProgress['merged']): string {
  if (merged.length === 0) {
    return 'none of the changes was merged';
  }
  const names = merged.map((done) => `${done.change} of ${done.project}`);
  const left = items.length - merged.length;
  return `merged before the refusal: ${names.join(', ')}; ${left} not merged`;
}
