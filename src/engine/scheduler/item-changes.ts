/**
 * Items that mark themselves changed (docs/development.md, "State that marks itself changed").
 * The scheduler holds each queue item behind a proxy; every object and array reached through it
 * is handed out behind a proxy too (one per object, whatever the path). Each object knows the
 * items that hold it: all of them, not only the one it was reached through, since an object
 * can sit in two items (a change of a dependency cycle, a list handed from one buildset to
 * another). A write to an object (set, delete, define, an array grown, shrunk or sorted) marks
 * every item holding it; a pass then saves the marked items with no call to remember.
 *
 * Who holds an object is learnt three ways: by walking the whole item when it is tracked and
 * again each time it is saved (so objects attached through a plain reference during a pass are
 * known from then on), by walking a value stored into a tracked object, and by every read (a
 * child is held by whoever holds its parent). Values stored into a tracked object are stored
 * unwrapped, at any depth: the state stays plain data.
 *
 * An item's merge list (`buildset.mergeItems`, most of its stored row) is also held by a part of
 * the item of its own (`mergeItemsChanged`): the save keeps the list's text while nothing was
 * written into it (./tenant-state.ts).
 *
 * A write this cannot see is one made through a plain reference kept from an earlier pass (an
 * item new in a pass is plain until it is saved). `TenantState` compares every item with what
 * was last saved at each save when `SLUICE_CHECK_ITEM_CHANGES` is set or under jest, and
 * fails the pass on a change nothing marked (test/integration/engine/item-changes.test.ts).
 */
import type { ItemState } from '../../model/pipeline-state';

/** The object behind each proxy of every tracker (a proxy is a new object: one map serves them all). */
const targetOf = new WeakMap<object, object>();

/**
 * What reading the held items cost since the process started, counted for the tests that keep a
 * pass from growing with its queues (test/integration/engine/pass-cost.test.ts): reads through a
 * proxy (`traps`), those of them handing out an object behind its proxy (`wrapped`, the costly
 * ones) and `untracked` look-ups.
 */
export const itemReads = { traps: 0, wrapped: 0, untracked: 0 };

/**
 * The plain data behind a tracked item or anything reached through one (the value itself when it
 * is not tracked), for code that only reads: no trap runs, so a read costs what a plain read
 * costs, and nothing is learnt about who holds what, which only writes need. Nothing may be
 * written through it, nor anything reached through it be handed to code that writes: that write
 * would go unmarked (the check of `TenantState` fails such a pass under jest). A pass walks every
 * item of its queues (docs/gating.md#queue-pass), so reads through the proxies would make a pass's
 * cost grow with the items waiting outside the window.
 */
export function untracked<T extends object>(value: T): T {
  itemReads.untracked += 1;
  return (targetOf.get(value) as T | undefined) ?? value;
}

/**
 * The items holding an object, by uuid. A set is never changed once made: objects held by the same
 * items share one (most objects are held by the one item they are in), so learning that a child is
 * held by whoever holds its parent is, on most reads, one comparison.
 */
type Holders = ReadonlySet<string>;

/** What the tracker knows of an object: who holds it and its proxy, once handed out. */
interface Held {
  holders: Holders;
  proxy: object | null;
}

const NO_HOLDERS: Holders = new Set();

/** More objects than any item holds: a walk with no set of the objects it saw stops there. */
const WALK_LIMIT = 1_000_000;

/** Whether every item of `some` is in `all`. */
function holdsAll(all: Holders, some: Holders): boolean {
  if (all === some) {
    return true;
  }
  for (const uuid of some) {
    if (!all.has(uuid)) {
      return false;
    }
  }
  return true;
}

export class ItemChangeTracker {
  /** Each object reached in a held item (an item holds itself). */
  private readonly held = new WeakMap<object, Held>();
  private readonly changedUuids = new Set<string>();
  private readonly handler: ProxyHandler<object>;

