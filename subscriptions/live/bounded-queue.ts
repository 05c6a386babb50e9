/**
 * A per-subscriber async queue with a hard capacity. A subscriber that does not keep up never
 * makes the server buffer without bound: when the queue is full, `onOverflow` decides what
 * replaces the backlog (a "resnapshot required" marker, or nothing for drop-oldest feeds).
 */
export interface BoundedQueueOptions<T> {
  /** Most values held for one subscriber. */
  capacity: number;
  /**
   * Called with the backlog when a push finds the queue full; returns what the queue holds
   * afterwards (for example `[marker]`, or the backlog without its oldest value).
   */
  onOverflow: (backlog: readonly T[], incoming: T) => T[];
  /** Called once when the consumer stops (return or close). */
  onClose?: () => void;
}

/** Async iterator over pushed values; `push` never blocks and never grows past `capacity`. */
export class BoundedQueue<T> implements AsyncIterableIterator<T> {
  private values: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;
  /** How many times the backlog was replaced because the consumer was too slow. */
  overflows = 0;

  constructor(private readonly options: BoundedQueueOptions<T>) {}

  get size(): number {
    return this.values.length;
  }

  push(value: T): void {
    if (this.closed) {
      return;
    }
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value, done: false });
      return;
    }
    if (this.values.length >= this.options.capacity) {
      this.overflows += 1;
      this.values = this.options.onOverflow(this.values, value).slice(-this.options.capacity);
      return;
    }
    this.values.push(value);
  }

  /** Replace whatever is pending with `value` (latest-wins feeds). */
  replace(value: T): void {
    if (this.closed) {
      return;
    }
    this.values = [];
    this.push(value);
  }

  /** End the iteration after the values already queued. */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.options.onClose?.();
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.values.shift();
    if (value !== undefined) {
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) {
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.values = [];
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
