/**
 * Slow-consumer memory (docs/live.md#slow-consumers): 20 anonymous WebSocket clients with 100
 * subscriptions each (50 `queueEvents`, 50 `tenantStatus`, every field selected) on a 200-item
 * queue stop reading; the engine then publishes 450 deltas (enqueues behind the window). Reports
 * the server's RSS before the clients, with them subscribed, at its peak and at the end, and how
 * many clients the server dropped (close 4008; a client that still does not read 5 s later has
 * its connection dropped, 1006 on its side). The server runs in this process (RSS includes the
 * engine and the embedded store); the clients in a child process. `--unbounded` runs the same
 * without send limits, `--no-clients` without clients (the growth of the engine's own work).
 * `--sse`: 10 clients over server-sent events instead, each one `queueEvents` request with every
 * field (raw HTTP requests whose sockets stop reading after the first event); the server cuts
 * such a connection off, the client sees its end.
 *
 *   NODE_OPTIONS=--expose-gc npx tsx bench/slow-consumers.ts [--unbounded | --no-clients] [--sse]
 */
import { fork } from 'node:child_process';
import net from 'node:net';
import WebSocket from 'ws';
import { defaultServiceConfig } from '../src/config/service';
import { Engine } from '../src/engine/engine';
import { buildApp } from '../src/server/app';
import { silentLogger } from '../src/server/logger';
import { openDatabase } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';
import { InProcessBus } from '../subscriptions/bus/in-process';
import { engineEventBusOver } from '../subscriptions/live/engine-bridge';
import { FakeChanges } from '../test/engine/fake-changes';
import { InstantNodes, ScriptedExecutor, ScriptedMerger } from '../test/engine/scripted-gateways';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';
import { QUEUE_EVENT_FIELDS, STATUS_FIELDS } from '../test/integration/live/status-fields';

const TENANT = 'slow';
const SSE = process.argv.includes('--sse');
const SOCKETS = SSE ? 10 : 20;
const PER_SOCKET = 100;
const ITEMS = 200;
const DELTAS = SSE ? 2500 : 450;

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Child: the clients. Each subscribes, then stops reading; reports how each socket ended. */
async function clients(url: string): Promise<void> {
  const closes: number[] = [];
  const sockets: WebSocket[] = [];
  await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(url, 'graphql-transport-ws');
          sockets.push(socket);
          socket.once('error', reject);
          socket.on('close', (code) => closes.push(code));
          socket.on('message', (data: Buffer) => {
            if (!data.toString('utf8', 0, 40).startsWith('{"type":"connection_ack"')) {
              return;
            }
            for (let id = 1; id <= PER_SOCKET; id += 1) {
              const query =
                id % 2 === 0
                  ? `subscription ($t: String!) { tenantStatus(tenant: $t) { ${STATUS_FIELDS} } }`
                  : `subscription ($t: String!) { queueEvents(tenant: $t) { ${QUEUE_EVENT_FIELDS} } }`;
              socket.send(
                JSON.stringify({ id: String(id), type: 'subscribe', payload: { query, variables: { t: TENANT } } }),
              );
            }
            socket.pause(); // reads nothing more
            resolve();
          });
          socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
        }),
    ),
  );
  process.send?.({ type: 'subscribed' });
  process.once('message', () => {
    for (const socket of sockets) {
      socket.resume(); // read what is left, then the close frame
    }
    setTimeout(() => {
      process.send?.({ type: 'closes', closes });
      for (const socket of sockets) {
        socket.terminate();
      }
      process.exit(0);
    }, 3000);
  });
}

