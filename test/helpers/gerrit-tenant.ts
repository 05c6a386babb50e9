/**
 * A Sluice server whose tenant gates changes of a fake Gerrit (docs/gerrit.md): the SSH key pair
 * of the `zuul` account, the fake with its projects, and the connection `gerrit`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sshKeyPair } from './fake-ssh-server';
import type { TimerClock } from '../../src/engine/ports/clock';
import { defaultServiceConfig, type ServiceConfig } from '../../src/config/service';
import { createLogger } from '../../src/server/logger';
import { createTestDatabase, type TestDatabase } from './database';
import type { FakeAuthMode } from './fake-gerrit/auth';
import type { FileMap } from './fake-gerrit/repos';
import { FakeGerrit, type FakeChange } from './fake-gerrit/server';
import { appFiles, BASE_JOB } from './github-tenant';
import { startTestServer, type TestServer } from './server';

export interface GerritTenant {
  gerrit: FakeGerrit;
  server: TestServer;
  /** The server's data directory (`dataDir`). */
  dataDir: string;
  /**
   * Stop the server and start a new one on the same database; `server` is the new one.
   * `whileDown` runs between the two (what Gerrit does while nobody listens).
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/** Start the fake Gerrit and a server gating its changes; GERRIT_DEBUG=1 logs the server. */
export async function startGerritTenant(options: {
  projects: Record<string, FileMap>;
  tenantFile: string;
  /** Connection keys over the defaults below (e.g. `max_dependencies`). */
  connection?: Record<string, unknown>;
  /** The timers of the pending checks' poll (a FakeTimerClock: the test moves them on). */
  timers?: TimerClock;
  /** The fake's HTTP authentication and the connection's `auth_type` (default basic). */
  authMode?: FakeAuthMode;
}): Promise<GerritTenant> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-gerrit-'));
  const { gerrit, connection } = await startFakeGerrit(root, options.projects, options.connection, options.authMode);
  const tenantFile = path.join(root, 'main.yaml');
  writeFileSync(tenantFile, options.tenantFile);
  const config: ServiceConfig = {
    ...defaultServiceConfig(root),
    dataDir: path.join(root, 'data'),
    tenantConfig: tenantFile,
    connections: { gerrit: connection as ServiceConfig['connections'][string] },
    api: { restShape: 'current', publicUrl: 'https://sluice.example.com' },
    logs: { dir: path.join(root, 'logs') },
  };
  const logger = process.env.GERRIT_DEBUG ? createLogger({ level: 'debug' }) : undefined;
  const database = await createTestDatabase();
  const shared: TestDatabase = { ...database, close: () => Promise.resolve() };
  const start = () => startTestServer({ config, logger, database: shared, timers: options.timers });
  const env: GerritTenant = {
    gerrit,
    server: await start(),
    dataDir: config.dataDir,
    restart: async (whileDown) => {
      await env.server.stop();
      await whileDown?.();
      env.server = await start();
    },
    stop: async () => {
      await env.server.stop();
      await database.destroy();
      await gerrit.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return env;
}

/**
 * The gate tenant most Gerrit tests use, its stream connected: config project `org/config` with
 * `pipelines` (default GERRIT_PIPELINES), untrusted `org/app` (default: job `unit` in check and
 * gate, test/helpers/github-tenant.ts appFiles) and any `more` untrusted projects.
 */
export async function startGerritGateTenant(
  options: {
    pipelines?: string;
    app?: FileMap;
    more?: Record<string, FileMap>;
    connection?: Record<string, unknown>;
    timers?: TimerClock;
    /** No `sshkey`: the events come by polling (docs/gerrit.md#events-by-polling), no stream is awaited. */
    polled?: boolean;
    authMode?: FakeAuthMode;
  } = {},
): Promise<GerritTenant> {
  const more = options.more ?? {};
  const env = await startGerritTenant({
    projects: {
      'org/config': { 'zuul.yaml': options.pipelines ?? GERRIT_PIPELINES },
      'org/app': options.app ?? appFiles('merge-resolve'),
      ...more,
    },
    tenantFile: gerritTenantYaml('org/config', ['org/app', ...Object.keys(more)]),
    connection: { ...options.connection, ...(options.polled === true ? { sshkey: undefined } : {}) },
    timers: options.timers,
    authMode: options.authMode,
  });
  if (options.polled !== true) {
    await env.gerrit.ssh.connected();
  }
  return env;
}

/**
 * The fake Gerrit with its projects and the `zuul` account's SSH key (written under `root`), and
 * the settings of a connection to it (`extra` over the defaults below).
 */
export async function startFakeGerrit(
  root: string,
  projects: Record<string, FileMap>,
  extra?: Record<string, unknown>,
  authMode: FakeAuthMode = 'basic',
): Promise<{ gerrit: FakeGerrit; connection: Record<string, unknown> }> {
  const keys = sshKeyPair();
  const keyFile = path.join(root, 'id_ed25519');
  writeFileSync(keyFile, keys.private, { mode: 0o600 });
  const gerrit = new FakeGerrit('zuul', 'http-secret', keys.public);
  gerrit.auth.mode = authMode;
  await gerrit.start();
  for (const [name, files] of Object.entries(projects)) {
    await gerrit.createProject(name, files);
  }
  const connection = {
    driver: 'gerrit',
    // SSH goes to ssh_server; server is only named (baseurl and canonical_hostname are given).
    server: 'gerrit.invalid',
    ssh_server: '127.0.0.1',
    canonical_hostname: 'review.example.com',
    port: gerrit.ssh.port,
    baseurl: gerrit.url,
    user: 'zuul',
    sshkey: keyFile,
    keepalive: 60,
    password: 'http-secret',
    auth_type: authMode,
    event_delay: 0,
    git_over_ssh: false,
    poll_interval: 60,
    ...extra,
  };
  return { gerrit, connection };
}

/** A tenant with one config project and untrusted projects, all on `gerrit`. */
export function gerritTenantYaml(configProject: string, untrusted: string[]): string {
  return [
    '- tenant:',
    '    name: acme',
    '    source:',
    '      gerrit:',
    '        config-projects:',
    `          - ${configProject}`,
    '        untrusted-projects:',
    ...untrusted.map((name) => `          - ${name}`),
    '',
  ].join('\n');
}

/**
 * Pipeline `check`: independent, triggered by the given filters (YAML list items such as
 * `- event: patchset-created`, default that one), voting `Verified` +1 on success, -1 on failure.
 */
export function checkPipeline(...filters: string[]): string {
  const items = filters.length > 0 ? filters : ['- event: patchset-created'];
  const trigger = items.flatMap((item) => item.split('\n')).map((line) => `        ${line}`);
  return [
    '',
    '- pipeline:',
    '    name: check',
    '    manager: independent',
    '    trigger:',
    '      gerrit:',
    ...trigger,
    '    success:',
    '      gerrit:',
    '        Verified: 1',
    '    failure:',
    '      gerrit:',
    '        Verified: -1',
  ].join('\n');
}

/** `pending-check` trigger filters (checkPipeline items): checker `zuul:check` by uuid, and every checker of scheme `sluice`. */
export const PENDING_CHECK_TRIGGERS = [
  '- event: pending-check\n  uuid: zuul:check',
  '- event: pending-check\n  scheme: sluice',
];

/**
 * Pipeline `gate`: dependent, taking a change on `comment-added` with the `trigger` vote (e.g.
 * `Approved: 1`) when it is open, current and has each `approvals` vote; `Verified` +2 and submit
 * on success, -2 on failure.
 */
function gatePipeline(approvals: string[], trigger: string): string {
  return `
- pipeline:
    name: gate
    manager: dependent
    require:
      gerrit:
        open: true
        current-patchset: true
        approval:
${approvals.map((vote) => `          - ${vote}`).join('\n')}
    trigger:
      gerrit:
        - event: comment-added
          approval:
            - ${trigger}
    success:
      gerrit:
        Verified: 2
        submit: true
    failure:
      gerrit:
        Verified: -2
`;
}

/** `check` votes Verified on new patch sets; `gate` takes Approved +1 with Code-Review +2 and submits. */
export const GERRIT_PIPELINES = `${checkPipeline()}${gatePipeline(['Code-Review: 2'], 'Approved: 1')}${BASE_JOB}`;

/** The reference's own shape: `gate` on `Workflow +1`, requiring `Code-Review +2` and `Workflow +1`. */
export const WORKFLOW_PIPELINES = `${checkPipeline()}${gatePipeline(['Code-Review: 2', 'Workflow: 1'], 'Workflow: 1')}${BASE_JOB}`;

/** The items (`N,P`) of a pipeline in the tenant's status document (REST, current shape). */
export async function itemsIn(server: TestServer, pipeline: string): Promise<string[]> {
  const status = (await (await fetch(`${server.url}/api/tenant/acme/status`)).json()) as {
    pipelines: Array<{ name: string; change_queues: Array<{ heads: Array<Array<{ refs: Array<{ id: string }> }>> }> }>;
  };
  const found = status.pipelines.find((p) => p.name === pipeline);
  return (found?.change_queues ?? []).flatMap((q) => q.heads.flat().flatMap((item) => item.refs.map((ref) => ref.id)));
}

/** Resolve once `probe` (asking the server or the database) answers true; fail after two minutes. */
export async function eventually(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await probe())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The newest vote of a label Sluice gave a change (of one patch set, when given). */
export function lastVote(change: FakeChange, label: string, patchset?: string): number | undefined {
  return change.reviews
    .filter((r) => r.labels?.[label] !== undefined && (patchset === undefined || r.patchset === patchset))
    .at(-1)?.labels?.[label];
}

/** How many times Sluice voted `Verified +1` on a change (each a `check` that passed). */
export function checksPassed(change: FakeChange): number {
  return change.reviews.filter((r) => r.labels?.Verified === 1).length;
}

/** The payloads of the Gerrit events the server stored, oldest first. */
export async function storedEvents<T>(server: TestServer): Promise<T[]> {
  const rows: Array<{ payload: unknown }> = await server.database
    .knex('connection_events')
    .where({ connection: 'gerrit' })
    .orderBy('id')
    .select('payload');
  return rows.map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as T);
}

