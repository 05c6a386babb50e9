/** Pending-event counters of the status document, per tenant and per pipeline. */
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { canonical, gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';

const PROJECT = canonical('org/project');

describe.each(backends())('engine: pending event counters (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  afterEach(async () => {
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  it('counts unprocessed trigger, result and management events for the pipelines they concern', async () => {
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [
          pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] }),
          pipeline('gate', 'dependent', { triggers: [], submit: true }),
          pipeline('post', 'supercedent', {
            triggers: [gitTrigger(['ref-updated'], { refs: [{ pattern: /^refs\/heads\//, negate: false }] })],
          }),
        ],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('unit')], gate: [job('unit')], post: [job('publish')] } },
      }),
    );
    await h.start();
    h.changes.add('org/project', 1);
    h.changes.add('org/project', 2);
    expect(await h.enqueue('check', 'org/project', '1,1')).toBe('ok');
    expect(h.executor.find('unit', 1)).toHaveLength(1);
    expect((await h.engine.setTenantState(h.tenant, { triggerQueuePaused: true, resultQueuePaused: true })).ok).toBe(
      true,
    );
    await h.settle();

    await h.engine.submitTrigger(h.tenant, { type: 'patchset-created', project: PROJECT, change: 2, patchset: '1' });
    await h.engine.submitTrigger(h.tenant, {
      type: 'ref-updated',
      project: PROJECT,
      ref: 'refs/heads/master',
      oldrev: 'a',
      newrev: 'b',
    });
    await h.engine.submitTrigger(h.tenant, {
      type: 'ref-updated',
      project: PROJECT,
      ref: 'refs/tags/v1',
      oldrev: null,
      newrev: 'c',
    });
    // build-started and build-completed of 1,1's unit job.
    await h.executor.finish('unit', 1, { result: 'SUCCESS' });
    await h.settle();
    // Management events are never paused: stop the scheduler so that two stay pending.
    await h.stop();
    expect((await h.engine.enqueue(h.tenant, { pipeline: 'gate', project: 'org/project', change: '2,1' })).ok).toBe(
      true,
    );
    expect((await h.engine.dequeue(h.tenant, { pipeline: 'check', project: 'org/project', change: '1,1' })).ok).toBe(
      true,
    );

    const status = await h.engine.status(h.tenant);
    expect([
      status?.triggerEventQueue.length,
      status?.resultEventQueue.length,
      status?.managementEventQueue.length,
    ]).toEqual([3, 2, 2]);
    expect(
      status?.pipelines.map((entry) => [entry.name, entry.triggerEvents, entry.resultEvents, entry.managementEvents]),
    ).toEqual([
      ['check', 1, 2, 1],
      ['gate', 0, 0, 1],
      ['post', 1, 0, 0],
    ]);

    // Once processed, nothing is pending.
    await h.start();
    expect((await h.engine.setTenantState(h.tenant, { triggerQueuePaused: false, resultQueuePaused: false })).ok).toBe(
      true,
    );
    await h.settle();
    const after = await h.engine.status(h.tenant);
    expect(after?.pipelines.map((entry) => entry.triggerEvents + entry.resultEvents + entry.managementEvents)).toEqual([
      0, 0, 0,
    ]);
    expect([
      after?.triggerEventQueue.length,
      after?.resultEventQueue.length,
      after?.managementEventQueue.length,
    ]).toEqual([0, 0, 0]);
  });
});