/** Child, `--sse`: each client one SSE request; it stops reading at its first event. Reports 0 for a connection the server ended. */
async function sseClients(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const query = `subscription ($t: String!) { queueEvents(tenant: $t) { ${QUEUE_EVENT_FIELDS} } }`;
  const body = JSON.stringify({ query, variables: { t: TENANT } });
  const closes: number[] = [];
  const sockets: net.Socket[] = [];
  await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname);
          sockets.push(socket);
          let text = '';
          socket.once('error', reject);
          socket.on('close', () => closes.push(0));
          socket.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            if (text.startsWith('HTTP/1.1 200')) {
              resolve(); // subscribed
            }
            if (text.includes('event: next')) {
              socket.pause(); // reads nothing more
            }
          });
          socket.write(
            `POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
        }),
    ),
  );
  process.send?.({ type: 'subscribed' });
  process.once('message', () => {
    sockets.forEach((socket) => socket.resume());
    setTimeout(() => {
      process.send?.({ type: 'closes', closes });
      sockets.forEach((socket) => socket.destroy());
      process.exit(0);
    }, 3000);
  });
}

async function main(unbounded: boolean): Promise<void> {
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
  let published = 0;
  const engine = new Engine({
    database,
    layouts: (tenant) => (tenant === TENANT ? layout : null),
    gateways: { changes, merger: new ScriptedMerger(changes), executor, nodes },
    bus: {
      publish: (delta) => {
        published += 1;
        forward.publish(delta);
      },
      subscribe: (tenant, listener) => forward.subscribe(tenant, listener),
    },
    clock: { now: () => new Date() },
    pollIntervalMs: 1000,
  });
  executor.sink = (tenant, event) => engine.submitResult(tenant, event);
  nodes.sink = (tenant, event) => engine.submitResult(tenant, event);
  await engine.startTenant(TENANT);
  let number = 0;
  const enqueue = async (): Promise<void> => {
    number += 1;
    changes.add('org/project', number);
    const queued = await engine.enqueue(TENANT, {
      pipeline: 'gate',
      project: 'org/project',
      change: `${number},1`,
      by: 'bench',
    });
    if (!queued.ok) {
      throw new Error(queued.error.message);
    }
  };
  for (let i = 0; i < ITEMS; i += 1) {
    await enqueue();
  }
  await engine.settle(TENANT);
  let dropped = 0;
  const app = buildApp({
    config: defaultServiceConfig(process.cwd()),
    database: { ...database, close: async () => undefined },
    logger: silentLogger(),
    engine,
    bus,
    tenants: { tenantNames: () => [TENANT], layout: () => undefined },
    webSocket: {
      connectionInitWaitTimeoutMs: 60_000,
      send: unbounded
        ? { maxBufferedBytes: Number.MAX_SAFE_INTEGER, sendTimeoutMs: 2 ** 31 - 1 }
        : { onDrop: () => (dropped += 1) },
    },
  });
  await app.start(0, '127.0.0.1');
  const rss = (): number => process.memoryUsage().rss;
  const heap = (): number => process.memoryUsage().heapUsed;
  const before = rss();
  const withClients = !process.argv.includes('--no-clients');
  const child = withClients
    ? fork(
        __filename,
        SSE ? ['--sse-clients', app.url()] : ['--clients', `${app.url().replace(/^http/, 'ws')}/graphql`],
        {
          execArgv: process.execArgv,
        },
      )
    : null;
  const next = <T>(type: string): Promise<T> =>
    new Promise((resolve) => {
      const listener = (message: { type: string }): void => {
        if (message.type === type) {
          child?.off('message', listener);
          resolve(message as T);
        }
      };
      child?.on('message', listener);
      if (!child) {
        resolve({ type, closes: [] } as T);
      }
    });
  await next('subscribed');
  await new Promise((resolve) => setTimeout(resolve, 2000)); // the initial statuses go out
  const subscribed = rss();
  let peak = subscribed;
  const heapBefore = heap();
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
    heapPeak = Math.max(heapPeak, heap());
  }, 100);
  const start = published;
  const started = Date.now();
  while (published - start < DELTAS) {
    await enqueue();
    await engine.settle(TENANT);
  }
  await new Promise((resolve) => setTimeout(resolve, 3000)); // pending pushes (2 s coalescing) go out
  clearInterval(sampler);
  (globalThis as { gc?: () => void }).gc?.();
  const end = rss();
  const heapEnd = heap();
  child?.send({ type: 'read' });
  const { closes } = await next<{ closes: number[] }>('closes');
  const codes = new Map<number, number>();
  for (const code of closes) {
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  console.log(
    `${unbounded ? 'without send limits' : 'with send limits (default 4 MiB per socket)'}: ${withClients ? SOCKETS : 0} ${SSE ? 'SSE requests' : `sockets x ${PER_SOCKET} subscriptions`}, ${published - start} deltas in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(
    `  server RSS: before clients ${mib(before)}, subscribed ${mib(subscribed)}, peak ${mib(peak)} (+${mib(peak - subscribed)}), at the end ${mib(end)}; JS heap: peak +${mib(heapPeak - heapBefore)}, at the end after a full GC +${mib(heapEnd - heapBefore)}`,
  );
  console.log(
    `  ${SSE ? 'connections' : 'sockets'} dropped by the server: ${dropped}; ${SSE ? 'connections ended (0)' : 'close codes'} seen by the clients: ${JSON.stringify(Object.fromEntries(codes))}`,
  );
  await app.stop();
  await engine.stop();
  await database.close();
}

if (process.argv[2] === '--clients') {
  void clients(process.argv[3] ?? '');
} else if (process.argv[2] === '--sse-clients') {
  void sseClients(process.argv[3] ?? '');
} else {
  main(process.argv.includes('--unbounded')).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