  constructor() {
    this.handler = {
      get: (target, key, receiver) => {
        itemReads.traps += 1;
        const value: unknown = Reflect.get(target, key, receiver);
        // A frozen object must hand out its own values (a proxy's invariant): they are not tracked.
        if (value === null || typeof value !== 'object' || Object.isFrozen(target)) {
          return value;
        }
        itemReads.wrapped += 1;
        const child = this.plain(value);
        return this.wrap(child, this.inherit(child, target));
      },
      set: (target, key, value) => {
        const stored = this.plainValue(value);
        const had = Object.prototype.hasOwnProperty.call(target, key);
        if (!had || !Object.is((target as Record<PropertyKey, unknown>)[key], stored)) {
          this.mark(target);
          this.adopt(stored, target);
        }
        // On the target itself: with the proxy as receiver, defineProperty would run as well.
        return Reflect.set(target, key, stored);
      },
      deleteProperty: (target, key) => {
        if (Object.prototype.hasOwnProperty.call(target, key)) {
          this.mark(target);
        }
        return Reflect.deleteProperty(target, key);
      },
      defineProperty: (target, key, descriptor) => {
        this.mark(target);
        if (!('value' in descriptor)) {
          return Reflect.defineProperty(target, key, descriptor);
        }
        const value = this.plainValue(descriptor.value);
        this.adopt(value, target);
        return Reflect.defineProperty(target, key, { ...descriptor, value });
      },
    };
  }

  /**
   * The tracked form of an item (the same proxy for the same item), every object in it known
   * to be held by it. Also after the item was saved: what was attached to it through a plain
   * reference during the pass is known from then on. The item's texts were just made
   * (src/store/repositories/item-rows.ts, `itemTexts`): JSON would have failed on a cycle, so
   * the walk keeps no set of the objects it saw (an object reached twice is walked twice; a walk
   * of `WALK_LIMIT` objects fails, as a cycle a write no proxy saw would have made).
   *
   * `listKept`: the save kept the text of the item's merge list, the list it had when last
   * tracked, into which nothing was written since: its objects are known already, and the walk
   * leaves the list out (it is most of an item). A write through a plain reference into it would
   * be lost with the kept text anyway, which the check of `TenantState` reports.
   */
  track(item: ItemState, listKept = false): ItemState {
    const plain = this.plain(item) as ItemState;
    const uuid = plain.uuid;
    const list = plain.buildset.mergeItems;
    const part = { list, holders: this.holdersOf(list, [uuid, mergeItemsPart(uuid)]), skip: listKept };
    this.walk(plain, this.holdersOf(plain, [uuid]), part);
    return this.wrap(plain, this.held.get(plain) as Held) as ItemState;
  }

  /**
   * Whether anything in the merge list of the item with this uuid (`buildset.mergeItems`, the
   * list it had when last tracked) was written since the marks were last cleared: the list is
   * also held by a part of the item of its own.
   */
  mergeItemsChanged(uuid: string): boolean {
    return this.changedUuids.has(mergeItemsPart(uuid));
  }

  /** The holders `value` has when they are exactly `uuids` (the set its objects share), else a new set of them. */
  private holdersOf(value: object, uuids: readonly string[]): Holders {
    const had = this.held.get(value)?.holders;
    return had !== undefined && had.size === uuids.length && uuids.every((uuid) => had.has(uuid))
      ? had
      : new Set(uuids);
  }

  /** Whether this is the tracked form of an item. */
  isTracked(item: ItemState): boolean {
    const target = targetOf.get(item);
    return target !== undefined && this.held.get(target)?.proxy === item;
  }

  /** The plain data behind a tracked item (for serialising without the proxies' cost). */
  plain<T extends object>(value: T): T {
    return untracked(value);
  }

  /** Whether the item with this uuid changed since the marks were last cleared. */
  changed(uuid: string): boolean {
    return this.changedUuids.has(uuid);
  }

