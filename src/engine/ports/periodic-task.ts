/**
 * One periodic task: runs `tick` every interval (counted from the end of the previous run) on an
 * injected clock, at once on `wake()`, never two runs at a time (a wake during a run asks for one
 * more run right after it), a failing run logged and the loop going on. `stop()` cancels the next
 * run and waits, up to a bound, for the one under way. The service's background loops are built on
 * it (docs/development.md, "Periodic tasks and wake-ups").
 */
import { systemClock, type ClockTimer, type TimerClock } from './clock';

export interface PeriodicTaskOptions {
  /** Names the task in the log line of a failed run. */
  name: string;
  /** Time between the end of one run and the next (read before each wait, so it may change). */
  intervalMs: number | (() => number);
  tick: () => Promise<unknown>;
  onError: (error: unknown, name: string) => void;
  clock?: TimerClock;
  /** How long `stop()` waits for a run under way (default 10 s). */
  stopWaitMs?: number;
}

const DEFAULT_STOP_WAIT_MS = 10_000;

export class PeriodicTask {
  private timer: ClockTimer | null = null;
  /** The run under way (null when none), for `stop()` to wait on. */
  private run: Promise<void> | null = null;
  private busy = false;
  private again = false;
  private started = false;
  private stopped = false;
  private readonly clock: TimerClock;

  constructor(private readonly options: PeriodicTaskOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Whether a run is under way. */
  get running(): boolean {
    return this.busy;
  }

  /** Start the loop (again after `stop()`): the first run at once (`immediately`) or after one interval. */
  start(immediately = false): void {
    if (this.started) {
      return;
    }
    this.started = true;
    this.stopped = false;
    if (immediately) {
      this.wake();
    } else if (!this.busy) {
      this.schedule(); // (a run under way schedules the next itself)
    }
  }

  /** Run now (after the run under way, if any); before `start()` this run is the only one. Does nothing once stopped. */
  wake(): void {
    if (this.stopped) {
      return;
    }
    if (this.busy) {
      this.again = true;
      return;
    }
    this.timer?.cancel();
    this.timer = null;
    this.busy = true;
    const run = this.runOnce();
    // A tick that throws at once has ended (and scheduled the next run) already.
    this.run = this.busy ? run : null;
  }

  /** Resolves once no run is under way (nor asked for right after the one under way). */
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
    let bound: ClockTimer | null = null;
    const waited = new Promise<boolean>((resolve) => {
      bound = this.clock.after(this.options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS, () => resolve(false));
    });
    try {
      return await Promise.race([run.then(() => true), waited]);
    } finally {
      (bound as ClockTimer | null)?.cancel();
    }
  }

  private async runOnce(): Promise<void> {
    try {
      await this.options.tick();
    } catch (error) {
      this.options.onError(error, this.options.name);
    }
    this.busy = false;
    this.run = null;
    if (this.again) {
      this.again = false;
      this.wake();
    } else if (this.started) {
      this.schedule();
    }
  }

  private schedule(): void {
    const { intervalMs } = this.options;
    const ms = typeof intervalMs === 'function' ? intervalMs() : intervalMs;
    this.timer = this.clock.after(ms, () => {
      this.timer = null;
      this.wake();
    });
  }
}
