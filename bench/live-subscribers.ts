/**
 * Live fan-out benchmark: N (default 5,000) concurrent `tenantStatus` subscribers, one
 * WebSocket connection each, on one server process. The clients run in a child process so the
 * server's memory is measured alone. Reports:
 *   - memory per idle subscriber (server heap and RSS growth after GC, divided by N);
 *   - for each of R state changes (an enqueue), the time from the engine publishing the first
 *     delta to each subscriber receiving the new status: p50, p99 and the last subscriber.
 *
 *   NODE_OPTIONS=--expose-gc npx tsx bench/live-subscribers.ts [subscribers] [rounds]
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { defaultServiceConfig } from '../src/config/service';
import { Engine } from '../src/engine/engine';
import type { EngineEventBus } from '../src/engine/event-bus';
import { buildApp } from '../src/server/app';
import { silentLogger } from '../src/server/logger';
import { openDatabase } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';
import { InProcessBus } from '../subscriptions/bus/in-process';
import { engineEventBusOver } from '../subscriptions/live/engine-bridge';
import { FakeChanges, InstantNodes, job, makeLayout, pipeline, ScriptedExecutor, ScriptedMerger } from '../test/engine/scripted';

const TENANT = 'bench';
const SUBSCRIPTION = /* GraphQL */ `subscription { tenantStatus(tenant: "${TENANT}") { sequence pipelines { name changeQueues { name window heads { id active refs { id } jobs { name uuid result waitingStatus } } } } } }`;

type ToClients = { type: 'arm' } | { type: 'stop' };
type FromClients = { type: 'ready'; failed: number } | { type: 'armed' } | { type: 'received'; times: number[] };