  /** Forget the marks (the pass saved every marked item). */
  clear(): void {
    this.changedUuids.clear();
  }

  private wrap(target: object, held: Held): object {
    if (held.proxy === null) {
      held.proxy = new Proxy(target, this.handler);
      targetOf.set(held.proxy, target);
    }
    return held.proxy;
  }

  private mark(target: object): void {
    for (const uuid of this.held.get(target)?.holders ?? NO_HOLDERS) {
      this.changedUuids.add(uuid);
    }
  }

  /** Note `uuids` as holders of `value` (the shared set when it adds nothing). */
  private hold(value: object, uuids: Holders): Held {
    const held = this.held.get(value);
    if (held === undefined) {
      const made = { holders: uuids, proxy: null };
      this.held.set(value, made);
      return made;
    }
    if (!holdsAll(held.holders, uuids)) {
      held.holders = holdsAll(uuids, held.holders) ? uuids : new Set([...held.holders, ...uuids]);
    }
    return held;
  }

  /** A child read through its parent is held by whoever holds the parent. */
  private inherit(child: object, parent: object): Held {
    return this.hold(child, this.held.get(parent)?.holders ?? NO_HOLDERS);
  }

  /**
   * A value stored into `parent`: everything in it is held by the parent's items, and proxies
   * inside it are replaced by their targets. Walked with no set of the objects seen, as `track`
   * does: the value is saved as JSON with its item, which fails on a cycle too, and a set of the
   * objects of a job graph stored into an item cost more than the rest of its walk.
   */
  private adopt(value: unknown, parent: object): void {
    if (value !== null && typeof value === 'object') {
      this.walk(value, this.held.get(parent)?.holders ?? NO_HOLDERS, null);
    }
  }

  /**
   * Note `uuids` as holders of `root` and of everything in it, replacing any proxy inside by its
   * target. Items' data is JSON, with no cycle: a walk of `WALK_LIMIT` objects fails. Under
   * `part.list`, the holders are `part.holders` (`part.skip`: the list is not walked).
   */
  private walk(root: object, uuids: Holders, part: { list: object; holders: Holders; skip: boolean } | null): void {
    const pending: object[] = [root];
    const pendingHolders: Holders[] = [uuids];
    let walked = 0;
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const holders = pendingHolders.pop() as Holders;
      if (++walked > WALK_LIMIT) {
        throw new Error(`a tracked item reaches more than ${WALK_LIMIT} objects: a cycle?`);
      }
      this.hold(next, holders);
      const fields = next as Record<string, unknown>;
      // The items' data is JSON: an array holds its values at its indices (no key strings to make).
      const keys = Array.isArray(next) ? null : Object.keys(fields);
      const count = keys === null ? (next as unknown[]).length : keys.length;
      for (let index = 0; index < count; index += 1) {
        const key = keys === null ? index : keys[index];
        const value = fields[key];
        if (value !== null && typeof value === 'object') {
          const target = targetOf.get(value) ?? value;
          if (target !== value) {
            fields[key] = target;
          }
          const inList = target === part?.list;
          if (inList && part.skip) {
            continue;
          }
          pending.push(target);
          pendingHolders.push(inList ? part.holders : holders);
        }
      }
    }
  }

  private plainValue(value: unknown): unknown {
    return value !== null && typeof value === 'object' ? this.plain(value) : value;
  }
}

/** What holds an item's merge list besides the item (no uuid has a colon). */
function mergeItemsPart(uuid: string): string {
  return `merge-items:${uuid}`;
}

/** Whether each save compares every held item with what was last saved (tests, debugging). */
export function checkItemChanges(): boolean {
  const setting = process.env.SLUICE_CHECK_ITEM_CHANGES;
  if (setting !== undefined && setting !== '') {
    return setting !== '0';
  }
  return process.env.JEST_WORKER_ID !== undefined;
}
