/**
 * Bytes to follow a gate run (docs/live.md#bytes-to-follow): a queue of 200, then 500 items in a
 * dependent gate pipeline (window 20); 20 steps about 1.15 s apart, each finishing the builds of
 * the head item (it merges and leaves, the next item enters the window and its builds start).
 * Side by side, in the same run:
 *   - polling: `GET /api/tenant/{tenant}/status` (the full REST status) every 5 s;
 *   - deltas: one status snapshot (`Tenant.status`), then `queueEvents(afterSeq)` over graphql-ws
 *     (the graphql-ws client library, default settings), with the minimal selection of
 *     docs/live.md#bytes-to-follow; and the same with every field selected;
 *   - `tenantStatus` over graphql-ws with the minimal selection (the whole status, pushed).
 * Bytes are what each client's sockets read (HTTP headers and WebSocket framing included). The
 * delta followers apply what they receive (web/src/status/apply-delta.ts) and are compared with a
 * fresh snapshot at the end.
 *
 *   npx tsx bench/follow-bytes.ts [steps] [stepMs]
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { defaultServiceConfig } from '../src/config/service';
import { Engine } from '../src/engine/engine';
import { buildApp } from '../src/server/app';
import { silentLogger } from '../src/server/logger';
import { openDatabase, type Database } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';
import { InProcessBus } from '../subscriptions/bus/in-process';
import { engineEventBusOver } from '../subscriptions/live/engine-bridge';
import { FakeChanges } from '../test/engine/fake-changes';
import { InstantNodes, ScriptedExecutor, ScriptedMerger } from '../test/engine/scripted-gateways';
import { job, makeLayout, pipeline } from '../test/engine/scripted-layout';
import { applyDelta, type LiveDelta, type LiveModel } from '../web/src/status/apply-delta';
import { QUEUE_EVENT_FIELDS, STATUS_FIELDS } from '../test/integration/live/status-fields';

const STEPS = Number(process.argv[2] ?? 20);
const STEP_MS = Number(process.argv[3] ?? 1150);
const POLL_MS = 5000;
const SIZES = [200, 500];

/** The minimal selection: what a queue view with items, their changes and job results needs. */
const MINIMAL_ITEM = 'id itemAhead active refs { id } jobs { name result }';
const MINIMAL_SNAPSHOT = `sequence pipelines { name changeQueues { key name window items { ${MINIMAL_ITEM} } } }`;
const MINIMAL_DELTAS = /* GraphQL */ `
  __typename
  ... on QueueDelta {
    sequence
    changes {
      __typename
      ... on PipelineChanged { pipeline name index }
      ... on QueueChanged { pipeline queue index name window }
      ... on QueueRemoved { pipeline queue }
      ... on ItemEnqueued { queue position item { ${MINIMAL_ITEM} } }
      ... on ItemMoved { queue itemId position itemAhead }
      ... on ItemDequeued { queue itemId }
      ... on ItemChanged { itemId active jobs { name result } }
      ... on JobChange { itemId job { name result } }
    }
  }
  ... on ResnapshotRequired { sequence }
`;

const snapshotQuery = (fields: string): string =>
  `query ($t: String!) { tenant(name: $t) { ... on Tenant { status { ... on TenantStatus { ${fields} } } } } }`;
const deltaSubscription = (fields: string): string =>
  `subscription ($t: String!, $s: Int) { queueEvents(tenant: $t, afterSeq: $s) { ${fields} } }`;

