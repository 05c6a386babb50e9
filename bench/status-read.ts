/**
 * A status read at N items (default 500) including the store: `Engine.status` (what GraphQL
 * `Tenant.status` and REST `status` start from) on a dependent gate whose window (20) holds items
 * with three running jobs each, read R times (default 100) while nothing changes, then once after
 * each of a few passes that changed the tenant (the parsed state is read again then,
 * docs/live.md#status-computation). Reports p50 and p95 of each, in ms, and the process CPU per
 * steady read (with PGlite it includes the database, which runs in the process).
 *
 *   npx tsx bench/status-read.ts [items] [reads]              # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/status-read.ts
 */
import os from 'node:os';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';
import { openBenchDatabase } from './bench-database';
import { startBenchEngine } from './bench-engine';

const WINDOW = { increaseType: 'linear', increaseFactor: 1, decreaseType: 'exponential', decreaseFactor: 2 } as const;

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)].toFixed(2));
}

async function timed(operation: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await operation();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  const items = Number(process.argv[2] ?? 500);
  const reads = Number(process.argv[3] ?? 100);
  const { database, cleanup } = await openBenchDatabase();
  const layout = makeLayout({
    tenant: 'bench',
    pipelines: [
      pipeline('gate', 'dependent', { triggers: [], window: { window: 20, floor: 3, ceiling: 20, ...WINDOW } }),
    ],
    projects: [{ name: 'org/project' }],
    jobs: { 'org/project': { gate: [job('unit'), job('lint'), job('integration')] } },
  });
  const { engine, changes } = await startBenchEngine(database, layout);
  const enqueue = async (number: number): Promise<void> => {
    changes.add('org/project', number);
    const result = await engine.enqueue('bench', { pipeline: 'gate', project: 'org/project', change: `${number},1` });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
  };
  for (let number = 1; number <= items; number += 1) {
    await enqueue(number);
  }
  await engine.settle('bench');
  const status = await engine.status('bench');
  const held = status?.pipelines.flatMap((p) => p.changeQueues.flatMap((q) => q.heads.flat())).length ?? 0;

  const load = os.loadavg()[0];
  const steady: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let read = 0; read < reads; read += 1) {
    steady.push(await timed(() => engine.status('bench')));
  }
  const cpu = process.cpuUsage(cpuStart);
  const afterPass: number[] = [];
  for (let round = 1; round <= 10; round += 1) {
    await enqueue(items + round);
    await engine.settle('bench');
    afterPass.push(await timed(() => engine.status('bench')));
  }
  await engine.stop();
  console.log(
    JSON.stringify({
      store: database.kind,
      items: held,
      reads,
      statusMs: { p50: percentile(steady, 0.5), p95: percentile(steady, 0.95) },
      cpuMsPerRead: Number(((cpu.user + cpu.system) / 1000 / reads).toFixed(2)),
      afterAPassMs: { p50: percentile(afterPass, 0.5), p95: percentile(afterPass, 0.95) },
      loadAverage: { start: Number(load.toFixed(1)), end: Number(os.loadavg()[0].toFixed(1)) },
    }),
  );
  await cleanup();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
