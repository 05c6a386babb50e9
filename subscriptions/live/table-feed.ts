/**
 * Every row of an append-only table (system events, the launcher's change log), to the
 * subscribers it is routed to, once each and with no gaps. Rows are written by many components
 * (scheduler passes, control operations, the launcher, other processes), so rather than trusting
 * each writer to announce them, one reader per feed and process follows the table with a cursor:
 * woken by changes (`nudge`) and by a poll timer, it reads the rows after the cursor, page by
 * page, until it has caught up.
 *
 * Ids come from one sequence but become visible in commit order, so a row can appear after a
 * row with a higher id. The reader therefore only moves its floor over ids it has seen; an id
 * it has not seen (a hole) is kept open for `holeGraceMs` (a transaction still in flight, or an
 * insert that rolled back), and a row that fills a hole is delivered when it appears.
 */
import { BoundedQueue } from './bounded-queue';

export interface TableFeedStore<R extends { id: number }> {
  /** Rows with an id above `afterId`, oldest first. */
  listAfter(afterId: number, limit: number): Promise<R[]>;
  /** The highest id, or 0. */
  latestId(): Promise<number>;
}

export interface TableFeedOptions {
  /** How often the reader looks for rows while someone subscribes (changes wake it earlier). */
  pollIntervalMs: number;
  /** How long an unseen id below seen ones is waited for before it is given up. */
  holeGraceMs: number;
  /** Rows per read. */
  pageSize: number;
  /** Items queued per subscriber before it is told it fell behind. */
  subscriberCapacity: number;
}

export const DEFAULT_TABLE_FEED_OPTIONS: TableFeedOptions = {
  pollIntervalMs: 1000,
  holeGraceMs: 30_000,
  pageSize: 200,
  subscriberCapacity: 1000,
};

/** Where rows go and what subscribers receive. */
export interface TableFeedRouting<R, I> {
  /** The subscriber keys a row is for (a tenant, or one key every subscriber uses). */
  keysOf(row: R): readonly string[];
  /** The item of a row: made once and given to every subscriber it is routed to. */
  item(row: R): I;
  /** What replaces the backlog of a subscriber of `key` that fell too far behind. */
  overflow(key: string): I;
}

/** Beyond this many unsettled ids the reader stops tracking holes and jumps its floor. */
const MAX_TRACKED_IDS = 10_000;

