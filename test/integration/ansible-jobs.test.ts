/**
 * Ansible jobs end to end (docs/executor.md#ansible-on-the-executor), in one `buildApp()`
 * process on the test's store (PGlite, or PostgreSQL with DATABASE_URL): a tenant whose config
 * project's base job has pre-run and post-run playbooks, an untrusted project whose jobs run
 * playbooks with a role of a third project, return data to a child job, fail a task, fail
 * pre-run (retried), time out, use a secret, try to escape their sandbox and stream their
 * console. One change runs every job in one buildset; each case reads its own job's builds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { parseServiceConfig, type ServiceConfig } from '../../src/config/service';
import type { EngineDelta } from '../../src/engine/event-bus';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createGitFixture, type GitFixture } from '../helpers/git-fixtures';
import { adminToken, liveTestConfig } from '../helpers/live';
import { expectValid, jobOutputSchema, type JobOutput } from '../helpers/log-schemas';

const TENANT = 'example';
// One buildset runs every job of the file (about a dozen ansible-playbook runs and a timeout).
jest.setTimeout(300_000);
const SECRET = `pw-${Date.now().toString(36)}-${process.pid}-not-for-logs`;

const play = (tasks: string, extra = ''): string => `- hosts: all\n  gather_facts: false\n${extra}  tasks:\n${tasks}`;

const CONFIG_PROJECT = {
  'zuul.yaml': `
- pipeline:
    name: check
    manager: independent
    post-review: true
    trigger: {}
    success: {local: {}}
    failure: {local: {}}
- nodeset:
    name: one
    nodes: [{name: worker, label: local}]
- job:
    name: base
    parent: null
    nodeset: one
    timeout: 300
    attempts: 2
    pre-run: playbooks/base/pre.yaml
    post-run: playbooks/base/post.yaml
- job:
    name: base-minimal
    parent: null
    nodeset: one
    timeout: 300
`,
  'playbooks/base/pre.yaml': play(
    '    - name: Base pre-run\n      command: echo "base pre-run of {{ zuul.job }} ({{ zuul_execution_trusted }})"\n' +
      '    - copy: {content: "written by the trusted pre-run\\n", dest: "{{ zuul.executor.log_root }}/base-pre.txt"}\n',
  ),
  'playbooks/base/post.yaml': play(
    '    - name: Base post-run\n      command: echo "base post-run, success={{ zuul_success }}"\n',
  ),
};

const ROLES_PROJECT = {
  'roles/greet/tasks/main.yaml':
    '- name: Greet\n  command: echo "hello from the greet role of {{ zuul.project.name }}"\n',
};

const APP_JOBS = `
- job:
    name: app-parent
    run: playbooks/parent.yaml
- job:
    name: app-child
    roles: [{zuul: org/roles}]
    run: playbooks/child.yaml
    dependencies: [app-parent]
- job: {name: app-fail, parent: base-minimal, run: playbooks/fail.yaml}
- job: {name: app-pre-fail, parent: base-minimal, attempts: 2, pre-run: playbooks/pre-fail.yaml, run: playbooks/noop.yaml}
- job: {name: app-timeout, parent: base-minimal, timeout: 10, run: playbooks/sleep.yaml}
- job: {name: app-escape, parent: base-minimal, run: playbooks/escape.yaml}
- job: {name: app-stream, parent: base-minimal, run: playbooks/stream.yaml}
`;

function appProject(dataDir: string): Record<string, string> {
  return {
    '.zuul.yaml': `${APP_JOBS}
- project:
    check:
      jobs: [app-parent, app-child, app-fail, app-pre-fail, app-timeout, app-escape, app-stream]
`,
    'playbooks/parent.yaml': play(
      '    - zuul_return:\n        data:\n          image_tag: "tag-{{ zuul.change }}"\n' +
        '          zuul: {artifacts: [{name: docs, url: docs/index.html, metadata: {type: docs_site}}]}\n',
    ),
    'playbooks/child.yaml': play(
      '    - stat: {path: "{{ zuul.project.src_dir }}/change-1.txt"}\n      register: change_file\n' +
        '    - assert: {that: [change_file.stat.exists, "image_tag == \'tag-1\'"]}\n' +
        '    - command: echo "child got {{ image_tag }} and the {{ zuul.artifacts[0].name }} artifact of {{ zuul.artifacts[0].job }}"\n',
      '  roles: [greet]\n',
    ),
    'playbooks/fail.yaml': play('    - name: Unit tests\n      shell: echo "2 tests failed"; exit 1\n'),
    'playbooks/pre-fail.yaml': play('    - name: Prepare\n      command: "false"\n'),
    'playbooks/noop.yaml': play('    - command: "true"\n'),
    'playbooks/sleep.yaml': play('    - name: Hang\n      shell: echo sleeping; sleep 120\n'),
    'playbooks/escape.yaml': play(
      `    - command: cat ${path.join(dataDir, 'executor-secret.txt')}\n      delegate_to: localhost\n      ignore_errors: true\n      register: secret_file\n` +
        '    - command: ls "{{ zuul.executor.work_root | dirname | dirname }}"\n      delegate_to: localhost\n      register: builds\n' +
        '    - zuul_return: {data: {secret_rc: "{{ secret_file.rc }}", builds_seen: "{{ builds.stdout_lines }}", work_root: "{{ zuul.executor.work_root }}"}}\n',
    ),
    'playbooks/stream.yaml': play(
      '    - name: Wait\n      shell: echo "first in $(pwd)"; while [ ! -e release ]; do sleep 0.2; done; echo second\n',
    ),
    'playbooks/secret.yaml': play(
      '    - debug: {msg: "{{ creds.password }}"}\n    - command: echo "password={{ creds.password }}"\n' +
        '    - zuul_return: {data: {leaked: "{{ creds.password }}"}}\n',
    ),
  };
}

interface BuildRow {
  uuid: string;
  job_name: string;
  result: string | null;
  error_detail: string | null;
  log_url: string | null;
}

describe('Ansible jobs', () => {
  let root: string;
  let fixture: GitFixture;
  let config: ServiceConfig;
  let database: TestDatabase;
  let app: SluiceApp;
  let report: Promise<EngineDelta>;
  /** The console of app-stream as it was when its first line came, and in the end. */
  let streamed: Promise<{ released: string; text: string }> = Promise.reject(new Error('app-stream never started'));
  streamed.catch(() => undefined);

  /**
   * Follow a build's console; when the task's first line arrives (while the task waits for a
   * `release` file in its node's folder), keep what came so far and let the task go on.
   */
  function followStream(uuid: string): Promise<{ released: string; text: string }> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${app.url().replace('http', 'ws')}/api/tenant/${TENANT}/console-stream`);
      let text = '';
      let released = '';
      ws.on('open', () => ws.send(JSON.stringify({ uuid, logfile: 'console.log' })));
      ws.on('message', (data: Buffer) => {
        text += data.toString('utf8');
        const first = /worker \| first in (.*)\n/.exec(text);
        if (released === '' && first) {
          released = text;
          writeFileSync(path.join(first[1], 'release'), '');
        }
      });
      ws.on('close', () => resolve({ released, text }));
    });
  }

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-ansible-jobs-'));
    fixture = createGitFixture();
    const dataDir = path.join(root, 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'executor-secret.txt'), 'only the executor may read this\n');
    await fixture.createProject('sluice-config', CONFIG_PROJECT);
    await fixture.createProject('org/roles', ROLES_PROJECT);
    await fixture.createProject('org/app', appProject(dataDir));
    writeFileSync(
      path.join(root, 'main.yaml'),
      '- tenant:\n    name: example\n    source:\n      local:\n        config-projects: [sluice-config]\n' +
        '        untrusted-projects: [org/app, org/roles]\n',
    );
    config = parseServiceConfig(
      JSON.stringify({
        listen: { host: '127.0.0.1', port: 0 },
        dataDir,
        tenantConfig: path.join(root, 'main.yaml'),
        connections: {
          local: {
            driver: 'git',
            baseurl: fixture.baseDir,
            canonicalHostname: 'git.example.local',
            pollInterval: 3600,
          },
        },
        web: { dashboard: false },
        auth: { authenticators: liveTestConfig().auth.authenticators },
        executor: { slots: 3 },
      }),
      path.join(root, 'sluice.yaml'),
    );
    database = await createTestDatabase({ migrate: false });
    app = buildApp({ config, database, logger: silentLogger(), environment: { PATH: process.env.PATH } });
    await app.start(0, '127.0.0.1');
    report = new Promise((resolve) => {
      engineEventBusOver(app.bus, () => undefined).subscribe(TENANT, (delta) => {
        if (delta.type === 'job-started' && delta.job === 'app-stream') {
          streamed = followStream(delta.buildUuid);
        }
        if (delta.type === 'item-reported' && delta.pipeline === 'check') {
          resolve(delta);
        }
      });
    });
    await addSecretJob();
    await fixture.pushChange('org/app', 1, 1, {
      parent: 'master',
      files: { 'change-1.txt': 'the change under test\n' },
      message: 'Change 1',
    });
    await enqueue();
  }, 120_000);

  afterAll(async () => {
    await app.stop();
    await database.destroy();
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  async function graphql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
    const response = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data as T;
  }

  async function enqueue(): Promise<void> {
    const data = await graphql<{ enqueue: { __typename: string } }>(
      `
        mutation ($input: EnqueueInput!) {
          enqueue(input: $input) {
            __typename
            ... on Error {
              message
            }
          }
        }
      `,
      { input: { tenant: TENANT, pipeline: 'check', project: 'org/app', change: '1,1' } },
      adminToken(TENANT),
    );
    expect(data.enqueue.__typename).toBe('ManagementEventAccepted');
  }

  /** The secret encrypted with the project's served key, and a job using it, on master. */
  async function addSecretJob(): Promise<void> {
    const pem = await (await fetch(`${app.url()}/api/tenant/${TENANT}/key/org/app.pub`)).text();
    const keyFile = path.join(root, 'app.pub');
    writeFileSync(keyFile, pem);
    const chunk = execFileSync(
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
    ).toString('base64');
    const files = appProject(config.dataDir);
    await fixture.commit('org/app', {
      parent: 'master',
      ref: 'refs/heads/master',
      message: 'A job with a secret',
      files: {
        '.zuul.yaml': `${files['.zuul.yaml'].replace('app-stream]', 'app-stream, app-secret]')}
