/**
 * The reference's command-line client against a real server after real builds
 * (docs/rest.md#command-line-client): for each command, the exact requests the client makes
 * (test/helpers/zuul-client.ts records them) and the fields it prints. The quickstart runs in
 * one process (engine, executor, git driver, log server); changes are pushed with plain git.
 */
import { writeFileSync, readFileSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { git } from '../../src/sources/git-cli';
import { gitPoller } from '../helpers/git-pollers';
import { expectValid, inventorySchema, jobOutputSchema, manifestPaths, manifestSchema } from '../helpers/log-schemas';
import { startQuickstartApp, QUICKSTART_PROJECT as PROJECT, type QuickstartApp } from '../helpers/quickstart-app';
import { ClientError, sha256, ZuulClient, type Json } from '../helpers/zuul-client';

const TENANT = 'example';
const API = `/api/tenant/${TENANT}`;
/** More than one RSA-OAEP chunk of a 4096-bit key (470 bytes). */
const PLAINTEXT = `token-${'0123456789abcdef'.repeat(40)}`;

describe('the command-line client against Sluice', () => {
  let qs: QuickstartApp;
  let client: ZuulClient;
  let releaseFile: string;

  beforeAll(async () => {
    qs = await startQuickstartApp('sluice-cli-client-');
    releaseFile = path.join(qs.root, 'release');
    // The baseline of the git poller: branch tips before the tests push anything.
    await gitPoller(qs.app.roles, 'local')?.pollNow();
  }, 60_000);

  afterAll(async () => {
    writeFileSync(releaseFile, '');
    await qs.stop();
  });

  beforeEach(() => {
    client = new ZuulClient(qs.url(), qs.token());
  });

  /** A script that waits for the test's release file, then runs `then`. */
  const blocking = (then: string): string =>
    `#!/bin/sh\nwhile [ ! -e '${releaseFile}' ]; do sleep 0.1; done\n${then}\n`;

  async function get(apiPath: string): Promise<unknown> {
    const response = await fetch(`${qs.url()}${apiPath}`);
    expect({ apiPath, status: response.status }).toEqual({ apiPath, status: 200 });
    return response.json();
  }

  async function buildsOf(filters: string): Promise<Json[]> {
    return (await get(`${API}/builds?${filters}`)) as Json[];
  }

  /** The value of `Key: value` in a printed block. */
  function field(output: string, key: string): string | undefined {
    return output
      .split('\n')
      .find((line) => line.startsWith(`${key}: `))
      ?.slice(key.length + 2);
  }

  it('encrypt: the secret it prints loads, and the job sees the plaintext', async () => {
    const stanza = await client.encrypt(TENANT, {
      project: PROJECT,
      secretName: 'api-token',
      fieldName: 'token',
      plaintext: `${PLAINTEXT}\n`,
    });
    expect(client.requests).toEqual(['GET /api/info', `GET ${API}/key/${PROJECT}.pub`]);
    // Two chunks, each a list item wrapped at 79 columns.
    expect(stanza.split('\n').filter((line) => line.startsWith('        - '))).toHaveLength(2);
    expect(Math.max(...stanza.split('\n').map((line) => line.length))).toBeLessThanOrEqual(79);

    const work = mkdtempSync(path.join(qs.root, 'work-'));
    await git(qs.root, ['clone', '--quiet', qs.bareRepo, work]);
    const zuulYaml = path.join(work, '.zuul.yaml');
    const current = readFileSync(zuulYaml, 'utf8');
    const postJobs = '    post:\n      jobs:\n        - hello-publish\n';
    expect(current).toContain(postJobs);
    writeFileSync(
      zuulYaml,
      `${current.replace(postJobs, `${postJobs}        - hello-secret\n`)}
${stanza}
- job:
    name: hello-secret
    run: scripts/secret.sh
    secrets:
      - name: creds
        secret: api-token
`,
    );
    writeFileSync(
      path.join(work, 'scripts', 'secret.sh'),
      `#!/bin/sh\nnode -e 'const t = require(process.env.SLUICE_SECRETS_FILE).creds.token; console.log("sha256 " + require("crypto").createHash("sha256").update(t).digest("hex")); console.log("token " + t)'\n`,
    );
    await git(work, ['add', '--all']);
    await git(work, [
      '-c',
      'user.name=Dev',
      '-c',
      'user.email=dev@example.com',
      'commit',
      '--quiet',
      '-m',
      'Use a secret',
    ]);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);

    await qs.app.layoutManager?.reconfigure([TENANT]);
    expect(qs.app.layoutManager?.layout(TENANT)?.errors).toEqual([]);
    const from = qs.deltaCount();
    await gitPoller(qs.app.roles, 'local')?.pollNow();
    expect(await qs.waitForReport('post', from)).toMatchObject({ result: 'SUCCESS' });
    const [build] = await buildsOf('job_name=hello-secret');
    expect(build.result).toBe('SUCCESS');
    const log = await (await fetch(`${build.log_url as string}job-output.txt`)).text();
    expect(log).toContain(`| sha256 ${sha256(PLAINTEXT)}\n`);
    expect(log).toContain('| token ******\n');
    expect(log).not.toContain(PLAINTEXT);
  }, 180_000);

  it('enqueue: posts the change and answers true; the item runs', async () => {
    await qs.pushChange(1, { 'NOTES.md': 'Release notes\n' }, 'Add release notes');
    const from = qs.deltaCount();
    expect(await client.enqueue(TENANT, { pipeline: 'check', project: PROJECT, change: '1,1' })).toBe(true);
    expect(client.requests).toEqual(['GET /api/info', `POST ${API}/project/${PROJECT}/enqueue`]);
    expect(await qs.waitForReport('check', from)).toMatchObject({ result: 'SUCCESS' });
  }, 120_000);

  it('builds: the filters as query parameters and the columns it prints', async () => {
    const rows = await client.builds(TENANT, {
      job_name: 'hello-unit',
      pipeline: 'check',
      change: 1,
      result: 'SUCCESS',
    });
    expect(client.requests).toEqual([
      'GET /api/info',
      `GET ${API}/builds?limit=50&skip=0&job_name=hello-unit&pipeline=check&change=1&result=SUCCESS`,
    ]);
    expect(rows).toHaveLength(1);
    const [uuid, job, project, branch, pipeline, change, duration, start, result] = rows[0].split(' | ');
    expect(uuid).toMatch(/^[0-9a-f]{32}$/);
    expect([job, branch, pipeline, change, result]).toEqual(['hello-unit', 'master', 'check', '1,1', 'SUCCESS']);
    expect(project).toBe(PROJECT); // the short name, as the reference prints it
    expect(Number(duration)).toBeGreaterThan(0);
    // `--project` takes the short name too.
    expect(await client.builds(TENANT, { project: PROJECT, job_name: 'hello-unit', change: 1 })).toEqual(rows);
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(await client.builds(TENANT, { job_name: 'no-such-job' })).toEqual([]);
  });

  it('build-info: the record, its inventory, job output, artifacts and inventory from the log server', async () => {
    const [build] = await buildsOf('job_name=hello-unit&change=1');
    const uuid = build.uuid as string;
    const logUrl = build.log_url as string;
    expect(logUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/logs\/example\/[0-9a-f]{2}\/[0-9a-f]{32}\/$/);
    const logPath = new URL(logUrl).pathname;

    const info = await client.buildInfo(TENANT, uuid);
    expect(client.requests).toEqual([
      'GET /api/info',
      `GET ${API}/build/${uuid}`,
      `GET ${logPath}zuul-info/inventory.yaml`,
    ]);
    expect(field(info, 'UUID')).toBe(uuid);
    expect(field(info, 'Result')).toBe('SUCCESS');
    expect(field(info, 'Pipeline')).toBe('check');
    expect(field(info, 'Project')).toBe(PROJECT);
    expect(field(info, 'Ref URL')).toBe(`${qs.url()}/t/${TENANT}/change/1,1`);
    expect(field(info, 'Event ID')).toMatch(/^[0-9a-f]{32}$/);
    expect(field(info, 'Job')).toBe('hello-unit');
    expect(field(info, 'Change')).toBe('1,1');
    expect(field(info, 'Branch')).toBe('master');
    expect(field(info, 'Buildset ID')).toBe((build.buildset as Json).uuid);
    expect(field(info, 'Voting')).toBe('Yes');
    expect(field(info, 'Log URL')).toBe(logUrl);
    expect(field(info, 'Node')).toBe('single-node');
    expect(field(info, 'Final')).toBe('Yes');
    expect(field(info, 'Held')).toBe('No');

    client = new ZuulClient(qs.url(), qs.token());
    const output = await client.buildInfo(TENANT, uuid, { showJobOutput: true });
    expect(client.requests.slice(-1)).toEqual([`GET ${logPath}job-output.txt`]);
    expect(output).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \| Job hello-unit /);
    expect(output).toContain('| unit tests passed\n');

    const withArtifacts = await client.buildInfo(TENANT, uuid, { showArtifacts: true });
    const artifactRows = withArtifacts.split('Artifacts:\n')[1].split('\n');
    expect(artifactRows).toEqual([`Zuul Manifest | ${logUrl}zuul-manifest.json`]);

    const withInventory = await client.buildInfo(TENANT, uuid, { showInventory: true });
    const inventory = expectValid(inventorySchema, JSON.parse(withInventory.split('Inventory:\n')[1]), 'inventory');
    expect(Object.keys(inventory.all.hosts)).toEqual(['worker']);
    expect(inventory.all.vars.zuul).toMatchObject({ build: uuid, job: 'hello-unit', pipeline: 'check', change: '1' });
  });

  it('build-info: the files behind the dashboard views, from the manifest artifact', async () => {
    const [build] = await buildsOf('job_name=hello-unit&change=1');
    const detail = (await get(`${API}/build/${build.uuid as string}`)) as { artifacts: Json[]; log_url: string };
    const manifestArtifact = detail.artifacts.find((a) => (a.metadata as Json | undefined)?.type === 'zuul_manifest');
    expect(manifestArtifact).toEqual({
      name: 'Zuul Manifest',
      url: `${detail.log_url}zuul-manifest.json`,
      metadata: { type: 'zuul_manifest' },
    });
    const manifest = expectValid(
      manifestSchema,
      await (await fetch(manifestArtifact?.url as string)).json(),
      'manifest',
    );
    expect(manifestPaths(manifest.tree)).toEqual([
      'zuul-info/inventory.yaml',
      'zuul-info/zuul-info.worker.txt',
      'job-output.json',
      'job-output.txt',
    ]);
    // The dashboard asks for the compressed structured output first: it is the plain one,
    // compressed as it is sent (fetch decompresses it, as browsers do).
    const compressed = await fetch(`${detail.log_url}job-output.json.gz`);
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    const structured: unknown = await compressed.json();
    expect(structured).toEqual(await (await fetch(`${detail.log_url}job-output.json`)).json());
    const playbooks = expectValid(jobOutputSchema, structured, 'job-output');
    expect(playbooks.map((p) => [p.phase, p.plays[0].tasks.map((t) => t.task.name)])).toEqual([
      ['run', ['scripts/unit.sh (example/hello)']],
    ]);
    expect(playbooks[0].plays[0].tasks[0].hosts.worker).toMatchObject({ rc: 0, stdout_lines: ['unit tests passed'] });
    expectValid(
      inventorySchema,
      parse(await (await fetch(`${detail.log_url}zuul-info/inventory.yaml`)).text()),
      'inventory',
    );
    // The folder itself: the tree for JSON clients, an index page for browsers.
    const folder = await fetch(detail.log_url, { headers: { accept: 'application/json' } });
    expect(manifestPaths(expectValid(manifestSchema, await folder.json(), 'folder').tree)).toContain(
      'zuul-manifest.json',
    );
    expect(await (await fetch(detail.log_url)).text()).toContain('<a href="job-output.json">job-output.json</a>');
  });

  it('autohold, autohold-list, autohold-info and autohold-delete', async () => {
    expect(
      await client.autohold(TENANT, {
        project: PROJECT,
        job: 'hello-unit',
        reason: 'debug the failure',
        count: 1,
        nodeHoldExpiration: 3600,
      }),
    ).toBe(true);
    expect(client.requests).toEqual(['GET /api/info', `POST ${API}/project/${PROJECT}/autohold`]);

    const rows = await client.autoholdList(TENANT);
    expect(client.requests.slice(-1)).toEqual([`GET ${API}/autohold`]);
    expect(rows).toHaveLength(1);
    const [id, tenant, project, job, refFilter, maxCount, currentCount, reason] = rows[0].split(' | ');
    expect(id).toMatch(/^\d{10}$/);
    expect([tenant, job, refFilter, maxCount, currentCount, reason]).toEqual([
      'example',
      'hello-unit',
      '.*',
      '1',
      '0',
      'debug the failure',
    ]);
    // Hold requests keep the canonical project name, as in the reference (docs/rest.md#autohold).
    expect(project).toBe('git.example.local/example/hello');

    // A failing build of the job takes the hold.
    await qs.pushChange(2, { 'hello.sh': '#!/bin/sh\necho "Goodbye"\n' }, 'Break the greeting');
    const from = qs.deltaCount();
    expect(await client.enqueue(TENANT, { pipeline: 'check', project: PROJECT, change: '2,1' })).toBe(true);
    expect(await qs.waitForReport('check', from)).toMatchObject({ result: 'FAILURE' });
    const [failed] = await buildsOf('job_name=hello-unit&change=2');
    expect(failed).toMatchObject({ result: 'FAILURE', held: true });

    const info = await client.autoholdInfo(TENANT, String(Number(id)));
    expect(client.requests.slice(-1)).toEqual([`GET ${API}/autohold/${Number(id)}`]);
    expect(field(info, 'ID')).toBe(id);
    expect(field(info, 'Current Count')).toBe('1');
    expect(field(info, 'Max Count')).toBe('1');
    expect(field(info, 'Node Expiration')).toBe('3600');
    expect(field(info, 'Request Expiration')).not.toBe('N/A');
    expect(info).toContain(`  Build: ${failed.uuid as string} Nodes: `);

    expect(await client.autoholdDelete(TENANT, id)).toBe(true);
    expect(client.requests.slice(-1)).toEqual([`DELETE ${API}/autohold/${id}`]);
    await expect(client.autoholdInfo(TENANT, id)).rejects.toEqual(expect.objectContaining({ status: 404 }));
    expect(await client.autoholdList(TENANT)).toEqual([]);
  }, 120_000);

  it('enqueue-ref: posts the ref with its revisions; the ref runs in post', async () => {
    const newrev = (await git(qs.bareRepo, ['rev-parse', 'refs/heads/master'])).stdout.trim();
    const oldrev = (await git(qs.bareRepo, ['rev-parse', 'refs/heads/master~1'])).stdout.trim();
    const from = qs.deltaCount();
    expect(
      await client.enqueueRef(TENANT, { pipeline: 'post', project: PROJECT, ref: 'refs/heads/master', oldrev, newrev }),
    ).toBe(true);
    expect(client.requests).toEqual(['GET /api/info', `POST ${API}/project/${PROJECT}/enqueue`]);
    expect(await qs.waitForReport('post', from)).toMatchObject({ result: 'SUCCESS' });
    const rows = await client.builds(TENANT, { job_name: 'hello-publish', newrev });
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0].split(' | ')[5]).toBe('refs/heads/master');
  }, 120_000);

  it('enqueue-ref without revisions (the client sends zero revisions): the build records the commit it tested', async () => {
    const tip = (await git(qs.bareRepo, ['rev-parse', 'refs/heads/master'])).stdout.trim();
    const from = qs.deltaCount();
    expect(await client.enqueueRef(TENANT, { pipeline: 'post', project: PROJECT, ref: 'refs/heads/master' })).toBe(
      true,
    );
    expect(await qs.waitForReport('post', from)).toMatchObject({ result: 'SUCCESS' });
    const [build] = await buildsOf(`job_name=hello-publish&newrev=${tip}`);
    expect(build).toBeDefined();
    const info = await client.buildInfo(TENANT, build.uuid as string);
    expect(field(info, 'New Rev')).toBe(tip);
    expect(field(info, 'Ref URL')).toContain(`newrev=${tip}`);
    expect(info).not.toContain('0'.repeat(40));
  }, 120_000);

  it('dequeue: removes a running change; its build is aborted', async () => {
    await qs.pushChange(3, { 'scripts/unit.sh': blocking('echo released') }, 'Wait for the test');
    const from = qs.deltaCount();
    expect(await client.enqueue(TENANT, { pipeline: 'check', project: PROJECT, change: '3,1' })).toBe(true);
    await qs.waitForDelta(from, (delta) => delta.type === 'job-started' && delta.job === 'hello-unit');
    expect(await client.dequeue(TENANT, { pipeline: 'check', project: PROJECT, change: '3,1' })).toBe(true);
    expect(client.requests.slice(-1)).toEqual([`POST ${API}/project/${PROJECT}/dequeue`]);
    await qs.waitForDelta(from, (delta) => delta.type === 'item-dequeued' && delta.pipeline === 'check');
    await qs.waitForDelta(from, (delta) => delta.type === 'job-completed' && delta.job === 'hello-unit');
    const [build] = await buildsOf('job_name=hello-unit&change=3');
    expect(build.result).toBe('ABORTED');
    const [buildset] = (await get(`${API}/buildsets?change=3`)) as Json[];
    expect(buildset.result).toBe('DEQUEUED');
  }, 120_000);

  it('promote: moves a change to the head of the gate', async () => {
    await qs.pushChange(4, { 'scripts/unit.sh': blocking('echo "unit tests passed"') }, 'Change four');
    await qs.pushChange(5, { 'hello.sh': blocking('echo "Hello, ${1:-world}!"') }, 'Change five');
    const from = qs.deltaCount();
    for (const change of ['4,1', '5,1']) {
      expect(await client.enqueue(TENANT, { pipeline: 'gate', project: PROJECT, change })).toBe(true);
    }
    const enqueued = await qs.waitForDelta(
      from,
      (delta) =>
        delta.type === 'item-enqueued' && delta.pipeline === 'gate' && delta.changeIds.some((id) => id.includes('5')),
    );
    const itemFive = enqueued.type === 'item-enqueued' ? enqueued.itemUuid : '';
    await qs.waitForDelta(from, (delta) => delta.type === 'job-started' && delta.itemUuid === itemFive);

    const promoted = qs.deltaCount();
    client = new ZuulClient(qs.url(), qs.token());
    expect(await client.promote(TENANT, { pipeline: 'gate', changes: ['5,1'] })).toBe(true);
    expect(client.requests).toEqual(['GET /api/info', `POST ${API}/promote`]);
    await qs.waitForDelta(
      promoted,
      (delta) => delta.type === 'item-moved' && delta.itemUuid === itemFive && delta.itemAhead === null,
    );
    const status = (await get(`${API}/status`)) as {
      pipelines: Array<{
        name: string;
        change_queues: Array<{ heads: Array<Array<{ refs: Array<{ id: string }> }>> }>;
      }>;
    };
    const gate = status.pipelines.find((pipeline) => pipeline.name === 'gate');
    const order = gate?.change_queues.flatMap((queue) => queue.heads.flat()).map((item) => item.refs[0].id);
    expect(order).toEqual(['5,1', '4,1']);

    writeFileSync(releaseFile, '');
    await qs.waitForReport('gate', promoted);
  }, 180_000);

  it('job-graph and freeze-job: the frozen jobs of a project branch', async () => {
    const rows = await client.jobGraph(TENANT, { pipeline: 'check', project: PROJECT, branch: 'master' });
    expect(client.requests).toEqual([
      'GET /api/info',
      `GET ${API}/pipeline/check/project/${PROJECT}/branch/master/freeze-jobs`,
    ]);
    expect([...rows].sort()).toEqual(['hello-lint | ', 'hello-unit | ']);

    const job = await client.freezeJob(TENANT, {
      pipeline: 'check',
      project: PROJECT,
      branch: 'master',
      job: 'hello-unit',
    });
    expect(client.requests.slice(-1)).toEqual([
      `GET ${API}/pipeline/check/project/${PROJECT}/branch/master/freeze-job/hello-unit`,
    ]);
    expect(job).toMatchObject({
      job: 'hello-unit',
      branch: 'master',
      timeout: 600,
      nodeset: { name: 'single-node', nodes: [{ name: 'worker', label: 'local' }] },
      playbooks: [expect.objectContaining({ project: PROJECT, path: 'scripts/unit.sh', branch: 'master' })],
      pre_playbooks: [],
      post_playbooks: [],
      vars: {},
      zuul: expect.objectContaining({ job: 'hello-unit', pipeline: 'check', tenant: TENANT }),
    });
    await expect(
      client.freezeJob(TENANT, { pipeline: 'check', project: PROJECT, branch: 'master', job: 'no-such-job' }),
    ).rejects.toBeInstanceOf(ClientError);
  });
});
