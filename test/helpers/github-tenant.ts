/**
 * A Sluice server whose tenant gates pull requests of a fake GitHub (docs/github.md): the
 * GitHub App's key pair, the fake with its repositories, the connection `github` and the
 * webhook pointed at the server's `/api/connection/github/payload`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultServiceConfig, type ServiceConfig } from '../../src/config/service';
import { createLogger } from '../../src/server/logger';
import type { TimerClock } from '../../src/engine/ports/clock';
import { FakeGitHub } from './fake-github/server';
import type { FileMap } from './fake-github/repos';
import { createTestDatabase, type TestDatabase } from './database';
import { startTestServer, type TestServer } from './server';

export const WEBHOOK_SECRET = 'webhook-secret';

export interface GitHubTenant {
  hub: FakeGitHub;
  server: TestServer;
  /** Stop the server and start a new one on the same database (a restart); `server` is the new one. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface GitHubTenantOptions {
  /** Repositories (full name -> files of the first commit on `main`), created before the server starts. */
  repos: Record<string, FileMap>;
  /** The tenant file's text. */
  tenantFile: string;
  /** Called with the fake before the server starts (branch protection, permissions). */
  prepare?: (hub: FakeGitHub) => void;
  /** A personal token (`apiToken`) instead of the GitHub App (the default). */
  personalToken?: string;
  /** More connections of the service configuration (reporters' connections: smtp, mqtt). */
  connections?: ServiceConfig['connections'];
  /** The timers of the drivers' waits, rate limits among them (a FakeTimerClock: the test moves them on). */
  timers?: TimerClock;
}

/** Start the fake GitHub and a server gating its pull requests; GH_DEBUG=1 logs the server. */
export async function startGitHubTenant(options: GitHubTenantOptions): Promise<GitHubTenant> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-github-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = path.join(root, 'app.pem');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
  const hub = new FakeGitHub({
    appId: 42,
    appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    personalToken: options.personalToken,
  });
  await hub.start();
  for (const [name, files] of Object.entries(options.repos)) {
    await hub.createRepo(name, files);
  }
  options.prepare?.(hub);
  const tenantFile = path.join(root, 'main.yaml');
  writeFileSync(tenantFile, options.tenantFile);
  const config: ServiceConfig = {
    ...defaultServiceConfig(root),
    dataDir: path.join(root, 'data'),
    tenantConfig: tenantFile,
    connections: {
      github: {
        driver: 'github',
        server: hub.url,
        ...(options.personalToken === undefined
          ? { appId: 42, appKeyFile: keyFile }
          : { apiToken: options.personalToken }),
        webhookToken: WEBHOOK_SECRET,
        requestTimeout: 30,
        rateLimitMaxWait: 900,
      },
      ...options.connections,
    },
    api: { restShape: 'current', publicUrl: 'https://sluice.example.com' },
    logs: { dir: path.join(root, 'logs') },
  };
  const logger = process.env.GH_DEBUG ? createLogger({ level: 'debug' }) : undefined;
  const database = await createTestDatabase();
  // A stopping server closes its database: the one it is given outlives it, for a restart.
  const shared: TestDatabase = { ...database, close: () => Promise.resolve() };
  const start = async () => {
    const server = await startTestServer({ config, logger, database: shared, timers: options.timers });
    hub.setWebhook(`${server.url}/api/connection/github/payload`, WEBHOOK_SECRET);
    return server;
  };
  const env: GitHubTenant = {
    hub,
    server: await start(),
    restart: async () => {
      await env.server.stop();
      env.server = await start();
    },
    stop: async () => {
      await env.server.stop();
      await database.destroy();
      await hub.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return env;
}

/** Resolve with `probe`'s first truthy answer, polling the fake's in-memory state. */
export async function until<T>(
  what: string,
  probe: () => T | null | undefined | false,
  timeoutMs = 120_000,
): Promise<T> {
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

/** The latest commit status of `context` on `sha` in the fake's repository. */
export function lastStatus(hub: FakeGitHub, repo: string, sha: string, context: string) {
  return (hub.repo(repo).statuses.get(sha) ?? []).filter((s) => s.context === context).at(-1);
}

/** A tenant with one config project (`load-branch: main`) and untrusted projects, all on `github`. */
export function tenantYaml(configProject: string, untrusted: string[], projectOptions = ''): string {
  const projects = untrusted.map((name) => `          - ${name}${projectOptions ? `:\n${projectOptions}` : ''}`);
  return [
    '- tenant:',
    '    name: acme',
    '    source:',
    '      github:',
    '        config-projects:',
    `          - ${configProject}:`,
    '              load-branch: main',
    '        untrusted-projects:',
    ...projects,
    '',
  ].join('\n');
}

/** The config project's nodeset `single-node` (label `local`) and job `base` the tests' pipelines go with. */
export const BASE_JOB = `- nodeset:
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

/** The config project's pipelines: `check` on opened/changed pull requests, `gate` on approval + label `gate`, merging. */
export const GITHUB_PIPELINES = `
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
    dequeue:
      github:
        check: cancelled
        comment: false
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
    start:
      github:
        status: pending
        comment: false
    success:
      github:
        status: success
        merge: true
    failure:
      github:
        status: failure
    merge-conflict:
      github:
        status: failure
${BASE_JOB}`;

/** An untrusted project's files: job `unit` (fails when the file FAIL exists; waits while HOLD exists) in check and gate. */
export function appFiles(mergeMode = 'squash-merge', queue = ''): FileMap {
  return {
    '.zuul.yaml': `
- job:
    name: unit
    run: unit.sh
- project:
    merge-mode: ${mergeMode}
${queue ? `    queue: ${queue}\n` : ''}    check:
      jobs: [unit]
    gate:
      jobs: [unit]
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
}
