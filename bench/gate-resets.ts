/**
 * Randomized gate runs at scale (docs/gating.md#resets): N changes (default 500) of two projects
 * sharing a dependent queue, a share of them failing by content (every job that sees such a change
 * in its speculative state fails), enqueued in a random order under a random window, their builds
 * finished at random, a few at a time. At the end every good change must be reported SUCCESS and
 * merged exactly once, every failing one reported FAILURE and never merged. The engine runs on the
 * bench database with the engine tests' scripted neighbours (test/engine/random-gate.ts).
 *
 *   npx tsx bench/gate-resets.ts [changes] [seed]      # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/gate-resets.ts 500 7
 */
import os from 'node:os';
import { openBenchDatabase } from './bench-database';
import { EngineHarness } from '../test/engine/harness';
import { planRandomGate, randomGateMistakes, runRandomGate } from '../test/engine/random-gate';
import { makeLayout } from '../test/engine/scripted-layout';

async function main(): Promise<void> {
  const changes = Number(process.argv[2] ?? 500);
  const seed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 31));
  const failRatio = Number(process.env.SLUICE_GATE_FAIL_RATIO ?? 0.2);
  const maxOpen = Number(process.env.SLUICE_GATE_MAX_OPEN ?? 40);
  const { database, cleanup } = await openBenchDatabase();
  const plan = planRandomGate(seed, changes, { failRatio, maxOpen });
  const loadBefore = os.loadavg();
  const h = new EngineHarness(database, makeLayout({ ...plan.layout, tenant: 'bench' }));
  try {
    await h.start();
    const outcome = await runRandomGate(h, plan, {
      log: (line) => process.stderr.write(`${line}\n`),
      maxSteps: changes * 400,
    });
    const mistakes = randomGateMistakes(plan, outcome);
    const resets = await database.knex('buildsets').where({ tenant: 'bench', result: 'DEQUEUED' }).count({ n: '*' });
    const figures = {
      store: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      seed,
      failRatio,
      maxOpen,
      ...outcome.figures,
      buildsetsReset: Number(resets[0]?.n ?? 0),
      refused: plan.refused.size,
      dequeuedByAdmin: outcome.dequeued.size,
      merged: outcome.merged.length,
      mistakes: mistakes.length,
      engineErrors: h.errors.length,
      loadBefore: loadBefore.map((value) => value.toFixed(1)),
      loadAfter: os.loadavg().map((value) => value.toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    for (const line of [...mistakes, ...h.errors]) {
      process.stdout.write(`${line}\n`);
    }
    process.exitCode = mistakes.length === 0 && h.errors.length === 0 ? 0 : 1;
  } finally {
    await h.stop();
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
