/**
 * A `TimerClock` (src/engine/ports/clock.ts) whose time moves only when a test advances it: the
 * timers that came due run then, in the order they are due, and the promise callbacks they start
 * are let run before `advance` resolves. No real time passes.
 */
import type { ClockTimer, TimerClock } from '../../src/engine/ports/clock';

interface PendingTimer {
  due: number;
  callback: () => void;
  cancelled: boolean;
}

/** Let queued promise callbacks run (a periodic task goes on in them). */
export const settle = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

export class FakeTimerClock implements TimerClock {
  private at: number;
  private timers: PendingTimer[] = [];

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.at = start;
  }

  now(): Date {
    return new Date(this.at);
  }

  after(ms: number, callback: () => void): ClockTimer {
    const timer: PendingTimer = { due: this.at + Math.max(0, ms), callback, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  /** Delays (from now) of the timers waiting, soonest first. */
  get pending(): number[] {
    return this.live()
      .map((timer) => timer.due - this.at)
      .sort((a, b) => a - b);
  }

  /** Move time on by `ms`, running every timer due meanwhile (and what it starts) in order. */
  async advance(ms: number): Promise<void> {
    const until = this.at + ms;
    await settle();
    for (;;) {
      const next = this.live()
        .filter((timer) => timer.due <= until)
        .sort((a, b) => a.due - b.due)[0];
      if (next === undefined) {
        break;
      }
      this.at = Math.max(this.at, next.due);
      next.cancelled = true;
      next.callback();
      await settle();
    }
    this.at = until;
    this.timers = this.live();
  }

  /**
   * Waits (polling every 50 ms of real time) until `done` says so; meanwhile, whenever timers of
   * at most `upToMs` are waiting (a driver's retry or rate-limit waits; those due now, the
   * server's loops a test never moves on, are left alone), calls `onMove` with them and moves
   * time on past the longest.
   */
  async movingOn(
    what: string,
    done: () => boolean | Promise<boolean>,
    upToMs: number,
    onMove: (waits: number[]) => void = () => undefined,
    timeoutMs = 120_000,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      const waits = this.pending.filter((ms) => ms > 0 && ms <= upToMs);
      if (waits.length > 0) {
        onMove(waits);
        await this.advance(Math.max(...waits));
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private live(): PendingTimer[] {
    return this.timers.filter((timer) => !timer.cancelled);
  }
}
