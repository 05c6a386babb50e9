/**
 * A paused build end to end: the engine with the git driver and a real executor worker running
 * shell steps. `registry` pauses after its run phase; `consumer` (depending on it) runs with the
 * data it returned while it is paused, on the executor's only slot; `registry`'s post-run step
 * runs after `consumer` finished, and the change reports SUCCESS.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { BuildRepository } from '../../../src/store/repositories/builds';
import { BuildRequestRepository } from '../../../src/store/repositories/build-requests';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';
import { InstantNodes } from '../../engine/scripted-gateways';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const PROJECT = 'org/app';
const HOST = 'git.example.com';
const TENANT = 'pause-e2e';

const SCRIPTS = {
  README: 'app\n',
  'scripts/registry-run.sh': `echo "registry-run" >> "$SLUICE_VAR_order"
printf '{"pause": true, "data": {"registry_url": "http://registry.example:5000"}}' > "$SLUICE_RESULTS_FILE"
`,
  // The consumer holds until the test has looked at the paused state.
  'scripts/consumer.sh': `while [ ! -f "$SLUICE_VAR_release" ]; do sleep 0.05; done
echo "consumer-run $SLUICE_VAR_registry_url" >> "$SLUICE_VAR_order"
`,
  'scripts/registry-post.sh': 'echo "registry-post" >> "$SLUICE_VAR_order"\n',
};

describe('paused build end to end with a real executor', () => {
  let fixture: GitFixture;
  let database: TestDatabase;
  let root: string;
  let worker: ExecutorWorker | null = null;
  let engine: Engine | null = null;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject(PROJECT, SCRIPTS);
    await fixture.pushChange(PROJECT, 1, 1, {
      parent: 'master',
      files: { 'NOTES.md': 'notes\n' },
      message: 'Add notes',
    });
    database = await createTestDatabase();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-pause-e2e-'));
  });

  afterAll(async () => {
    await engine?.stop();
    await worker?.stop();
    await database.destroy();
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs the dependent while the parent is paused and finishes the parent after it', async () => {
    const cache = new RepoCache(path.join(root, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: HOST },
    });
    const merger = new Merger(cache, path.join(root, 'scratch'));
    // One slot: the paused parent must not hold it, or its dependent could never run.
    worker = new ExecutorWorker({
      repository: new BuildRequestRepository(database.knex),
      merger,
      workRoot: path.join(root, 'builds'),
      logsDir: path.join(root, 'logs'),
      concurrency: 1,
      pollIntervalMs: 50,
      cancelPollIntervalMs: 100,
      hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
    });
    worker.start();
    const order = path.join(root, 'order.txt');
    const release = path.join(root, 'release');
    const source = { connectionName: 'local', projectName: PROJECT };
    const steps = (run: string, postRun?: string) => ({
      run: [{ path: run, sourceContext: source }],
      postRun: postRun ? [{ path: postRun, sourceContext: source }] : [],
    });
    const vars = { order, release };
    const layout = makeLayout({
      tenant: TENANT,
      connection: 'local',
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: PROJECT }],
      jobs: {
        [PROJECT]: {
          check: [
            job('registry', {
              timeout: 600,
              vars,
              params: steps('scripts/registry-run.sh', 'scripts/registry-post.sh'),
            }),
            job('consumer', {
              timeout: 600,
              vars,
              dependencies: [{ name: 'registry', soft: false }],
              params: steps('scripts/consumer.sh'),
            }),
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
    const deltas: EngineDelta[] = [];
    const waiters: Array<{ type: EngineDelta['type']; resolve: () => void }> = [];
    bus.subscribe(TENANT, (delta) => {
      deltas.push(delta);
      for (const waiter of waiters.filter((candidate) => candidate.type === delta.type)) {
        waiter.resolve();
      }
    });
    const seen = (type: EngineDelta['type']): Promise<void> =>
      deltas.some((delta) => delta.type === type)
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ type, resolve }));
    const errors: unknown[] = [];
    engine = new Engine({
      database,
      layouts: (tenant) => (tenant === TENANT ? layout : null),
      gateways: {
        changes: new GitChangeSource(
          new GitMirrors(path.join(root, 'engine-mirrors'), () => fixture.baseDir),
          projects,
        ),
        merger: new GitMergerGateway(merger, projects, () => Promise.resolve()),
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
    await engine.startTenant(TENANT);
    expect((await engine.enqueue(TENANT, { pipeline: 'check', project: PROJECT, change: '1,1' })).ok).toBe(true);

    await seen('job-paused');
    await engine.settle(TENANT);
    const jobs = (await engine.status(TENANT))?.pipelines[0].changeQueues[0].heads[0][0].jobs ?? [];
    expect(
      jobs.map((candidate) => `${candidate.name}:${String(candidate.paused)}:${candidate.result ?? 'running'}`),
    ).toEqual(['registry:true:running', 'consumer:false:running']);
    expect(readFileSync(order, 'utf8')).toBe('registry-run\n');
    writeFileSync(release, '');

    await seen('item-reported');
    await engine.settle(TENANT);
    expect(deltas.find((delta) => delta.type === 'item-reported')).toMatchObject({ result: 'SUCCESS' });
    expect(readFileSync(order, 'utf8')).toBe(
      'registry-run\nconsumer-run http://registry.example:5000\nregistry-post\n',
    );
    const builds = new BuildRepository(database.knex);
    const history = await builds.list(TENANT, {}, { limit: 10, offset: 0, fromEnd: false });
    expect(history.map((build) => `${build.jobName}:${build.result}`).sort()).toEqual([
      'consumer:SUCCESS',
      'registry:SUCCESS',
    ]);
    const registry = history.find((build) => build.jobName === 'registry');
    expect((await builds.listEvents([registry?.id ?? 0])).map((event) => event.eventType)).toEqual([
      'paused',
      'resumed',
    ]);
    expect(existsSync(path.join(root, 'builds', registry?.uuid ?? 'none'))).toBe(false);
    expect(errors).toEqual([]);
  }, 120_000);
});
