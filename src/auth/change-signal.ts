/**
 * Tells waiters that the access policies changed (a reconfiguration loaded new tenant rules), so
 * open subscriptions re-check read access at once instead of at their next event.
 */
export class ChangeSignal {
  private waiting: { promise: Promise<void>; resolve: () => void } | null = null;

  /** Resolves at the next `fire()` (one shared promise per change, however many wait). */
  next(): Promise<void> {
    if (this.waiting === null) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.waiting = { promise, resolve };
    }
    return this.waiting.promise;
  }

  fire(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve();
  }
}
