import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { gitTrigger, job, makeLayout, pipeline, zuulTrigger, type LayoutSpec } from '../../engine/scripted-layout';

describe('engine: zuul-driver triggers, serial queues, hold-following-changes, reconfiguration, leadership', () => {
  let db: TestDatabase;
  const harnesses: EngineHarness[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    for (const h of harnesses.splice(0)) {
      await h.stop();
      expect(h.errors).toEqual([]);
    }
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function harness(spec: Omit<LayoutSpec, 'tenant'>, tenant = nextTenant()): Promise<EngineHarness> {
    const h = new EngineHarness(db, makeLayout({ ...spec, tenant }));
    harnesses.push(h);
    await h.start();
    return h;
  }

  it('enqueues children on parent-change-enqueued and open changes on project-change-merged', async () => {
    const gate = pipeline('gate', 'dependent', {
      triggers: [zuulTrigger(['parent-change-enqueued'], ['gate'])],
      submit: true,
    });
    const check = pipeline('check', 'independent', {
      triggers: [zuulTrigger(['project-change-merged'])],
    });
    const h = await harness({
      pipelines: [gate, check],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')], check: [job('lint')] } },
    });
    h.changes.add('org/project', 1);
    h.changes.add('org/project', 2, { dependsOn: [{ project: 'org/project', number: 1 }] });
    h.changes.add('org/project', 3);
    await h.enqueue('gate', 'org/project', '1,1');
    await h.settle();
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0].map((item) => item.refs[0].id)).toEqual(['1,1', '2,1']);
    await h.executor.finish('unit', 1, { result: 'SUCCESS' });
    await h.settle();
    // 1 merged: the project's open changes (2 and 3) enter check.
    expect(h.reports()).toEqual(['1,1 gate SUCCESS']);
    expect(
      h.executor.started
        .filter((build) => build.pipeline === 'check')
        .map((build) => build.changes[0].number)
        .sort(),
    ).toEqual([2, 3]);
    await h.executor.finish('unit', 2, { result: 'SUCCESS' });
    await h.settle();
    // 2 merged: 3 is already in check, nothing new enters.
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS']);
    expect(h.executor.started.filter((build) => build.pipeline === 'check')).toHaveLength(2);
  });

  it('runs one item at a time in a serial pipeline', async () => {
    const deploy = pipeline('deploy', 'serial', { triggers: [gitTrigger(['ref-updated'])] });
    const h = await harness({
      pipelines: [deploy],
      projects: [
        { name: 'org/a', queue: 'prod' },
        { name: 'org/b', queue: 'prod' },
      ],
      jobs: { 'org/a': { deploy: [job('deploy-a')] }, 'org/b': { deploy: [job('deploy-b')] } },
    });
    await h.engine.submitTrigger(h.tenant, {
      type: 'ref-updated',
      project: 'org/a',
      ref: 'refs/heads/master',
      oldrev: 'o1',
      newrev: 'n1',
    });
    await h.engine.submitTrigger(h.tenant, {
      type: 'ref-updated',
      project: 'org/b',
      ref: 'refs/heads/master',
      oldrev: 'o2',
      newrev: 'n2',
    });
    await h.settle();
    const status = await h.engine.status(h.tenant);
    expect(
      status?.pipelines[0].changeQueues.map((queue) => [
        queue.name,
        queue.window,
        queue.heads.flat().map((item) => item.active),
      ]),
    ).toEqual([['prod', 1, [true, false]]]);
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['deploy-a']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['deploy-a', 'deploy-b']);
  });

  it('holds the jobs of following changes until a hold-following-changes job succeeds', async () => {
    const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });
    const h = await harness({
      pipelines: [gate],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('publish', { holdFollowingChanges: true }), job('unit')] } },
    });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    expect(h.executor.started.map((build) => `${build.changes[0].number}:${build.job.name}`)).toEqual([
      '1:publish',
      '1:unit',
    ]);
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0][1].jobs.map((entry) => entry.waitingFor)).toEqual([
      'hold-following-changes',
      'hold-following-changes',
    ]);
    await h.executor.finish('publish', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.executor.started.map((build) => `${build.changes[0].number}:${build.job.name}`)).toEqual([
      '1:publish',
      '1:unit',
      '2:publish',
      '2:unit',
    ]);
  });

  it('dequeues items of projects and pipelines that leave the layout on reconfiguration', async () => {
    const spec = {
      pipelines: [
        pipeline('check', 'independent', { triggers: [] }),
        pipeline('extra', 'independent', { triggers: [] }),
      ],
      projects: [{ name: 'org/keep' }, { name: 'org/gone' }],
      jobs: { 'org/keep': { check: [job('unit')], extra: [job('unit')] }, 'org/gone': { check: [job('unit')] } },
    };
    const h = await harness(spec);
    h.changes.add('org/keep', 1);
    h.changes.add('org/gone', 2);
    await h.enqueue('check', 'org/keep', '1,1');
    await h.enqueue('check', 'org/gone', '2,1');
    await h.enqueue('extra', 'org/keep', '1,1');
    h.layout = makeLayout(
      { ...spec, tenant: h.tenant, pipelines: [spec.pipelines[0]], projects: [{ name: 'org/keep' }] },
      'layout-2',
    );
    await h.engine.reconfigure(h.tenant);
    await h.settle();
    const status = await h.engine.status(h.tenant);
    expect(
      status?.pipelines.map((entry) => [entry.name, entry.changeQueues.map((queue) => queue.heads[0][0].refs[0].id)]),
    ).toEqual([['check', ['1,1']]]);
    const reasons = (await h.engine.dequeuedItems(h.tenant, { limit: 5 })).map((item) => item.reason?.kind);
    expect(reasons.sort()).toEqual(['reconfiguration', 'reconfiguration']);
    expect(status?.lastReconfigured).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(h.executor.canceled).toHaveLength(2);
  });

  it('records NODE_FAILURE when a nodeset request fails', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: {
        'org/project': {
          check: [
            job('big', { nodeset: { name: 'big', labels: ['huge'] } }),
            job('after', { dependencies: [{ name: 'big', soft: false }] }),
          ],
        },
      },
    });
    h.nodes.sink = async (tenant, event) => {
      if (event.type === 'nodes-provisioned') {
        await h.engine.submitResult(tenant, { ...event, fulfilled: false, nodes: [] });
      }
    };
    h.changes.add('org/project', 1);
    await h.enqueue('check', 'org/project', '1,1');
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check FAILURE']);
    const builds = await h.builds();
    expect(builds.map((build) => [build.jobName, build.result])).toEqual([
      ['big', 'NODE_FAILURE'],
      ['after', 'SKIPPED'],
    ]);
  });

  it('lets only one scheduler lead a tenant', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent')],
      projects: [{ name: 'org/project' }],
      jobs: {},
    });
    const second = new EngineHarness(db, h.layout);
    // The lease is held (docs/operations.md#leadership-model), on either store: the second stands by.
    expect(await second.engine.startTenant(h.tenant)).toBe(false);
    expect(second.engine.leadership()).toEqual([{ tenant: h.tenant, leading: false, epoch: null }]);
    await second.stop();
  });
});
