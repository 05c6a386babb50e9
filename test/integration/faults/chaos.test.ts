/**
 * The chaos test of docs/operations.md#chaos-runs: three `sluice serve` processes on one
 * PostgreSQL database gate changes (some fail) while the driver SIGKILLs a process at 20 or more
 * moments read from the database and the repository (a build requested or running, a result or
 * trigger event pending, a pass just committed, a merge just pushed, a timer) and starts it again.
 * At the end every change is reported once with its job's result, every successful change is
 * merged once and no failed one, no item is left in a queue, and no build request, semaphore,
 * node or engine event is left behind. The seed is printed; `SLUICE_CHAOS_SEED` repeats its
 * decisions. The longer run is bench/chaos.ts.
 */
import { runChaos } from '../../helpers/chaos/chaos-driver';
import { chaosSeed } from '../../helpers/chaos/seeded-random';
import { describeMultiProcess } from '../../helpers/recovery-deployment';

// Above the run's own bound (kill and finish budgets, set-up, stopping), so the driver always ends
// the run and stops its processes itself: a jest time-out would leave them running.
jest.setTimeout(600_000);

const KILL_POINTS = 20;

describeMultiProcess('chaos: processes SIGKILLed at random moments of gate runs', () => {
  it('loses, repeats and strands nothing', async () => {
    const seed = chaosSeed();
    const lines: string[] = [];
    const figures = await runChaos({
      seed,
      processes: 3,
      changes: 16,
      failRatio: 0.25,
      kills: KILL_POINTS,
      killBudgetMs: 200_000,
      finishBudgetMs: 120_000,
      maxOpen: 5,
      jobSeconds: 1,
      log: (line) => lines.push(line),
    });
    // The seed and the kill schedule, for a failure to be repeated.
    process.stdout.write(`chaos seed ${seed}\n${lines.join('\n')}\n`);
    expect({ seed, logDir: figures.logDir, audit: figures.audit, finished: figures.finished }).toEqual({
      seed,
      logDir: null,
      audit: {
        lost: [],
        duplicateReports: [],
        duplicateMerges: [],
        duplicateBuilds: 0,
        duplicateNodeFulfilments: 0,
        stuck: [],
        wrongOutcome: [],
        leftovers: {
          buildRequestsNotCompleted: 0,
          nodesInUse: 0,
          nodesetRequests: 0,
          semaphoreHolders: 0,
          eventsUnprocessed: 0,
        },
      },
      finished: true,
    });
    expect(figures.killPoints).toBeGreaterThanOrEqual(KILL_POINTS);
  });
});
