/** The `consoleLog` GraphQL subscription over graphql-ws: live, resumable, replay of finished builds, errors. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createConsoleResolver } from '../../src/executor/console-resolver';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { startLiveServer, type LiveServer } from '../helpers/live';

const CONSOLE_LOG = /* GraphQL */ `
  subscription ($tenant: String!, $uuid: String!, $offset: Int) {
    consoleLog(tenant: $tenant, uuid: $uuid, offset: $offset) {
      lines {
        seq
        text
      }
    }
  }
`;

interface Line {
  seq: number;
  text: string;
}

interface Follow {
  lines: Line[];
  done: Promise<{ error?: string }>;
  waitFor(text: string): Promise<void>;
}

function follow(client: Client, variables: Record<string, unknown>): Follow {
  const lines: Line[] = [];
  const watchers: { text: string; resolve: () => void }[] = [];
  const done = new Promise<{ error?: string }>((resolve) => {
    client.subscribe<{ consoleLog: { lines: Line[] } }>(
      { query: CONSOLE_LOG, variables },
      {
        next: (result) => {
          if (result.errors) {
            resolve({ error: result.errors[0].message });
            return;
          }
          lines.push(...(result.data?.consoleLog.lines ?? []));
          for (const watcher of [...watchers]) {
            if (lines.some((l) => l.text.endsWith(watcher.text))) {
              watchers.splice(watchers.indexOf(watcher), 1);
              watcher.resolve();
            }
          }
        },
        error: (err) =>
          resolve({ error: Array.isArray(err) ? String((err[0] as { message: string }).message) : String(err) }),
        complete: () => resolve({}),
      },
    );
  });
  return {
    lines,
    done,
    waitFor: (text) =>
      lines.some((l) => l.text.endsWith(text))
        ? Promise.resolve()
        : new Promise((resolve) => watchers.push({ text, resolve })),
  };
}

async function waitForState(harness: ExecutorHarness, uuid: string, state: string): Promise<void> {
  for (;;) {
    if ((await harness.repository.get(uuid))?.state === state) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('consoleLog subscription', () => {
  let harness: ExecutorHarness;
  let server: LiveServer;
  let client: Client;

  beforeAll(async () => {
    harness = await createExecutorHarness({
      'talk.sh':
        'echo first line\necho second line\nwhile [ ! -f "$SLUICE_VAR_flag" ]; do sleep 0.05; done\necho last line\n',
    });
    harness.worker.start();
    server = await startLiveServer(harness.database, {
      console: createConsoleResolver({
        repository: harness.repository,
        consoles: harness.worker.consoles,
        logsDir: harness.logsDir,
      }),
      tenants: { tenantNames: () => ['example'], layout: () => undefined },
    });
    client = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  });

  afterAll(async () => {
    await client.dispose();
    await server.stop();
    await harness.close();
  });

  const uuid = 'cc000000000000000000000000000001';

  it('follows a running build live with sequence numbers and completes at the end', async () => {
    const flag = path.join(harness.root, 'release-graphql-console');
    await harness.enqueue(uuid, { run: [step('talk.sh')], vars: { flag } });
    await waitForState(harness, uuid, 'running');
    const live = follow(client, { tenant: 'example', uuid });
    await live.waitFor('| second line');
    expect(live.lines.some((l) => l.text.endsWith('| last line'))).toBe(false);
    writeFileSync(flag, '');
    expect(await live.done).toEqual({});
    await harness.completion(uuid);
    const file = readFileSync(path.join(harness.logsDir, 'example/cc', uuid, 'job-output.txt'), 'utf8');
    expect(live.lines.map((l) => `${l.text}\n`).join('')).toBe(file);
    expect(live.lines.map((l) => l.seq)).toEqual(live.lines.map((_l, i) => i + 1));
  });

  it('replays a finished build from an offset and completes', async () => {
    const full = follow(client, { tenant: 'example', uuid });
    expect(await full.done).toEqual({});
    const resumed = follow(client, { tenant: 'example', uuid, offset: 2 });
    expect(await resumed.done).toEqual({});
    expect(resumed.lines).toEqual(full.lines.slice(2));
  });

  it('answers unknown builds, other tenants and bad offsets with errors on that operation only', async () => {
    expect(await follow(client, { tenant: 'example', uuid: 'ffff0000000000000000000000000000' }).done).toEqual({
      error: 'Build not found',
    });
    expect(await follow(client, { tenant: 'other', uuid }).done).toEqual({
      error: expect.stringMatching(/Permission denied|Build not found/),
    });
    expect(await follow(client, { tenant: 'example', uuid, offset: -1 }).done).toEqual({
      error: 'offset must be 0 or more',
    });
    // The socket still serves new operations afterwards.
    expect(await follow(client, { tenant: 'example', uuid, offset: 1000 }).done).toEqual({});
  });
});
