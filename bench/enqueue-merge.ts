/**
 * Enqueue -> merged latency of one change at a time, and the hand-overs between roles
 * (docs/operations.md#wake-ups). The quickstart's gate (two shell jobs that finish at once, a
 * real git merger and executor): each change is pushed, enqueued over the API, and timed until
 * its item is reported SUCCESS and master contains it; the next change waits until every build
 * (the post pipeline's too) has ended. The hops are read from the store (test/helpers/gate-hops.ts):
 * enqueue -> the pass that took it, build request -> claim, build result -> the pass that took it.
 *
 *   npx tsx bench/enqueue-merge.ts one [changes]       # one buildApp() process, in this one
 *                                                       # (PGlite, or DATABASE_URL's server)
 *   DATABASE_URL=postgres://... npx tsx bench/enqueue-merge.ts cluster [changes]
 *                                                       # api, scheduler and executor processes
 *                                                       # (`sluice serve --roles`), bus on
 *                                                       # PostgreSQL NOTIFY (REDIS_URL: Redis)
 */
import os from 'node:os';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { GateDeployment, PROJECT, TENANT } from '../test/helpers/gate-deployment';
import { gateHops, median } from '../test/helpers/gate-hops';
import { startQuickstartApp, QUICKSTART_PROJECT, QUICKSTART_TENANT } from '../test/helpers/quickstart-app';
import { startGateRoles, type RoleProcess } from '../test/helpers/role-process';

interface Deployment {
  knex: Knex;
  tenant: string;
  /** Push change `<number>,1`, enqueue it into gate and resolve once it is reported and merged. */
  gate(number: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function untilTrue(check: () => Promise<boolean>, everyMs: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error('timed out');
    }
    await sleep(everyMs);
  }
}

/** Resolves once no build request of the tenant waits or runs. */
function quiet(knex: Knex, tenant: string): Promise<void> {
  return untilTrue(async () => {
    const [row] = await knex('build_requests')
      .where({ tenant })
      .whereIn('state', ['requested', 'running'])
      .count<Array<{ count: string | number }>>({ count: '*' });
    return Number(row.count) === 0;
  }, 50);
}

