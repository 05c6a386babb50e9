/**
 * Secrets end to end in one `buildApp()` process (engine, executor, git driver, API): a value
 * is encrypted with OpenSSL and the project key served at `key/<project>.pub`, committed to the
 * project's configuration, and used by a post-review job that prints it, writes it to files,
 * its log directory and its results. The job finds the value in its secrets file; afterwards no
 * API response (REST, GraphQL over HTTP and WebSocket), log file, console stream, system event,
 * server log line or database row contains it.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, createPublicKey } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { REDACTED } from '../../src/secrets/redact';
import { loadServiceConfig, type ServiceConfig } from '../../src/config/service';
import type { EngineDelta } from '../../src/engine/event-bus';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { createLogger } from '../../src/server/logger';
import { git } from '../../src/sources/git-cli';
import { seedRepositories } from '../../src/drivers/git/seed';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { gitPoller } from '../helpers/git-pollers';
import { liveTestConfig } from '../helpers/live';

const TENANT = 'example';
const PROJECT = 'example/hello';
/** Unique per run, so finding it anywhere can only mean a leak. */
const SECRET = `s3cret-${randomBytes(12).toString('hex')}`;

const DEPLOY_SCRIPT = `set -eu
password=$(node -e 'process.stdout.write(require(process.env.SLUICE_SECRETS_FILE).deploy.password)')
echo "Deploying with password $password"
printf '%s' "$password" > deployed.txt
printf '%s' "$password" > "$SLUICE_VAR_seen_dir/seen.txt"
stat -c %a "$SLUICE_SECRETS_FILE" > "$SLUICE_VAR_seen_dir/mode.txt"
env > "$SLUICE_VAR_seen_dir/env.txt"
echo "password=$password" > "$SLUICE_LOG_DIR/deploy-notes.txt"
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"data": {"deployed_with": "$password"}, "warnings": ["deployed with $password"],
 "artifacts": [{"name": "notes", "url": "deploy-notes.txt", "metadata": {"password": "$password"}}]}
JSON
echo "Deployed with $password" >&2
`;

