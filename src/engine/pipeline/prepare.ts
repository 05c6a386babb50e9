/**
 * Preparing an item inside the window (docs/gating.md#preparing-an-item): its speculative state (the items
 * ahead and the item merged in order), then its frozen job graph.
 */
import type { MergeItem } from '../../model/changes';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import { proposalAhead, type ConfigDigest, type ConfigLocations } from '../../model/proposed-config';
import type { EngineLayout } from '../ports/layout';
import { itemsAhead } from '../item-predicates';
import type { PassContext } from '../pass-context';
import { ensureHistoryBuildset } from './buildsets';
import { freezeItemJobs } from './item-jobs';
import { mergeItemOf } from './merging';
import type { ManagedPipeline } from './types';

/**
 * Speculative merge and job graph of an item; `ready` once it has jobs to run. `find` is
 * `findItem` over the queue, kept by the walk of the queue (src/engine/pipeline/queue-pass.ts) so
 * that looking up the item ahead does not scan the queue for every item prepared.
 */
export async function prepareItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  find: (uuid: string | null) => ItemState | null,
): Promise<{ ready: boolean; changed: boolean }> {
  const { layout } = pipeline;
  const buildset = item.buildset;
  let changed = false;
  if (!buildset.configured) {
    const chain = itemsAhead(queue, item).reverse();
    buildset.mergeItems = [
      ...chain.flatMap((ahead) => ahead.changes.map((change) => mergeItemOf(layout, change, ahead.buildset.uuid))),
      ...item.changes.map((change) => mergeItemOf(layout, change, buildset.uuid)),
    ];
    buildset.configured = true;
    changed = true;
  }
  const ahead = find(item.itemAhead);
  if (ahead && ahead.buildset.configError !== null && buildset.configError === null) {
    buildset.configError = 'This change depends on a change with an invalid configuration.';
    return { ready: false, changed: true };
  }
  if (buildset.mergeState === 'new') {
    const change = item.changes[0];
    if (change.kind === 'change') {
      // Merged by the work runner after the commit; its outcome comes back as `merge-completed`
      // (docs/gating.md#engine-work).
      if (!buildset.mergeRequested) {
        buildset.mergeRequested = true;
        ctx.requestWork({
          kind: 'speculative-merge',
          payload: {
            pipeline: pipeline.name,
            buildsetUuid: buildset.uuid,
            items: buildset.mergeItems,
            ...configLocationsOf(layout, buildset.mergeItems),
          },
        });
        changed = true;
      }
      return { ready: false, changed };
    }
    if (change.kind === 'tag') {
      // The branches containing the tagged commit, looked up by the work runner after the commit
      // (docs/project-configuration.md#jobs); they come back as `merge-completed` (mode `tag`).
      if (!buildset.mergeRequested) {
        buildset.mergeRequested = true;
        ctx.requestWork({
          kind: 'tag-branches',
          payload: { pipeline: pipeline.name, buildsetUuid: buildset.uuid, item: buildset.mergeItems.at(-1) },
        });
        changed = true;
      }
      return { ready: false, changed };
    }
    buildset.mergeState = 'complete';
    changed = true;
  }
  if (buildset.unableToMerge || buildset.configError !== null) {
    return { ready: false, changed };
  }
  if (!item.live) {
    return { ready: false, changed };
  }
  if (!buildset.jobGraphFrozen) {
    if ((buildset.proposedConfig?.length ?? 0) > 0 && ahead && ahead.buildset.mergeState === 'new') {
      // As in the reference, the layout of the item ahead is waited for: match-on-config-updates
      // compares with it (docs/gating.md#speculative-layouts).
      return { ready: false, changed };
    }
    await freezeJobGraph(pipeline, ctx, item, ahead?.buildset.proposedDigests ?? []);
    changed = true;
  }
  return { ready: buildset.jobs.length > 0, changed };
}

/**
 * Where the configuration of the merged projects is read, so the merge returns what the item
 * proposes (docs/gating.md#speculative-layouts); nothing without speculative layouts.
 */
function configLocationsOf(layout: EngineLayout, items: readonly MergeItem[]): { configLocations?: ConfigLocations } {
  if (layout.configLocation === undefined) {
    return {};
  }
  const locations: ConfigLocations = {};
  for (const item of items) {
    const location = layout.configLocation(item.project);
    if (location !== null) {
      locations[item.project] = location;
    }
  }
  return { configLocations: locations };
}

/** Freeze the item's job graph: its jobs, or why it has none (not in the pipeline, a configuration error). */
async function freezeJobGraph(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
  aheadDigests: readonly ConfigDigest[],
): Promise<void> {
  const buildset = item.buildset;
  // An item whose merged state proposes configuration is frozen with its speculative layout.
  const proposed = buildset.proposedConfig ?? [];
  const speculative =
    proposed.length > 0 ? pipeline.layout.speculative?.(proposed, proposalAhead(proposed, aheadDigests)) : undefined;
  buildset.proposedConfig = null;
  if (speculative !== undefined) {
    buildset.speculativeLayout = true;
    // As in the reference, the first warning is added to the item's reports.
    buildset.configWarning = speculative.warnings[0] ?? null;
  }
  if (speculative !== undefined && speculative.errors.length > 0) {
    buildset.jobGraphFrozen = true;
    buildset.configError = speculative.errors.join('\n\n');
    return;
  }
  const frozen = freezeItemJobs(
    pipeline.layout,
    speculative ?? pipeline.layout,
    pipeline.name,
    item,
    buildset.files ?? undefined,
  );
  buildset.jobGraphFrozen = true;
  if (frozen.status === 'not-in-pipeline') {
    buildset.notInPipeline = true;
  } else if (frozen.status === 'error') {
    buildset.configError = `Unable to freeze job graph: ${frozen.message}`;
  } else {
    buildset.failFast = frozen.failFast;
    buildset.jobs = frozen.jobs.map(({ job, change, otherChanges }) => ({
      job,
      // Kept with the job in the frozen graph; the MQTT reporter's job_uuid (docs/reporters.md#message).
      uuid: ctx.uuid(),
      tries: 0,
      build: null,
      retryBuilds: [],
      waitReason: null,
      waitingStatus: null,
      nodeRequestId: null,
      nodesReady: false,
      nodes: [],
      semaphoresHeld: [],
      artifacts: [],
      // Only items of a cycle say which change a job runs for.
      ...(change > 0 ? { change } : {}),
      ...(otherChanges.length > 0 ? { otherChanges } : {}),
    }));
    if (buildset.jobs.length > 0) {
      await ensureHistoryBuildset(pipeline, ctx, item);
    }
  }
}