async function oneProcess(): Promise<Deployment> {
  const quickstart = await startQuickstartApp('sluice-bench-enqueue-');
  return {
    knex: quickstart.database.knex,
    tenant: QUICKSTART_TENANT,
    async gate(number) {
      await quickstart.pushChange(number, { [`notes-${number}.md`]: `${number}\n` }, `Notes ${number}`);
      const from = quickstart.deltaCount();
      const started = performance.now();
      const response = await fetch(
        `${quickstart.url()}/api/tenant/${QUICKSTART_TENANT}/project/${QUICKSTART_PROJECT}/enqueue`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${quickstart.token()}` },
          body: JSON.stringify({ pipeline: 'gate', change: `${number},1` }),
        },
      );
      if (response.status >= 300) {
        throw new Error(`enqueue: ${response.status} ${await response.text()}`);
      }
      const report = await quickstart.waitForReport('gate', from);
      samples.push(performance.now() - started);
      if (report.type !== 'item-reported' || report.result !== 'SUCCESS') {
        throw new Error(`change ${number}: ${JSON.stringify(report)}`);
      }
    },
    stop: () => quickstart.stop(),
  };
}

async function cluster(): Promise<Deployment> {
  const deployment = await GateDeployment.create('sluice-bench-enqueue');
  const database: TestDatabase = await createTestDatabase({ migrate: false });
  const bus = process.env.REDIS_URL
    ? { redis: { url: process.env.REDIS_URL, channelPrefix: `sluice-bench-${process.pid}:` } }
    : {};
  const common = {
    ...bus,
    executor: { slots: 2 },
    components: { heartbeatInterval: 1, expiry: 600 },
    shutdownTimeout: 5,
  };
  const processes: RoleProcess[] = [];
  const { api } = await startGateRoles(deployment, database, TENANT, common, processes);
  return {
    knex: database.knex,
    tenant: TENANT,
    async gate(number) {
      const sha = await deployment.pushChange(number);
      const started = performance.now();
      await deployment.enqueue(api.base, number);
      await untilTrue(async () => {
        const [outcome] = await deployment.gateOutcome(database.knex, [number]);
        return outcome.buildsets.includes('SUCCESS');
      }, 10);
      samples.push(performance.now() - started);
      if (!(await deployment.merged(sha))) {
        throw new Error(`change ${number} reported but not merged (${PROJECT})`);
      }
    },
    async stop() {
      await Promise.all(processes.map((child) => child.stop()));
      await database.destroy();
      deployment.cleanup();
    },
  };
}

const samples: number[] = [];

/** What happened to the last change, in ms after its enqueue was stored (BENCH_TIMELINE=1). */
async function printTimeline(knex: Knex, tenant: string): Promise<void> {
  const enqueue = await knex('engine_events').where({ tenant, event_type: 'enqueue' }).orderBy('id', 'desc').first();
  const at = (value: Date | null): number | null =>
    value ? new Date(value).getTime() - enqueue.created.getTime() : null;
  const events: Array<{ event_type: string; created: Date; processed: Date | null; payload: { jobName?: string } }> =
    await knex('engine_events').where({ tenant }).where('id', '>=', enqueue.id).orderBy('id');
  for (const row of events) {
    console.log(
      `${row.event_type.padEnd(20)} ${String(row.payload.jobName ?? '').padEnd(14)} stored ${at(row.created)} taken ${at(row.processed)}`,
    );
  }
  const requests: Array<{ created: Date; started: Date | null; updated: Date; params: { job: { name: string } } }> =
    await knex('build_requests').where({ tenant }).where('created', '>=', enqueue.created).orderBy('id');
  for (const row of requests) {
    console.log(
      `request ${row.params.job.name.padEnd(14)} created ${at(row.created)} claimed ${at(row.started)} ended ${at(row.updated)}`,
    );
  }
  const buildsets: Array<{
    pipeline: string;
    result: string | null;
    first_build_start_time?: Date;
    event_timestamp?: Date;
    updated?: Date;
  }> = await knex('buildsets').where({ tenant }).orderBy('id', 'desc').limit(2);
  console.log(
    JSON.stringify(
      buildsets.map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .filter(([, v]) => v instanceof Date)
            .map(([k, v]) => [k, at(v as Date)]),
        ),
      ),
    ),
  );
}

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'one';
  const changes = Number(process.argv[3] ?? (mode === 'cluster' ? 10 : 20));
  if (mode !== 'one' && mode !== 'cluster') {
    throw new Error('usage: enqueue-merge.ts one|cluster [changes]');
  }
  if (mode === 'cluster' && !process.env.DATABASE_URL) {
    throw new Error('cluster mode needs DATABASE_URL (several processes on one PostgreSQL database)');
  }
  const deployment = mode === 'one' ? await oneProcess() : await cluster();
  const load = os.loadavg()[0];
  try {
    // A first change warms the mirrors and caches; it is not counted.
    await deployment.gate(1);
    await quiet(deployment.knex, deployment.tenant);
    samples.length = 0;
    const since = new Date();
    for (let number = 2; number <= changes + 1; number += 1) {
      await deployment.gate(number);
      await quiet(deployment.knex, deployment.tenant);
    }
    const hops = await gateHops(deployment.knex, deployment.tenant, since);
    if (process.env.BENCH_TIMELINE) {
      await printTimeline(deployment.knex, deployment.tenant);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        mode,
        store: process.env.DATABASE_URL ? 'postgres' : 'pglite',
        bus: mode === 'one' ? 'in-process' : process.env.REDIS_URL ? 'redis' : 'postgres',
        changes,
        enqueueToMergedMs: {
          p50: Math.round(median(sorted)),
          p90: Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]),
          max: Math.round(sorted[sorted.length - 1]),
        },
        hopP50Ms: {
          enqueueToPass: median(hops.enqueueToPass),
          requestToClaim: median(hops.requestToClaim),
          resultToPass: median(hops.resultToPass),
        },
        loadAverage: { start: Number(load.toFixed(1)), end: Number(os.loadavg()[0].toFixed(1)) },
      }),
    );
  } finally {
    await deployment.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
