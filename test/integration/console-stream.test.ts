import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { ChangeSignal } from '../../src/auth/change-signal';
import { ConsoleRegistry } from '../../src/executor/build-log';
import { createConsoleResolver } from '../../src/executor/console-resolver';
import { attachConsoleStream, type ConsoleStreamServer } from '../../subscriptions/console-websocket';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { startTestServer, type TestServer } from '../helpers/server';

interface ConsoleSession {
  received: string[];
  text(): string;
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once the concatenated text contains `marker`. */
  waitFor(marker: string): Promise<void>;
}

function openConsole(url: string, message: unknown): ConsoleSession {
  const ws = new WebSocket(url);
  const received: string[] = [];
  const watchers: { marker: string; resolve: () => void }[] = [];
  ws.on('open', () => ws.send(typeof message === 'string' ? message : JSON.stringify(message)));
  ws.on('message', (data) => {
    received.push(data.toString());
    const text = received.join('');
    for (const watcher of [...watchers]) {
      if (text.includes(watcher.marker)) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
    }
  });
  return {
    received,
    text: () => received.join(''),
    closed: new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }))),
    waitFor: (marker) =>
      received.join('').includes(marker)
        ? Promise.resolve()
        : new Promise((resolve) => {
            watchers.push({ marker, resolve });
          }),
  };
}

describe('console stream WebSocket', () => {
  let harness: ExecutorHarness;
  let server: TestServer;
  let consoles: ConsoleStreamServer;
  let base: string;

  beforeAll(async () => {
    harness = await createExecutorHarness({
      'talk.sh':
        'echo first line\necho "héllo wörld"\nwhile [ ! -f "$SLUICE_VAR_flag" ]; do sleep 0.05; done\necho last line\n',
    });
    harness.worker.start();
    server = await startTestServer();
    // Attached after graphql-ws (which the app attaches on start): both must keep working.
    consoles = attachConsoleStream(server.app.httpServer, {
      resolveBuild: createConsoleResolver({
        repository: harness.repository,
        consoles: harness.worker.consoles,
        logsDir: harness.logsDir,
      }),
    });
    base = `${server.url.replace('http', 'ws')}/api/tenant/example/console-stream`;
  });

  afterAll(async () => {
    await consoles.close();
    await server.stop();
    await harness.close();
  });

  it('streams a running build live, then closes 1000 "No more data" with the whole log', async () => {
    const flag = path.join(harness.root, 'release-console');
    await harness.enqueue('ca000000000000000000000000000001', { run: [step('talk.sh')], vars: { flag } });
    await waitForState(harness, 'ca000000000000000000000000000001', 'running');
    const session = openConsole(base, { uuid: 'ca000000000000000000000000000001', logfile: 'console.log' });
    await session.waitFor('| héllo wörld\n');
    expect(session.text()).not.toContain('last line');
    writeFileSync(flag, '');
    expect(await session.closed).toEqual({ code: 1000, reason: 'No more data' });
    await harness.completion('ca000000000000000000000000000001');
    const file = readFileSync(
      path.join(harness.logsDir, 'example/ca/ca000000000000000000000000000001/job-output.txt'),
      'utf8',
    );
    expect(session.text()).toBe(file);
    expect(file).toContain('| last line\n');
  });

  it('replays a finished build and closes 1000 "No more data"', async () => {
    const session = openConsole(base, { uuid: 'ca000000000000000000000000000001', logfile: null });
    expect(await session.closed).toEqual({ code: 1000, reason: 'No more data' });
    expect(session.text()).toBe(
      readFileSync(path.join(harness.logsDir, 'example/ca/ca000000000000000000000000000001/job-output.txt'), 'utf8'),
    );
  });

  it.each([
    [{ logfile: 'console.log' }, 4000, "'uuid' missing from request payload"],
    [{ uuid: 'ca000000000000000000000000000001' }, 4000, "'logfile' missing from request payload"],
    ['not json', 4000, 'Invalid request payload'],
    [{ uuid: 'ffff0000000000000000000000000000', logfile: 'console.log' }, 4011, 'Build not found'],
  ])('closes %j with %i %s', async (message, code, reason) => {
    expect(await openConsole(base, message).closed).toEqual({ code, reason });
  });

  it('does not show a build to another tenant', async () => {
    const other = `${server.url.replace('http', 'ws')}/api/tenant/other/console-stream`;
    expect(
      await openConsole(other, { uuid: 'ca000000000000000000000000000001', logfile: 'console.log' }).closed,
    ).toEqual({ code: 4011, reason: 'Build not found' });
  });

  it('says a queued build did not start yet', async () => {
    await harness.worker.stop();
    try {
      await harness.enqueue('cb000000000000000000000000000002', { run: [step('talk.sh')] });
      expect(
        await openConsole(base, { uuid: 'cb000000000000000000000000000002', logfile: 'console.log' }).closed,
      ).toEqual({ code: 4011, reason: 'Build did not start yet' });
      await harness.repository.requestCancel('cb000000000000000000000000000002', 'CANCELED', new Date());
    } finally {
      harness.worker.start();
    }
  });

  it('authorizes an open stream again when access changes, and closes it once refused', async () => {
    const changes = new ChangeSignal();
    let allowed = true;
    const checked: Array<string | undefined> = [];
    let onCheck: (() => void) | undefined;
    // Its own HTTP server: the app's upgrade handling answers other paths itself.
    const guardedServer = http.createServer();
    const guarded = attachConsoleStream(guardedServer, {
      resolveBuild: createConsoleResolver({
        repository: harness.repository,
        consoles: harness.worker.consoles,
        logsDir: harness.logsDir,
      }),
      authorize: async (_tenant, token) => {
        checked.push(token);
        onCheck?.();
        return allowed ? { ok: true } : { ok: false, reason: 'Authorization error' };
      },
      accessChanges: () => changes.next(),
    });
    await new Promise<void>((resolve) => guardedServer.listen(0, '127.0.0.1', resolve));
    const guardedPort = (guardedServer.address() as AddressInfo).port;
    const flag = path.join(harness.root, 'release-guarded');
    try {
      await harness.enqueue('cc000000000000000000000000000003', { run: [step('talk.sh')], vars: { flag } });
      await waitForState(harness, 'cc000000000000000000000000000003', 'running');
      const session = openConsole(`ws://127.0.0.1:${guardedPort}/api/tenant/example/console-stream`, {
        uuid: 'cc000000000000000000000000000003',
        logfile: 'console.log',
        token: 'reader-token',
      });
      await session.waitFor('| héllo wörld\n');
      // Still allowed: the stream goes on.
      const rechecked = new Promise<void>((resolve) => {
        onCheck = resolve;
      });
      changes.fire();
      await rechecked;
      allowed = false;
      changes.fire();
      expect(await session.closed).toEqual({ code: 4000, reason: 'Authorization error' });
      expect(checked).toEqual(['reader-token', 'reader-token', 'reader-token']);
      expect(session.text()).not.toContain('last line');
    } finally {
      writeFileSync(flag, '');
      await harness.completion('cc000000000000000000000000000003');
      await guarded.close();
      await new Promise<void>((resolve) => guardedServer.close(() => resolve()));
    }
  });

  it('follows a build of another executor process through the shared log root', async () => {
    // The API process's resolver: same store and log root, none of the executor's live logs.
    const apiServer = http.createServer();
    const api = attachConsoleStream(apiServer, {
      resolveBuild: createConsoleResolver({
        repository: harness.repository,
        consoles: new ConsoleRegistry(),
        logsDir: harness.logsDir,
        followPollMs: 20,
      }),
    });
    await new Promise<void>((resolve) => apiServer.listen(0, '127.0.0.1', resolve));
    const port = (apiServer.address() as AddressInfo).port;
    const flag = path.join(harness.root, 'release-followed');
    try {
      await harness.enqueue('cd000000000000000000000000000004', { run: [step('talk.sh')], vars: { flag } });
      await waitForState(harness, 'cd000000000000000000000000000004', 'running');
      const session = openConsole(`ws://127.0.0.1:${port}/api/tenant/example/console-stream`, {
        uuid: 'cd000000000000000000000000000004',
        logfile: 'console.log',
      });
      await session.waitFor('| héllo wörld\n');
      expect(session.text()).not.toContain('last line');
      writeFileSync(flag, '');
      expect(await session.closed).toEqual({ code: 1000, reason: 'No more data' });
      const file = readFileSync(
        path.join(harness.logsDir, 'example/cd/cd000000000000000000000000000004/job-output.txt'),
        'utf8',
      );
      expect(session.text()).toBe(file);
      expect(file).toContain('| last line\n');
    } finally {
      writeFileSync(flag, '');
      await harness.completion('cd000000000000000000000000000004');
      await api.close();
      await new Promise<void>((resolve) => apiServer.close(() => resolve()));
    }
  });

  it('leaves graphql-ws on /graphql working', async () => {
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const result = await new Promise((resolve, reject) => {
        client.subscribe({ query: '{ __typename }' }, { next: resolve, error: reject, complete: () => undefined });
      });
      expect(result).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await client.dispose();
    }
  });
});

