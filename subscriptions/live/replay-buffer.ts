/**
 * The most recent deltas of one tenant, contiguous by sequence number, so that a client that
 * reconnects with `afterSeq` gets what it missed. When the process misses a delta (a bus
 * hiccup shows up as a jump in the sequence), the buffer restarts at the jump: it only ever
 * claims to hold an unbroken run.
 */
export interface Sequenced {
  sequence: number;
}

export class ReplayBuffer<T extends Sequenced> {
  private items: T[] = [];

  constructor(private readonly capacity: number) {}

  /** Highest sequence seen, or null before the first delta. */
  get latest(): number | null {
    const last = this.items[this.items.length - 1];
    return last === undefined ? null : last.sequence;
  }

  /** Lowest sequence still held, or null when empty. */
  get oldest(): number | null {
    const first = this.items[0];
    return first === undefined ? null : first.sequence;
  }

  /** Add a delta; duplicates and stale deltas are ignored (returns false for them). */
  push(item: T): boolean {
    const latest = this.latest;
    if (latest !== null && item.sequence <= latest) {
      return false;
    }
    if (latest !== null && item.sequence !== latest + 1) {
      this.items = [];
    }
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.shift();
    }
    return true;
  }

  /**
   * The deltas after `after` up to `upTo` (the highest sequence the store has committed), or
   * null when some of them are no longer (or never were) held here.
   */
  since(after: number, upTo: number): T[] | null {
    if (upTo <= after) {
      return [];
    }
    const oldest = this.oldest;
    if (oldest === null || oldest > after + 1) {
      return null;
    }
    return this.items.filter((item) => item.sequence > after);
  }
}
