/**
 * docs/live.md#slow-consumers over server-sent events: a GraphQL subscription with
 * `Accept: text/event-stream` whose client stops reading is cut off once its response holds the
 * send limit unsent (the WebSockets' limit), with what the server buffered for it bounded by the
 * limit; a client that reads keeps its stream.
 */
import net from 'node:net';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { startLiveServer, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { STATUS_FIELDS } from './status-fields';

const LIMIT = 64 * 1024;

/** A raw HTTP/1.1 SSE request for `query`; `stall` resolves once the first event arrived and the socket stopped reading. */
function sseRequest(url: string, query: string, variables: Record<string, unknown>) {
  const { port, hostname } = new URL(url);
  const body = JSON.stringify({ query, variables });
  const socket = net.connect(Number(port), hostname);
  let text = '';
  const firstEvent = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('event: next')) {
        resolve();
      }
    });
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return { socket, firstEvent, ended, received: () => text };
}

describe('slow consumers over server-sent events', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  const drops: Array<{ bufferedBytes: number; reason: string }> = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
      }),
    );
    await h.start();
    server = await startLiveServer(db, {
      harness: h,
      live: { statusIntervalMs: 1 },
      webSocket: { send: { maxBufferedBytes: LIMIT, onDrop: (info) => drops.push(info) } },
    });
    for (let number = 1; number <= 20; number += 1) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
  });

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
  });

  it('cuts off a client that stopped reading once its response holds the limit unsent; a reading client goes on', async () => {
    const query = `subscription ($tenant: String!) { tenantStatus(tenant: $tenant) { ${STATUS_FIELDS} } }`;
    const stalled = sseRequest(server.url, query, { tenant: h.tenant });
    await stalled.firstEvent;
    stalled.socket.pause(); // reads nothing more
    const reading = sseRequest(
      server.url,
      `subscription ($tenant: String!) { tenantStatus(tenant: $tenant) { sequence } }`,
      {
        tenant: h.tenant,
      },
    );
    await reading.firstEvent;
    for (let round = 0; round < 3000 && drops.length === 0; round += 1) {
      await server.app.live.statusChanged(h.tenant);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(drops).toHaveLength(1);
    const statusBytes = JSON.stringify(
      (
        await server.graphql(
          `query ($t: String!) { tenant(name: $t) { ... on Tenant { status { ... on TenantStatus { ${STATUS_FIELDS} } } } } }`,
          { t: h.tenant },
        )
      ).data,
    ).length;
    const [drop] = drops;
    expect(drop.reason).toMatch(/^Slow consumer: \d+ bytes unsent$/);
    expect(drop.bufferedBytes).toBeGreaterThanOrEqual(LIMIT);
    expect(drop.bufferedBytes).toBeLessThanOrEqual(LIMIT + 2 * statusBytes);
    // The stalled client's connection is gone: reading again, it gets what was sent, then the end.
    stalled.socket.resume();
    await stalled.ended;
    // The reading client still gets changes after the drop.
    const before = reading.received().split('event: next').length;
    await server.app.live.statusChanged(h.tenant);
    while (reading.received().split('event: next').length === before) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(drops).toHaveLength(1);
    reading.socket.destroy();
  }, 120_000);

  it('a send that does not complete within the send timeout drops the client too', async () => {
    drops.length = 0;
    const quick = await startLiveServer(db, {
      harness: h,
      live: { statusIntervalMs: 1 },
      webSocket: {
        send: { maxBufferedBytes: 1024 * 1024 * 1024, sendTimeoutMs: 300, onDrop: (info) => drops.push(info) },
      },
    });
    try {
      const query = `subscription ($tenant: String!) { tenantStatus(tenant: $tenant) { ${STATUS_FIELDS} } }`;
      const stalled = sseRequest(quick.url, query, { tenant: h.tenant });
      await stalled.firstEvent;
      stalled.socket.pause();
      for (let round = 0; round < 3000 && drops.length === 0; round += 1) {
        await quick.app.live.statusChanged(h.tenant);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(drops.map((drop) => drop.reason)).toEqual([expect.stringMatching(/unsent after 300 ms$/)]);
      stalled.socket.resume();
      await stalled.ended;
    } finally {
      await quick.stop();
    }
  }, 120_000);
});