function now(): number {
  return performance.timeOrigin + performance.now();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

/** Child process: N graphql-ws clients, each with one tenantStatus subscription. */
async function runClients(url: string, count: number): Promise<void> {
  const send = (message: FromClients): void => {
    process.send?.(message);
  };
  let armed = false;
  let received: number[] = [];
  const seenSinceArm = new Set<number>();
  let initial = 0;
  let failed = 0;
  const disposers: Array<() => Promise<void>> = [];
  let settled: () => void = () => undefined;
  const answered = (): void => {
    if (initial + failed === disposers.length) {
      settled();
    }
  };
  for (let index = 0; index < count; index += 1) {
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    disposers.push(async () => {
      await client.dispose();
    });
    client.subscribe(
      { query: SUBSCRIPTION },
      {
        next: () => {
          const at = now();
          if (!armed) {
            initial += 1;
            answered();
            if (initial + failed === count) {
              send({ type: 'ready', failed });
            }
            return;
          }
          if (!seenSinceArm.has(index)) {
            seenSinceArm.add(index);
            received.push(at);
            if (seenSinceArm.size === count - failed) {
              send({ type: 'received', times: received });
            }
          }
        },
        error: () => {
          failed += 1;
          answered();
          if (initial + failed === count) {
            send({ type: 'ready', failed });
          }
        },
        complete: () => undefined,
      },
    );
    // Connect in batches of 100 (each batch subscribed before the next) so the listen backlog never overflows.
    if (index % 100 === 99) {
      await new Promise<void>((resolve) => {
        settled = resolve;
        answered();
      });
    }
  }
  process.on('message', (message: ToClients) => {
    if (message.type === 'arm') {
      armed = true;
      received = [];
      seenSinceArm.clear();
      send({ type: 'armed' });
    } else {
      void Promise.all(disposers.map((dispose) => dispose())).then(() => process.exit(0));
    }
  });
}

async function main(): Promise<void> {
  const subscribers = Number(process.argv[2] ?? 5000);
  const rounds = Number(process.argv[3] ?? 5);
  const database = openDatabase({ kind: 'pglite' });
  await migrateLatest(database.knex);
  const layout = makeLayout({
    tenant: TENANT,
    pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
    projects: [{ name: 'org/project', queue: 'integrated' }],
    jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
  });
  const changes = new FakeChanges();
  const executor = new ScriptedExecutor({ now: () => new Date() });
  const nodes = new InstantNodes();
  const bus = new InProcessBus();
  const forward = engineEventBusOver(bus, (error) => console.error('publish failed', error));
  let firstPublish: number | null = null;
  const timedBus: EngineEventBus = {
    publish: (delta) => {
      firstPublish ??= now();
      forward.publish(delta);
    },
    subscribe: (tenant, listener) => forward.subscribe(tenant, listener),
  };
  const engine = new Engine({
    database,
    layouts: (tenant) => (tenant === TENANT ? layout : null),
    gateways: { changes, merger: new ScriptedMerger(changes), executor, nodes },
    bus: timedBus,
    clock: { now: () => new Date() },
    pollIntervalMs: 1000,
  });
  executor.sink = (tenant, event) => engine.submitResult(tenant, event);
  nodes.sink = (tenant, event) => engine.submitResult(tenant, event);
  await engine.startTenant(TENANT);
  const app = buildApp({
    config: defaultServiceConfig(process.cwd()),
    database,
    logger: silentLogger(),
    engine,
    bus,
    tenants: { tenantNames: () => [TENANT], layout: () => undefined },
    // The clients share one overloaded process: give them time to send connection_init.
    webSocket: { keepAliveMs: 60_000, connectionInitWaitTimeoutMs: 60_000 },
  });
  await app.start(0, '127.0.0.1');
  const statusStart = now();
  await engine.status(TENANT); // warm the store and the status path before the baseline
  console.log(`one status load: ${(now() - statusStart).toFixed(1)} ms; gc exposed: ${typeof (globalThis as { gc?: unknown }).gc === 'function'}`);
  collectGarbage();
  const before = process.memoryUsage();

  const child = fork(__filename, ['--clients', `${app.url().replace(/^http/, 'ws')}/graphql`, String(subscribers)], { execArgv: process.execArgv });
  const next = (type: FromClients['type']): Promise<FromClients> =>
    new Promise((resolve) => {
      const onMessage = (message: FromClients): void => {
        if (message.type === type) {
          child.off('message', onMessage);
          resolve(message);
        }
      };
      child.on('message', onMessage);
    });
  const connectStart = now();
  const cpuStart = process.cpuUsage();
  const ready = await next('ready');
  const connectSeconds = (now() - connectStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  console.log(`server CPU while connecting: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
  collectGarbage();
  const after = process.memoryUsage();
  const failed = ready.type === 'ready' ? ready.failed : 0;
  const active = subscribers - failed;
  const stats = app.live.stats();
  console.log(`subscribers: ${active} active (${failed} failed), connected and initial status received in ${connectSeconds.toFixed(1)} s; hub: ${JSON.stringify(stats)}`);
  console.log(`memory per idle subscriber: heap ${((after.heapUsed - before.heapUsed) / active / 1024).toFixed(1)} KiB, rss ${((after.rss - before.rss) / active / 1024).toFixed(1)} KiB`);

  const all: number[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    child.send({ type: 'arm' } satisfies ToClients);
    await next('armed');
    // Let the coalescing interval of the previous round pass so this round measures delivery, not throttling.
    await new Promise((resolve) => setTimeout(resolve, 400));
    firstPublish = null;
    changes.add('org/project', round);
    const received = next('received');
    const result = await engine.enqueue(TENANT, { pipeline: 'gate', project: 'org/project', change: `${round},1`, by: 'bench' });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
    const message = await received;
    const start = firstPublish ?? now();
    const latencies = (message.type === 'received' ? message.times : []).map((at) => at - start).sort((a, b) => a - b);
    all.push(...latencies);
    console.log(`round ${round}: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, last ${latencies[latencies.length - 1]?.toFixed(1)} ms`);
  }
  all.sort((a, b) => a - b);
  console.log(`all rounds: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms, last ${all[all.length - 1]?.toFixed(1)} ms (${all.length} deliveries)`);
  child.send({ type: 'stop' } satisfies ToClients);
  await new Promise((resolve) => child.once('exit', resolve));
  await engine.stop();
  await app.stop();
}

if (process.argv[2] === '--clients') {
  void runClients(process.argv[3] ?? '', Number(process.argv[4] ?? 0));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
