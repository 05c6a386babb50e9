/**
 * One background loop (docs/development.md, "Periodic tasks and wake-ups"): runs `tick` every
 * interval, counted from the end of the previous run, on an injected clock; at once on `wake()`;
 * never two runs at a time (a wake during a run asks for one more run right after it, so no
 * wake-up is lost); a failed run is logged and the loop goes on. `stop()` cancels the next run
 * and waits, up to a bound, for the one under way.
 */
import { systemClock, type ClockTimer, type TimerClock } from './clock';

export interface PeriodicTaskOptions {
  /** Names the task in the log line of a failed run. */
  name: string;
  /** Time between the end of one run and the start of the next (read before each wait). */
  intervalMs: number | (() => number);
  tick: () => Promise<unknown>;
  onError: (error: unknown, name: string) => void;
  clock?: TimerClock;
  /** How long `stop()` waits for the run under way (default 10 s; null: until it ends). */
  stopWaitMs?: number | null;
}

const DEFAULT_STOP_WAIT_MS = 10_000;

export class PeriodicTask {
  private readonly clock: TimerClock;
  private timer: ClockTimer | null = null;
  /** The run under way and what follows it (null when none): `idle()` and `stop()` wait on it. */
  private run: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;

  constructor(private readonly options: PeriodicTaskOptions) {
    this.clock = options.clock ?? systemClock;
  }

  get name(): string {
    return this.options.name;
  }

  /** Whether `stop()` was called and no `start()` since: a long run ends early on it. */
  get stopRequested(): boolean {
    return this.stopped;
  }

  /** Whether a run is under way. */
  get running(): boolean {
    return this.run !== null;
  }

  /**
   * Start the loop (again after `stop()`): the first run after `firstInMs` (default one interval;
   * `wake()` runs at once). A run under way when started schedules the next itself.
   */
  start(firstInMs?: number): void {
    if (this.started) {
      return;
    }
    this.started = true;
    this.stopped = false;
    if (this.run === null) {
      this.schedule(firstInMs);
    }
  }

  /** Run now, or right after the run under way; before `start()` this run is the only one. Nothing once stopped. */
  wake(): void {
    if (this.stopped) {
      return;
    }
    if (this.run !== null) {
      this.again = true;
      return;
    }
    this.timer?.cancel();
    this.timer = null;
    // The tick is called from a promise callback: a tick that throws at once is a failed run too.
    const ran = Promise.resolve()
      .then(() => this.options.tick())
      .then(
        () => undefined,
        (error: unknown) => this.options.onError(error, this.options.name),
      );
    this.run = ran.then(() => this.ended());
  }

  /** Resolves once no run is under way nor asked for right after it. */
  async idle(): Promise<void> {
    while (this.run !== null) {
      await this.run;
    }
  }

  /** Stop the loop; resolves true once the run under way ended, false when `stopWaitMs` passed first. */
  async stop(): Promise<boolean> {
    this.started = false;
    this.stopped = true;
    this.again = false;
    this.timer?.cancel();
    this.timer = null;
    const run = this.run;
    if (run === null) {
      return true;
    }
    const waitMs = this.options.stopWaitMs === undefined ? DEFAULT_STOP_WAIT_MS : this.options.stopWaitMs;
    if (waitMs === null) {
      await run;
      return true;
    }
    let bound: ClockTimer | undefined;
    const gaveUp = new Promise<boolean>((resolve) => {
      bound = this.clock.after(waitMs, () => resolve(false));
    });
    try {
      return await Promise.race([run.then(() => true), gaveUp]);
    } finally {
      bound?.cancel();
    }
  }

  private ended(): void {
    this.run = null;
    if (this.again) {
      this.again = false;
      this.wake();
    } else if (this.started) {
      this.schedule();
    }
  }

  private schedule(inMs?: number): void {
    const { intervalMs } = this.options;
    const ms = inMs ?? (typeof intervalMs === 'function' ? intervalMs() : intervalMs);
    this.timer?.cancel();
    this.timer = this.clock.after(ms, () => {
      this.timer = null;
      this.wake();
    });
  }
}