describe('secrets end to end', () => {
  let root: string;
  let seenDir: string;
  let config: ServiceConfig;
  let database: TestDatabase;
  let app: SluiceApp;
  let bareRepo: string;
  const serverLog: string[] = [];
  const reports: EngineDelta[] = [];
  const reported: Array<() => void> = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-secrets-e2e-'));
    seenDir = path.join(root, 'seen');
    mkdirSync(seenDir);
    const deployment = path.join(root, 'examples', 'quickstart');
    cpSync(path.resolve(__dirname, '../../examples/quickstart'), deployment, { recursive: true });
    config = loadServiceConfig(path.join(deployment, 'sluice.yaml'));
    config.logs.url = '/logs/';
    const connection = config.connections.local;
    if (connection?.driver !== 'git' || connection.seedFrom === undefined) {
      throw new Error('the quickstart has a seeded git connection "local"');
    }
    // The test drives polling itself (configuration reload, then one git poll).
    connection.pollInterval = 3600;
    await seedRepositories(connection.seedFrom, connection.baseurl);
    bareRepo = path.join(connection.baseurl, `${PROJECT}.git`);
    database = await createTestDatabase({ migrate: false });
    const logSink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        serverLog.push(chunk.toString('utf8'));
        callback();
      },
    });
    app = buildApp({
      config: { ...config, auth: liveTestConfig().auth },
      database,
      logger: createLogger({ level: 'debug', destination: logSink }),
      environment: { PATH: process.env.PATH },
    });
    await app.start(0, '127.0.0.1');
    engineEventBusOver(app.bus, () => undefined).subscribe(TENANT, (delta) => {
      if (delta.type === 'item-reported') {
        reports.push(delta);
        reported.splice(0).forEach((wake) => wake());
      }
    });
  }, 60_000);

  afterAll(async () => {
    await app.stop();
    await database.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  /** Every response body seen, to grep at the end. */
  const bodies: Array<{ what: string; text: string }> = [];

  async function get(apiPath: string): Promise<string> {
    const response = await fetch(`${app.url()}${apiPath}`);
    const text = await response.text();
    expect({ apiPath, status: response.status }).toEqual({ apiPath, status: 200 });
    bodies.push({ what: apiPath, text });
    return text;
  }

  async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    bodies.push({ what: `graphql ${query.slice(0, 60)}`, text });
    const body = JSON.parse(text) as { data?: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data as T;
  }

  async function waitForReport(pipeline: string, from: number): Promise<EngineDelta> {
    for (;;) {
      const found = reports.slice(from).find((delta) => delta.type === 'item-reported' && delta.pipeline === pipeline);
      if (found) {
        return found;
      }
      await new Promise<void>((resolve) => reported.push(resolve));
    }
  }

  it('runs a post-review job with a secret encrypted by OpenSSL with the served key, and leaks it nowhere', async () => {
    // 1. The project's public key, as a user fetches it.
    const pem = await get(`/api/tenant/${TENANT}/key/${PROJECT}.pub`);
    expect(createPublicKey(pem).asymmetricKeyDetails?.modulusLength).toBe(4096);
    const keyFile = path.join(root, 'hello.pub');
    writeFileSync(keyFile, pem);
    // docs/security.md#secrets: RSAES-OAEP with SHA-1 (hash and MGF1).
    const ciphertext = execFileSync(
      'openssl',
      [
        'pkeyutl',
        '-encrypt',
        '-pubin',
        '-inkey',
        keyFile,
        '-pkeyopt',
        'rsa_padding_mode:oaep',
        '-pkeyopt',
        'rsa_oaep_md:sha1',
      ],
      { input: SECRET },
    );
    const chunk = ciphertext.toString('base64');
    expect(chunk).toHaveLength(684);

    // 2. Commit the secret and a job using it to the project's configuration.
    const poller = gitPoller(app.roles, 'local');
    if (poller === undefined || app.layoutManager === undefined) {
      throw new Error('the quickstart app runs a layout manager and a git poller');
    }
    await poller.pollNow(); // baseline: the branch tips before the commit
    const work = mkdtempSync(path.join(root, 'work-'));
    await git(root, ['clone', '--quiet', bareRepo, work]);
    const zuulYaml = path.join(work, '.zuul.yaml');
    const current = readFileSync(zuulYaml, 'utf8');
    expect(current).toContain('    post:\n      jobs:\n        - hello-publish\n');
    writeFileSync(
      zuulYaml,
      `${current.replace('    post:\n      jobs:\n        - hello-publish\n', '    post:\n      jobs:\n        - hello-publish\n        - hello-deploy\n')}
- secret:
    name: deploy-credentials
    data:
      username: deployer
      password: !encrypted/pkcs1-oaep
        - ${chunk}

- job:
    name: hello-deploy
    description: Deploys with a password it must never leak.
    run: scripts/deploy.sh
    secrets:
      - name: deploy
        secret: deploy-credentials
    vars:
      seen_dir: ${seenDir}
`,
    );
    writeFileSync(path.join(work, 'scripts', 'deploy.sh'), DEPLOY_SCRIPT);
    await git(work, ['add', '--all']);
    await git(work, [
      '-c',
      'user.name=Deployer',
      '-c',
      'user.email=deployer@example.com',
      'commit',
      '--quiet',
      '-m',
      'Deploy after merges',
    ]);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);

    // 3. The layout reloads (the secret decrypts: no configuration error), then the poller sees
    //    the branch move and the post pipeline runs the job.
    await app.layoutManager.reconfigure([TENANT]);
    expect(app.layoutManager.layout(TENANT)?.errors).toEqual([]);
    const before = reports.length;
    const events = await poller.pollNow();
    expect(events.map((event) => [event.type, event.project])).toContainEqual(['ref-updated', PROJECT]);
    const report = await waitForReport('post', before);
    expect(report).toMatchObject({ pipeline: 'post', result: 'SUCCESS' });

    // 4. The job saw the value in its 0600 secrets file, never in its environment.
    expect(readFileSync(path.join(seenDir, 'seen.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(path.join(seenDir, 'mode.txt'), 'utf8').trim()).toBe('600');
    const env = readFileSync(path.join(seenDir, 'env.txt'), 'utf8');
    expect(env).toContain('SLUICE_SECRETS_FILE=');
    expect(env).not.toContain(SECRET);
    rmSync(seenDir, { recursive: true, force: true }); // only the test's own copies held the value

    const [deploy] = await database
      .knex('builds')
      .where({ tenant: TENANT, job_name: 'hello-deploy' })
      .select('uuid', 'result', 'log_url');
    expect(deploy).toMatchObject({ result: 'SUCCESS' });
    const buildUuid = deploy.uuid as string;
    const [buildset] = await database.knex('buildsets').where({ tenant: TENANT, pipeline: 'post' }).select('uuid');
    expect(existsSync(path.join(config.dataDir, 'executor', 'builds', buildUuid))).toBe(false);

    // 5. REST responses.
    const base = `/api/tenant/${TENANT}`;
    const buildJson = JSON.parse(await get(`${base}/build/${buildUuid}`)) as {
      artifacts: Array<{ metadata: unknown }>;
    };
    expect(buildJson.artifacts.map((artifact) => artifact.metadata)).toContainEqual({ password: REDACTED });
    for (const apiPath of [
      `${base}/builds`,
      `${base}/builds?job_name=hello-deploy`,
      `${base}/buildsets`,
      `${base}/buildset/${buildset.uuid as string}`,
      `${base}/status`,
      `${base}/tenant-status`,
      `${base}/job/hello-deploy`,
      `${base}/jobs`,
      `${base}/project/${PROJECT}`,
      `${base}/pipeline/post/project/${PROJECT}/branch/master/freeze-jobs`,
      `${base}/pipeline/post/project/${PROJECT}/branch/master/freeze-job/hello-deploy`,
      `${base}/config-errors`,
      `${base}/system-events`,
      `${base}/info`,
      '/api/tenants',
    ]) {
      await get(apiPath);
    }

    // 6. GraphQL over HTTP (several operations: each stays within the cost limit).
    const tenantFields = [
      'builds(first: 20) { nodes { uuid jobName result errorDetail logUrl artifacts { name url metadata } events { __typename } } }',
      'buildsets(first: 20) { nodes { uuid result message builds { uuid errorDetail } } }',
      `build(uuid: "${buildUuid}") { ... on Build { errorDetail artifacts { name url metadata } } }`,
      'systemEvents(first: 50) { nodes { eventType description data } }',
      'configErrors(first: 50) { nodes { error shortError } }',
      `freezeJob(pipeline: "post", project: "${PROJECT}", branch: "master", job: "hello-deploy") { ... on FrozenJob { parameters } }`,
      'job(name: "hello-deploy") { ... on Job { variants { variables run { secrets { name alias } } } } }',
      'status { ... on TenantStatus { pipelines { name } } }',
    ];
    for (const fields of tenantFields) {
      await graphql(`query ($tenant: String!) { tenant(name: $tenant) { ... on Tenant { ${fields} } } }`, {
        tenant: TENANT,
      });
    }

    // 7. The console: GraphQL subscription over WebSocket and the console-stream endpoint.
    const client = createClient({
      url: `${app.url().replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const consoleLines: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        client.subscribe<{ consoleLog: { lines: Array<{ text: string }> } }>(
          {
            query:
              'subscription ($tenant: String!, $uuid: String!) { consoleLog(tenant: $tenant, uuid: $uuid) { lines { seq text } } }',
            variables: { tenant: TENANT, uuid: buildUuid },
          },
          {
            next: (value) => consoleLines.push(...(value.data?.consoleLog.lines.map((line) => line.text) ?? [])),
            error: reject,
            complete: resolve,
          },
        );
      });
    } finally {
      await client.dispose();
    }
    expect(consoleLines.some((line) => line.endsWith(`| Deploying with password ${REDACTED}`))).toBe(true);
    bodies.push({ what: 'consoleLog subscription', text: consoleLines.join('\n') });
    const streamed = await consoleStream(buildUuid);
    expect(streamed).toContain(`| Deployed with ${REDACTED}\n`);
    bodies.push({ what: 'console-stream', text: streamed });

    // 8. Log files: on disk and as served.
    const logText = await get(`${deploy.log_url as string}job-output.txt`);
    expect(logText).toContain(`| Deploying with password ${REDACTED}\n`);
    expect(await get(`${deploy.log_url as string}deploy-notes.txt`)).toBe(`password=${REDACTED}\n`);
    const logsDir = config.logs.dir ?? path.join(config.dataDir, 'logs');
    for (const file of filesUnder(logsDir)) {
      bodies.push({ what: file, text: readFileSync(file, 'utf8') });
    }

    // 9. Every text column of every table.
    const tables = await database.knex.raw<{ rows: Array<{ table_name: string }> }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    expect(tables.rows.length).toBeGreaterThan(10);
    for (const { table_name: table } of tables.rows) {
      const rows = await database.knex.raw<{ rows: Array<{ row: string }> }>(`select t::text as row from "${table}" t`);
      bodies.push({ what: `table ${table}`, text: rows.rows.map((r) => r.row).join('\n') });
    }
    // The build request kept the secret as the ciphertext committed to the repository.
    expect(bodies.find((b) => b.what === 'table build_requests')?.text).toContain(chunk.slice(0, 64));

    // 10. The server's own log.
    bodies.push({ what: 'server log', text: serverLog.join('') });

    const leaks = bodies.filter((body) => body.text.includes(SECRET)).map((body) => body.what);
    expect(leaks).toEqual([]);
    expect(bodies.length).toBeGreaterThan(40);
  }, 240_000);

  /** The reference console-stream WebSocket: every frame until the server closes. */
  function consoleStream(uuid: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${app.url().replace(/^http/, 'ws')}/api/tenant/${TENANT}/console-stream`);
      let text = '';
      socket.on('open', () => socket.send(JSON.stringify({ uuid, logfile: 'console.log' })));
      socket.on('message', (data: Buffer) => {
        text += data.toString('utf8');
      });
      socket.on('close', (code) =>
        code === 1000 ? resolve(text) : reject(new Error(`console stream closed with ${code}`)),
      );
      socket.on('error', reject);
    });
  }
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => path.join(dir, entry))
    .filter((file) => statSync(file).isFile());
}
