/**
 * A dependency cycle whose membership changed after it entered the pipeline
 * (docs/gating.md#dependency-cycles): a change joined it (a new change or a topic change brought
 * it into a topic) or left it (its topic changed). As the reference does for every item, the
 * cycle of the item's first change is read again; when it differs from the changes the item
 * holds (members merged meanwhile aside), the item is taken out and its changes are enqueued
 * again as they are now. Sluice looks when an event of a change arrives, at the live items that
 * hold the change or a change of its cycle.
 */
import { changeId, type ChangeInfo } from '../../model/changes';
import type { ItemState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import { changeCycle } from './cycle-enqueue';
import { removeItem } from './leaving';
import { allItems } from './queues';
import { untracked } from '../scheduler/item-changes';
import type { ManagedPipeline } from './types';

/** A change by project and number, any patchset: a cycle's members compare so. */
const memberKey = (change: ChangeInfo): string => `${change.project}#${change.number ?? change.ref}`;

/**
 * Take out the live items whose cycle changed, as just read; returns their changes for the
 * caller to enqueue again (they are then found with their cycle as it is now).
 */
export async function removeChangedCycles(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
): Promise<ChangeInfo[]> {
  if (change.kind !== 'change' || change.merged) {
    return [];
  }
  // Read from the plain data (`untracked`, `view`, which the item's writes land in): every trigger
  // event of a change asks this of every item.
  const candidates = allItems(pipeline)
    .map((entry) => ({ ...entry, view: untracked(entry.item) }))
    .filter(({ view }) => view.live && view.dequeueTime === null);
  if (candidates.length === 0) {
    return [];
  }
  const related = new Set((await changeCycle(pipeline, ctx, change)).map(memberKey));
  related.add(memberKey(change));
  const again: ChangeInfo[] = [];
  for (const { queue, item, view } of candidates) {
    if (view.dequeueTime !== null || !view.changes.some((member) => related.has(memberKey(member)))) {
      continue;
    }
    const now = await cycleNow(pipeline, ctx, item);
    if (now === null) {
      continue;
    }
    const removed = await removeItem(pipeline, ctx, queue, item, {
      kind: 'cycle-changed',
      message: `Dependency cycle changed: now ${describe(now)}, was ${describe(item.changes)}`,
    });
    if (removed) {
      again.push(...item.changes);
    }
  }
  return again;
}

/**
 * The cycle of the item's first change as it is now when it differs from the item's changes
 * (merged members put back for the comparison, as the reference does); null when it does not, or
 * when that change can no longer be read.
 */
async function cycleNow(pipeline: ManagedPipeline, ctx: PassContext, item: ItemState): Promise<ChangeInfo[] | null> {
  const [first] = item.changes;
  if (first?.kind !== 'change' || first.number === null) {
    return null;
  }
  const current = await ctx.gateways.changes.getChange(first.project, first.number);
  if (current === null || current.merged) {
    return null;
  }
  const cycle = await changeCycle(pipeline, ctx, current);
  const now = new Set(cycle.map(memberKey));
  for (const member of item.changes) {
    if (!now.has(memberKey(member)) && (await merged(ctx, member))) {
      now.add(memberKey(member));
    }
  }
  const was = new Set(item.changes.map(memberKey));
  const same = now.size === was.size && [...now].every((key) => was.has(key));
  return same ? null : cycle;
}

async function merged(ctx: PassContext, member: ChangeInfo): Promise<boolean> {
  if (member.kind !== 'change' || member.number === null) {
    return false;
  }
  const current = await ctx.gateways.changes.getChange(member.project, member.number);
  return current?.merged ?? false;
}

function describe(changes: readonly ChangeInfo[]): string {
  return changes.map((member) => `${changeId(member)} of ${member.project}`).join(', ');
}
