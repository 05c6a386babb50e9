/**
 * The periodic task (src/engine/ports/periodic-task.ts) on a fake clock (no real time passes):
 * runs every interval counted from the end of the previous run, at once on wake, never two runs
 * at a time, one more run after a wake during a run, a failed run logged and the loop going on,
 * and stop waiting for the run under way only up to its bound. Also `sleepOn`, the one-off wait
 * on a clock (src/engine/ports/clock.ts).
 */
import { sleepOn, systemClock } from '../../src/engine/ports/clock';
import { PeriodicTask } from '../../src/engine/ports/periodic-task';
import { FakeTimerClock, settle } from '../helpers/fake-timer-clock';

/** A tick the test ends by hand, counting its runs and how many were under way at once. */
function handTick() {
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
  /** End the oldest run under way and let the task go on. */
  const finish = async (error?: Error) => {
    state.finish.shift()?.(error);
    await settle();
  };
  return { state, tick, finish };
}

describe('PeriodicTask', () => {
  it('runs every interval, counted from the end of the previous run', async () => {
    const clock = new FakeTimerClock();
    const { state, tick, finish } = handTick();
    const task = new PeriodicTask({ name: 'test', intervalMs: 100, tick, onError: () => undefined, clock });
    task.start();
    await clock.advance(99);
    expect(state.runs).toBe(0);
    await clock.advance(1);
    expect(state.runs).toBe(1);
    expect(task.running).toBe(true);
    // The run takes 500 ms: no second run meanwhile, and the next one is due 100 ms after its end.
    await clock.advance(500);
    expect([state.runs, clock.pending]).toEqual([1, []]);
    await finish();
    expect(clock.pending).toEqual([100]);
    await clock.advance(99);
    expect(state.runs).toBe(1);
    await clock.advance(1);
    expect(state.runs).toBe(2);
    await finish();
    expect(await task.stop()).toBe(true);
    expect(clock.pending).toEqual([]);
  });

  it('reads the interval before each wait and may start sooner than one interval', async () => {
    const clock = new FakeTimerClock();
    const { state, tick, finish } = handTick();
    let interval = 50;
    const task = new PeriodicTask({ name: 'test', intervalMs: () => interval, tick, onError: () => undefined, clock });
    task.start(0);
    await clock.advance(0);
    expect(state.runs).toBe(1);
    interval = 70;
    await finish();
    expect(clock.pending).toEqual([70]);
    await task.stop();
  });

  it('runs at once on wake, and wakes during a run give one more run right after it', async () => {
    const clock = new FakeTimerClock();
    const { state, tick, finish } = handTick();
    const task = new PeriodicTask({ name: 'test', intervalMs: 60_000, tick, onError: () => undefined, clock });
    task.wake();
    await settle();
    expect(state.runs).toBe(1); // not started: this run only, no timer after it
    await finish();
    expect(clock.pending).toEqual([]);
    task.start();
    expect(clock.pending).toEqual([60_000]);
    task.wake();
    await settle();
    expect([state.runs, clock.pending]).toEqual([2, []]);
    task.wake();
    task.wake();
    await settle();
    expect(state.runs).toBe(2);
    await finish();
    expect(state.runs).toBe(3); // the two wakes: one run, right after
    await finish();
    expect(state.runs).toBe(3);
    expect(state.mostActive).toBe(1);
    expect(clock.pending).toEqual([60_000]);
    await task.stop();
  });

  it('idle waits for the run under way and the one a wake asked for after it', async () => {
    const clock = new FakeTimerClock();
    const { state, tick, finish } = handTick();
    const task = new PeriodicTask({ name: 'test', intervalMs: 1000, tick, onError: () => undefined, clock });
    task.start();
    task.wake();
    await settle();
    task.wake(); // during the first run
    let idle = false;
    const waiting = task.idle().then(() => (idle = true));
    await finish();
    expect([state.runs, idle]).toEqual([2, false]);
    await finish();
    await waiting;
    expect(idle).toBe(true);
    await task.stop();
  });

  it('logs a failed run, a tick that throws at once too, and goes on', async () => {
    const clock = new FakeTimerClock();
    const { state, tick, finish } = handTick();
    const errors: Array<[unknown, string]> = [];
    const task = new PeriodicTask({
      name: 'sweeper',
      intervalMs: 10,
      tick,
      onError: (error, name) => errors.push([error, name]),
      clock,
    });
    task.start(0);
    await clock.advance(0);
    const failure = new Error('database away');
    await finish(failure);
    expect(errors).toEqual([[failure, 'sweeper']]);
    await clock.advance(10);
    expect(state.runs).toBe(2);
    await finish();
    await task.stop();

    let runs = 0;
    const throwing = new PeriodicTask({
      name: 'throwing',
      intervalMs: 10,
      tick: () => {
        runs++;
        throw new Error('no promise');
      },
      onError: (error, name) => errors.push([error, name]),
      clock,
    });
    throwing.start();
    await clock.advance(20);
    expect(runs).toBe(2);
    expect(errors.slice(1).map(([, name]) => name)).toEqual(['throwing', 'throwing']);
    await throwing.stop();
  });

  it('stop cancels the next run and waits for the one under way, up to its bound', async () => {
    const clock = new FakeTimerClock();
    const { state, tick, finish } = handTick();
    const options = { intervalMs: 10, tick, onError: () => undefined, clock, stopWaitMs: 50 };
    const task = new PeriodicTask({ name: 'test', ...options });
    task.start();
    task.wake();
    await settle();
    let stopped: boolean | null = null;
    const stopping = task.stop().then((finished) => (stopped = finished));
    await settle();
    expect(stopped).toBeNull();
    await finish();
    await stopping;
    expect(stopped).toBe(true);
    await clock.advance(1000);
    expect(state.runs).toBe(1);
    task.wake();
    await settle();
    expect(state.runs).toBe(1); // stopped: a wake runs nothing

    // A run that does not end: stop gives up after its bound.
    const stuck = new PeriodicTask({ name: 'stuck', ...options });
    stuck.wake();
    await settle();
    expect(state.runs).toBe(2);
    const giving = stuck.stop();
    await clock.advance(50);
    expect(await giving).toBe(false);

    // Started again after a stop, the loop goes on.
    task.start();
    await clock.advance(10);
    expect(state.runs).toBe(3);
    for (const end of state.finish.splice(0)) {
      end();
    }
    expect(await task.stop()).toBe(true);
    expect(clock.pending).toEqual([]);
  });
});

describe('sleepOn', () => {
  it('ends when a fake clock moves past the wait, and not before', async () => {
    const clock = new FakeTimerClock();
    let done = false;
    const waiting = sleepOn(clock)(1000).then(() => (done = true));
    expect(clock.pending).toEqual([1000]);
    await clock.advance(999);
    expect(done).toBe(false);
    await clock.advance(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('keeps the process alive while it waits on the system clock, as a plain setTimeout does', async () => {
    const timeouts = jest.spyOn(globalThis, 'setTimeout');
    try {
      const waiting = sleepOn(systemClock)(5);
      const handle = timeouts.mock.results.at(-1)?.value as NodeJS.Timeout;
      expect(handle.hasRef()).toBe(true);
      await waiting;
    } finally {
      timeouts.mockRestore();
    }
  });
});
