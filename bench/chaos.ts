/**
 * The longer chaos run (docs/operations.md#chaos-runs): `sluice serve` processes on one
 * PostgreSQL database gate changes while processes are SIGKILLed at moments read from the
 * database and the repository, at least 100 kill points by default. Prints the figures as JSON
 * and exits 1 when a change was lost, reported or merged twice, or left stuck.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/chaos.ts [kills] [changes]
 *   SLUICE_CHAOS_SEED=1234 ...               # repeat a run's decisions
 *   SLUICE_CHAOS_MERGE_MODE=cherry-pick ...  # instead of the mode drawn from the seed
 *   SLUICE_CHAOS_FINISH_SECONDS=300 ...      # how long the gate gets to finish after the killing
 *   SLUICE_CHAOS_LEADER_EVERY=10-25 ...      # kill the leading scheduler 10 to 25 s into each lead instead of at moments
 *   SLUICE_CHAOS_MAX_OPEN=16 ...             # changes pushed and not reported at once (default 6)
 */
import { runChaos } from '../test/helpers/chaos/chaos-driver';
import { chaosSeed } from '../test/helpers/chaos/seeded-random';

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    throw new Error('set DATABASE_URL to a PostgreSQL server (a database of its own is created and dropped)');
  }
  const kills = Number(process.argv[2] ?? 100);
  const changes = Number(process.argv[3] ?? 60);
  const leaderEvery = process.env.SLUICE_CHAOS_LEADER_EVERY?.split('-').map((seconds) => Number(seconds) * 1000);
  const figures = await runChaos({
    seed: chaosSeed(),
    processes: 3,
    changes,
    failRatio: 0.2,
    kills,
    killBudgetMs: 60 * 60_000,
    finishBudgetMs: Number(process.env.SLUICE_CHAOS_FINISH_SECONDS ?? 300) * 1000,
    maxOpen: Number(process.env.SLUICE_CHAOS_MAX_OPEN ?? 6),
    killLeaderEveryMs: leaderEvery && leaderEvery.length === 2 ? [leaderEvery[0], leaderEvery[1]] : undefined,
    jobSeconds: 1,
    mergeMode: process.env.SLUICE_CHAOS_MERGE_MODE || undefined,
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`${JSON.stringify({ ...figures, kills: undefined }, null, 2)}\n`);
  process.exitCode = figures.clean && figures.killPoints >= kills ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
