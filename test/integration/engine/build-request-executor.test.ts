import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { Engine } from '../../../src/engine/engine';
import { InProcessEventBus } from '../../../src/engine/event-bus';
import { BuildRequestExecutor } from '../../../src/executor/build-request-gateway';
import { buildRequestParamsSchema, type BuildRequestParams } from '../../../src/model/build-request';
import { BuildRequestRepository } from '../../../src/store/repositories/build-requests';
import { FakeChanges } from '../../engine/fake-changes';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { InstantNodes, ScriptedMerger } from '../../engine/scripted-gateways';

describe('engine with the build-request executor gateway', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('queues valid build requests and consumes the result events executors write', async () => {
    const run = [{ path: 'ci/test.sh', sourceContext: { connectionName: 'git', projectName: 'org/project' } }];
    const layout = makeLayout({
      tenant: 'exec-tenant',
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit', { timeout: 600, params: { run, workspaceScheme: 'golang' } })] } },
    });
    const clock = new FakeClock();
    const changes = new FakeChanges();
    const nodes = new InstantNodes();
    const errors: unknown[] = [];
    const engine = new Engine({
      database: db,
      layouts: (tenant) => (tenant === layout.tenant ? layout : null),
      gateways: {
        changes,
        merger: new ScriptedMerger(changes),
        nodes,
        executor: new BuildRequestExecutor(
          db.knex,
          (_tenant, name) => layout.projects.get(name)?.name ?? name,
          () => clock.now(),
        ),
      },
      bus: new InProcessEventBus(),
      clock,
      pollIntervalMs: 50,
      logger: { error: (_message, error) => errors.push(error) },
    });
    nodes.sink = (tenant, event) => engine.submitResult(tenant, event);
    await engine.startTenant(layout.tenant);
    changes.add('org/project', 1);
    const enqueued = await engine.enqueue(layout.tenant, { pipeline: 'check', project: 'org/project', change: '1,1' });
    expect(enqueued.ok).toBe(true);
    await engine.settle(layout.tenant);

    const requests = new BuildRequestRepository(db.knex);
    const claimed = await requests.claimNext('worker-1', clock.now());
    expect(claimed).not.toBeNull();
    const params: BuildRequestParams = buildRequestParamsSchema.parse(claimed?.params);
    expect(params.job).toMatchObject({
      name: 'unit',
      timeout: 600,
      attempts: 3,
      run: [{ connection: 'git', project: 'org/project', path: 'ci/test.sh' }],
    });
    expect(params.item).toMatchObject({
      project: 'org/project',
      ref: 'refs/changes/01/1/1',
      change: 1,
      patchset: '1',
      branch: 'master',
    });
    expect(params.mergerItems.map((item) => [item.project, item.change])).toEqual([['org/project', 1]]);

    const base = {
      buildUuid: params.buildUuid,
      buildsetUuid: params.buildsetUuid,
      tenant: params.tenant,
      pipeline: params.pipeline,
      jobName: 'unit',
      attempt: 1,
    };
    await requests.recordStarted(
      { ...base, startTime: clock.now().toISOString(), worker: 'worker-1', logUrl: 'https://logs.example.com/1/' },
      clock.now(),
    );
    await requests.complete(
      {
        ...base,
        result: 'SUCCESS',
        startTime: clock.now().toISOString(),
        endTime: new Date(clock.now().getTime() + 5000).toISOString(),
        errorDetail: null,
        logUrl: 'https://logs.example.com/1/',
        artifacts: [{ name: 'report', url: 'https://logs.example.com/1/report.html', metadata: null }],
        data: {},
        childJobs: null,
        warnings: [],
        worker: 'worker-1',
        changedFiles: null,
      },
      clock.now(),
    );
    await engine.settle(layout.tenant);
    const status = await engine.status(layout.tenant);
    expect(status?.pipelines[0].changeQueues).toEqual([]);
    const builds: Array<{ job_name: string; result: string; log_url: string }> = await db
      .knex('builds')
      .where({ tenant: layout.tenant })
      .select('job_name', 'result', 'log_url');
    expect(builds).toEqual([{ job_name: 'unit', result: 'SUCCESS', log_url: 'https://logs.example.com/1/' }]);
    const artifacts = await db.knex('artifacts').select('name', 'url');
    expect(artifacts).toEqual([{ name: 'report', url: 'https://logs.example.com/1/report.html' }]);
    await engine.stop();
    expect(errors).toEqual([]);
  });
});
