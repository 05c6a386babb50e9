/**
 * The dependent manager (docs/gating.md#managers, docs/gating.md#enqueue, docs/gating.md#queue-pass,
 * docs/gating.md#windows): projects share queues, items are tested on top of the items ahead within a window that grows
 * on success and shrinks on failure, an item waits for its Depends-On changes to be ahead of it, and the requirements
 * are checked once more before it merges.
 */
import { changeId, sameChange, type ChangeInfo } from '../../model/changes';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import { itemsAheadHolding } from '../item-predicates';
import { untracked } from '../scheduler/item-changes';
import type { PassContext } from '../pass-context';
import { hasRequirements, unmetRequirement } from '../requirements';
import { decreasedWindow, increasedWindow } from '../window';
import { addChange } from './enqueue';
import { sharedChangeQueue, wouldShareQueue } from './queues';
import { admitIntoSharedQueue } from './shared-queue';
import { NEEDS_MET, type ManagedPipeline, type ManagerStrategy, type NeededChanges } from './types';

/**
 * Open changes that depend (Depends-On) on a change just enqueued, in projects that would
 * share its queue, enter right behind it (docs/gating.md#enqueue step 13). Changes whose enqueue is already
 * in progress further up (they brought this one in) are skipped; a refusal of one of them does
 * not affect the change itself.
 */
const enqueueChangesBehind: ManagerStrategy['enqueueChangesBehind'] = async (
  pipeline,
  ctx,
  change,
  queue,
  options,
  history,
) => {
  if (change.kind !== 'change') {
    return;
  }
  const projects = [...pipeline.layout.projects.values()].filter((project) =>
    wouldShareQueue(queue, project, queue.branch ?? change.branch),
  );
  const children = await ctx.gateways.changes.changesDependingOn(
    change,
    projects.map((project) => project.canonicalName),
  );
  for (const child of children) {
    const project = pipeline.layout.projects.get(child.project);
    if (
      !project ||
      child.merged ||
      history.some((seen) => sameChange(seen, child)) ||
      !wouldShareQueue(queue, project, child.branch)
    ) {
      continue;
    }
    await addChange(pipeline, ctx, child, {
      live: true,
      quiet: options.quiet,
      eventId: options.eventId,
      eventTimestamp: options.eventTimestamp,
      enqueueTime: options.enqueueTime,
      ignoreRequirements: options.ignoreRequirements,
      history,
      forcedQueue: queue,
    });
  }
};

/**
 * A live item leaves when a Depends-On change is neither merged nor ahead; any item fails with a
 * failing one ahead. Only the items ahead holding a Depends-On change are looked at, the chain
 * walked only as far as they sit (`itemsAheadHolding`). Only reads: items are read through their
 * plain data (`untracked`).
 */
function neededChanges(
  _pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
): NeededChanges | Promise<NeededChanges> {
  const view = untracked(item);
  const dependencies = dependenciesOf(view);
  // Answered without a promise when there is nothing to look up: most items name no Depends-On.
  return dependencies.length === 0 ? NEEDS_MET : neededChangesAhead(ctx, queue, item, dependencies);
}

async function neededChangesAhead(
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  dependencies: readonly Dependency[],
): Promise<NeededChanges> {
  const view = untracked(item);
  const holders = itemsAheadHolding(queue, item, dependencies).map((tracked) => untracked(tracked));
  if (view.live) {
    const missing = await missingNeededChanges(ctx, holders, dependencies);
    if (missing.length > 0) {
      const urls = missing.map((change) => change.url ?? changeId(change));
      return {
        state: 'missing',
        message: missing.length === 1 ? `Change ${urls[0]} is needed.` : `Changes ${urls.join(', ')} are needed.`,
      };
    }
  }
  return holders.some((holder) => holder.failingReasons.length > 0) ? { state: 'failing' } : NEEDS_MET;
}

/** What the item's changes name in Depends-On, its own changes (a cycle's members) left out. */
function dependenciesOf(item: ItemState): Dependency[] {
  if (!item.changes.some((change) => change.kind === 'change' && change.dependsOn.length > 0)) {
    return [];
  }
  const own = (dependency: Dependency) =>
    item.changes.some((change) => change.project === dependency.project && change.number === dependency.number);
  return item.changes
    .filter((change) => change.kind === 'change')
    .flatMap((change) => change.dependsOn)
    .filter(
      (dependency, index, all) =>
        !own(dependency) && all.findIndex((other) => sameDependency(other, dependency)) === index,
    );
}

interface Dependency {
  project: string;
  number: number;
}

/** Whether a change (or another dependency) is the one a dependency names. */
function sameDependency(a: { project: string; number: number | null }, b: Dependency): boolean {
  return a.project === b.project && a.number === b.number;
}

/** Depends-On changes of an item that are neither merged nor held by an item ahead (`holders`). */
async function missingNeededChanges(
  ctx: PassContext,
  holders: readonly ItemState[],
  dependencies: readonly Dependency[],
): Promise<ChangeInfo[]> {
  const missing: ChangeInfo[] = [];
  for (const dependency of dependencies) {
    if (holders.some((holder) => holder.changes.some((candidate) => sameDependency(candidate, dependency)))) {
      continue;
    }
    const needed = await ctx.gateways.changes.getChange(dependency.project, dependency.number);
    if (needed && !needed.merged) {
      missing.push(needed);
    }
  }
  return missing;
}

/**
 * Re-check the pipeline's requirements against the current state of the item's changes
 * (Sluice's stand-in for the reference's per-pass "can merge" check of dependent pipelines,
 * done once before merging). Items enqueued with requirements ignored are not re-checked.
 */
async function recheckRequirements(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
): Promise<string | null> {
  if (item.requirementsIgnored) {
    return null;
  }
  for (const change of item.changes) {
    const connection = pipeline.layout.projects.get(change.project)?.connection;
    if (
      connection === undefined ||
      !hasRequirements(pipeline.config, connection) ||
      change.kind !== 'change' ||
      change.number === null
    ) {
      continue;
    }
    const current = await ctx.gateways.changes.getChange(change.project, change.number, change.patchset ?? undefined);
    if (!current) {
      return `Change ${changeId(change)} of ${change.project} no longer exists`;
    }
    const unmet = unmetRequirement(pipeline.config, connection, current, ctx.now);
    if (unmet !== null) {
      return unmet;
    }
  }
  return null;
}

export const dependentManager: ManagerStrategy = {
  changeQueue: (pipeline, change, project) =>
    sharedChangeQueue(pipeline, project, change.branch, pipeline.config.window.window, pipeline.config.window),
  admitDependency: admitIntoSharedQueue,
  enqueueChangesBehind,
  neededChanges,
  refusalBeforeMerge: recheckRequirements,
  windowAfterReport(queue, outcome) {
    if (outcome.succeeded) {
      return increasedWindow(queue.window, queue.params);
    }
    return outcome.jobsFailed ? decreasedWindow(queue.window, queue.params) : queue.window;
  },
  reconfigureQueue(queue, config) {
    queue.params = config.window;
    queue.window = queue.window === 0 ? 0 : Math.max(queue.window, config.window.floor);
  },
  promotable: true,
  promoteReordersItems: true,
};
