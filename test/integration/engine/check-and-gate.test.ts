import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';

const layoutSpec = () => ({
  tenant: nextTenant(),
  pipelines: [
    pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] }),
    pipeline('gate', 'dependent', { triggers: [], submit: true }),
  ],
  projects: [
    { name: 'org/project', queue: 'integrated' },
    { name: 'org/other', queue: 'integrated' },
  ],
  jobs: {
    'org/project': {
      check: [job('lint'), job('unit'), job('docs', { voting: false })],
      gate: [job('unit'), job('integration')],
    },
    'org/other': { gate: [job('unit')] },
  },
});

describe('engine: check and gate pipelines', () => {
  let db: TestDatabase;
  let h: EngineHarness;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    h = new EngineHarness(db, makeLayout(layoutSpec()));
    await h.start();
  });

  afterEach(async () => {
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  it('runs the jobs of a check item in parallel and reports success with a non-voting failure', async () => {
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    expect([...h.executor.running.values()].map((build) => build.job.name).sort()).toEqual(['docs', 'lint', 'unit']);
    const status = await h.engine.status(h.tenant);
    const check = status?.pipelines.find((candidate) => candidate.name === 'check');
    expect(check?.changeQueues).toHaveLength(1);
    expect(check?.changeQueues[0].heads[0][0].jobs.map((entry) => entry.waitingStatus)).toEqual([
      'executor',
      'executor',
      'executor',
    ]);

    await h.executor.finish('docs', 1, { result: 'FAILURE' });
    await h.executor.finish('lint', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.reports()).toEqual([]);
    await h.executor.finish('unit', 1, { result: 'SUCCESS' });
    await h.settle();

    expect(h.reports()).toEqual(['1,1 check SUCCESS']);
    const buildsets = await h.buildsets();
    expect(buildsets.map((buildset) => [buildset.pipeline, buildset.result])).toEqual([['check', 'SUCCESS']]);
    expect(buildsets[0].message).toContain('Build succeeded.');
    expect(buildsets[0].message).toContain('- docs https://logs.example.com/');
    const builds = await h.builds();
    expect(builds.map((build) => [build.jobName, build.result, build.final, build.voting]).sort()).toEqual([
      ['docs', 'FAILURE', true, false],
      ['lint', 'SUCCESS', true, true],
      ['unit', 'SUCCESS', true, true],
    ]);
    const after = await h.engine.status(h.tenant);
    expect(after?.pipelines.find((candidate) => candidate.name === 'check')?.changeQueues).toEqual([]);
    const dequeued = await h.engine.dequeuedItems(h.tenant, { limit: 10 });
    expect(dequeued.map((item) => item.reason)).toEqual([{ kind: 'reported', result: 'SUCCESS' }]);
  });

  it('gates three changes where the second fails: 1 merges, 2 fails, 3 is re-tested without 2 and merges', async () => {
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      expect(await h.enqueue('gate', 'org/project', `${number},1`)).toBe('ok');
    }
    expect(h.executor.started.map((build) => `${build.changes[0].number}:${build.job.name}`)).toEqual([
      '1:unit',
      '1:integration',
      '2:unit',
      '2:integration',
      '3:unit',
      '3:integration',
    ]);
    // Change 3 was tested on top of 1 and 2.
    expect(h.merger.prepared[2]).toEqual(['1,1', '2,1', '3,1']);

    await h.executor.finish('unit', 2, { result: 'FAILURE' });
    await h.settle();
    // 3 was re-parented behind 1 and restarted with a new buildset: its speculative state skips 2.
    expect(h.merger.prepared[3]).toEqual(['1,1', '3,1']);
    const status = await h.engine.status(h.tenant);
    const queue = status?.pipelines.find((candidate) => candidate.name === 'gate')?.changeQueues[0];
    expect(queue?.name).toBe('integrated');
    // One chain: 1 at the head with 2 (failing) and 3 (re-parented onto 1) behind it.
    expect(queue?.heads.map((chain) => chain.map((item) => item.refs[0].id))).toEqual([['1,1', '2,1', '3,1']]);
    const item2 = queue?.heads.flat().find((item) => item.refs[0].id === '2,1');
    expect(item2?.failingReasons).toEqual(['at least one job failed']);
    const item3 = queue?.heads.flat().find((item) => item.refs[0].id === '3,1');
    expect(item3?.itemAhead).toBe(queue?.heads.flat().find((item) => item.refs[0].id === '1,1')?.id);

    await h.executor.finishAll();
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate FAILURE', '3,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([1, 3]);
    const results = (await h.buildsets()).map((buildset) => buildset.result);
    expect(results).toEqual(['SUCCESS', 'FAILURE', 'DEQUEUED', 'SUCCESS']);
    expect((await h.buildsets()).map((buildset) => buildset.uuid)).toHaveLength(4);
    const aborted = (await h.builds()).filter((build) => build.result === 'ABORTED' || build.result === 'CANCELED');
    expect(aborted.length).toBe(2);
  });
});
