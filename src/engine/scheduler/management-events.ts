/**
 * Management events: admin enqueue, dequeue and promote (their system events name who asked),
 * a pipeline's `supercedes`, and reconfiguration requests (the pass itself reconciles layouts).
 */
import { changeId, ZERO_REVISION, type ChangeInfo } from '../../model/changes';
import type {
  DequeueEvent,
  EnqueueEvent,
  ManagementEvent,
  PromoteEvent,
  SupercedeEvent,
} from '../../model/engine-events';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import type { PipelineManager } from '../pipeline/manager';
import { resolveChange, resolveProject } from './change-lookup';

export async function handleManagement(
  ctx: PassContext,
  managers: ReadonlyMap<string, PipelineManager>,
  event: ManagementEvent,
): Promise<string> {
  if (event.type === 'reconfigure') {
    return 'ok';
  }
  const manager = managers.get(event.pipeline);
  if (!manager) {
    return 'error: unknown pipeline';
  }
  switch (event.type) {
    case 'enqueue':
      return enqueue(ctx, manager, event);
    case 'dequeue':
      return dequeue(ctx, manager, event);
    case 'promote':
      return promote(ctx, manager, event);
    case 'supercede':
      return supercede(ctx, manager, event);
  }
}

/** ` by <who>` when known. */
function byText(by: string | null): string {
  return by ? ` by ${by}` : '';
}

async function enqueue(ctx: PassContext, manager: PipelineManager, event: EnqueueEvent): Promise<string> {
  const project = resolveProject(ctx.layout, event.project);
  if (!project) {
    return 'error: unknown project';
  }
  // A ref enqueued without a new revision (the reference's client sends the zero revision) is
  // tested at the ref's current commit, and the item records that commit
  // (docs/rest.md#enqueue-dequeue-and-promote).
  const tip = event.ref !== undefined && (event.newrev === undefined || event.newrev === ZERO_REVISION);
  const change = await resolveChange(ctx.gateways.changes, project, tip ? { ...event, newrev: null } : event);
  if (!change) {
    return 'error: unknown change';
  }
  const result = await manager.addChange(ctx, change, {
    live: true,
    quiet: false,
    eventId: event.eventId ?? null,
    eventTimestamp: ctx.nowIso(),
    ignoreRequirements: true,
  });
  if (!result.enqueued) {
    return `error: ${result.reason}`;
  }
  await ctx.systemEvent({
    eventType: 'enqueued',
    description: `${changeId(change)} of ${change.project} enqueued into ${manager.name}${byText(event.by)}`,
    data: { pipeline: manager.name, project: change.project, change: changeId(change), by: event.by },
  });
  return 'ok';
}

async function dequeue(ctx: PassContext, manager: PipelineManager, event: DequeueEvent): Promise<string> {
  const project = resolveProject(ctx.layout, event.project);
  const found = manager
    .allItems()
    .find(
      ({ item }) =>
        item.live && item.changes.some((change) => change.project === project && matchesChangeSpec(change, event)),
    );
  if (!found) {
    return 'error: change not in pipeline';
  }
  if (!(await manager.removeItem(ctx, found.queue, found.item, { kind: 'dequeued-by-admin', by: event.by }))) {
    // Its merge into its branch is out and cannot be called back (docs/gating.md#items-being-merged).
    return 'error: change is being merged';
  }
  await ctx.systemEvent({
    eventType: 'dequeued',
    description: `${found.item.changes.map(changeId).join(' ')} of ${project ?? ''} dequeued from ${manager.name}${byText(event.by)}`,
    data: { pipeline: manager.name, project, by: event.by },
  });
  return 'ok';
}

async function promote(ctx: PassContext, manager: PipelineManager, event: PromoteEvent): Promise<string> {
  const ids = event.changes;
  const entries: Array<{ queue: QueueState; item: ItemState }> = [];
  for (const id of ids) {
    const found = manager
      .allItems()
      .find(({ item }) => item.live && item.changes.some((change) => changeId(change) === id));
    if (!found) {
      return `error: change ${id} not in pipeline`;
    }
    entries.push(found);
  }
  const restarted = await manager.promote(ctx, entries);
  await ctx.systemEvent({
    eventType: 'promoted',
    description: `${ids.join(' ')} promoted in ${manager.name}${byText(event.by)}`,
    data: { pipeline: manager.name, changes: ids, by: event.by, restarted },
  });
  return `ok: ${restarted} restarted`;
}

/** A change entered a pipeline whose `supercedes` names this one: its live item here leaves. */
async function supercede(ctx: PassContext, manager: PipelineManager, event: SupercedeEvent): Promise<string> {
  const change = event.change;
  const found = manager
    .allItems()
    .find(
      ({ item }) =>
        item.live &&
        item.changes.some(
          (candidate) =>
            candidate.project === change.project &&
            (change.number !== null
              ? candidate.number === change.number && candidate.patchset === change.patchset
              : candidate.ref === change.ref && candidate.newrev === change.newrev),
        ),
    );
  if (!found) {
    return 'ok: nothing to supersede';
  }
  const removed = await manager.removeItem(ctx, found.queue, found.item, { kind: 'superseded', by: event.by });
  return removed ? 'ok' : 'ok: being merged, not superseded';
}

function matchesChangeSpec(change: ChangeInfo, spec: DequeueEvent): boolean {
  if (spec.change !== undefined) {
    return change.number === spec.change && (spec.patchset === undefined || change.patchset === spec.patchset);
  }
  return spec.ref !== undefined && change.ref === spec.ref;
}
