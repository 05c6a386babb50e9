/**
 * How well the estimates are calibrated (docs/analytics.md#calibration): a generated job history
 * replayed through the store (how often a successful build's real duration stays within the p90
 * it started with, target >= 85%), then a dependent gate queue driven through the real engine
 * with a fake clock (the mean absolute error of item ETAs against when each item reported).
 *
 *   npx tsx bench/estimate-calibration.ts [items] [gateChanges] [seed]   # embedded PGlite in memory
 *   DATABASE_URL=postgres://... npx tsx bench/estimate-calibration.ts
 */
import { openBenchDatabase } from './bench-database';
import { calibrateJobs, jobCalibrationRows } from './calibration/job-history';
import { calibrateGate, gateCalibrationRows } from './calibration/gate-simulation';

async function main(): Promise<void> {
  const items = Number(process.argv[2] ?? 600);
  const gateChanges = Number(process.argv[3] ?? 120);
  const seed = Number(process.argv[4] ?? 7);
  const { database, cleanup } = await openBenchDatabase();
  try {
    const started = Date.now();
    const jobs = await calibrateJobs(database, items, seed);
    console.log(`Job estimates (${items} items, seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s):`);
    for (const row of jobCalibrationRows(jobs)) {
      console.log(`  ${row}`);
    }
    const gateStarted = Date.now();
    const gate = await calibrateGate(database, gateChanges, seed);
    console.log(
      `Item ETAs (${gateChanges} changes through a gate, ${((Date.now() - gateStarted) / 1000).toFixed(0)} s):`,
    );
    for (const row of gateCalibrationRows(gate)) {
      console.log(`  ${row}`);
    }
  } finally {
    await cleanup();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
