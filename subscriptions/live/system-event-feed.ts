/**
 * Every system event, to the subscribers of its tenant, once each and with no gaps. Events are
 * written by many components (scheduler passes, control operations, the launcher, other
 * processes), so rather than trusting each writer to announce them, one reader per process
 * follows the `system_events` table with a cursor: woken by any tenant change and by a poll
 * timer, it reads the rows after the cursor, page by page, until it has caught up.
 *
 * Ids come from one sequence but become visible in commit order, so a row can appear after a
 * row with a higher id. The reader therefore only moves its floor over ids it has seen; an id
 * it has not seen (a hole) is kept open for `holeGraceMs` (a transaction still in flight, or an
 * insert that rolled back), and a row that fills a hole is delivered when it appears.
 */
import type { SystemEventRecord } from '../../src/store/repositories/system-events';
import type { SystemEventItem, SystemEventTick } from '../../schema/infra/live-feeds';
import { BoundedQueue } from './bounded-queue';

export interface SystemEventStore {
  /** Events of every tenant with an id above `afterId`, oldest first. */
  listAfter(afterId: number, limit: number): Promise<SystemEventRecord[]>;
  /** The highest event id, or 0. */
  latestId(): Promise<number>;
}

export interface SystemEventFeedOptions {
  /** How often the reader looks for events while someone subscribes (changes wake it earlier). */
  pollIntervalMs: number;
  /** How long an unseen id below seen ones is waited for before it is given up. */
  holeGraceMs: number;
  /** Rows per read. */
  pageSize: number;
  /** Events queued per subscriber before its subscription ends as too slow. */
  subscriberCapacity: number;
}

export const DEFAULT_SYSTEM_EVENT_FEED_OPTIONS: SystemEventFeedOptions = {
  pollIntervalMs: 1000,
  holeGraceMs: 30_000,
  pageSize: 200,
  subscriberCapacity: 1000,
};

/** Beyond this many unsettled ids the reader stops tracking holes and jumps its floor. */
const MAX_TRACKED_IDS = 10_000;

export class SystemEventFeed {
  private readonly options: SystemEventFeedOptions;
  private readonly subscribers = new Map<string, Set<BoundedQueue<SystemEventItem>>>();
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
    private readonly store: SystemEventStore,
    options: Partial<SystemEventFeedOptions> = {},
    private readonly now: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_SYSTEM_EVENT_FEED_OPTIONS, ...options };
  }

  /** The events of `tenant` recorded from now on (and any still in flight now). */
  async subscribe(tenant: string): Promise<AsyncIterableIterator<SystemEventItem>> {
    const queue: BoundedQueue<SystemEventItem> = new BoundedQueue<SystemEventItem>({
      capacity: this.options.subscriberCapacity,
      onOverflow: () => [{ kind: 'overflow', tenant }],
      onClose: () => this.remove(tenant, queue),
    });
    if (this.closed) {
      queue.close();
      return queue;
    }
    const set = this.subscribers.get(tenant) ?? new Set();
    set.add(queue);
    this.subscribers.set(tenant, set);
    this.subscriberCount += 1;
    if (this.floor === null) {
      this.starting ??= this.start();
      await this.starting;
    }
    return queue;
  }

  /**
   * Something may have been recorded: read up to the newest event (coalesced with a read in
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

  subscriberTotal(): number {
    return this.subscriberCount;
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

  private remove(tenant: string, queue: BoundedQueue<SystemEventItem>): void {
    const set = this.subscribers.get(tenant);
    if (!set?.delete(queue)) {
      return;
    }
    this.subscriberCount -= 1;
    if (set.size === 0) {
      this.subscribers.delete(tenant);
    }
    if (this.subscriberCount === 0) {
      this.reset();
    }
  }

  /** Nobody listens: stop reading; the next subscriber starts from the newest event. */
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

  private dispatch(record: SystemEventRecord): void {
    const set = record.tenant === null ? undefined : this.subscribers.get(record.tenant);
    if (!set) {
      return;
    }
    // One object for every subscriber: identical subscriptions share its execution.
    const tick: SystemEventTick = { shared: true, record };
    for (const queue of set) {
      queue.push({ kind: 'event', tick });
    }
  }
}