- secret:
    name: app-creds
    data:
      password: !encrypted/pkcs1-oaep
        - ${chunk}
- job:
    name: app-secret
    parent: base-minimal
    secrets: [{name: creds, secret: app-creds}]
    run: playbooks/secret.yaml
`,
      },
    });
    await app.layoutManager?.reconfigure([TENANT]);
    expect(app.layoutManager?.layout(TENANT)?.errors).toEqual([]);
  }

  /** A build's fields through GraphQL (`Tenant.build`). */
  async function buildFields<T>(uuid: string, fields: string): Promise<T> {
    const data = await graphql<{ tenant: { build: T } }>(
      `query ($tenant: String!, $uuid: String!) { tenant(name: $tenant) { ... on Tenant { build(uuid: $uuid) { ... on Build { ${fields} } } } } }`,
      { tenant: TENANT, uuid },
    );
    return data.tenant.build;
  }

  async function builds(job: string): Promise<BuildRow[]> {
    await report;
    return database
      .knex('builds')
      .where({ tenant: TENANT, job_name: job })
      .orderBy('id')
      .select('uuid', 'job_name', 'result', 'error_detail', 'log_url');
  }

  function logFile(uuid: string, file: string): string {
    return readFileSync(path.join(config.dataDir, 'logs', TENANT, uuid.slice(0, 2), uuid, file), 'utf8');
  }

  function jobOutput(uuid: string): JobOutput {
    return expectValid(jobOutputSchema, JSON.parse(logFile(uuid, 'job-output.json')), 'job-output.json');
  }

  it('runs the base job pre-run and post-run playbooks around a child job using a role of another project, with data its parent returned', async () => {
    const [parent] = await builds('app-parent');
    const [child] = await builds('app-child');
    expect([parent.result, child.result]).toEqual(['SUCCESS', 'SUCCESS']);
    const playbooks = jobOutput(child.uuid);
    expect(playbooks.map((p) => [p.phase, p.playbook, p.trusted])).toEqual([
      ['pre', 'git.example.local/sluice-config/playbooks/base/pre.yaml', true],
      ['run', 'git.example.local/org/app/playbooks/child.yaml', false],
      ['post', 'git.example.local/sluice-config/playbooks/base/post.yaml', true],
    ]);
    const tasks = playbooks[1].plays[0].tasks;
    expect(tasks[0]).toMatchObject({
      role: { name: 'greet' },
      hosts: { worker: { stdout: 'hello from the greet role of org/app' } },
    });
    const text = logFile(child.uuid, 'job-output.txt');
    expect(text).toContain('worker | base pre-run of app-child (True)');
    expect(text).toContain('worker | child got tag-1 and the docs artifact of app-parent');
    expect(text).toContain('worker | base post-run, success=True');
    expect(logFile(child.uuid, 'base-pre.txt')).toBe('written by the trusted pre-run\n');

    const returned = await buildFields<{ returnedData: Record<string, unknown>; artifacts: unknown[] }>(
      parent.uuid,
      'returnedData artifacts { name url metadata }',
    );
    expect(returned.returnedData).toMatchObject({ image_tag: 'tag-1', zuul: { artifacts: [{ name: 'docs' }] } });
    expect(returned.artifacts).toContainEqual({
      name: 'docs',
      url: `${parent.log_url}docs/index.html`,
      metadata: { type: 'docs_site' },
    });
  });

  it('gives FAILURE for a failing task, with the failed task in job-output.json', async () => {
    const [build] = await builds('app-fail');
    expect(build.result).toBe('FAILURE');
    const [run] = jobOutput(build.uuid);
    expect(run.plays[0].tasks[0]).toMatchObject({
      task: { name: 'Unit tests' },
      hosts: { worker: { failed: true, rc: 1, msg: 'non-zero return code', stdout_lines: ['2 tests failed'] } },
    });
    expect(run.stats.worker).toMatchObject({ failures: 1 });
  });

  it('retries a pre-run failure until the attempts are used up', async () => {
    const tries = await builds('app-pre-fail');
    expect(tries.map((b) => b.result)).toEqual(['RETRY', 'RETRY_LIMIT']);
    expect(tries[0].error_detail).toBe('pre-run playbook playbooks/pre-fail.yaml (org/app) failed with exit code 2');
    expect(logFile(tries[1].uuid, 'job-output.txt')).not.toMatch(/ \| RUN START/);
  });

  it('gives TIMED_OUT when the run playbook outlives the job timeout', async () => {
    const [build] = await builds('app-timeout');
    expect(build.result).toBe('TIMED_OUT');
    expect(logFile(build.uuid, 'job-output.txt')).toContain('RUN END RESULT_TIMED_OUT');
  });

  it('gives a secret to the playbook as a variable and masks it everywhere', async () => {
    const [build] = await builds('app-secret');
    expect(build.result).toBe('SUCCESS');
    const text = logFile(build.uuid, 'job-output.txt');
    expect(text).toContain('worker | password=******');
    const everything = [
      text,
      logFile(build.uuid, 'job-output.json'),
      logFile(build.uuid, 'zuul-info/inventory.yaml'),
      await (await fetch(`${app.url()}/api/tenant/${TENANT}/build/${build.uuid}`)).text(),
      JSON.stringify(await buildFields(build.uuid, 'returnedData')),
    ].join('\n');
    expect(everything).toContain('"leaked":"******"');
    expect(everything).not.toContain(SECRET);
    expect(existsSync(path.join(config.dataDir, 'executor', 'builds', '.ansible', build.uuid))).toBe(false);
  });

  it('keeps an untrusted playbook in its sandbox: no executor file, no other build', async () => {
    const [build] = await builds('app-escape');
    expect(build.result).toBe('SUCCESS');
    const { returnedData } = await buildFields<{
      returnedData: { secret_rc: unknown; builds_seen: string[]; work_root: string };
    }>(build.uuid, 'returnedData');
    expect(Number(returnedData.secret_rc)).toBe(1);
    // The folder holding the build's workspace shows that workspace only.
    expect(returnedData.builds_seen).toEqual([path.basename(path.dirname(returnedData.work_root))]);
    expect(logFile(build.uuid, 'job-output.txt')).not.toContain('only the executor may read this');
  });

  it('streams console lines while the task runs', async () => {
    const { released, text } = await streamed;
    expect(released).toContain('worker | first in');
    expect(released).not.toContain('worker | second');
    expect(text).toContain('worker | second');
    const [build] = await builds('app-stream');
    expect(build.result).toBe('SUCCESS');
  });

  it('says in /health/ready which Ansible and sandbox the executor has', async () => {
    const health = (await (await fetch(`${app.url()}/health/ready`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({
      status: 'ready',
      executor: {
        ansible: { available: true, version: expect.stringMatching(/^ansible-playbook \[core /) },
        sandbox: { available: true, mode: 'bwrap' },
        refusedBuilds: 0,
      },
    });
    expect(health.warnings).toBeUndefined();
  });
});
