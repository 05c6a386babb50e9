/**
 * The periodic task (src/engine/ports/periodic-task.ts) on a fake clock: runs every interval from the end
 * of the previous run, at once on wake, never overlapping, a failed run logged and the loop going
 * on, and stop waiting for the run under way only up to its bound.
 */
import type { ClockTimer, TimerClock } from '../../src/engine/ports/clock';
import { PeriodicTask } from '../../src/engine/ports/periodic-task';

/** A clock whose time moves only when the test advances it, firing the timers that came due. */
class FakeTimerClock implements TimerClock {
  private at = 0;
  private timers: Array<{ due: number; callback: () => void; cancelled: boolean }> = [];

  now(): Date {
    return new Date(this.at);
  }

  after(ms: number, callback: () => void): ClockTimer {
    const timer = { due: this.at + ms, callback, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  /** Timers waiting (not fired, not cancelled). */
  get pending(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }

  advance(ms: number): void {
    this.at += ms;
    const due = this.timers.filter((timer) => !timer.cancelled && timer.due <= this.at);
    this.timers = this.timers.filter((timer) => !due.includes(timer));
    for (const timer of due) {
      timer.callback();
    }
  }
}

/** A tick the test finishes by hand, counting its runs and how many were under way at once. */
function controlledTick() {
  const state = { runs: 0, active: 0, mostActive: 0, finish: [] as Array<(error?: Error) => void> };
  const tick = () => {
    state.runs++;
    state.active++;
    state.mostActive = Math.max(state.mostActive, state.active);
    return new Promise<void>((resolve, reject) => {
      state.finish.push((error) => {
        state.active--;
        if (error) {
          reject(error);
        } else {
          resolve();
        }
      });
    });
  };
  return { state, tick };
}

/** Let promise callbacks run (the task goes on after a run's promise settles). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PeriodicTask', () => {
  it('runs every interval, counted from the end of the previous run', async () => {
    const clock = new FakeTimerClock();
    const { state, tick } = controlledTick();
    const task = new PeriodicTask({ name: 'test', intervalMs: 100, tick, onError: () => undefined, clock });
    task.start();
    clock.advance(99);
    expect(state.runs).toBe(0);
    clock.advance(1);
    expect(state.runs).toBe(1);
    // The run takes 500 ms of clock time: no second run meanwhile.
    clock.advance(500);
    expect(state.runs).toBe(1);
    state.finish.shift()?.();
    await settle();
    clock.advance(99);
    expect(state.runs).toBe(1);
    clock.advance(1);
    expect(state.runs).toBe(2);
    state.finish.shift()?.();
    await task.stop();
  });

  it('runs at once on wake, and a wake during a run gives one more run right after it', async () => {
    const clock = new FakeTimerClock();
    const { state, tick } = controlledTick();
    const task = new PeriodicTask({ name: 'test', intervalMs: 60_000, tick, onError: () => undefined, clock });
    task.wake();
    expect(state.runs).toBe(1); // not started: this run, and no timer after it
    state.finish.shift()?.();
    await settle();
    expect(clock.pending).toBe(0);
    task.start();
    expect(clock.pending).toBe(1);
    task.wake();
    expect(clock.pending).toBe(0);
    expect(state.runs).toBe(2);
    task.wake();
    task.wake();
    expect(state.runs).toBe(2);
    state.finish.shift()?.();
    await settle();
    expect(state.runs).toBe(3);
    expect(state.mostActive).toBe(1);
    state.finish.shift()?.();
    await settle();
    expect(state.runs).toBe(3); // the two wakes during the run gave one run, then the interval
    expect(clock.pending).toBe(1);
    await task.stop();
  });

  it('logs a failed run and goes on', async () => {
    const clock = new FakeTimerClock();
    const { state, tick } = controlledTick();
    const errors: Array<[unknown, string]> = [];
    const task = new PeriodicTask({
      name: 'sweeper',
      intervalMs: 10,
      tick,
      onError: (error, name) => errors.push([error, name]),
      clock,
    });
    task.start(true);
    expect(state.runs).toBe(1);
    const failure = new Error('database away');
    state.finish.shift()?.(failure);
    await settle();
    expect(errors).toEqual([[failure, 'sweeper']]);
    clock.advance(10);
    expect(state.runs).toBe(2);
    state.finish.shift()?.();
    await task.stop();
  });

  it('a tick that throws at once is logged too', async () => {
    const clock = new FakeTimerClock();
    const errors: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask({
      name: 'test',
      intervalMs: 10,
      tick: () => {
        runs++;
        throw new Error('no promise');
      },
      onError: (error) => errors.push(error),
      clock,
    });
    task.start(true);
    await settle();
    clock.advance(10);
    await settle();
    expect([runs, errors.length]).toEqual([2, 2]);
    await task.stop();
  });

  it('stop cancels the next run and waits for the one under way, up to its bound', async () => {
    const clock = new FakeTimerClock();
    const { state, tick } = controlledTick();
    const task = new PeriodicTask({
      name: 'test',
      intervalMs: 10,
      tick,
      onError: () => undefined,
      clock,
      stopWaitMs: 50,
    });
    task.start(true);
    let stopped: boolean | null = null;
    const stopping = task.stop().then((finished) => (stopped = finished));
    await settle();
    expect(stopped).toBeNull();
    state.finish.shift()?.();
    await stopping;
    expect(stopped).toBe(true);
    clock.advance(1_000);
    expect(state.runs).toBe(1);

    // A run that never ends: stop gives up after its bound.
    const stuck = new PeriodicTask({
      name: 'stuck',
      intervalMs: 10,
      tick,
      onError: () => undefined,
      clock,
      stopWaitMs: 50,
    });
    stuck.start(true);
    const giving = stuck.stop();
    clock.advance(50);
    expect(await giving).toBe(false);
    stuck.wake();
    expect(state.runs).toBe(2); // stopped: a wake runs nothing

    // Started again after a stop, the loop goes on.
    task.start();
    clock.advance(10);
    expect(state.runs).toBe(3);
    for (const finish of state.finish.splice(0)) {
      finish();
    }
    expect(await task.stop()).toBe(true);
  });
});
