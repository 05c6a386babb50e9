/**
 * Reloading a tenant of 2,000 jobs in the real server keeps `/health/ready` answering
 * (docs/operations.md#configuration-reloads): probes every 20 ms during the whole reload all answer
 * 200 within a bound, and no turn of the event loop uses much CPU. The wall-clock stall
 * (monitorEventLoopDelay) is printed, not asserted: on a loaded 2-core machine it mostly measures
 * how often the OS runs the process and the garbage collector's pauses. That the build itself gives
 * the loop back is asserted exactly in test/unit/config/sliced-layout-build.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startTestServer, type TestServer } from '../../helpers/server';
import { createLargeTenant } from '../../helpers/large-tenant';
import { cpuPerTurn } from '../../helpers/event-loop-turns';

/** CPU one turn of the event loop may use, and the slowest probe answer allowed (generous: a loaded machine). */
const MAX_TURN_CPU_MS = 1_000;
const MAX_PROBE_MS = 5_000;

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-reload-'));
  // 50 projects x 40 jobs: the 2,000 jobs (6,000 variants on 3 branches) of bench/config-load.ts in fewer repositories.
  const tenant = await createLargeTenant(dir, 50, 40);
  const tenantFile = path.join(dir, 'main.yaml');
  writeFileSync(tenantFile, tenant.tenantFile('big', 'bench'));
  server = await startTestServer({
    config: {
      tenantConfig: tenantFile,
      connections: { bench: { driver: 'git', baseurl: dir, pollInterval: 3600 } },
    },
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a 2,000-job reload does not stall the event loop nor /health/ready', async () => {
  const manager = server.app.layoutManager;
  if (manager === undefined) {
    throw new Error('the server has no layout manager');
  }
  const before = manager.layout('big');
  // 2,000 jobs, the base job and the built-in noop.
  expect(before?.jobs.size).toBe(2_002);

  const stalls = monitorEventLoopDelay({ resolution: 10 });
  let reloading = true;
  const probes: { status: number; ms: number }[] = [];
  const probeLoop = (async () => {
    while (reloading) {
      const start = performance.now();
      const res = await fetch(`${server.url}/health/ready`);
      await res.arrayBuffer();
      probes.push({ status: res.status, ms: performance.now() - start });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const turns = cpuPerTurn();
  stalls.enable();
  const outcome = await manager.reconfigure();
  stalls.disable();
  const longestTurnCpuMs = turns.stop();
  reloading = false;
  await probeLoop;

  const after = manager.layout('big');
  expect(outcome.tenants).toEqual(['big']);
  expect(after).not.toBe(before);
  expect(after?.jobs.size).toBe(2_002);
  // The probes ran while the reload did: many of them, every one ready.
  expect(probes.length).toBeGreaterThanOrEqual(5);
  expect(probes.filter((p) => p.status !== 200)).toEqual([]);
  const stallMs = stalls.max / 1e6;
  const slowestProbe = Math.max(...probes.map((p) => p.ms));
  process.stdout.write(
    `reload: ${probes.length} probes, slowest ${slowestProbe.toFixed(0)} ms; longest event-loop stall ${stallMs.toFixed(0)} ms, most CPU in one turn ${longestTurnCpuMs.toFixed(0)} ms\n`,
  );
  expect(longestTurnCpuMs).toBeLessThan(MAX_TURN_CPU_MS);
  expect(slowestProbe).toBeLessThan(MAX_PROBE_MS);
}, 300_000);
