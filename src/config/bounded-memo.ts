/**
 * A small memo of asynchronous results by key, holding at most `capacity` entries (the least
 * recently used one goes first). Concurrent calls for one key share a single computation; a
 * computation that fails is forgotten, so the next call tries again.
 */
export class BoundedMemo<Value> {
  private readonly entries = new Map<string, Promise<Value>>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, compute: () => Promise<Value>): Promise<Value> {
    const known = this.entries.get(key);
    if (known !== undefined) {
      // Re-inserted, so the Map's order stays least recently used first.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const computing = compute();
    this.entries.set(key, computing);
    if (this.entries.size > this.capacity) {
      const [oldest] = this.entries.keys();
      this.entries.delete(oldest);
    }
    computing.catch(() => {
      if (this.entries.get(key) === computing) {
        this.entries.delete(key);
      }
    });
    return computing;
  }
}
