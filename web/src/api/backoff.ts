/**
 * Growing pauses between attempts to reach something that refused or failed (a subscription that
 * ended with an error, a tenant that does not exist): 2 s, 4 s, 8 s... up to a minute, with
 * jitter, so an open page never hammers the server (docs/dashboard.md#live-updates-and-reconnection).
 */
export class Backoff {
  private attempts = 0;

  constructor(
    private readonly firstMs = 2_000,
    private readonly maxMs = 60_000,
  ) {}

  /** The pause before the next attempt (each call doubles the next one, up to the maximum). */
  next(): number {
    const base = Math.min(this.maxMs, this.firstMs * 2 ** this.attempts);
    this.attempts += 1;
    return base * (0.75 + Math.random() / 4);
  }

  /** An attempt succeeded: the next failure waits the shortest pause again. */
  reset(): void {
    this.attempts = 0;
  }
}
