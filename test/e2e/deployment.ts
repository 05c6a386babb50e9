/**
 * A real Sluice deployment for the dashboard's end-to-end tests: the quickstart (engine, built-in
 * executor, git driver, logs) in one `buildApp()` process on port 0, plus one project whose
 * configuration is broken (a config error), and helpers to push changes and gate them; on request
 * a project whose gate job runs a real Ansible playbook.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadServiceConfig } from '../../src/config/service';
import type { EngineDelta } from '../../src/engine/event-bus';
import type { SluiceApp } from '../../src/server/app';
import { git } from '../../src/sources/git-cli';
import { seedRepositories } from '../../src/drivers/git/seed';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { dashboardBuildIsFresh } from '../../scripts/web-build-stamp';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { adminToken, liveTestConfig } from '../helpers/live';
import { startQuickstartApp } from '../helpers/quickstart-deployment';

export const TENANT = 'example';
export const PROJECT = 'example/hello';
/** The project of the `ansible` option: its gate job `greeting-check` runs `playbooks/check.yaml`. */
export const PLAYBOOK_PROJECT = 'example/playbooks';

/**
 * One play on the job's node (docs/executor.md#ansible-on-the-executor): a task that reports, one
 * that changes, one that compares `greeting.txt` of the checkout with "Hello, Sluice!" (on a
 * difference it prints what it got and, on stderr, what it expected, and exits 3), and one after it.
 */
const CHECK_PLAYBOOK = `- name: Check the greeting
  hosts: all
  gather_facts: false
  tasks:
    - name: Say where we are
      debug: {msg: "checking {{ zuul.project.name }} on {{ inventory_hostname }}"}
    - name: Build the greeting
      command: echo "built the greeting"
    - name: Compare the greeting
      args: {chdir: "{{ zuul.project.src_dir }}"}
      shell: |
        got=$(cat greeting.txt)
        echo "greeting: got $got"
        if [ "$got" != "Hello, Sluice!" ]; then echo "expected Hello, Sluice!" >&2; exit 3; fi
    - name: Publish the greeting
      command: echo "published"
`;

const PLAYBOOK_PROJECT_FILES: Record<string, string> = {
  '.zuul.yaml':
    '- job:\n    name: greeting-check\n    description: Checks the greeting with ansible-playbook.\n' +
    '    run: playbooks/check.yaml\n- project:\n    gate:\n      jobs: [greeting-check]\n',
  'playbooks/check.yaml': CHECK_PLAYBOOK,
  'greeting.txt': 'Hello, Sluice!\n',
};

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

/**
 * Build the dashboard unless web/dist is fresh (the same step `npm start` runs). The stamp is
 * checked here, in the test's process: starting scripts/build-web.ts through tsx only to find the
 * build fresh cost about 1.5 s of CPU in every browser test file.
 */
