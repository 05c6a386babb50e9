/**
 * Engine benchmark: N changes (default 1,000) through a dependent gate pipeline with window 20
 * and instant jobs (two per change; the scripted executor answers at once). Reports items per
 * second, the process CPU time per item (process.cpuUsage, user + system; with the embedded
 * store this includes PGlite, which runs in the same process), SQL statements per item (BEGIN
 * and COMMIT included; independent of the machine's load, unlike the rest) and the load average
 * at the start and the end. `BENCH_QUERIES=1` adds the statements per item by kind.
 *
 *   npx tsx bench/engine-gate.ts [changes]              # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/engine-gate.ts
 */
import os from 'node:os';
import { InProcessEventBus } from '../src/engine/event-bus';
import { openBenchDatabase } from './bench-database';
import { startBenchEngine } from './bench-engine';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 1000);
  const { database, cleanup } = await openBenchDatabase();
  const queryCounts = new Map<string, number>();
  let counting = false;
  database.knex.on('query', (query: { sql: string }) => {
    if (counting) {
      const key = statementKind(query.sql.replace(/\d+/g, 'N'));
      queryCounts.set(key, (queryCounts.get(key) ?? 0) + 1);
    }
  });
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
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  bus.subscribe('bench', (delta) => {
    if (delta.type === 'item-reported') {
      reported += 1;
      if (reported === total) {
        resolveDone();
      }
    }
  });
  const { engine, changes, executor } = await startBenchEngine(database, layout, bus);
  executor.auto = () => ({ result: 'SUCCESS', durationMs: 0 });

  for (let number = 1; number <= total; number += 1) {
    changes.add('org/project', number);
  }
  const loadBefore = os.loadavg()[0];
  counting = true;
  const cpuStart = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let number = 1; number <= total; number += 1) {
    const result = await engine.enqueue('bench', { pipeline: 'gate', project: 'org/project', change: `${number},1` });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
  }
  await done;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMsPerItem = (cpu.user + cpu.system) / 1000 / total;
  counting = false;
  const statements = [...queryCounts.values()].reduce((sum, count) => sum + count, 0);
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
      mergedBuildsets: Number(merged[0].count),
      seconds: Number(seconds.toFixed(2)),
      itemsPerSecond: Number((total / seconds).toFixed(1)),
      cpuMsPerItem: Number(cpuMsPerItem.toFixed(2)),
      statementsPerItem: Number((statements / total).toFixed(1)),
      loadAverage: [Number(loadBefore.toFixed(1)), Number(os.loadavg()[0].toFixed(1))],
    }),
  );
  if (process.env.BENCH_QUERIES) {
    for (const [kind, count] of [...queryCounts.entries()].sort((a, b) => b[1] - a[1])) {
      console.log(`${(count / total).toFixed(2).padStart(7)}  ${kind}`);
    }
  }
  await cleanup();
}

/** A statement's verb and table ("insert engine_events", "select buildsets"), or the statement itself (BEGIN). */
function statementKind(sql: string): string {
  const words = sql.replace(/"/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  const verb = /^(select|insert|update|delete|with)\b/.exec(words)?.[1];
  if (verb === undefined) {
    return words.slice(0, 40);
  }
  const table = /\b(?:from|into|update)\s+([a-z_]+)/.exec(words)?.[1] ?? '?';
  return `${verb} ${table}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
