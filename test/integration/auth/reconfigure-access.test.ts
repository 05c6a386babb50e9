/**
 * Access rules that change with the tenant file, in one `buildApp()` process with a real
 * LayoutManager, engine and executor: open subscriptions are re-checked when a reconfiguration
 * loads new rules (a subscriber that lost read access is ended with an error even though no
 * event arrives; one that kept it carries on), the console-stream WebSocket checks the token of
 * its first message, and the api-root `authentication-realm` becomes `/api/info`'s default realm.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { signJwt } from '../../helpers/sign-jwt';
import { loadServiceConfig, type ServiceConfig } from '../../../src/config/service';
import type { EngineDelta } from '../../../src/engine/event-bus';
import { buildApp, type SluiceApp } from '../../../src/server/app';
import { silentLogger } from '../../../src/server/logger';
import { git } from '../../../src/sources/git-cli';
import { seedRepositories } from '../../../src/drivers/git/seed';
import { engineEventBusOver } from '../../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken, liveTestConfig, Subscription } from '../../helpers/live';

const TENANT = 'example';
const PROJECT = 'example/hello';

/** The quickstart tenant file with optional access rules and api-root. */
function tenantFile(options: { accessRules?: boolean; apiRootRealm?: string } = {}): string {
  return `- authorization-rule:
    name: staff-only
    conditions:
      - groups: staff
- tenant:
    name: ${TENANT}
${options.accessRules ? '    access-rules: [staff-only]\n' : ''}    source:
      local:
        config-projects:
          - sluice-config
        untrusted-projects:
          - ${PROJECT}
${options.apiRootRealm ? `- api-root:\n    authentication-realm: ${options.apiRootRealm}\n` : ''}`;
}

/** A token of the test authenticator with these claims and no admin rights. */
function tokenWith(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ iss: 'sluice-test', aud: 'sluice', sub: 'someone', iat: now, exp: now + 3600, ...claims }, 'HS256', {
    kind: 'secret',
    secret: Buffer.from('live-test-secret-of-some-length'),
  });
}

const CONSOLE_LOG =
  'subscription ($tenant: String!, $uuid: String!) { consoleLog(tenant: $tenant, uuid: $uuid) { lines { text } } }';

