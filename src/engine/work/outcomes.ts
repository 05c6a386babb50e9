/**
 * The outcomes of engine work as the next pass applies them (docs/gating.md#engine-work): a
 * speculative merge (or a tag's branch look-up) completes its buildset's merge state; a branch
 * merge lets its item report.
 * An outcome whose buildset is no longer current (the item left or was reset) is `stale`.
 */
import type { EngineEvent, MergeCompletedEvent, ReportCompletedEvent, ReportFailure } from '../../model/engine-events';
import { configDigestOf } from '../../model/proposed-config';
import type { PassContext } from '../pass-context';
import type { ItemState } from '../../model/pipeline-state';
import type { PipelineManager } from '../pipeline/manager';
import { untracked } from '../scheduler/item-changes';
import { pipelinesListen } from '../triggers';

export type WorkOutcomeEvent = MergeCompletedEvent | ReportCompletedEvent;

/** The event types of engine work outcomes (result events, taken also while results are paused). */
export const WORK_OUTCOME_TYPES: readonly string[] = ['merge-completed', 'report-completed'];

export function isWorkOutcome(event: EngineEvent): event is WorkOutcomeEvent {
  return WORK_OUTCOME_TYPES.includes(event.type);
}

/**
 * The item of the pipeline holding the buildset, still queued: looked for in the plain data
 * (`untracked`), queue by queue, as far as it sits. A busy gate's pass takes an outcome or two for
 * each item it moves, nearly all of items at the head of their queue, so listing every item of
 * the pipeline for each (`allItems`) made the pass's cost grow with the queue
 * (docs/gating.md#performance). The item found is the queue's own.
 */
function currentItemOf(manager: PipelineManager | undefined, buildsetUuid: string): ItemState | null {
  for (const queue of manager?.state.queues ?? []) {
    for (const item of queue.items) {
      const view = untracked(item);
      if (view.buildset.uuid === buildsetUuid && view.dequeueTime === null) {
        return item;
      }
    }
  }
  return null;
}

/**
 * A report that failed after its driver's retries, as a `report-failed` system event (shown by
 * `T/system-events` and GraphQL `systemEvents`), whether or not its item is still queued.
 */
async function recordReportFailure(ctx: PassContext, buildsetUuid: string, failure: ReportFailure): Promise<void> {
  await ctx.systemEvent({
    eventType: 'report-failed',
    description: `Report of ${failure.project} ${failure.change} in pipeline ${failure.pipeline} (${failure.phase}) failed: ${failure.error}`,
    data: { ...failure, buildsetUuid },
  });
}

export async function handleWorkOutcome(
  ctx: PassContext,
  managers: ReadonlyMap<string, PipelineManager>,
  event: WorkOutcomeEvent,
): Promise<string> {
  if (event.type === 'report-completed') {
    if (event.failure) {
      await recordReportFailure(ctx, event.buildsetUuid, event.failure);
    }
    return event.error === null ? 'ok' : `report failed: ${event.error}`;
  }
  if (event.mode === 'branch' && event.reportFailure) {
    await recordReportFailure(ctx, event.buildsetUuid, event.reportFailure);
  }
  const item = currentItemOf(managers.get(event.pipeline), event.buildsetUuid);
  if (!item) {
    return 'stale';
  }
  const buildset = item.buildset;
  if (event.mode === 'speculative' || event.mode === 'tag') {
    if (buildset.mergeState !== 'new') {
      return 'stale';
    }
    if (!event.merged) {
      // A tag's failed look-up too, as the reference's failed repository-state request.
      buildset.unableToMerge = true;
      buildset.mergeError = event.error;
    } else if (event.mode === 'tag') {
      buildset.containingBranches = event.containingBranches ?? [];
    } else {
      buildset.files = event.files ?? [];
      buildset.repoState = event.repoState;
      buildset.proposedConfig = event.config ?? null;
      buildset.proposedDigests = event.config?.map(configDigestOf) ?? null;
    }
    buildset.mergeState = 'complete';
    buildset.mergeRequested = false;
    return 'ok';
  }
  const merge = buildset.branchMerge;
  if (!merge || merge.done) {
    return 'stale';
  }
  merge.done = true;
  merge.error = event.error;
  if (event.skipped === true) {
    merge.skipped = true;
  }
  // The branch update itself is announced once as `ref-updated` by the git connection.
  if (pipelinesListen(ctx.layout, 'project-change-merged')) {
    for (const change of event.changes ?? []) {
      await ctx.emit({ type: 'project-change-merged', project: change.project, mergedChange: change.change });
    }
  }
  return 'ok';
}
