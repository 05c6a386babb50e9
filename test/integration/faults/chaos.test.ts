/**
 * The chaos test of docs/operations.md#chaos-runs: three `sluice serve` processes on one
 * PostgreSQL database gate changes (some fail) while the driver SIGKILLs a process at 20 or more
 * moments read from the database and the repository (a build requested or running, a result or
 * trigger event pending, a pass just committed, a merge just pushed, a timer) and starts it again.
 * At the end every change is reported once with its job's result, every successful change is
 * merged once and no failed one, no item is left in a queue, and no build request, semaphore,
 * node or engine event is left behind. The seed is printed; `SLUICE_CHAOS_SEED` repeats its
 * decisions. The longer run is bench/chaos.ts.
 *
 * Takeovers under repeated kills (docs/operations.md#takeovers-under-repeated-kills): every
 * change is pushed at once, so each new leader finds many events and speculative merges waiting,
 * and the leading scheduler is SIGKILLed 10 to 25 s after it took the lead. Passes commit their
 * work in steps, so changes are reported and merged while the killing goes on, and at the end
 * the audit finds nothing lost, repeated (node fulfilments included) or left behind.
 * `bench/chaos.ts` with `SLUICE_CHAOS_LEADER_EVERY=10-25` runs it longer.
 *
 * Both runs are in this one file so that jest never runs them at the same time: six `sluice`
 * processes and two kill schedules on a 2-core machine starve each other's leaders.
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
      // Enough changes that the gate is still busy at the 20th kill point: with 16, a fast gate
      // (17 git commands per change) had finished them all after 18 (seed 708815238).
      changes: 24,
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

describeMultiProcess('chaos: the leading scheduler killed 10 to 25 s into each lead', () => {
  it('still reports and merges changes while the kills go on', async () => {
    const seed = chaosSeed();
    const lines: string[] = [];
    const figures = await runChaos({
      seed,
      processes: 3,
      changes: 10,
      failRatio: 0.2,
      kills: 6,
      killBudgetMs: 200_000,
      finishBudgetMs: 240_000,
      maxOpen: 10,
      jobSeconds: 1,
      killLeaderEveryMs: [10_000, 25_000],
      log: (line) => lines.push(line),
    });
    process.stdout.write(`chaos seed ${seed}\n${lines.join('\n')}\n`);
    expect({ seed, clean: figures.clean, logDir: figures.logDir, audit: figures.audit }).toEqual({
      seed,
      clean: true,
      logDir: null,
      audit: expect.objectContaining({ lost: [], stuck: [], wrongOutcome: [], duplicateNodeFulfilments: 0 }),
    });
    // Committed progress: reported (a merge pushed by a leader killed before its commit is not).
    expect(figures.reportedWhileKilling).toBeGreaterThan(0);
    expect(figures.mergedWhileKilling).toBeGreaterThan(0);
  });
});
