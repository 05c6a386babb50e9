/**
 * Loading a tenant's pipeline state (`EngineStateRepository.loadPipelines`, which the scheduler
 * runs on start and every status read runs too) with N items in a dependent gate (default 500)
 * whose window (default 20) holds items with three running jobs each. Reports the first load (its
 * rows are validated: src/store/repositories/engine-state-json.ts), the average of the loads after
 * it (texts validated before are not checked again, as for repeated status reads) and how long
 * checking every row takes on its own.
 *
 *   npx tsx bench/engine-state-load.ts [items] [window] [rounds]     # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/engine-state-load.ts
 */
import { EngineStateRepository } from '../src/store/repositories/engine-state';
import { jobStateSchema, storedItemSchema, storedValue } from '../src/store/repositories/engine-state-json';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';
import { openBenchDatabase } from './bench-database';
import { startBenchEngine } from './bench-engine';

const WINDOW = { increaseType: 'linear', increaseFactor: 1, decreaseType: 'exponential', decreaseFactor: 2 } as const;

function milliseconds(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}

async function main(): Promise<void> {
  const items = Number(process.argv[2] ?? 500);
  const window = Number(process.argv[3] ?? 20);
  const rounds = Number(process.argv[4] ?? 10);
  const { database, cleanup } = await openBenchDatabase();
  const layout = makeLayout({
    tenant: 'bench',
    pipelines: [
      pipeline('gate', 'dependent', {
        triggers: [],
        window: { window, floor: 3, ceiling: window, ...WINDOW },
      }),
    ],
    projects: [{ name: 'org/project' }],
    jobs: { 'org/project': { gate: [job('unit'), job('lint'), job('integration')] } },
  });
  const { engine, changes } = await startBenchEngine(database, layout);
  for (let number = 1; number <= items; number += 1) {
    changes.add('org/project', number);
    const result = await engine.enqueue('bench', { pipeline: 'gate', project: 'org/project', change: `${number},1` });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
  }
  await engine.settle('bench');
  await engine.stop();

  const repository = new EngineStateRepository(database.knex);
  const first = process.hrtime.bigint();
  const [state] = await repository.loadPipelines('bench');
  const firstLoadMs = milliseconds(first);
  const loadedItems = state.queues.flatMap((queue) => queue.items);
  const jobs = loadedItems.reduce((sum, item) => sum + item.buildset.jobs.length, 0);
  let loadMs = 0;
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    await repository.loadPipelines('bench');
    loadMs += milliseconds(started);
  }
  const itemRows: Array<{ data: unknown }> = await database
    .knex('queue_items')
    .where({ tenant: 'bench' })
    .select('data');
  const jobRows: Array<{ frozen: unknown }> = await database.knex('queue_item_jobs').select('frozen');
  let validationMs = 0;
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    for (const row of itemRows) {
      storedValue(storedItemSchema, row.data, () => 'bench item');
    }
    for (const row of jobRows) {
      storedValue(jobStateSchema, row.frozen, () => 'bench job');
    }
    validationMs += milliseconds(started);
  }
  console.log(
    JSON.stringify({
      store: database.kind,
      items: loadedItems.length,
      window,
      jobs,
      rounds,
      firstLoadMs: Number(firstLoadMs.toFixed(1)),
      loadMs: Number((loadMs / rounds).toFixed(1)),
      validationMs: Number((validationMs / rounds).toFixed(1)),
      validationShare: Number((validationMs / loadMs).toFixed(3)),
    }),
  );
  await cleanup();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
