/** The clock port: every engine time comes from it, so tests control time. */

export interface Clock {
  now(): Date;
}

/** A callback set on a clock; cancelling one that already ran does nothing. */
export interface ClockTimer {
  cancel(): void;
}

/**
 * A clock that also runs a callback later. The background loops run on one
 * (src/engine/ports/periodic-task.ts), so a test's fake clock decides when their next run is due.
 */
export interface TimerClock extends Clock {
  /** Calls `callback` once after `ms`; the timer never keeps the process alive by itself. */
  after(ms: number, callback: () => void): ClockTimer;
}

export const systemClock: TimerClock = {
  now: () => new Date(),
  after: (ms, callback) => {
    const handle = setTimeout(callback, Math.max(0, ms));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

/**
 * A wait of `ms` on `clock` (a driver's retries and rate limits: tests move a fake clock on). On
 * the system clock it is a plain `setTimeout`, which keeps the process alive meanwhile (a
 * command that only waits out a rate limit does not end before it).
 */
export function sleepOn(clock: TimerClock): (ms: number) => Promise<void> {
  if (clock === systemClock) {
    return (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  }
  return (ms) => new Promise<void>((resolve) => clock.after(ms, resolve));
}
