/**
 * Engine benchmark: N changes (default 1,000) through a dependent gate pipeline with window 20
 * and instant jobs (two per change; the scripted executor answers at once). Reports items per
 * second, the process CPU time per item (process.cpuUsage, user + system; with the embedded
 * store this includes PGlite, which runs in the same process), on PostgreSQL on this machine the
 * CPU time per item of the server's backends (./server-cpu.ts), SQL statements per item (BEGIN
 * and COMMIT included; independent of the machine's load, unlike the rest), the process's garbage
 * collection pauses and young-generation collections per item (./gc-time.ts; the count follows the
 * bytes allocated, so it is steadier than the times) and the load average
 * at the start and the end. `BENCH_QUERIES=1` adds the statements per item by kind. The changes
 * are enqueued by one client, one after another; `BENCH_CLIENTS=k` has k clients enqueue them at
 * the same time, each one change after another (change i by client i mod k). `BENCH_WARMUP=w`
 * first takes w changes through the gate, unmeasured, so that the figures are of a process whose
 * code the JIT has compiled (a service runs for days; a cold run of 1,000 changes spends a good
 * part of its CPU compiling, see docs/gating.md#performance); w is printed as `warmup`.
 *
 *   npx tsx bench/engine-gate.ts [changes]              # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/engine-gate.ts
 */
import os from 'node:os';
import type { Engine } from '../src/engine/engine';
import { InProcessEventBus } from '../src/engine/event-bus';
import { openBenchDatabase } from './bench-database';
import { startBenchEngine } from './bench-engine';
import { GcTime } from './gc-time';
import { ServerCpu } from './server-cpu';
import { StatementCounter } from './statement-counter';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 1000);
  const warmup = Math.max(0, Number(process.env.BENCH_WARMUP ?? 0));
  const { database, cleanup } = await openBenchDatabase();
  const statements = new StatementCounter(database.knex);
  const layout = makeLayout({
    tenant: 'bench',
    pipelines: [
      pipeline('gate', 'dependent', {
        triggers: [],
        submit: true,
        window: {
          window: 20,
          floor: 3,
          ceiling: 20,
          increaseType: 'linear',
          increaseFactor: 1,
          decreaseType: 'exponential',
          decreaseFactor: 2,
        },
      }),
    ],
    projects: [{ name: 'org/project' }],
    jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
  });
  let reported = 0;
  const bus = new InProcessEventBus();
  const warmed = reportedCount(warmup);
  const done = reportedCount(warmup + total);
  bus.subscribe('bench', (delta) => {
    if (delta.type === 'item-reported') {
      reported += 1;
      warmed.reached(reported);
      done.reached(reported);
    }
  });
  const { engine, changes, executor } = await startBenchEngine(database, layout, bus);
  executor.auto = () => ({ result: 'SUCCESS', durationMs: 0 });

  for (let number = 1; number <= warmup + total; number += 1) {
    changes.add('org/project', number);
  }
  // The warm-up's changes are numbered after the measured ones, so the measured run's are as without it.
  for (let number = total + 1; number <= total + warmup; number += 1) {
    await enqueueChange(engine, number);
  }
  await warmed.promise;
  const loadBefore = os.loadavg()[0];
  const serverCpu = database.kind === 'postgres' ? await ServerCpu.start(database.knex) : null;
  statements.start();
  const gc = new GcTime();
  gc.start();
  const cpuStart = process.cpuUsage();
  const started = process.hrtime.bigint();
  const clients = Math.max(1, Number(process.env.BENCH_CLIENTS ?? 1));
  const client = async (first: number): Promise<void> => {
    for (let number = first; number <= total; number += clients) {
      await enqueueChange(engine, number);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index + 1)));
  await done.promise;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMsPerItem = (cpu.user + cpu.system) / 1000 / total;
  const collected = gc.stop();
  statements.stop();
  const serverMs = (await serverCpu?.elapsedMs()) ?? null;
  await engine.stop();
  const merged = await database
    .knex('buildsets')
    .where({ tenant: 'bench', result: 'SUCCESS' })
    .count<Array<{ count: string | number }>>({ count: '*' });
  console.log(
    JSON.stringify({
      store: database.kind,
      changes: total,
      window: 20,
      jobsPerChange: 2,
      clients,
      warmup,
      mergedBuildsets: Number(merged[0].count) - warmup,
      seconds: Number(seconds.toFixed(2)),
      itemsPerSecond: Number((total / seconds).toFixed(1)),
      cpuMsPerItem: Number(cpuMsPerItem.toFixed(2)),
      serverCpuMsPerItem: serverMs === null ? null : Number((serverMs / total).toFixed(2)),
      statementsPerItem: Number((statements.total / total).toFixed(1)),
      gcPauseMsPerItem: Number((collected.pauseMs / total).toFixed(2)),
      youngCollectionsPerItem: Number((collected.youngCollections / total).toFixed(3)),
      loadAverage: [Number(loadBefore.toFixed(1)), Number(os.loadavg()[0].toFixed(1))],
    }),
  );
  if (process.env.BENCH_QUERIES) {
    for (const [kind, perItem] of statements.perItem(total)) {
      console.log(`${perItem.toFixed(2).padStart(7)}  ${kind}`);
    }
  }
  await cleanup();
}

async function enqueueChange(engine: Engine, number: number): Promise<void> {
  const result = await engine.enqueue('bench', { pipeline: 'gate', project: 'org/project', change: `${number},1` });
  if (!result.ok) {
    throw new Error(result.error.message);
  }
}

/** A promise resolved once the count of reported items reaches `target` (at once when it is 0). */
function reportedCount(target: number): { promise: Promise<void>; reached: (count: number) => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  if (target === 0) {
    resolve();
  }
  return { promise, reached: (count) => (count === target ? resolve() : undefined) };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