export class TableFeed<R extends { id: number }, I> {
  private readonly options: TableFeedOptions;
  private readonly subscribers = new Map<string, Set<BoundedQueue<I>>>();
  private subscriberCount = 0;
  /** Every id up to the floor is delivered or given up; null while nobody subscribes. */
  private floor: number | null = null;
  private starting: Promise<void> | null = null;
  /** Ids above the floor already delivered. */
  private readonly seen = new Set<number>();
  /** Unseen ids above the floor and below a seen one, with when they were first missed. */
  private readonly holes = new Map<number, number>();
  private reading: Promise<void> | null = null;
  private readAgain = false;
  /** Bumped when the reader resets, so a read in flight does not touch the new state. */
  private generation = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly store: TableFeedStore<R>,
    private readonly routing: TableFeedRouting<R, I>,
    options: Partial<TableFeedOptions> = {},
    private readonly now: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_TABLE_FEED_OPTIONS, ...options };
  }

  /** The rows routed to `key` written from now on (and any still in flight now). */
  async subscribe(key: string): Promise<AsyncIterableIterator<I>> {
    const queue: BoundedQueue<I> = new BoundedQueue<I>({
      capacity: this.options.subscriberCapacity,
      onOverflow: () => [this.routing.overflow(key)],
      onClose: () => this.remove(key, queue),
    });
    if (this.closed) {
      queue.close();
      return queue;
    }
    const set = this.subscribers.get(key) ?? new Set();
    set.add(queue);
    this.subscribers.set(key, set);
    this.subscriberCount += 1;
    if (this.floor === null) {
      this.starting ??= this.start();
      await this.starting;
    }
    return queue;
  }

  /**
   * Something may have been written: read up to the newest row (coalesced with a read in
   * progress). Resolves when the reader has caught up; never rejects.
   */
  nudge(): Promise<void> {
    if (this.floor === null || this.closed) {
      return Promise.resolve();
    }
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = this.readUntilCaughtUp();
    return this.reading;
  }

  /**
   * Subscribers the feed reads for. One that arrived while the feed was still finding its
   * starting point (the newest id) is counted once that is known: a row written before it may
   * be taken as the start and never sent, so "subscribed" means every later row will come.
   */
  subscriberTotal(): number {
    return this.floor === null ? 0 : this.subscriberCount;
  }

  close(): void {
    this.closed = true;
    for (const set of [...this.subscribers.values()]) {
      for (const queue of [...set]) {
        queue.close();
      }
    }
    this.reset();
  }

  private async start(): Promise<void> {
    const generation = this.generation;
    try {
      const latest = await this.store.latestId();
      if (generation === this.generation && this.subscriberCount > 0) {
        this.floor = latest;
        this.timer = setInterval(() => void this.nudge(), this.options.pollIntervalMs);
        this.timer.unref();
      }
    } finally {
      this.starting = null;
    }
  }

  private remove(key: string, queue: BoundedQueue<I>): void {
    const set = this.subscribers.get(key);
    if (!set?.delete(queue)) {
      return;
    }
    this.subscriberCount -= 1;
    if (set.size === 0) {
      this.subscribers.delete(key);
    }
    if (this.subscriberCount === 0) {
      this.reset();
    }
  }

  /** Nobody listens: stop reading; the next subscriber starts from the newest row. */
  private reset(): void {
    this.generation += 1;
    this.floor = null;
    this.seen.clear();
    this.holes.clear();
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async readUntilCaughtUp(): Promise<void> {
    try {
      do {
        this.readAgain = false;
        await this.readOnce();
      } while (this.readAgain && this.floor !== null);
    } catch (error) {
      this.onError(error); // the next nudge retries from the same floor
    } finally {
      this.reading = null;
    }
  }

  private async readOnce(): Promise<void> {
    const generation = this.generation;
    let after = this.floor;
    let highest = after;
    while (after !== null) {
      const rows = await this.store.listAfter(after, this.options.pageSize);
      if (generation !== this.generation) {
        return;
      }
      for (const row of rows) {
        if (!this.seen.has(row.id)) {
          this.seen.add(row.id);
          this.dispatch(row);
        }
      }
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < this.options.pageSize) {
        highest = Math.max(highest ?? 0, last?.id ?? 0);
        break;
      }
      after = last.id;
      highest = last.id;
    }
    if (highest !== null) {
      this.settle(highest);
    }
  }

  /** Move the floor over seen ids and holes that waited long enough; note new holes. */
  private settle(highest: number): void {
    if (this.floor === null) {
      return;
    }
    let floor: number = this.floor;
    const now = this.now();
    if (highest - floor > MAX_TRACKED_IDS) {
      // Too far behind to track every id: accept the gaps rather than hold unbounded state.
      this.seen.clear();
      this.holes.clear();
      this.floor = highest;
      return;
    }
    while (floor < highest) {
      const id: number = floor + 1;
      if (this.seen.delete(id)) {
        this.holes.delete(id);
      } else {
        const missedSince = this.holes.get(id);
        if (missedSince === undefined || now - missedSince < this.options.holeGraceMs) {
          break;
        }
        this.holes.delete(id);
      }
      floor = id;
    }
    for (let id = floor + 1; id < highest; id += 1) {
      if (!this.seen.has(id) && !this.holes.has(id)) {
        this.holes.set(id, now);
      }
    }
    this.floor = floor;
  }

  private dispatch(row: R): void {
    let item: I | undefined;
    for (const key of this.routing.keysOf(row)) {
      const set = this.subscribers.get(key);
      if (!set) {
        continue;
      }
      // One object for every subscriber: identical subscriptions share its execution.
      item ??= this.routing.item(row);
      for (const queue of set) {
        queue.push(item);
      }
    }
  }
}
