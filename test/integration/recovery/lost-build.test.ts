/**
 * A lost build request (docs/operations.md#lost-work) with an injected clock: the gate's builds
 * are claimed by an executor whose component then stops heartbeating. Within the expiry nothing
 * happens; after it the reclaimer ends them ABORTED, the engine retries them (RETRY, not final)
 * on a live executor, and the gate finishes: the change merges once and is reported once. With
 * one attempt only, the lost build ends RETRY_LIMIT and the item leaves the gate failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildRequestExecutor } from '../../../src/executor/build-request-gateway';
import { GitMergerGateway } from '../../../src/executor/merger-gateway';
import { Merger } from '../../../src/executor/merger';
import { RepoCache } from '../../../src/executor/repo-cache';
import { allowedHostEnvironment } from '../../../src/executor/step-environment';
import { ExecutorWorker } from '../../../src/executor/worker';
import { Engine } from '../../../src/engine/engine';
import { InProcessEventBus, type EngineDelta } from '../../../src/engine/event-bus';
import { LostWorkReclaimer } from '../../../src/server/lost-work-reclaimer';
import { GitChangeSource } from '../../../src/drivers/git/change-source';
import type { GitProjects } from '../../../src/sources/git-projects';
import { GitMirrors } from '../../../src/sources/git-mirror';
import { seedRepositories } from '../../../src/drivers/git/seed';
import { BuildRequestRepository } from '../../../src/store/repositories/build-requests';
import { ComponentRepository } from '../../../src/store/repositories/components';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';
import { InstantNodes } from '../../engine/scripted-gateways';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const PROJECT = 'example/hello';
const HOST = 'git.example.com';
const T0 = new Date('2026-03-01T10:00:00.000Z');
const DEAD = 'executor-that-died';
const LIVE = 'executor-alive';

describe('lost build requests end and the gate moves on', () => {
  let fixture: GitFixture;
  let database: TestDatabase;
  let root: string;

  beforeEach(async () => {
    fixture = createGitFixture();
    await seedRepositories(path.resolve(__dirname, '../../../examples/quickstart/repos'), fixture.baseDir);
    database = await createTestDatabase();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-lost-build-'));
  });

  afterEach(async () => {
    await database.destroy();
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  /** Engine, live worker (not started) and reclaimer on one injected clock. */
  function deployment(attempts: number) {
    let now = T0;
    const clock = () => now;
    const cache = new RepoCache(path.join(root, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: HOST },
    });
    const merger = new Merger(cache, path.join(root, 'scratch'));
    const requests = new BuildRequestRepository(database.knex);
    const worker = new ExecutorWorker({
      repository: requests,
      merger,
      workerId: LIVE,
      workRoot: path.join(root, 'builds'),
      logsDir: path.join(root, 'logs'),
      logsUrl: 'http://localhost:9000/logs/',
      pollIntervalMs: 50,
      hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
    });
    const step = (script: string) => ({
      run: [{ path: script, sourceContext: { connectionName: 'local', projectName: PROJECT } }],
    });
    const layout = makeLayout({
      tenant: 'lost',
      connection: 'local',
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: PROJECT }],
      jobs: {
        [PROJECT]: {
          gate: [
            job('hello-unit', { timeout: 600, attempts, params: step('scripts/unit.sh') }),
            job('hello-lint', { timeout: 600, attempts, params: step('scripts/lint.sh') }),
          ],
        },
      },
    });
    const projects: GitProjects = {
      locate: (canonical) => {
        const project = layout.projects.get(canonical);
        return project ? { connection: 'local', name: project.name, defaultBranch: project.defaultBranch } : null;
      },
      canonicalName: (_connection, name) => `${HOST}/${name}`,
    };
    const bus = new InProcessEventBus();
    const reports: string[] = [];
    const reported = new Promise<void>((resolve) => {
      bus.subscribe('lost', (delta: EngineDelta) => {
        if (delta.type === 'item-reported') {
          reports.push(delta.result);
          resolve();
        }
      });
    });
    const errors: unknown[] = [];
    const engine = new Engine({
      database,
      layouts: (tenant) => (tenant === 'lost' ? layout : null),
      gateways: {
        changes: new GitChangeSource(new GitMirrors(path.join(root, 'mirrors'), () => fixture.baseDir), projects),
        merger: new GitMergerGateway(merger, projects, () => Promise.resolve()),
        executor: new BuildRequestExecutor(
          database.knex,
          (_tenant, canonical) => projects.locate(canonical)?.name ?? canonical,
          clock,
        ),
        nodes: new InstantNodes(),
      },
      bus,
      clock: { now: clock },
      pollIntervalMs: 50,
      logger: { error: (_message, error) => errors.push(error) },
    });
    const reclaimer = new LostWorkReclaimer({
      knex: database.knex,
      now: clock,
      expiryMs: 90_000,
      intervalMs: 30_000,
      logger: { info: () => undefined, warn: () => undefined },
      own: () => [],
      onReclaimed: (builds) => builds.forEach((build) => engine.wake(build.tenant)),
    });
    return {
      engine,
      worker,
      reclaimer,
      requests,
      reports,
      reported,
      errors,
      advance: (seconds: number) => {
        now = new Date(T0.getTime() + seconds * 1000);
      },
      now: clock,
    };
  }

  /** Change 1 enters the gate; the executor `DEAD` claims its builds and then stops heartbeating. */
  async function claimedByDeadExecutor(d: ReturnType<typeof deployment>): Promise<string[]> {
    const components = new ComponentRepository(database.knex);
    for (const [id, hostname] of [
      [DEAD, 'lost-host'],
      [LIVE, 'live-host'],
    ]) {
      await components.register({
        id,
        kind: 'executor',
        hostname,
        pid: 1,
        state: 'running',
        version: 'test',
        started: T0,
        heartbeat: T0,
      });
    }
    await d.engine.startTenant('lost');
    await fixture.pushChange(PROJECT, 1, 1, {
      parent: 'master',
      files: { 'NOTES.md': 'Release notes\n' },
      message: 'Add release notes',
    });
    expect((await d.engine.enqueue('lost', { pipeline: 'gate', project: PROJECT, change: '1,1' })).ok).toBe(true);
    await d.engine.settle('lost');
    const claimed: string[] = [];
    for (let record = await d.requests.claimNext(DEAD, T0); record; record = await d.requests.claimNext(DEAD, T0)) {
      claimed.push(record.buildUuid);
    }
    return claimed;
  }

  it('retries the lost builds on a live executor after the expiry; the change merges and is reported once', async () => {
    const d = deployment(2);
    try {
      const lost = await claimedByDeadExecutor(d);
      expect(lost).toHaveLength(2);
      d.worker.start();
      const components = new ComponentRepository(database.knex);
      // Within the expiry the dead executor is given the benefit of the doubt.
      d.advance(60);
      await components.heartbeat(LIVE, d.now());
      expect(await d.reclaimer.sweep()).toEqual([]);
      expect((await d.requests.get(lost[0]))?.state).toBe('running');
      // After it, both builds end ABORTED and the engine retries them.
      d.advance(100);
      await components.heartbeat(LIVE, d.now());
      expect((await d.reclaimer.sweep()).map((build) => build.buildUuid).sort()).toEqual([...lost].sort());
      await d.reported;
      await d.engine.settle('lost');
      expect(d.reports).toEqual(['SUCCESS']);
      expect(await fixture.showFile(PROJECT, 'master', 'NOTES.md')).toBe('Release notes\n');
      const builds: Array<{ job_name: string; result: string; final: boolean }> = await database
        .knex('builds')
        .where({ tenant: 'lost' })
        .orderBy('id')
        .select('job_name', 'result', 'final');
      expect(builds.map((b) => `${b.job_name}:${b.result}:${b.final}`).sort()).toEqual([
        'hello-lint:RETRY:false',
        'hello-lint:SUCCESS:true',
        'hello-unit:RETRY:false',
        'hello-unit:SUCCESS:true',
      ]);
      const retried: Array<{ worker: string; state: string; result: string }> = await database
        .knex('build_requests')
        .orderBy('id')
        .select('worker', 'state', 'result');
      expect(retried.map((r) => `${r.worker}:${r.state}:${r.result}`)).toEqual([
        `${DEAD}:completed:ABORTED`,
        `${DEAD}:completed:ABORTED`,
        `${LIVE}:completed:SUCCESS`,
        `${LIVE}:completed:SUCCESS`,
      ]);
      // The merge happened once: one buildset reported, and nothing more to reclaim.
      const [{ n }] = await database
        .knex('buildsets')
        .where({ tenant: 'lost' })
        .whereNotNull('result')
        .count({ n: '*' });
      expect(Number(n)).toBe(1);
      expect(await d.reclaimer.sweep()).toEqual([]);
      expect(d.errors).toEqual([]);
    } finally {
      await d.engine.stop();
      await d.worker.stop();
    }
  }, 120_000);

  it('ends the item RETRY_LIMIT when the lost build had no attempt left; the gate is empty after', async () => {
    const d = deployment(1);
    try {
      const lost = await claimedByDeadExecutor(d);
      expect(lost).toHaveLength(2);
      d.advance(100);
      expect(await d.reclaimer.sweep()).toHaveLength(2);
      await d.reported;
      await d.engine.settle('lost');
      expect(d.reports).toEqual(['FAILURE']);
      const builds: Array<{ result: string; final: boolean }> = await database
        .knex('builds')
        .where({ tenant: 'lost' })
        .select('result', 'final');
      expect(builds.map((b) => `${b.result}:${b.final}`)).toEqual(['RETRY_LIMIT:true', 'RETRY_LIMIT:true']);
      const status = await d.engine.status('lost');
      expect(status?.pipelines[0].changeQueues.map((queue) => queue.heads)).toEqual([[]]);
      expect(d.errors).toEqual([]);
    } finally {
      await d.engine.stop();
      await d.worker.stop();
    }
  }, 120_000);
});
