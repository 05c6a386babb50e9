/**
 * What a trigger event tells the pipelines about a change already in them (docs/gating.md#leaving-a-pipeline):
 * an abandoned (closed) change leaves, and an item whose change no longer meets the pipeline's
 * requirements (an approval taken back, a vote changed) is reported and leaves, as the
 * reference re-checks requirements on every pass with the change as its events left it.
 */
import { changeId, type ChangeInfo } from '../../model/changes';
import type { ItemState } from '../../model/pipeline-state';
import { isMergingIntoBranch } from '../item-predicates';
import type { PassContext } from '../pass-context';
import { hasRequirements, unmetRequirement } from '../requirements';
import { holdingNumber, removeItem } from './leaving';
import { dequeueMissingRequirements } from './queue-pass';
import type { ManagedPipeline } from './types';

/** Whether the item holds the change (any patchset of it). */
function holdsChange(item: ItemState, change: ChangeInfo): boolean {
  return item.changes.some(
    (candidate) =>
      candidate.kind === 'change' && candidate.project === change.project && candidate.number === change.number,
  );
}

/**
 * Take live items holding an abandoned change out (their jobs canceled); items that needed it
 * leave on the next queue pass, which finds their dependency missing.
 */
export async function removeAbandonedChange(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
): Promise<void> {
  if (change.kind !== 'change') {
    return;
  }
  for (const { queue, item } of holdingNumber(pipeline, change)) {
    if (item.live && item.dequeueTime === null && holdsChange(item, change)) {
      await removeItem(pipeline, ctx, queue, item, {
        kind: 'change-abandoned',
        message: `Change ${changeId(change)} of ${change.project} was abandoned`,
      });
    }
  }
}

/**
 * Live items holding this patchset of the change, when the change (as just read for an event)
 * no longer meets the pipeline's requirements: reported (the dequeue reason says why) and taken out.
 */
export async function dequeueUnmetRequirements(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
): Promise<void> {
  const connection = pipeline.layout.projects.get(change.project)?.connection;
  // A merged change is leaving on its own (its merge reported or under way).
  if (
    change.kind !== 'change' ||
    change.merged ||
    connection === undefined ||
    !hasRequirements(pipeline.config, connection)
  ) {
    return;
  }
  const unmet = unmetRequirement(pipeline.config, connection, change, ctx.now);
  if (unmet === null) {
    return;
  }
  for (const { queue, item } of holdingNumber(pipeline, change)) {
    const holds = item.changes.some(
      (candidate) =>
        candidate.project === change.project &&
        candidate.number === change.number &&
        candidate.patchset === change.patchset,
    );
    if (item.live && item.dequeueTime === null && !item.requirementsIgnored && !isMergingIntoBranch(item) && holds) {
      await dequeueMissingRequirements(pipeline, ctx, queue, item, unmet);
    }
  }
}
