/**
 * LiveIterator waits for policy changes once per change, not once per event: a wait added for
 * every event would hold memory until the next reconfiguration (docs/live.md#slow-consumers).
 */
import { LiveIterator } from '../../../schema/infra/live-iterator';
import { ChangeSignal } from '../../../src/auth/change-signal';

async function* numbers(count: number): AsyncGenerator<number> {
  for (let n = 1; n <= count; n += 1) {
    yield n;
  }
}

describe('LiveIterator', () => {
  it('registers one wait for the next policy change however many events pass, and re-checks on a change', async () => {
    const signal = new ChangeSignal();
    let waits = 0;
    let checks = 0;
    const iterator = new LiveIterator(numbers(1000), (n: number) => [n * 2], {
      changed: () => {
        waits += 1;
        return signal.next();
      },
      check: () => {
        checks += 1;
      },
    });
    let sum = 0;
    for (let i = 0; i < 1000; i += 1) {
      sum += (await iterator.next()).value as number;
    }
    expect(sum).toBe(1000 * 1001);
    expect(waits).toBe(1);
    signal.fire();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await iterator.next()).done).toBe(true);
    expect(checks).toBe(1);
    expect(waits).toBe(2);
  });

  it('ends with the error of a refused re-check while waiting for the source', async () => {
    const signal = new ChangeSignal();
    const never: AsyncIterator<number> = {
      next: () => new Promise(() => undefined),
      return: async () => ({ value: undefined, done: true }),
    };
    const iterator = new LiveIterator(never, (n: number) => [n], {
      changed: () => signal.next(),
      check: () => {
        throw new Error('Not authorized');
      },
    });
    const next = iterator.next();
    signal.fire();
    await expect(next).rejects.toThrow('Not authorized');
  });
});
