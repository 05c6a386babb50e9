/**
 * Live fan-out benchmark: N (default 5,000) concurrent `tenantStatus` subscribers, one
 * WebSocket connection each, on one server process. The clients run in a child process so the
 * server's memory is measured alone. Reports:
 *   - memory per idle subscriber (server heap and RSS growth after GC, divided by N);
 *   - for each of R state changes (an enqueue), the time from the commit of the scheduler pass
 *     that made the change to each subscriber receiving a status whose `sequence` includes it:
 *     p50, p95, p99 and the last subscriber, per round and over all rounds. An emission with an
 *     older sequence (a coalesced tick scheduled before the change) is not the change's delivery.
 * The queue holds `items` changes (default 200; 20 of them inside the window, with running
 * builds) before the subscribers connect, so every status carries that many items.
 *
 * The clients read only what the measure needs: each speaks graphql-transport-ws over a plain
 * `ws` socket and takes the `sequence` from the head of each message (the server's delivery is
 * measured, not 5,000 JSON parses of the whole status in one client process, which remote
 * subscribers would each do on their own machine). `LIVE_BENCH_CLIENTS=graphql-ws` uses the
 * graphql-ws client library instead (every message parsed whole).
 *
 *   NODE_OPTIONS=--expose-gc npx tsx bench/live-subscribers.ts [subscribers] [rounds] [items]
 *   (LIVE_BENCH_PROFILE=/tmp/live.cpuprofile also writes a CPU profile of the server during the rounds)
 */
import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
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
import { DEFAULT_LIVE_HUB_OPTIONS } from '../subscriptions/live/live-hub';
import { FakeChanges } from '../test/engine/fake-changes';
import { InstantNodes, ScriptedExecutor, ScriptedMerger } from '../test/engine/scripted-gateways';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';

const TENANT = 'bench';
const SUBSCRIPTION = /* GraphQL */ `subscription { tenantStatus(tenant: "${TENANT}") { sequence pipelines { name changeQueues { name window heads { id active refs { id } jobs { name uuid result waitingStatus } } } } } }`;

/** A round gives up on subscribers that have not received its change after this long. */
const ROUND_TIMEOUT_MS = 60_000;

type ToClients = { type: 'arm' } | { type: 'await'; sequence: number; timeoutMs: number } | { type: 'stop' };
type FromClients =
  | { type: 'ready'; failed: number }
  | { type: 'armed' }
  | { type: 'received'; times: number[]; missing: number; cpuMs: number };

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

/** The `sequence` of a tenantStatus emission, or null when it carries none (an error). */
function sequenceOf(result: { data?: unknown }): number | null {
  const status = (result.data as { tenantStatus?: { sequence?: unknown } } | null | undefined)?.tenantStatus;
  return typeof status?.sequence === 'number' ? status.sequence : null;
}

/**
 * Per-round bookkeeping of the clients: every emission since `arm` is kept as (sequence, time),
 * because the emission carrying the change may arrive before the server has said which
 * sequence the change produced. A subscriber has the change once it receives a status whose
 * sequence is at least that number; older emissions (coalesced ticks scheduled before the
 * change) do not count.
 */
class RoundLog {
  private early: Array<Array<[number, number]>>;
  private firstAt: Array<number | null>;
  private threshold: number | null = null;
  private delivered = 0;

  constructor(
    private readonly count: number,
    private readonly isActive: (index: number) => boolean,
    private readonly onComplete: (times: number[]) => void,
  ) {
    this.early = Array.from({ length: count }, () => []);
    this.firstAt = new Array<number | null>(count).fill(null);
  }

  record(index: number, sequence: number, at: number): void {
    if (this.threshold === null) {
      this.early[index]?.push([sequence, at]);
    } else if (sequence >= this.threshold) {
      this.mark(index, at);
    }
  }

  /** The change produced `sequence`: count deliveries from it on. */
  expect(sequence: number): void {
    this.threshold = sequence;
    this.early.forEach((log, index) => {
      const hit = log.find(([seq]) => seq >= sequence);
      if (hit) {
        this.mark(index, hit[1]);
      }
    });
    this.early = [];
    this.checkComplete();
  }

  /** Delivery times so far, and how many active subscribers have not received the change. */
  report(): { times: number[]; missing: number } {
    const times = this.firstAt.filter((at): at is number => at !== null);
    return { times, missing: this.activeCount() - times.length };
  }

  private mark(index: number, at: number): void {
    if (this.firstAt[index] === null) {
      this.firstAt[index] = at;
      this.delivered += 1;
      this.checkComplete();
    }
  }

  private activeCount(): number {
    let active = 0;
    for (let index = 0; index < this.count; index += 1) {
      active += this.isActive(index) ? 1 : 0;
    }
    return active;
  }

  private checkComplete(): void {
    if (this.threshold !== null && this.delivered === this.activeCount()) {
      this.onComplete(this.report().times);
    }
  }
}

