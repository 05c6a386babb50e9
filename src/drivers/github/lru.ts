/**
 * A bounded map that forgets its least recently used entry when full (the GitHub client's
 * conditional-request cache and the permission cache, docs/github.md#reads-and-their-cost).
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    readonly capacity: number,
    /** Told of every entry that leaves (replaced, deleted or evicted), e.g. to keep a byte count. */
    private readonly onRemove: (key: K, value: V) => void = () => undefined,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`an LRU map needs a capacity of at least 1, not ${capacity}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, marked as the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // A Map iterates in insertion order: re-inserting moves the key to the young end.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      this.evictOldest();
    }
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.onRemove(key, value);
    }
  }

  /** Forget the least recently used entry (nothing when empty). */
  evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) {
      this.delete(oldest.value);
    }
  }
}
