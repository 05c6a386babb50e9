/**
 * Items that mark themselves changed. The scheduler holds each queue item behind a proxy that
 * notes the item's uuid whenever anything in it changes: a field of the item, of its buildset, of a
 * job, a build or any other object or array reached through it (set, delete, define). A pass
 * then saves exactly the items it changed, with no call to remember (docs/development.md, "State
 * that marks itself changed").
 *
 * Objects reached through a tracked item are handed out as proxies of that item, so changes made
 * through a reference taken earlier in the pass are seen too. Values stored into a tracked item
 * are stored unwrapped: the stored state stays plain data (JSON, copies, comparisons).
 */
import type { ItemState } from '../../model/pipeline-state';

type Plain = object;

export class ItemChangeTracker {
  /** Each proxy handed out, to its plain target (any item). */
  private readonly targets = new WeakMap<Plain, Plain>();
  /** Tracked items (their proxies). */
  private readonly tracked = new WeakSet<Plain>();
  private readonly changedUuids = new Set<string>();

  /** The tracked form of an item (the item itself when it already is). */
  track(item: ItemState): ItemState {
    if (this.tracked.has(item)) {
      return item;
    }
    const plain = this.plain(item) as ItemState;
    // One proxy per object per item: identity stays stable across reads within the item.
    const proxies = new WeakMap<Plain, Plain>();
    const wrap = (value: unknown): unknown => {
      if (value === null || typeof value !== 'object') {
        return value;
      }
      const target = this.plain(value);
      let proxy = proxies.get(target);
      if (!proxy) {
        proxy = new Proxy(target, this.handler(plain, wrap));
        proxies.set(target, proxy);
        this.targets.set(proxy, target);
      }
      return proxy;
    };
    const root = wrap(plain) as ItemState;
    this.tracked.add(root);
    return root;
  }

  isTracked(item: ItemState): boolean {
    return this.tracked.has(item);
  }

  /** Whether the item with this uuid changed since it was last `saved`. */
  changed(uuid: string): boolean {
    return this.changedUuids.has(uuid);
  }

  /** The item's current state is stored (or no longer needs to be). */
  saved(uuid: string): void {
    this.changedUuids.delete(uuid);
  }

  /** Forget every change (the state was loaded again from the store). */
  reset(): void {
    this.changedUuids.clear();
  }

  private plain(value: object): Plain {
    return this.targets.get(value) ?? value;
  }

  private handler(item: ItemState, wrap: (value: unknown) => unknown): ProxyHandler<Plain> {
    const mark = (): void => {
      this.changedUuids.add(item.uuid);
    };
    const unwrap = (value: unknown): unknown =>
      value !== null && typeof value === 'object' ? this.plain(value) : value;
    return {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'object' ? wrap(value) : value;
      },
      set: (target, key, value) => {
        const stored = unwrap(value);
        const had = Object.prototype.hasOwnProperty.call(target, key);
        if (!had || !Object.is((target as Record<PropertyKey, unknown>)[key], stored)) {
          mark();
        }
        // Set on the target itself: the receiver is the proxy, whose defineProperty would mark again.
        return Reflect.set(target, key, stored);
      },
      deleteProperty: (target, key) => {
        if (Object.prototype.hasOwnProperty.call(target, key)) {
          mark();
        }
        return Reflect.deleteProperty(target, key);
      },
      defineProperty: (target, key, descriptor) => {
        mark();
        const value: unknown = descriptor.value;
        return Reflect.defineProperty(
          target,
          key,
          'value' in descriptor ? { ...descriptor, value: unwrap(value) } : descriptor,
        );
      },
    };
  }
}
