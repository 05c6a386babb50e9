/**
 * An index of a queue's items, kept from pass to pass, so that what asks for the item with a
 * uuid or the items holding a change costs the same whatever the length of the queue
 * (docs/gating.md#performance): an enqueue asked every item of the pipeline whether it held the
 * change (up to three times), a trigger event read every item, and a pass walks the chain ahead of
 * every waiting item. Read from the plain data
 * (`untracked`); the items it returns are the queue's own.
 *
 * The engine changes a queue's items by giving it a new array (a dequeue, a promote, a load), by
 * pushing onto it (an enqueue) and by putting an item's tracked form in its own place (the save,
 * src/engine/scheduler/tenant-state.ts); it never changes an item's uuid or changes in place. So
 * the index holds while the queue holds the same array, and a longer array only adds the items
 * pushed since.
 */
import { sameChange, type ChangeInfo } from '../model/changes';
import type { ItemState, QueueState } from '../model/pipeline-state';
import { untracked } from './scheduler/item-changes';

/**
 * The index of one array of a queue's items. Its parts are built when first asked and follow the
 * items pushed since: a walk asks only for uuids, an enqueue only for changes.
 */
export class QueueIndex {
  private readonly uuids = new Map<string, number>();
  private readonly numbered = new Map<string, number[]>();
  private readonly same = new Map<string, number[]>();
  private uuidsIndexed = 0;
  private changesIndexed = 0;

  /** `items`: the array indexed (the queue's own, so a position reads the item in its place now). */
  constructor(readonly items: readonly ItemState[]) {}

  /** The position of each uuid (its first item). */
  get byUuid(): ReadonlyMap<string, number> {
    for (; this.uuidsIndexed < this.items.length; this.uuidsIndexed += 1) {
      const uuid = untracked(this.items[this.uuidsIndexed]).uuid;
      if (!this.uuids.has(uuid)) {
        this.uuids.set(uuid, this.uuidsIndexed);
      }
    }
    return this.uuids;
  }

  /** The positions, in queue order, of the items holding each numbered change (any patchset; `changeKey`). */
  get byChange(): ReadonlyMap<string, readonly number[]> {
    this.indexChanges();
    return this.numbered;
  }

  /** The positions, in queue order, of the items holding a change of each `sameChangeKey`. */
  get bySameChange(): ReadonlyMap<string, readonly number[]> {
    this.indexChanges();
    return this.same;
  }

  private indexChanges(): void {
    for (; this.changesIndexed < this.items.length; this.changesIndexed += 1) {
      const position = this.changesIndexed;
      for (const change of untracked(this.items[position]).changes) {
        const key = sameChangeKey(change);
        add(this.same, key, position);
        if (change.number !== null) {
          add(this.numbered, change.kind === 'change' ? key : changeKey(change.project, change.number), position);
        }
      }
    }
  }
}

const queueIndexes = new WeakMap<QueueState, QueueIndex>();

/** The key of `byChange`: a numbered change, whatever its patchset. */
export function changeKey(project: string, number: number): string {
  return `${number} ${project}`;
}

/**
 * The key of `bySameChange`: equal for two changes when `sameChange` (src/model/changes.ts) holds
 * (a change by its number, a ref update by its kind and ref), unequal for most others; the items
 * found under it are asked `sameChange` itself.
 */
function sameChangeKey(change: ChangeInfo): string {
  return change.kind === 'change'
    ? `${change.number} ${change.project}`
    : `${change.kind} ${change.ref} ${change.project}`;
}

/** The index of the queue's items as they are now. */
export function queueIndex(queue: QueueState): QueueIndex {
  let index = queueIndexes.get(queue);
  if (!index || index.items !== queue.items) {
    index = new QueueIndex(queue.items);
    queueIndexes.set(queue, index);
  }
  return index;
}

function add(map: Map<string, number[]>, key: string, position: number): void {
  const positions = map.get(key);
  if (!positions) {
    map.set(key, [position]);
  } else if (positions[positions.length - 1] !== position) {
    positions.push(position);
  }
}

/** The positions of the items of the queue holding the change (or ref update), in queue order. */
function positionsHolding(index: QueueIndex, change: ChangeInfo): readonly number[] {
  return (index.bySameChange.get(sameChangeKey(change)) ?? []).filter((position) =>
    untracked(index.items[position]).changes.some((held) => sameChange(held, change)),
  );
}

/** The items of the queue holding the change (or ref update), in queue order. */
export function itemsHolding(queue: QueueState, change: ChangeInfo): ItemState[] {
  const index = queueIndex(queue);
  return positionsHolding(index, change).map((position) => index.items[position]);
}

/** The first item of the queue holding any of these changes. */
export function firstItemHoldingAny(queue: QueueState, changes: readonly ChangeInfo[]): ItemState | null {
  const index = queueIndex(queue);
  let first: number | null = null;
  for (const change of changes) {
    const position = positionsHolding(index, change)[0];
    if (position !== undefined && (first === null || position < first)) {
      first = position;
    }
  }
  return first === null ? null : index.items[first];
}

/** Whether an item of a queue of the pipeline other than `queue` holds the change. */
export function heldInAnotherQueue(queues: readonly QueueState[], queue: QueueState, change: ChangeInfo): boolean {
  return queues.some((other) => other !== queue && itemsHolding(other, change).length > 0);
}

/**
 * The items of these queues (a pipeline's) holding a change of this project and number, any
 * patchset, queue by queue and in queue order, as `allItems` (src/engine/pipeline/queues.ts) lists
 * them: what a trigger event asks of a pipeline about its change.
 */
export function itemsHoldingNumber(
  queues: readonly QueueState[],
  project: string,
  number: number,
): Array<{ queue: QueueState; item: ItemState }> {
  const found: Array<{ queue: QueueState; item: ItemState }> = [];
  for (const queue of queues) {
    const index = queueIndex(queue);
    for (const position of index.byChange.get(changeKey(project, number)) ?? []) {
      found.push({ queue, item: index.items[position] });
    }
  }
  return found;
}
