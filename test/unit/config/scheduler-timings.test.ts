/**
 * The `scheduler` keys of the service configuration (seconds) become the engine's timings
 * (src/server/scheduler-timings.ts, docs/configuration.md#keys), the pass budget among them.
 */
import { parseServiceConfig, ServiceConfigError } from '../../../src/config/service';
import { schedulerTimings } from '../../../src/server/scheduler-timings';

function timings(text: string) {
  return schedulerTimings(parseServiceConfig(text, '/etc/sluice/sluice.yaml').scheduler);
}

describe('scheduler timings', () => {
  it('defaults to a 1 s poll, a 15 s lease and a 2 s pass budget', () => {
    expect(timings('')).toEqual({ pollIntervalMs: 1000, leadership: { ttlMs: 15_000 }, passBudgetMs: 2000 });
  });

  it('takes the keys in seconds', () => {
    expect(timings('scheduler: {pollInterval: 0.5, leaseTimeout: 30, passBudget: 0.25}')).toEqual({
      pollIntervalMs: 500,
      leadership: { ttlMs: 30_000 },
      passBudgetMs: 250,
    });
  });

  it.each([
    ['scheduler: {passBudget: 0}', 'scheduler.passBudget: Too small: expected number to be >=0.1'],
    ['scheduler: {passBudget: 601}', 'scheduler.passBudget: Too big: expected number to be <=600'],
    ['scheduler: {passBudget: soon}', 'scheduler.passBudget: Invalid input: expected number, received string'],
  ])('refuses %s', (text, problem) => {
    let problems: string[] = [];
    try {
      parseServiceConfig(text, '/etc/sluice/sluice.yaml');
    } catch (err) {
      problems = err instanceof ServiceConfigError ? err.problems : [];
    }
    expect(problems).toEqual([`/etc/sluice/sluice.yaml:1: ${problem}`]);
  });
});