export function ensureDashboardBuilt(): void {
  if (dashboardBuildIsFresh()) {
    return;
  }
  execFileSync(
    process.execPath,
    [path.join(REPOSITORY_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build-web.ts'],
    {
      cwd: REPOSITORY_ROOT,
      stdio: 'pipe',
    },
  );
}

/** A unit test that says it started, waits for the test to create `release` (at most 10 min), then passes. */
export function waitingUnit(release: string): string {
  return [
    '#!/bin/sh',
    'echo "slow unit test starting"',
    'i=0',
    `while [ ! -e '${release}' ]; do i=$((i+1)); [ $i -gt 6000 ] && exit 1; sleep 0.1; done`,
    'echo "unit tests passed"',
    '',
  ].join('\n');
}

export interface Deployment {
  app: SluiceApp;
  /** The deployment's database (to seed history through the store's writers). */
  knex: TestDatabase['knex'];
  url: string;
  root: string;
  token: string;
  /**
   * Commit `files` on master of `project` (default PROJECT) in a clone, push it as change
   * `<number>,1`. Change numbers are unique across projects.
   */
  pushChange(number: number, files: Record<string, string>, message: string, project?: string): Promise<void>;
  /** Enqueue change `<number>,1` into gate as a tenant admin; resolves with the item's report. */
  gate(number: number, project?: string): Promise<EngineDelta>;
  /** Enqueue change `<number>,1` into gate; resolves once accepted, with the promise of its report. */
  enqueue(number: number, project?: string): Promise<{ reported: Promise<EngineDelta> }>;
  graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

const ENQUEUE = /* GraphQL */ `
  mutation ($input: EnqueueInput!) {
    enqueue(input: $input) {
      __typename
    }
  }
`;

export interface DeploymentOptions {
  /**
   * An OpenID Connect realm (`fake-realm`) the example tenant signs in with; its admin rule
   * grants admin to tokens whose `groups` claim holds `example-admins`.
   */
  oidc?: { issuer: string; clientId: string };
  /** A second tenant, `lab`, whose local provider keeps one `small` node ready (the launcher pages). */
  launcher?: boolean;
  /** The project PLAYBOOK_PROJECT in `example`, whose gate job runs a playbook with ansible-playbook. */
  ansible?: boolean;
}

/** The tenant file: `example` (with its OIDC realm and admin rule when asked), and `lab` when asked. */
function tenantFile(options: DeploymentOptions): string {
  const lines = [
    '- tenant:',
    '    name: example',
    '    source:',
    '      local:',
    '        config-projects:',
    '          - sluice-config',
    '        untrusted-projects:',
    '          - example/hello',
    '          - example/broken',
  ];
  if (options.ansible) {
    lines.push(`          - ${PLAYBOOK_PROJECT}`);
  }
  if (options.oidc) {
    lines.push('    authentication-realm: fake-realm', '    admin-rules: [oidc-admins]');
    lines.unshift(
      '- authorization-rule:',
      '    name: oidc-admins',
      '    conditions:',
      '      - groups: example-admins',
    );
  }
  if (options.launcher) {
    lines.push(
      '- tenant:',
      '    name: lab',
      '    source:',
      '      local:',
      '        config-projects:',
      '          - lab-config:',
      '              include: [image, flavor, label, section, provider, semaphore]',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `lab`: a local provider keeping one `small` node ready; `built` is an image its jobs would build; a semaphore. */
const LAB_CONFIG = `- image: { name: host, type: cloud }
- image: { name: built, type: zuul, description: Built by an image-build job }
- flavor: { name: normal }
- label: { name: small, image: host, flavor: normal, min-ready: 1 }
- section: { name: lab-section, connection: nodes, images: [host, built], flavors: [normal] }
- provider: { name: lab-nodes, section: lab-section, labels: [small] }
- semaphore: { name: lab-lock, max: 2 }
`;

export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-dashboard-e2e-'));
  const deployment = path.join(root, 'examples', 'quickstart');
  cpSync(path.join(REPOSITORY_ROOT, 'examples/quickstart'), deployment, { recursive: true });
  // A project whose configuration names a parent job that does not exist: a config error.
  mkdirSync(path.join(deployment, 'repos/example/broken'), { recursive: true });
  writeFileSync(
    path.join(deployment, 'repos/example/broken/.zuul.yaml'),
    '- job:\n    name: broken-job\n    parent: no-such-parent\n    run: run.sh\n',
  );
  if (options.ansible) {
    for (const [file, content] of Object.entries(PLAYBOOK_PROJECT_FILES)) {
      mkdirSync(path.dirname(path.join(deployment, 'repos', PLAYBOOK_PROJECT, file)), { recursive: true });
      writeFileSync(path.join(deployment, 'repos', PLAYBOOK_PROJECT, file), content);
    }
  }
  if (options.launcher) {
    mkdirSync(path.join(deployment, 'repos/lab-config'), { recursive: true });
    writeFileSync(path.join(deployment, 'repos/lab-config/zuul.yaml'), LAB_CONFIG);
  }
  writeFileSync(path.join(deployment, 'main.yaml'), tenantFile(options));
  const config = loadServiceConfig(path.join(deployment, 'sluice.yaml'));
  config.logs.url = '/logs/';
  if (options.launcher) {
    config.connections.nodes = { driver: 'local', root: path.join(root, 'nodes') };
  }
  const connection = config.connections.local;
  if (connection?.driver !== 'git' || connection.seedFrom === undefined) {
    throw new Error('the quickstart has a seeded git connection "local"');
  }
  // Changes enter only through the test's enqueues: the poller looks once at start, so no check or
  // post runs interleave with the gate runs the test counts.
  connection.pollInterval = 3600;
  await seedRepositories(connection.seedFrom, connection.baseurl);
  const database: TestDatabase = await createTestDatabase({ migrate: false });
  const auth = liveTestConfig().auth;
  if (options.oidc) {
    auth.authenticators.push({
      name: 'fake-idp',
      driver: 'OpenIDConnect',
      realm: 'fake-realm',
      issuer: options.oidc.issuer,
      clientId: options.oidc.clientId,
      uidClaim: 'sub',
      clockSkew: 0,
      allowAuthzOverride: false,
      default: false,
      scope: 'openid profile',
      loadUserInfo: false,
      keysCacheTtl: 600,
    });
  }
  const app = await startQuickstartApp(config, database, auth);
  const reports = new Map<string, (delta: EngineDelta) => void>();
  const itemChanges = new Map<string, string[]>();
  engineEventBusOver(app.bus, () => undefined).subscribe(TENANT, (delta) => {
    if (delta.type === 'item-enqueued' && delta.pipeline === 'gate') {
      itemChanges.set(delta.itemUuid, delta.changeIds);
    }
    if (delta.type === 'item-reported' && delta.pipeline === 'gate') {
      for (const change of itemChanges.get(delta.itemUuid) ?? []) {
        reports.get(change)?.(delta);
        reports.delete(change);
      }
    }
  });
  const token = adminToken(TENANT);
  const url = app.url();

  const graphql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown };
    if (body.errors !== undefined || body.data === undefined) {
      throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
    }
    return body.data;
  };

  // The report is wrapped in an object: an async function returning a bare promise would wait for it.
  const enqueue = async (number: number, project = PROJECT): Promise<{ reported: Promise<EngineDelta> }> => {
    const reported = new Promise<EngineDelta>((resolve) => reports.set(`${number},1`, resolve));
    const data = await graphql<{ enqueue: { __typename: string } }>(ENQUEUE, {
      input: { tenant: TENANT, pipeline: 'gate', project, change: `${number},1` },
    });
    if (data.enqueue.__typename !== 'ManagementEventAccepted') {
      throw new Error(`enqueue refused: ${data.enqueue.__typename}`);
    }
    return { reported };
  };

  return {
    app,
    knex: database.knex,
    url,
    root,
    token,
    graphql,
    enqueue,
    gate: async (number, project) => (await enqueue(number, project)).reported,
    pushChange: async (number, files, message, project = PROJECT) => {
      const work = mkdtempSync(path.join(root, 'work-'));
      await git(root, ['clone', '--quiet', path.join(connection.baseurl, `${project}.git`), work]);
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        writeFileSync(path.join(work, file), content, { mode: 0o755 });
      }
      await git(work, ['add', '--all']);
      await git(work, ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', 'commit', '--quiet', '-m', message]);
      await git(work, [
        'push',
        '--quiet',
        'origin',
        `HEAD:refs/changes/${String(number % 100).padStart(2, '0')}/${number}/1`,
      ]);
    },
    stop: async () => {
      await app.stop();
      await database.destroy();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