describe('upgrade routing', () => {
  it('keeps a path-bound ws server working when attached before it, and releases on close', async () => {
    const httpServer = http.createServer();
    const consoles = attachConsoleStream(httpServer, { resolveBuild: () => Promise.resolve({ kind: 'not-found' }) });
    // A ws server bound to a path, added after: it would answer other paths with 400 on its own.
    const other = new WebSocketServer({ server: httpServer, path: '/graphql' });
    other.on('connection', (ws) => ws.send('graphql here'));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const port = (httpServer.address() as AddressInfo).port;
    try {
      const session = openConsole(`ws://127.0.0.1:${port}/api/tenant/t/console-stream`, {
        uuid: 'x1',
        logfile: 'console.log',
      });
      expect(await session.closed).toEqual({ code: 4011, reason: 'Build not found' });
      const greeting = await new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`);
        ws.on('message', (data) => {
          resolve(data.toString());
          ws.close();
        });
        ws.on('error', reject);
      });
      expect(greeting).toBe('graphql here');
    } finally {
      await consoles.close();
      other.close();
      await new Promise((resolve) => httpServer.close(resolve));
    }
  });
});

async function waitForState(harness: ExecutorHarness, uuid: string, state: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await harness.repository.get(uuid))?.state === state && harness.worker.consoles.get(uuid)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`build ${uuid} never reached ${state}`);
}
