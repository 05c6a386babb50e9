/**
 * The GitHub driver through the real server and the fake GitHub (docs/github.md#status): a
 * pull request opened runs `check` and gets its status; an approval and a label bring it into
 * `gate`, which merges it through the API; a failing job reports failure and a comment and
 * does not merge; a webhook with a bad signature is refused and nothing is stored.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultServiceConfig, type ServiceConfig } from '../../../src/config/service';
import { createLogger } from '../../../src/server/logger';
import { FakeGitHub } from '../../helpers/fake-github/server';
import { startTestServer, type TestServer } from '../../helpers/server';

const SECRET = 'webhook-secret';
const PIPELINES = `
- pipeline:
    name: check
    manager: independent
    trigger:
      github:
        - event: pull_request
          action: [opened, changed, reopened]
    start:
      github:
        status: pending
        comment: false
    success:
      github:
        status: success
        check: success
    failure:
      github:
        status: failure
        check: failure
- pipeline:
    name: gate
    manager: dependent
    require:
      github:
        review:
          - type: approved
        label: gate
        open: true
        current-patchset: true
    trigger:
      github:
        - event: pull_request_review
          action: submitted
          state: approved
        - event: pull_request
          action: labeled
          label: gate
    success:
      github:
        status: success
        merge: true
    failure:
      github:
        status: failure
- nodeset:
    name: single-node
    nodes:
      - name: worker
        label: local
- job:
    name: base
    parent: null
    nodeset: single-node
    timeout: 600
`;
const APP_JOBS = `
- job:
    name: unit
    run: unit.sh
- project:
    merge-mode: squash-merge
    check:
      jobs: [unit]
    gate:
      jobs: [unit]
`;
const UNIT = '#!/bin/sh\nset -e\nif [ -e FAIL ]; then echo "failing on purpose"; exit 1; fi\necho ok\n';

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GitHub driver end to end', () => {
  let hub: FakeGitHub;
  let server: TestServer;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-github-'));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = path.join(root, 'app.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
    hub = new FakeGitHub({ appId: 42, appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    await hub.start();
    await hub.createRepo('org/config', { 'zuul.yaml': PIPELINES });
    await hub.createRepo('org/app', { '.zuul.yaml': APP_JOBS, 'unit.sh': UNIT, 'README.md': 'app\n' });
    const tenantFile = path.join(root, 'main.yaml');
    writeFileSync(
      tenantFile,
      `- tenant:\n    name: acme\n    source:\n      github:\n        config-projects:\n          - org/config:\n              load-branch: main\n        untrusted-projects: [org/app]\n`,
    );
    const config: ServiceConfig = {
      ...defaultServiceConfig(root),
      dataDir: path.join(root, 'data'),
      tenantConfig: tenantFile,
      connections: {
        github: {
          driver: 'github',
          server: hub.url,
          appId: 42,
          appKeyFile: keyFile,
          webhookToken: SECRET,
          requestTimeout: 30,
          rateLimitMaxWait: 900,
        },
      },
      api: { restShape: 'current', publicUrl: 'https://sluice.example.com' },
      logs: { dir: path.join(root, 'logs') },
    };
    server = await startTestServer({ config, logger: process.env.GH_DEBUG ? createLogger({ level: 'debug' }) : undefined });
    hub.setWebhook(`${server.url}/api/connection/github/payload`, SECRET);
  });

  afterAll(async () => {
    await server?.stop();
    await hub?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const statusesOf = (sha: string) => hub.repo('org/app').statuses.get(sha) ?? [];
  const lastStatus = (sha: string, context: string) =>
    statusesOf(sha)
      .filter((s) => s.context === context)
      .at(-1);

  it('reports check results on an opened pull request', async () => {
    const pull = await hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    expect(hub.deliveries.at(-1)?.status).toBe(200);
    const status = await until('check success', () => {
      const s = lastStatus(pull.headSha, 'acme/check');
      return s && s.state !== 'pending' ? s : null;
    });
    expect(status.state).toBe('success');
    expect(status.targetUrl).toMatch(/^https:\/\/sluice\.example\.com\/t\/acme\/buildset\/[0-9a-f-]+$/);
    expect(statusesOf(pull.headSha).map((s) => s.state)).toEqual(['pending', 'success']);
    const run = hub.repo('org/app').checkRuns.find((r) => r.headSha === pull.headSha);
    expect(run).toMatchObject({ name: 'acme/check', status: 'completed', conclusion: 'success' });
    expect(run?.output?.summary).toContain('unit: SUCCESS');
  });

  it('gates an approved and labelled pull request and merges it through the API', async () => {
    const pull = hub.pull('org/app', 1);
    await hub.review('org/app', 1, 'reviewer', 'APPROVED');
    await hub.label('org/app', 1, 'gate');
    await until('merge', () => pull.merged);
    expect(lastStatus(pull.headSha, 'acme/gate')?.state).toBe('success');
    const merge = hub.requests.find((r) => r.method === 'PUT' && r.path === '/repos/org/app/pulls/1/merge');
    expect(merge?.body).toMatchObject({ merge_method: 'squash', sha: pull.headSha });
  });

  it('reports a failing job with a failure status and a comment, and does not merge', async () => {
    const pull = await hub.openPull('org/app', { title: 'Break it', files: { FAIL: 'yes\n' } });
    await until('check failure', () => lastStatus(pull.headSha, 'acme/check')?.state === 'failure');
    await hub.review('org/app', pull.number, 'reviewer', 'APPROVED');
    await hub.label('org/app', pull.number, 'gate');
    await until('gate failure', () => lastStatus(pull.headSha, 'acme/gate')?.state === 'failure');
    expect(pull.merged).toBe(false);
    expect(pull.comments.some((c) => c.user === 'sluice[bot]' && /unit.*FAILURE/s.test(c.body))).toBe(true);
  });

  it('stores a signed delivery once and turns it into a trigger event', async () => {
    await hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    expect(hub.deliveries.at(-1)?.status).toBe(200);
    await server.app.roles?.connectionEvents.idle();
    const stored = await server.database.knex('connection_events').select('event_type', 'outcome');
    expect(stored).toEqual([{ event_type: 'pull_request', outcome: 'submitted 1' }]);
    const events = await server.database.knex('engine_events').where({ event_type: 'pull_request' }).select('payload');
    expect(events[0].payload).toMatchObject({
      type: 'pull_request',
      action: 'opened',
      change: 1,
      connection: 'github',
    });
  });

  it('refuses a webhook with a bad signature and stores nothing', async () => {
    const before = await server.database.knex('connection_events').count<{ count: string }>({ count: '*' }).first();
    const refused = await hub.send('pull_request', { action: 'opened' }, { secret: 'wrong' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'InvalidSignature' });
    const after = await server.database.knex('connection_events').count<{ count: string }>({ count: '*' }).first();
    expect(Number(after?.count)).toBe(Number(before?.count));
    const stored = hub.deliveries.find((d) => d.status === 200);
    expect(stored).toBeDefined();
    const again = await hub.redeliver(stored as NonNullable<typeof stored>);
    expect(JSON.parse(again.body)).toMatchObject({ status: 'duplicate delivery' });
  });
});