describe('access rules changing on reconfiguration', () => {
  let root: string;
  let config: ServiceConfig;
  let tenantFilePath: string;
  let flag: string;
  let database: TestDatabase;
  let app: SluiceApp;
  const clients: Client[] = [];
  const started: Array<Extract<EngineDelta, { type: 'job-started' }>> = [];
  const wakers: Array<() => void> = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-reconfigure-access-'));
    flag = path.join(root, 'release');
    const deployment = path.join(root, 'examples', 'quickstart');
    cpSync(path.resolve(__dirname, '../../../examples/quickstart'), deployment, { recursive: true });
    // A check job that waits for the test, so its console stays open.
    const hello = path.join(deployment, 'repos', 'example', 'hello');
    writeFileSync(
      path.join(hello, 'scripts', 'wait.sh'),
      'echo "waiting for release"\nwhile [ ! -f "$SLUICE_VAR_flag" ]; do sleep 0.05; done\necho released\n',
    );
    writeFileSync(
      path.join(hello, '.zuul.yaml'),
      `- job:\n    name: hello-wait\n    run: scripts/wait.sh\n    vars:\n      flag: ${flag}\n\n- project:\n    check:\n      jobs:\n        - hello-wait\n`,
    );
    tenantFilePath = path.join(deployment, 'main.yaml');
    writeFileSync(tenantFilePath, tenantFile());
    config = loadServiceConfig(path.join(deployment, 'sluice.yaml'));
    const connection = config.connections.local;
    if (connection?.driver !== 'git' || connection.seedFrom === undefined) {
      throw new Error('the quickstart has a seeded git connection "local"');
    }
    connection.pollInterval = 3600;
    await seedRepositories(connection.seedFrom, connection.baseurl);
    database = await createTestDatabase({ migrate: false });
    app = buildApp({
      config: { ...config, auth: liveTestConfig().auth },
      database,
      logger: silentLogger(),
      environment: { PATH: process.env.PATH },
    });
    await app.start(0, '127.0.0.1');
    engineEventBusOver(app.bus, () => undefined).subscribe(TENANT, (delta) => {
      if (delta.type === 'job-started') {
        started.push(delta);
        wakers.splice(0).forEach((wake) => wake());
      }
    });
  }, 60_000);

  afterAll(async () => {
    writeFileSync(flag, '');
    await Promise.all(clients.map((client) => client.dispose()));
    await app.stop();
    await database.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  function client(token?: string): Client {
    const created = createClient({
      url: `${app.url().replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    clients.push(created);
    return created;
  }

  async function reconfigureWith(text: string): Promise<void> {
    writeFileSync(tenantFilePath, text);
    await app.layoutManager?.reconfigure();
  }

  async function info(apiPath: string): Promise<{ default_realm: string | null; read_protected?: boolean }> {
    const response = await fetch(`${app.url()}${apiPath}`);
    expect(response.status).toBe(200);
    return (
      (await response.json()) as {
        info: { capabilities: { auth: { default_realm: string | null; read_protected?: boolean } } };
      }
    ).info.capabilities.auth;
  }

  /** The reference console-stream WebSocket: resolves with the close code, reason and text received. */
  function consoleStream(uuid: string, token?: string): Promise<{ code: number; reason: string; text: string }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${app.url().replace(/^http/, 'ws')}/api/tenant/${TENANT}/console-stream`);
      let text = '';
      socket.on('open', () =>
        socket.send(JSON.stringify({ uuid, logfile: 'console.log', ...(token === undefined ? {} : { token }) })),
      );
      socket.on('message', (data: Buffer) => {
        text += data.toString('utf8');
      });
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8'), text }));
      socket.on('error', reject);
    });
  }

  it('ends the subscriptions of subscribers who lost read access as soon as the rules change', async () => {
    // A running build with an open console.
    const work = mkdtempSync(path.join(root, 'work-'));
    await git(root, ['clone', '--quiet', path.join(config.dataDir, 'repos', `${PROJECT}.git`), work]);
    writeFileSync(path.join(work, 'NOTES.md'), 'notes\n');
    await git(work, ['add', '--all']);
    await git(work, [
      '-c',
      'user.name=Someone',
      '-c',
      'user.email=someone@example.com',
      'commit',
      '--quiet',
      '-m',
      'Add notes',
    ]);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:refs/changes/01/1/1']);
    const enqueue = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(TENANT)}` },
      body: JSON.stringify({
        query: 'mutation ($input: EnqueueInput!) { enqueue(input: $input) { __typename } }',
        variables: { input: { tenant: TENANT, pipeline: 'check', project: PROJECT, change: '1,1' } },
      }),
    });
    expect(((await enqueue.json()) as { data: { enqueue: { __typename: string } } }).data.enqueue.__typename).toBe(
      'ManagementEventAccepted',
    );
    while (!started.some((delta) => delta.job === 'hello-wait')) {
      await new Promise<void>((resolve) => wakers.push(resolve));
    }
    const uuid = started.find((delta) => delta.job === 'hello-wait')?.buildUuid ?? '';
    const variables = { tenant: TENANT, uuid };
    const anonymous = new Subscription<{ consoleLog: { lines: Array<{ text: string }> } }>(
      client(),
      CONSOLE_LOG,
      variables,
    );
    const reader = new Subscription<{ consoleLog: { lines: Array<{ text: string }> } }>(
      client(tokenWith({ groups: ['readers'] })),
      CONSOLE_LOG,
      variables,
    );
    const staff = new Subscription<{ consoleLog: { lines: Array<{ text: string }> } }>(
      client(tokenWith({ groups: ['staff'] })),
      CONSOLE_LOG,
      variables,
    );
    const saw = (sub: typeof staff, text: string) => () =>
      sub.results.some(
        (result) => result.data?.consoleLog.lines.some((line) => line.text.endsWith(`| ${text}`)) ?? false,
      );
    for (const sub of [anonymous, reader, staff]) {
      await sub.until(saw(sub, 'waiting for release'), 30_000, 'the first line');
    }

    // The tenant becomes readable by staff only. No line is written meanwhile: the re-check
    // happens because the rules changed.
    await reconfigureWith(tenantFile({ accessRules: true }));
    for (const sub of [anonymous, reader]) {
      await sub.until(() => sub.completed, 5000, 'the subscription to end');
      expect(sub.results[sub.results.length - 1]?.errors?.[0]).toMatchObject({
        message: `Not authorized to read tenant ${TENANT}`,
        extensions: { code: 'FORBIDDEN' },
      });
    }
    expect(staff.completed).toBe(false);
    expect(staff.results.every((result) => result.errors === undefined)).toBe(true);
    expect(await info(`/api/tenant/${TENANT}/info`)).toMatchObject({ read_protected: true });

    // The console-stream WebSocket checks the first message's token against the new rules.
    expect(await consoleStream(uuid)).toMatchObject({ code: 4000, reason: 'MissingAuthError' });
    expect(await consoleStream(uuid, tokenWith({ groups: ['readers'] }))).toMatchObject({
      code: 4000,
      reason: 'Authorization error',
    });
    const staffStream = consoleStream(uuid, tokenWith({ groups: ['staff'] }));

    // Staff keeps following the build to its end.
    writeFileSync(flag, '');
    await staff.until(() => staff.completed, 30_000, 'the build to end');
    expect(saw(staff, 'released')()).toBe(true);
    expect(staff.results.every((result) => result.errors === undefined)).toBe(true);
    const streamed = await staffStream;
    expect(streamed.code).toBe(1000);
    expect(streamed.text).toContain('| released\n');

    await reconfigureWith(tenantFile());
  }, 120_000);

  it("announces the api-root's authentication-realm as the default realm", async () => {
    expect(await info('/api/info')).toMatchObject({ default_realm: 'sluice' });
    await reconfigureWith(tenantFile({ apiRootRealm: 'corp-sso' }));
    expect(await info('/api/info')).toMatchObject({ default_realm: 'corp-sso' });
    // The api-root's realm is the root's only: a tenant without its own realm keeps the default.
    expect(await info(`/api/tenant/${TENANT}/info`)).toMatchObject({ default_realm: 'sluice' });
    const response = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ info { capabilities { auth { defaultRealm } } } }' }),
    });
    expect(await response.json()).toEqual({ data: { info: { capabilities: { auth: { defaultRealm: 'corp-sso' } } } } });
    await reconfigureWith(tenantFile());
    expect(await info('/api/info')).toMatchObject({ default_realm: 'sluice' });
  });
});