interface SubscriberHandlers {
  next(sequence: number | null): void;
  error(): void;
}

/** A subscriber on the graphql-ws client library (every message parsed whole). */
function libraryClient(url: string, handlers: SubscriberHandlers): () => Promise<void> {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
  client.subscribe(
    { query: SUBSCRIPTION },
    { next: (result) => handlers.next(sequenceOf(result)), error: handlers.error, complete: () => undefined },
  );
  return () => client.dispose() as Promise<void>;
}

const NEXT_HEAD = /^\{"id":"1","type":"next","payload":\{"data":\{"tenantStatus":\{"sequence":(\d+)/;

/** A subscriber speaking graphql-transport-ws itself, reading only the head of each message. */
function lightClient(url: string, handlers: SubscriberHandlers): () => Promise<void> {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
  socket.on('message', (data: Buffer) => {
    const head = data.toString('utf8', 0, Math.min(data.length, 160));
    if (head.startsWith('{"type":"connection_ack"')) {
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
      return;
    }
    const match = NEXT_HEAD.exec(head);
    if (match) {
      handlers.next(Number(match[1]));
    } else if (head.includes('"type":"error"')) {
      handlers.error();
    }
  });
  socket.on('error', () => handlers.error());
  return () =>
    new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close();
    });
}

/** Child process: N clients, each with one tenantStatus subscription. */
async function runClients(url: string, count: number): Promise<void> {
  const send = (message: FromClients): void => {
    process.send?.(message);
  };
  const failedIndexes = new Set<number>();
  let round: RoundLog | null = null;
  let roundTimer: NodeJS.Timeout | null = null;
  let initial = 0;
  let readySent = false;
  const disposers: Array<() => Promise<void>> = [];
  let settled: () => void = () => undefined;
  const answered = (): void => {
    if (initial + failedIndexes.size === disposers.length) {
      settled();
    }
    if (!readySent && initial + failedIndexes.size === count) {
      readySent = true;
      send({ type: 'ready', failed: failedIndexes.size });
    }
  };
  const subscribe = process.env.LIVE_BENCH_CLIENTS === 'graphql-ws' ? libraryClient : lightClient;
  for (let index = 0; index < count; index += 1) {
    let first = true;
    let failed = false;
    disposers.push(
      subscribe(url, {
        next: (sequence) => {
          const at = now();
          if (first) {
            first = false;
            initial += 1;
            answered();
            return;
          }
          if (round !== null && sequence !== null) {
            round.record(index, sequence, at);
          }
        },
        error: () => {
          if (!failed) {
            failed = true;
            failedIndexes.add(index);
            answered();
          }
        },
      }),
    );
    // Connect in batches of 100 (each batch subscribed before the next) so the listen backlog never overflows.
    if (index % 100 === 99) {
      await new Promise<void>((resolve) => {
        settled = resolve;
        answered();
      });
    }
  }
  let armedCpu = process.cpuUsage();
  const finish = (times: number[], missing: number): void => {
    const cpu = process.cpuUsage(armedCpu);
    if (roundTimer) {
      clearTimeout(roundTimer);
      roundTimer = null;
    }
    round = null; // later emissions of this round are not measured
    send({ type: 'received', times, missing, cpuMs: (cpu.user + cpu.system) / 1000 });
  };
  process.on('message', (message: ToClients) => {
    if (message.type === 'arm') {
      armedCpu = process.cpuUsage();
      round = new RoundLog(
        count,
        (index) => !failedIndexes.has(index),
        (times) => finish(times, 0),
      );
      send({ type: 'armed' });
    } else if (message.type === 'await') {
      const current = round;
      roundTimer = setTimeout(() => {
        const { times, missing } = current?.report() ?? { times: [], missing: count };
        finish(times, missing);
      }, message.timeoutMs);
      current?.expect(message.sequence);
    } else {
      void Promise.all(disposers.map((dispose) => dispose())).then(() => process.exit(0));
    }
  });
}

/** CPU profile of this (server) process, for LIVE_BENCH_PROFILE=<file.cpuprofile>. */
async function startProfiler(): Promise<{ stop: () => Promise<object> }> {
  const session = new Session();
  session.connect();
  const post = (method: string): Promise<unknown> =>
    new Promise((resolve, reject) => {
      session.post(method, (error, result) => (error ? reject(error) : resolve(result)));
    });
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      session.disconnect();
      return profile;
    },
  };
}

/** One latency line: percentiles of delivery times after the change, in ms. */
function summary(label: string, sorted: number[], extra = ''): string {
  const ms = (value: number): string => `${value.toFixed(1)} ms`;
  return `${label}: p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, p99 ${ms(percentile(sorted, 99))}, last ${ms(sorted[sorted.length - 1] ?? NaN)} (${sorted.length} deliveries${extra})`;
}