/** Every stored Gerrit event made into trigger events, and every engine event processed. */
export async function judgedAll(server: TestServer): Promise<boolean> {
  const [connectionEvents] = await server.database.knex('connection_events').whereNull('processed_at').count('* as n');
  const [engineEvents] = await server.database.knex('engine_events').whereNull('processed').count('* as n');
  return Number(connectionEvents.n) === 0 && Number(engineEvents.n) === 0;
}

/**
 * Stop the server while the fake Gerrit holds its requests (`holdChangeRequests`, `release` ends
 * that a second after the stop began): fails unless the stop waited for Gerrit's answer. Resolves
 * half a second after the server stopped (anything it still did would be stored by then).
 */
export async function stopOnceGerritAnswered(env: GerritTenant, release: () => void): Promise<void> {
  let stoppedAt = 0;
  const stopping = env.server.stop().then(() => (stoppedAt = Date.now()));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  // The stop waits for the work under way (which waits on Gerrit) instead of leaving it to run after.
  if (stoppedAt !== 0) {
    throw new Error('the server stopped before Gerrit answered');
  }
  const released = Date.now();
  release();
  await stopping;
  if (stoppedAt < released) {
    throw new Error('the server stopped before Gerrit answered');
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/**
 * For PENDING_CHECK_TRIGGERS: checkers `sluice:lint` and `other:x` (no trigger names it), enabled,
 * and any `more`; checks pending on patch set 1 of change `byUuid` (`zuul:check`) and of change
 * `byScheme` (`sluice:lint` and `other:x`).
 */
export function addPendingChecks(
  gerrit: FakeGerrit,
  byUuid: number,
  byScheme: number,
  more: FakeGerrit['checkers'] = [],
): void {
  gerrit.checkers.push({ uuid: 'sluice:lint', repository: 'org/app', status: 'ENABLED' }, ...more, {
    uuid: 'other:x',
    repository: 'org/app',
    status: 'ENABLED',
  });
  gerrit.pendingChecks.push(
    { change: byUuid, patchset: 1, uuid: 'zuul:check' },
    { change: byScheme, patchset: 1, uuid: 'sluice:lint' },
    { change: byScheme, patchset: 1, uuid: 'other:x' },
  );
}
