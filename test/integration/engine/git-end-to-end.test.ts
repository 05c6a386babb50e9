/**
 * The engine with the real git driver, merger and executor worker on the quickstart
 * repositories: two stacked changes are gated, the good one's jobs run for real and it is
 * merged into master (announced once as Sluice's own ref-updated); the broken one fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildRequestExecutor } from '../../../src/executor/build-request-gateway';
import { Engine } from '../../../src/engine/engine';
import { InProcessEventBus, type EngineDelta } from '../../../src/engine/event-bus';
import { GitChangeSource } from '../../../src/drivers/git/change-source';
import type { GitProjects } from '../../../src/sources/git-projects';
import { GitMergerGateway } from '../../../src/executor/merger-gateway';
import { Merger } from '../../../src/executor/merger';
import { RepoCache } from '../../../src/executor/repo-cache';
import { allowedHostEnvironment } from '../../../src/executor/step-environment';
import { ExecutorWorker } from '../../../src/executor/worker';
import { GitMirrors } from '../../../src/sources/git-mirror';
import { GitPoller, type GitTriggerEvent } from '../../../src/drivers/git/poller';
import { seedRepositories } from '../../../src/drivers/git/seed';
import { BuildRequestRepository } from '../../../src/store/repositories/build-requests';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';
import { InstantNodes } from '../../engine/scripted-gateways';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const PROJECT = 'example/hello';
const HOST = 'git.example.com';

describe('engine end to end with the git driver and a real executor', () => {
  let fixture: GitFixture;
  let database: TestDatabase;
  let root: string;
  let worker: ExecutorWorker;

  beforeAll(async () => {
    fixture = createGitFixture();
    await seedRepositories(path.resolve(__dirname, '../../../examples/quickstart/repos'), fixture.baseDir);
    database = await createTestDatabase();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-engine-e2e-'));
  });

  afterAll(async () => {
    await worker.stop();
    await database.destroy();
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('gates two stacked changes: the good one merges, the broken one fails', async () => {
    const cache = new RepoCache(path.join(root, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: HOST },
    });
    const merger = new Merger(cache, path.join(root, 'scratch'));
    worker = new ExecutorWorker({
      repository: new BuildRequestRepository(database.knex),
      merger,
      workRoot: path.join(root, 'builds'),
      logsDir: path.join(root, 'logs'),
      logsUrl: 'http://localhost:9000/logs/',
      pollIntervalMs: 50,
      hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
    });
    worker.start();
    const step = (script: string) => ({
      run: [{ path: script, sourceContext: { connectionName: 'local', projectName: PROJECT } }],
    });
    const layout = makeLayout({
      tenant: 'e2e',
      connection: 'local',
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: PROJECT }],
      jobs: {
        [PROJECT]: {
          gate: [
            job('hello-unit', { timeout: 600, attempts: 2, params: step('scripts/unit.sh') }),
            job('hello-lint', { timeout: 600, params: step('scripts/lint.sh') }),
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
    const triggers: GitTriggerEvent[] = [];
    let engine: Engine | null = null;
    const poller = new GitPoller({
      connection: 'local',
      mirrors: new GitMirrors(path.join(root, 'poller'), () => fixture.baseDir),
      projects: () => [PROJECT],
      intervalMs: 60_000,
      onEvent: (event) => {
        triggers.push(event);
      },
    });
    await poller.pollNow();
    const bus = new InProcessEventBus();
    const reports: string[] = [];
    const done = new Promise<void>((resolve) => {
      bus.subscribe('e2e', (delta: EngineDelta) => {
        if (delta.type === 'item-reported') {
          reports.push(delta.result);
          if (reports.length === 2) {
            resolve();
          }
        }
      });
    });
    const errors: unknown[] = [];
    engine = new Engine({
      database,
      layouts: (tenant) => (tenant === 'e2e' ? layout : null),
      gateways: {
        changes: new GitChangeSource(
          new GitMirrors(path.join(root, 'engine-mirrors'), () => fixture.baseDir),
          projects,
        ),
        merger: new GitMergerGateway(merger, projects, async (_connection, project, branch, newrev, oldrev) => {
          await poller.expectOwnUpdate(project, branch, newrev, oldrev);
        }),
        executor: new BuildRequestExecutor(
          database.knex,
          (_tenant, canonical) => projects.locate(canonical)?.name ?? canonical,
        ),
        nodes: new InstantNodes(),
      },
      bus,
      clock: { now: () => new Date() },
      pollIntervalMs: 50,
      logger: { error: (_message, error) => errors.push(error) },
    });
    await engine.startTenant('e2e');

    await fixture.pushChange(PROJECT, 1, 1, {
      parent: 'master',
      files: { 'NOTES.md': 'Release notes\n' },
      message: 'Add release notes',
    });
    await fixture.pushChange(PROJECT, 2, 1, {
      parent: 'master',
      files: { 'hello.sh': { content: '#!/bin/sh\necho "Goodbye, ${1:-world}!"\n', executable: true } },
      message: 'Say goodbye instead\n\nDepends-On: example/hello:1\n',
    });
    // Enqueueing 2 brings 1 (its Depends-On) in ahead of it.
    const enqueued = await engine.enqueue('e2e', { pipeline: 'gate', project: PROJECT, change: '2,1' });
    expect(enqueued.ok).toBe(true);
    await done;
    await engine.settle('e2e');
    expect(reports).toEqual(['SUCCESS', 'FAILURE']);
    expect(await fixture.showFile(PROJECT, 'master', 'NOTES.md')).toBe('Release notes\n');
    expect(triggers.filter((event) => event.type === 'ref-updated')).toEqual([
      expect.objectContaining({ ref: 'refs/heads/master', own: true }),
    ]);
    const builds: Array<{ job_name: string; result: string }> = await database
      .knex('builds')
      .where({ tenant: 'e2e' })
      .orderBy('id')
      .select('job_name', 'result');
    expect(builds.filter((build) => build.result === 'FAILURE').map((build) => build.job_name)).toContain('hello-unit');
    await engine.stop();
    expect(errors).toEqual([]);
  }, 120_000);
});
