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

export class ItemChangeTracker {
  private readonly proxyOf = new WeakMap<object, object>();
  /** Uuids of the items holding each object (an item holds itself). */
  private readonly owners = new WeakMap<object, Set<string>>();
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
        this.inherit(child, target);
        return this.wrap(child);
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
   * reference during the pass is known from then on.
   */
  track(item: ItemState): ItemState {
    const plain = this.plain(item) as ItemState;
    this.walk(plain, new Set([plain.uuid]));
    return this.wrap(plain) as ItemState;
  }

  /** Whether this is the tracked form of an item. */
  isTracked(item: ItemState): boolean {
    const target = targetOf.get(item);
    return target !== undefined && this.proxyOf.get(target) === item;
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

  private wrap(target: object): object {
    let proxy = this.proxyOf.get(target);
    if (!proxy) {
      proxy = new Proxy(target, this.handler);
      this.proxyOf.set(target, proxy);
      targetOf.set(proxy, target);
    }
    return proxy;
  }

  private mark(target: object): void {
    for (const uuid of this.owners.get(target) ?? []) {
      this.changedUuids.add(uuid);
    }
  }

  /** A child read through its parent is held by whoever holds the parent. */
  private inherit(child: object, parent: object): void {
    const from = this.owners.get(parent);
    if (!from) {
      return;
    }
    const to = this.owners.get(child);
    if (!to) {
      this.owners.set(child, new Set(from));
      return;
    }
    for (const uuid of from) {
      to.add(uuid);
    }
  }

  /**
   * A value stored into `parent`: everything in it is held by the parent's items, and proxies
   * inside it are replaced by their targets.
   */
  private adopt(value: unknown, parent: object): void {
    if (value !== null && typeof value === 'object') {
      this.walk(value, this.owners.get(parent) ?? new Set());
    }
  }

  /** Note `uuids` as holders of `root` and of everything in it, replacing any proxy inside by its target. */
  private walk(root: object, uuids: ReadonlySet<string>): void {
    const seen = new Set<object>();
    const pending: object[] = [root];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (seen.has(next)) {
        continue;
      }
      seen.add(next);
      let holders = this.owners.get(next);
      if (!holders) {
        holders = new Set();
        this.owners.set(next, holders);
      }
      for (const uuid of uuids) {
        holders.add(uuid);
      }
      const fields = next as Record<string, unknown>;
      for (const key of Object.keys(fields)) {
        const value = fields[key];
        if (value !== null && typeof value === 'object') {
          const target = this.plain(value);
          if (target !== value) {
            fields[key] = target;
          }
          pending.push(target);
        }
      }
    }
  }

  private plainValue(value: unknown): unknown {
    return value !== null && typeof value === 'object' ? this.plain(value) : value;
  }
}

/** Whether each save compares every held item with what was last saved (tests, debugging). */
export function checkItemChanges(): boolean {
  const setting = process.env.SLUICE_CHECK_ITEM_CHANGES;
  if (setting !== undefined && setting !== '') {
    return setting !== '0';
  }
  return process.env.JEST_WORKER_ID !== undefined;
}
