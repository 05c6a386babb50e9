/** Link states, backoff, connection-error classification, retries and the reconnect loop (docs/operations.md#database-links). */
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  isConnectionError,
  LinkTracker,
  Reconnector,
  retryConnectionErrors,
} from '../../../src/store/links';
import { ManualTimers } from '../../helpers/pg-faults';

/** Let pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('database links', () => {
  it('backs off exponentially up to the cap, with at most the configured jitter', () => {
    const policy = { initialMs: 100, maxMs: 2000, factor: 2, jitter: 0.2 };
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => backoffDelay(policy, attempt, () => 0))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000,
    ]);
    expect(backoffDelay(policy, 0, () => 1)).toBe(120);
    expect(backoffDelay(DEFAULT_BACKOFF, 20, () => 0.5)).toBeLessThanOrEqual(DEFAULT_BACKOFF.maxMs * 1.2);
  });

  it('tells connection failures from statement errors', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(isConnectionError(coded('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isConnectionError(coded('08006'))).toBe(true);
    expect(isConnectionError(coded('ECONNREFUSED'))).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isConnectionError(coded('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isConnectionError(coded('42P01', 'relation "x" does not exist'))).toBe(false);
    expect(isConnectionError('a string')).toBe(false);
  });

  it('a link remembers when it changed and why it is down', () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const link = new LinkTracker('bus.listen', true, () => now);
    const changes: boolean[] = [];
    link.onChange((state) => changes.push(state.up));
    now = new Date('2030-01-01T00:00:05Z');
    link.down(new Error('terminating connection'));
    now = new Date('2030-01-01T00:00:06Z');
    link.down(new Error('connect ECONNREFUSED'));
    expect(link.state).toEqual({
      name: 'bus.listen',
      up: false,
      since: new Date('2030-01-01T00:00:05Z'),
      error: 'connect ECONNREFUSED',
    });
    link.up();
    expect(link.state).toMatchObject({ up: true, since: new Date('2030-01-01T00:00:06Z'), error: null });
    expect(changes).toEqual([false, true]);
  });

  it('retries connection errors with backoff, and gives up on other errors or when told to', async () => {
    const timers = new ManualTimers();
    let calls = 0;
    const retried = retryConnectionErrors(
      async () => {
        calls += 1;
        if (calls < 3) {
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        }
        return 'stored';
      },
      { timers },
    );
    for (let round = 0; round < 2; round += 1) {
      await timers.waitForTimer();
      timers.fireAll();
    }
    expect(await retried).toBe('stored');
    expect(calls).toBe(3);

    await expect(retryConnectionErrors(() => Promise.reject(new Error('syntax error')), { timers })).rejects.toThrow(
      'syntax error',
    );
    await expect(
      retryConnectionErrors(() => Promise.reject(new Error('Connection terminated')), { timers, giveUp: () => true }),
    ).rejects.toThrow('Connection terminated');
  });

  it('reconnects with backoff after failures and after a loss, and stops when closed', async () => {
    const timers = new ManualTimers();
    const link = new LinkTracker('test', false);
    let attempts = 0;
    const disposed: number[] = [];
    const reconnector = new Reconnector<number>({
      connect: () => {
        attempts += 1;
        return attempts <= 2 ? Promise.reject(new Error(`refused ${attempts}`)) : Promise.resolve(attempts);
      },
      dispose: (connection) => {
        disposed.push(connection);
        return Promise.resolve();
      },
      link,
      timers,
      random: () => 0,
    });
    reconnector.start();
    const ready = reconnector.ready();
    await timers.waitForTimer();
    timers.fireAll();
    await timers.waitForTimer();
    timers.fireAll();
    await ready;
    expect([attempts, reconnector.current, link.state.up]).toEqual([3, 3, true]);
    expect(timers.requested).toEqual([100, 200]);

    reconnector.lost(3, new Error('terminated'));
    expect([reconnector.current, link.state.up, link.state.error]).toEqual([null, false, 'terminated']);
    await settle();
    expect(disposed).toEqual([3]);
    expect(timers.requested).toEqual([100, 200, 100]); // the backoff starts over after a success
    await reconnector.close();
    expect(timers.size).toBe(0);
    timers.fireAll();
    await settle();
    expect(attempts).toBe(3); // closed: no more attempts
  });
});
