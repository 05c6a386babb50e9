/**
 * A Sluice server whose tenant gates merge requests of a fake GitLab (docs/gitlab.md): the fake
 * with its projects, the connection `gitlab` and the webhook pointed at the server's
 * `/api/connection/gitlab/payload`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultServiceConfig, type ServiceConfig } from '../../src/config/service';
import { createLogger } from '../../src/server/logger';
import { createTestDatabase } from './database';
import { BASE_JOB } from './github-tenant';
import { FakeGitLab } from './fake-gitlab';
import { sshKeyPair } from './fake-ssh-server';
import type { FileMap } from './fake-github/repos';
import type { TimerClock } from '../../src/engine/ports/clock';
import { startTestServer, type TestServer } from './server';

export const GITLAB_TOKEN = 'glpat-test-token';
export const GITLAB_WEBHOOK_TOKEN = 'gitlab-webhook-token';

export interface GitLabTenant {
  lab: FakeGitLab;
  server: TestServer;
  dataDir: string;
  /** The settings of the connection `gitlab`. */
  connection: unknown;
  stop(): Promise<void>;
}

/** Start the fake GitLab and a server gating its merge requests; GL_DEBUG=1 logs the server. */
export async function startGitLabTenant(options: {
  projects: Record<string, FileMap>;
  tenantFile: string;
  /** Clone over SSH (`cloneurl: ssh://git@127.0.0.1:<port>` with an `sshkey`) instead of HTTP. */
  ssh?: boolean;
  /** More connections of the service configuration (a fake Gerrit's, for `Depends-On` across drivers). */
  connections?: ServiceConfig['connections'];
  /** Runs once the projects exist, before the server starts (branches, protection). */
  prepare?: (lab: FakeGitLab) => Promise<void>;
  /** The timers of the server's background loops and drivers' waits (a FakeTimerClock moves them on). */
  timers?: TimerClock;
}): Promise<GitLabTenant> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-gitlab-'));
  const lab = new FakeGitLab(GITLAB_TOKEN);
  await lab.start();
  for (const [name, files] of Object.entries(options.projects)) {
    await lab.createProject(name, files);
  }
  await options.prepare?.(lab);
  let sshSettings = {};
  if (options.ssh) {
    const keys = sshKeyPair();
    const sshkey = path.join(root, 'id_ed25519');
    writeFileSync(sshkey, keys.private, { mode: 0o600 });
    const ssh = await lab.startSsh(keys.public);
    sshSettings = { sshkey, cloneurl: `ssh://git@127.0.0.1:${ssh.port}` };
  }
  const tenantFile = path.join(root, 'main.yaml');
  writeFileSync(tenantFile, options.tenantFile);
  const config: ServiceConfig = {
    ...defaultServiceConfig(root),
    dataDir: path.join(root, 'data'),
    tenantConfig: tenantFile,
    connections: {
      gitlab: {
        driver: 'gitlab',
        server: 'gitlab.example.com',
        baseurl: lab.url,
        apiToken: GITLAB_TOKEN,
        apiTokenName: 'sluice-bot',
        webhookToken: GITLAB_WEBHOOK_TOKEN,
        keepalive: 60,
        disableConnectionPool: false,
        requestTimeout: 30,
        ...sshSettings,
      },
      ...options.connections,
    },
    api: { restShape: 'current', publicUrl: 'https://sluice.example.com' },
    logs: { dir: path.join(root, 'logs') },
  };
  const logger = process.env.GL_DEBUG ? createLogger({ level: 'debug' }) : undefined;
  const database = await createTestDatabase();
  const server = await startTestServer({ config, logger, database, timers: options.timers });
  lab.setWebhook(`${server.url}/api/connection/gitlab/payload`, GITLAB_WEBHOOK_TOKEN);
  return {
    lab,
    server,
    dataDir: config.dataDir,
    connection: config.connections?.gitlab,
    stop: async () => {
      await server.stop();
      await lab.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A tenant `acme` with the config project `org/config` and the untrusted projects `untrusted`
 * (YAML list entries, indented for the list) on `gitlab`; `options` are more lines of the tenant
 * (`exclude-unprotected-branches: true`), `sources` more sources (`gerrit:` with its projects).
 */
export function gitlabTenantFile(untrusted: string[], more: { options?: string[]; sources?: string[] } = {}): string {
  return [
    '',
    '- tenant:',
    '    name: acme',
    ...(more.options ?? []).map((line) => `    ${line}`),
    '    source:',
    '      gitlab:',
    '        config-projects:',
    '          - org/config:',
    '              load-branch: main',
    '        untrusted-projects:',
    ...untrusted.map((line) => `          ${line}`),
    ...(more.sources ?? []).map((line) => `      ${line}`),
    '',
  ].join('\n');
}

/** A tenant with the config project `org/config` and the untrusted `org/app`, both on `gitlab`. */
export const GITLAB_TENANT = gitlabTenantFile(['- org/app']);

/**
 * An independent `check` on opened merge requests and the `triggers` (YAML lines under the
 * connections of `trigger:`, e.g. a `gerrit:` one), with the reporter phases `reports` (YAML lines).
 */
export function gitlabCheck(triggers: string[], reports: string[]): string {
  return [
    '- pipeline:',
    '    name: check',
    '    manager: independent',
    '    trigger:',
    '      gitlab:',
    '        - event: gl_merge_request',
    '          action: opened',
    ...triggers.map((line) => `      ${line}`),
    ...reports.map((line) => `    ${line}`),
  ].join('\n');
}

/** GITLAB_APP with its job `unit` in the pipelines `pipelines` only. */
export function unitIn(...pipelines: string[]): FileMap {
  const project = pipelines.flatMap((name) => [`    ${name}:`, '      jobs: [unit]']);
  return {
    ...GITLAB_APP,
    '.zuul.yaml': ['- job:', '    name: unit', '    run: unit.sh', '- project:', ...project, ''].join('\n'),
  };
}

/** `check` on opened/changed merge requests, `gate` on approval (merging), `post` on pushes. */
export const GITLAB_PIPELINES = `
- pipeline:
    name: check
    manager: independent
    trigger:
      gitlab:
        - event: gl_merge_request
          action: [opened, changed]
    start:
      gitlab:
        comment: false
    success:
      gitlab:
        label: [verified]
    failure:
      gitlab:
        unlabel: verified
- pipeline:
    name: gate
    manager: dependent
    require:
      gitlab:
        open: true
        approved: true
    trigger:
      gitlab:
        - event: gl_merge_request
          action: approved
    start:
      gitlab:
        comment: false
    success:
      gitlab:
        merge: true
    failure:
      gitlab: {}
- pipeline:
    name: post
    manager: supercedent
    trigger:
      gitlab:
        - event: gl_push
          ref: ^refs/heads/.*$
${BASE_JOB}`;

/** `org/app`: job `unit` (fails when the file FAIL exists, runs while the file HOLD names exists) in check and gate, `publish` in post. */
export const GITLAB_APP: FileMap = {
  '.zuul.yaml': `
- job:
    name: unit
    run: unit.sh
- job:
    name: publish
    run: unit.sh
- project:
    merge-mode: merge
    check:
      jobs: [unit]
    gate:
      jobs: [unit]
    post:
      jobs: [publish]
`,
  'unit.sh': [
    '#!/bin/sh',
    'set -e',
    // HOLD names a file of the test: the job runs while it exists.
    'if [ -e HOLD ]; then while [ -e "$(cat HOLD)" ]; do sleep 0.1; done; fi',
    'if [ -e FAIL ]; then echo "failing on purpose"; exit 1; fi',
    'echo ok',
    '',
  ].join('\n'),
  'README.md': 'app\n',
};
