/**
 * docs/live.md#slow-consumers: a client that stops reading is dropped with close code 4008 once
 * its socket holds the send limit unsent, on graphql-ws and on the console stream, with what
 * the server buffered for it bounded by the limit; the other clients are not held up.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { attachConsoleStream, type ConsoleStreamServer } from '../../../subscriptions/console-websocket';
import { SLOW_CONSUMER_CLOSE_CODE } from '../../../subscriptions/slow-consumer';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { startLiveServer, Subscription, wsClient, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { STATUS_FIELDS } from './status-fields';

const LIMIT = 64 * 1024;

/** Resolves with the value passed to the first call of the returned callback. */
function firstCall<T>(): { callback: (value: T) => void; called: Promise<T> } {
  let resolve: (value: T) => void = () => undefined;
  const called = new Promise<T>((done) => {
    resolve = done;
  });
  return { callback: (value) => resolve(value), called };
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

describe('slow consumers', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  const drop = firstCall<{ bufferedBytes: number; reason: string }>();

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
      webSocket: { send: { maxBufferedBytes: LIMIT, closeGraceMs: 60_000, onDrop: drop.callback } },
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

  it('graphql-ws: closes a socket that stopped reading with 4008, after at most the limit plus one message', async () => {
    const stalled = new WebSocket(server.wsUrl, 'graphql-transport-ws');
    const code = closed(stalled);
    let messages = 0;
    await new Promise<void>((resolve, reject) => {
      stalled.once('error', reject);
      stalled.on('message', (data) => {
        messages += 1;
        if ((JSON.parse(String(data)) as { type: string }).type !== 'connection_ack') {
          return;
        }
        for (let id = 1; id <= 20; id += 1) {
          const query = `subscription ($tenant: String!) { tenantStatus(tenant: $tenant) { ${STATUS_FIELDS} } }`;
          stalled.send(
            JSON.stringify({ id: String(id), type: 'subscribe', payload: { query, variables: { tenant: h.tenant } } }),
          );
        }
        stalled.pause(); // reads nothing more
        resolve();
      });
      stalled.once('open', () => stalled.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    });
    const healthy = new Subscription<{ tenantStatus: { sequence: number } }>(
      wsClient(server),
      /* GraphQL */ `
        subscription ($tenant: String!) {
          tenantStatus(tenant: $tenant) {
            sequence
          }
        }
      `,
      { tenant: h.tenant },
    );
    await healthy.waitFor(1);
    // Status changes until the server gives up on the stalled client (each one is 20 large messages to it).
    let dropped: { bufferedBytes: number } | null = null;
    void drop.called.then((info) => {
      dropped = info;
    });
    for (let round = 0; round < 2000 && dropped === null; round += 1) {
      await server.app.live.statusChanged(h.tenant);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const info = await drop.called;
    const statusBytes = JSON.stringify(
      (
        await server.graphql(
          `query ($t: String!) { tenant(name: $t) { ... on Tenant { status { ... on TenantStatus { ${STATUS_FIELDS} } } } } }`,
          { t: h.tenant },
        )
      ).data,
    ).length;
    expect(info.bufferedBytes).toBeGreaterThanOrEqual(LIMIT);
    expect(info.bufferedBytes).toBeLessThanOrEqual(LIMIT + 2 * statusBytes);
    // The healthy client still gets changes after the drop.
    const before = healthy.results.length;
    await server.app.live.statusChanged(h.tenant);
    await healthy.waitFor(before + 1);
    // Reading again, the stalled client gets what was queued, then the close frame.
    stalled.resume();
    expect(await code).toBe(SLOW_CONSUMER_CLOSE_CODE);
    expect(messages).toBeGreaterThan(1);
    healthy.close();
  }, 120_000);

  describe('console stream', () => {
    let directory: string;
    let consoles: ConsoleStreamServer;
    const consoleDrop = firstCall<{ bufferedBytes: number; reason: string }>();

    beforeAll(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), 'sluice-slow-console-'));
      const file = path.join(directory, 'job-output.txt');
      const line = `${'x'.repeat(120)}\n`;
      await writeFile(file, line.repeat(200_000)); // 24 MB, far more than the socket buffers hold
      consoles = attachConsoleStream(server.app.httpServer, {
        resolveBuild: async () => ({ kind: 'finished', file }),
        sendLimits: { maxBufferedBytes: LIMIT, sendTimeoutMs: 300, closeGraceMs: 60_000, onDrop: consoleDrop.callback },
      });
    });

    afterAll(async () => {
      await consoles.close();
      await rm(directory, { recursive: true, force: true });
    });

    it('closes a console client that stopped reading with 4008 once a frame waits longer than the send timeout', async () => {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/tenant/${h.tenant}/console-stream`);
      const code = closed(socket);
      let bytes = 0;
      socket.on('message', (data: Buffer) => {
        bytes += data.length;
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.once('open', () => {
          socket.send(JSON.stringify({ uuid: 'b1', logfile: 'console.log' }));
          socket.pause();
          resolve();
        });
      });
      const info = await consoleDrop.called;
      expect(info.reason).toMatch(/unsent after 300 ms/);
      socket.resume();
      expect(await code).toBe(SLOW_CONSUMER_CLOSE_CODE);
      expect(bytes).toBeLessThan(24_000_000); // it did not get the whole log
    }, 120_000);
  });
});
