/** An item's buildset: a new one, and its history row (created once, when it is first needed). */
import type { BuildsetState, ItemState } from '../../model/pipeline-state';
import { historyRefOf } from '../jobs/build-records';
import type { PassContext } from '../pass-context';
import type { ManagedPipeline } from './types';

export function newBuildset(ctx: PassContext): BuildsetState {
  return {
    uuid: ctx.uuid(),
    historyId: null,
    configured: false,
    mergeItems: [],
    mergeState: 'new',
    files: null,
    unableToMerge: false,
    mergeError: null,
    configError: null,
    notInPipeline: false,
    jobGraphFrozen: false,
    jobs: [],
    failFast: false,
    result: null,
    startTime: null,
  };
}

/** The history row of the item's buildset, created on first use; returns its id. */
export async function ensureHistoryBuildset(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
): Promise<number> {
  if (item.buildset.historyId !== null) {
    return item.buildset.historyId;
  }
  const buildset = item.buildset;
  const cycle = item.changes.length > 1;
  // The ref ids are known once the row is written, at the latest before the pass saves the item
  // (docs/gating.md#build-history); builds started before then take theirs from the writer.
  const id = await ctx.history.createBuildset(
    {
      uuid: buildset.uuid,
      tenant: ctx.tenant,
      pipeline: pipeline.name,
      eventId: item.eventId,
      eventTimestamp: item.eventTimestamp === null ? null : new Date(item.eventTimestamp),
      refs: item.changes.map((change) => historyRefOf(change, ctx.layout)),
      triggeredBy: item.triggeredBy,
      at: ctx.now,
    },
    (refIds) => {
      buildset.historyRefId = refIds[0] ?? null;
      if (cycle) {
        buildset.historyRefIds = refIds;
      }
    },
  );
  buildset.historyId = id;
  buildset.startTime = ctx.nowIso();
  return id;
}
