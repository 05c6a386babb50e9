/**
 * Takeovers under repeated kills (docs/operations.md#takeovers-under-repeated-kills): three
 * `sluice serve` processes on one PostgreSQL database; every change is pushed at once, so each
 * new leader finds many events and speculative merges waiting, and the leading scheduler is
 * SIGKILLed every 10 to 25 s. Passes commit their work in steps, so changes are reported and
 * merged while the killing goes on, and at the end the audit of the chaos runs finds nothing lost,
 * repeated (node fulfilments included) or left behind. `SLUICE_CHAOS_SEED` repeats a run's
 * decisions; `bench/chaos.ts` with `SLUICE_CHAOS_LEADER_EVERY=10-25` runs it longer.
 */
import { runChaos } from '../../helpers/chaos/chaos-driver';
import { chaosSeed } from '../../helpers/chaos/seeded-random';
import { describeMultiProcess } from '../../helpers/recovery-deployment';

jest.setTimeout(600_000);

describeMultiProcess('chaos: the leading scheduler killed every 10 to 25 s', () => {
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