/** HTTP requests over one kept-alive socket, counting the bytes it reads. */
class CountingHttp {
  bytes = 0;
  requests = 0;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly base: string) {}

  request(path: string, body?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${this.base}${path}`,
        {
          agent: this.agent,
          method: body === undefined ? 'GET' : 'POST',
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            this.requests += 1;
            this.bytes += (request.socket as Socket).bytesRead - start;
            resolve(Buffer.concat(chunks).toString());
          });
        },
      );
      let start = 0;
      request.on('socket', (socket: Socket) => {
        start = socket.bytesRead;
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A snapshot + deltas follower; counts the bytes of its snapshot request and its WebSocket. */
class DeltaFollower {
  model: LiveModel | null = null;
  messages = 0;
  changes = 0;
  private readonly http: CountingHttp;
  private readonly sockets: WebSocket[] = [];
  private dispose: (() => void) | null = null;
  private client: ReturnType<typeof createClient> | null = null;

  constructor(
    private readonly base: string,
    private readonly tenant: string,
    private readonly snapshotFields: string,
    private readonly deltaFields: string,
  ) {
    this.http = new CountingHttp(base);
  }

  async snapshot(): Promise<LiveModel> {
    const text = await this.http.request(
      '/graphql',
      JSON.stringify({ query: snapshotQuery(this.snapshotFields), variables: { t: this.tenant } }),
    );
    const status = (
      JSON.parse(text) as { data: { tenant: { status: { sequence: number; pipelines: LiveModel['pipelines'] } } } }
    ).data.tenant.status;
    return { sequence: status.sequence, tenant: {}, pipelines: status.pipelines };
  }

  async start(): Promise<void> {
    this.model = await this.snapshot();
    const sockets = this.sockets;
    class CountingSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols);
        sockets.push(this);
      }
    }
    this.client = createClient({ url: `${this.base.replace(/^http/, 'ws')}/graphql`, webSocketImpl: CountingSocket });
    await new Promise<void>((resolve) => {
      this.dispose =
        this.client?.subscribe<{ queueEvents: LiveDelta & { __typename: string } }>(
          { query: deltaSubscription(this.deltaFields), variables: { t: this.tenant, s: this.model?.sequence } },
          {
            next: ({ data }) => {
              const event = data?.queueEvents;
              if (!event || !this.model) {
                return;
              }
              this.messages += 1;
              this.changes += event.changes?.length ?? 0;
              this.model = applyDelta(this.model, event);
            },
            error: (error) => console.error('subscription error', error),
            complete: () => undefined,
          },
        ) ?? null;
      this.client?.on('connected', () => resolve());
    });
  }

  /** Bytes read so far: the snapshot request and the WebSocket (handshake and frames). */
  bytes(): number {
    const ws = this.sockets.reduce(
      (sum, socket) => sum + ((socket as unknown as { _socket: Socket | null })._socket?.bytesRead ?? 0),
      0,
    );
    return this.http.bytes + ws;
  }

  snapshotBytes(): number {
    return this.http.bytes;
  }

  async stop(): Promise<void> {
    this.dispose?.();
    await this.client?.dispose();
    this.http.close();
  }

  /**
   * Whether what it built equals a fresh snapshot in every field it maintains (the fields derived
   * from the clock and the other items, and the event counters, are not part of the deltas).
   */
  async matches(): Promise<boolean> {
    const fresh = await this.snapshot();
    return stored(fresh.pipelines) === stored(this.model?.pipelines);
  }
}

const DERIVED = new Set([
  'heads',
  'itemsBehind',
  'remainingTime',
  'elapsedTime',
  'triggerEvents',
  'resultEvents',
  'managementEvents',
]);

/** JSON of a status without its derived fields. */
function stored(value: unknown): string {
  return JSON.stringify(value, (key, field: unknown) => (DERIVED.has(key) ? undefined : field));
}

/** A `tenantStatus` subscriber: counts the bytes of its WebSocket and the statuses it gets. */
class StatusFollower {
  statuses = 0;
  private readonly sockets: WebSocket[] = [];
  private readonly client: ReturnType<typeof createClient>;

  constructor(base: string, tenant: string) {
    const sockets = this.sockets;
    class CountingSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols);
        sockets.push(this);
      }
    }
    this.client = createClient({ url: `${base.replace(/^http/, 'ws')}/graphql`, webSocketImpl: CountingSocket });
    this.client.subscribe(
      {
        query: `subscription ($t: String!) { tenantStatus(tenant: $t) { ${MINIMAL_SNAPSHOT} } }`,
        variables: { t: tenant },
      },
      {
        next: () => (this.statuses += 1),
        error: (error) => console.error('tenantStatus error', error),
        complete: () => undefined,
      },
    );
  }

  async started(): Promise<void> {
    while (this.statuses === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  bytes(): number {
    return this.sockets.reduce(
      (sum, socket) => sum + ((socket as unknown as { _socket: Socket | null })._socket?.bytesRead ?? 0),
      0,
    );
  }

  async stop(): Promise<void> {
    await this.client.dispose();
  }
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)}%`;

async function scenario(database: Database, size: number): Promise<void> {
  const tenant = `follow-${size}`;
  const layout = makeLayout({
    tenant,
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
    projects: [{ name: 'org/project', queue: 'integrated' }],
    jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
  });
  const changes = new FakeChanges();
  const executor = new ScriptedExecutor({ now: () => new Date() });
  const nodes = new InstantNodes();
  const bus = new InProcessBus();
  let published = 0;
  const forward = engineEventBusOver(bus, (error) => console.error('publish failed', error));
  const engine = new Engine({
    database,
    layouts: (name) => (name === tenant ? layout : null),
    gateways: { changes, merger: new ScriptedMerger(changes), executor, nodes },
    bus: {
      publish: (delta) => {
        published += 1;
        forward.publish(delta);
      },
      subscribe: (name, listener) => forward.subscribe(name, listener),
    },
    clock: { now: () => new Date() },
    pollIntervalMs: 1000,
  });
  executor.sink = (name, event) => engine.submitResult(name, event);
  nodes.sink = (name, event) => engine.submitResult(name, event);
  await engine.startTenant(tenant);
  for (let number = 1; number <= size; number += 1) {
    changes.add('org/project', number);
    const queued = await engine.enqueue(tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: `${number},1`,
      by: 'bench',
    });
    if (!queued.ok) {
      throw new Error(queued.error.message);
    }
  }
  await engine.settle(tenant);
  const app = buildApp({
    config: defaultServiceConfig(process.cwd()),
    database: { ...database, close: async () => undefined }, // shared by both scenarios
    logger: silentLogger(),
    engine,
    bus,
    tenants: { tenantNames: () => [tenant], layout: () => undefined },
  });
  await app.start(0, '127.0.0.1');
  const base = app.url();

  const poller = new CountingHttp(base);
  const minimal = new DeltaFollower(base, tenant, MINIMAL_SNAPSHOT, MINIMAL_DELTAS);
  const full = new DeltaFollower(base, tenant, STATUS_FIELDS, QUEUE_EVENT_FIELDS);
  let firstPoll = 0;
  const poll = async (): Promise<void> => {
    await poller.request(`/api/tenant/${tenant}/status`);
    if (poller.requests === 1) {
      firstPoll = poller.bytes;
    }
  };
  await poll();
  await minimal.start();
  await full.start();
  const pushed = new StatusFollower(base, tenant);
  await pushed.started();
  const publishedBefore = published;
  const started = Date.now();
  const polling = setInterval(() => void poll(), POLL_MS);
  for (let step = 1; step <= STEPS; step += 1) {
    const head = step; // the items leave in order: change `step` is at the head
    await executor.finish('unit', head, { result: 'SUCCESS' });
    await executor.finish('lint', head, { result: 'SUCCESS' });
    await engine.settle(tenant);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + step * STEP_MS - Date.now())));
  }
  clearInterval(polling);
  const seconds = (Date.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 300)); // the last deltas arrive
  const polled = poller.bytes;
  const report = async (label: string, follower: DeltaFollower): Promise<string> => {
    const following = follower.bytes() - follower.snapshotBytes();
    return `  ${label}: ${kib(follower.bytes())} (snapshot ${kib(follower.snapshotBytes())}, then ${kib(following)} in ${follower.messages} messages with ${follower.changes} changes) = ${pct(follower.bytes(), polled)} of polling; following alone ${pct(following, polled - firstPoll)} of the polls after the first; replay equals a fresh snapshot: ${(await follower.matches()) ? 'yes' : 'NO'}`;
  };
  console.log(
    `${size} items, ${STEPS} steps over ${seconds.toFixed(1)} s, ${published - publishedBefore} engine deltas:`,
  );
  console.log(
    `  polling every ${POLL_MS / 1000} s: ${kib(polled)} in ${poller.requests} polls (first ${kib(firstPoll)})`,
  );
  console.log(await report('deltas, minimal selection', minimal));
  console.log(await report('deltas, every field', full));
  console.log(
    `  tenantStatus, minimal selection: ${kib(pushed.bytes())} in ${pushed.statuses} statuses = ${pct(pushed.bytes(), polled)} of polling`,
  );
  await pushed.stop();
  await minimal.stop();
  await full.stop();
  poller.close();
  await app.stop();
  await engine.stop();
}

async function main(): Promise<void> {
  const database = openDatabase({ kind: 'pglite' });
  await migrateLatest(database.knex);
  for (const size of SIZES) {
    await scenario(database, size);
  }
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