async function main(): Promise<void> {
  const subscribers = Number(process.argv[2] ?? 5000);
  const rounds = Number(process.argv[3] ?? 5);
  const items = Number(process.argv[4] ?? 200);
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
  // The change of a round is the enqueue of its change: note the sequence of that delta and
  // when the pass that made it committed (the engine publishes a pass's deltas after its commit).
  let awaitedChange: { id: string; found: (change: { at: number; sequence: number }) => void } | null = null;
  let lastCommit = { at: 0, sequence: -1 };
  const timedBus: EngineEventBus = {
    publish: (delta) => {
      if (awaitedChange && delta.type === 'item-enqueued' && delta.changeIds.includes(awaitedChange.id)) {
        const at = lastCommit.sequence >= delta.sequence ? lastCommit.at : now();
        awaitedChange.found({ at, sequence: delta.sequence });
        awaitedChange = null;
      }
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
    onPassCommitted: (_tenant, sequence) => {
      lastCommit = { at: now(), sequence };
    },
  });
  executor.sink = (tenant, event) => engine.submitResult(tenant, event);
  nodes.sink = (tenant, event) => engine.submitResult(tenant, event);
  await engine.startTenant(TENANT);
  // The queue the subscribers watch: `items` changes (builds of the first 20 keep running).
  for (let number = 1; number <= items; number += 1) {
    changes.add('org/project', 10_000 + number);
    const queued = await engine.enqueue(TENANT, {
      pipeline: 'gate',
      project: 'org/project',
      change: `${10_000 + number},1`,
      by: 'bench',
    });
    if (!queued.ok) {
      throw new Error(queued.error.message);
    }
  }
  await engine.settle(TENANT);
  console.log(`queue: ${items} items`);
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
  console.log(
    `one status load: ${(now() - statusStart).toFixed(1)} ms; gc exposed: ${typeof (globalThis as { gc?: unknown }).gc === 'function'}`,
  );
  collectGarbage();
  const before = process.memoryUsage();

  const child = fork(__filename, ['--clients', `${app.url().replace(/^http/, 'ws')}/graphql`, String(subscribers)], {
    execArgv: process.execArgv,
  });
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
  console.log(
    `subscribers: ${active} active (${failed} failed), connected and initial status received in ${connectSeconds.toFixed(1)} s; hub: ${JSON.stringify(stats)}`,
  );
  console.log(
    `memory per idle subscriber: heap ${((after.heapUsed - before.heapUsed) / active / 1024).toFixed(1)} KiB, rss ${((after.rss - before.rss) / active / 1024).toFixed(1)} KiB`,
  );

  const profiler = process.env.LIVE_BENCH_PROFILE ? await startProfiler() : null;
  const all: number[] = [];
  let missingTotal = 0;
  for (let round = 1; round <= rounds; round += 1) {
    child.send({ type: 'arm' } satisfies ToClients);
    await next('armed');
    // Let the coalescing interval of the previous round pass so this round measures delivery, not throttling.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_LIVE_HUB_OPTIONS.statusIntervalMs + 200));
    const changeId = `${round},1`;
    const changed = new Promise<{ at: number; sequence: number }>((found) => {
      awaitedChange = { id: changeId, found };
    });
    changes.add('org/project', round);
    const received = next('received');
    const roundCpu = process.cpuUsage();
    const result = await engine.enqueue(TENANT, {
      pipeline: 'gate',
      project: 'org/project',
      change: changeId,
      by: 'bench',
    });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
    const change = await changed;
    child.send({ type: 'await', sequence: change.sequence, timeoutMs: ROUND_TIMEOUT_MS } satisfies ToClients);
    const message = await received;
    const cpuUsed = process.cpuUsage(roundCpu);
    const times = message.type === 'received' ? message.times : [];
    const missing = message.type === 'received' ? message.missing : active;
    const latencies = times.map((at) => at - change.at).sort((a, b) => a - b);
    all.push(...latencies);
    missingTotal += missing;
    const clientCpu = message.type === 'received' ? message.cpuMs : NaN;
    const serverCpu = `; CPU: server ${((cpuUsed.user + cpuUsed.system) / 1000).toFixed(0)} ms, clients ${clientCpu.toFixed(0)} ms`;
    console.log(
      summary(
        `round ${round} (sequence ${change.sequence})`,
        latencies,
        `${serverCpu}${missing > 0 ? `, ${missing} missing after ${ROUND_TIMEOUT_MS / 1000} s` : ''}`,
      ),
    );
  }
  all.sort((a, b) => a - b);
  console.log(summary('all rounds', all, missingTotal > 0 ? `, ${missingTotal} missing` : ''));
  if (profiler && process.env.LIVE_BENCH_PROFILE) {
    await writeFile(process.env.LIVE_BENCH_PROFILE, JSON.stringify(await profiler.stop()));
    console.log(`server CPU profile of the rounds: ${process.env.LIVE_BENCH_PROFILE}`);
  }
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
