/**
 * The CPU of one scheduler pass over a long gate queue (docs/gating.md#performance): N changes
 * (default 1,000) enqueued into a window-20 dependent gate whose builds keep running, so 20 items
 * are in the window and the rest wait; then the state is held anew from the store and 30 passes
 * that find nothing to do are run as a pass runs them (every queue walked until stable, then the
 * save). Reports the process CPU of a pass (median and lowest; with the embedded store this
 * includes PGlite's share of the save) and the load average. With `depends` (default 0) every
 * change names the `depends` changes just ahead of it in Depends-On (as many as there are), so
 * each item's needed changes are looked up among the items ahead on every pass; with `head`,
 * every change names the first one. With `chain`, a check (independent) pipeline instead: every
 * change names the one before it and only the last is enqueued, so the others wait ahead of it as
 * N - 1 non-live items and it runs its jobs.
 *
 *   npx tsx bench/engine-pass.ts [changes] [depends|head|chain]    # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/engine-pass.ts
 */
import os from 'node:os';
import { PassContext } from '../src/engine/pass-context';
import { TenantState } from '../src/engine/scheduler/tenant-state';
import { EngineStateRepository } from '../src/store/repositories/engine-state';
import { EngineHarness } from '../test/engine/harness';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';
import { openBenchDatabase } from './bench-database';

const PASSES = 30;

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 1000);
  const chain = process.argv[3] === 'chain';
  const depends = process.argv[3] === 'head' ? 'head' : chain ? 1 : Number(process.argv[3] ?? 0);
  const into = chain ? 'check' : 'gate';
  const { database, cleanup } = await openBenchDatabase();
  const h = new EngineHarness(
    database,
    makeLayout({
      tenant: 'bench',
      pipelines: [pipeline(into, chain ? 'independent' : 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { [into]: [job('unit'), job('lint')] } },
    }),
  );
  await h.start();
  for (let number = 1; number <= total; number += 1) {
    h.changes.add('org/project', number, { dependsOn: neededBy(number, depends) });
    if (chain && number < total) {
      continue;
    }
    const result = await h.engine.enqueue(h.tenant, {
      pipeline: into,
      project: 'org/project',
      change: `${number},1`,
      by: 'admin',
    });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
  }
  await h.settle();
  await h.stop();
  const knex = database.knex;
  const state = new TenantState(new EngineStateRepository(knex), h.tenant, { knex, webRoot: () => null });
  await state.load();
  await state.statusBaseline(h.layout);
  const gateways = { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes };
  const loadBefore = os.loadavg()[0];
  const cpuMs: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    await knex.transaction(async (trx) => {
      const ctx = new PassContext(h.tenant, h.clock.now(), h.layout, trx, gateways);
      const managers = state.managers(h.layout);
      const cpuStart = process.cpuUsage();
      for (const manager of managers.values()) {
        await manager.processQueues(ctx);
      }
      await state.save(trx, ctx, managers, h.layout);
      const cpu = process.cpuUsage(cpuStart);
      cpuMs.push((cpu.user + cpu.system) / 1000);
    });
    state.statusCommitted();
  }
  cpuMs.sort((a, b) => a - b);
  const queued = [...state.pipelines.values()].flatMap((pipelineState) => pipelineState.queues);
  process.stdout.write(
    `${JSON.stringify({
      store: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      changes: total,
      depends: chain ? 'chain' : depends,
      queued: queued.reduce((sum, queue) => sum + queue.items.length, 0),
      runningBuilds: h.executor.running.size,
      passes: PASSES,
      cpuMsPerPass: Number(cpuMs[Math.floor(PASSES / 2)].toFixed(2)),
      lowestCpuMsPerPass: Number(cpuMs[0].toFixed(2)),
      loadAverage: [Number(loadBefore.toFixed(1)), Number(os.loadavg()[0].toFixed(1))],
    })}\n`,
  );
  await cleanup();
}

/** The changes a change names in Depends-On: the `depends` just ahead of it, or the first. */
function neededBy(number: number, depends: number | 'head'): Array<{ project: string; number: number }> {
  const first = depends === 'head' ? 1 : Math.max(1, number - depends);
  const last = depends === 'head' ? Math.min(1, number - 1) : number - 1;
  const needed = [];
  for (let other = first; other <= last; other += 1) {
    needed.push({ project: 'org/project', number: other });
  }
  return needed;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
