import { engineScenarios } from '../../engine/scenarios';
import { gitTrigger, job, pipeline, timerTrigger } from '../../engine/scripted-layout';
import { SystemEventRepository } from '../../../src/store/repositories/system-events';

describe('engine: semaphores, promote, dequeue, supercedent, timer, retries, autohold', () => {
  const scenarios = engineScenarios();
  const { harness } = scenarios;

  it('lets one job at a time hold a semaphore across pipelines', async () => {
    const h = await harness({
      pipelines: [
        pipeline('check', 'independent', { triggers: [] }),
        pipeline('deploy', 'independent', { triggers: [] }),
      ],
      projects: [{ name: 'org/project' }],
      jobs: {
        'org/project': {
          check: [job('staging', { semaphores: [{ name: 'staging-env', resourcesFirst: false }] })],
          deploy: [job('staging', { semaphores: [{ name: 'staging-env', resourcesFirst: false }] })],
        },
      },
      semaphores: [{ name: 'staging-env', max: 1, global: false }],
    });
    h.changes.add('org/project', 1);
    await h.enqueue('check', 'org/project', '1,1');
    await h.enqueue('deploy', 'org/project', '1,1');
    expect(h.executor.started.map((build) => build.pipeline)).toEqual(['check']);
    const status = await h.engine.status(h.tenant);
    const deployJob = status?.pipelines[1].changeQueues[0].heads[0][0].jobs[0];
    expect([deployJob?.waitingStatus, deployJob?.waitingFor]).toEqual(['semaphores: staging-env', 'semaphores']);
    const holders = await scenarios.db
      .knex('semaphore_holders')
      .where({ holder_tenant: h.tenant })
      .select('semaphore', 'job_name');
    expect(holders).toEqual([{ semaphore: 'staging-env', job_name: 'staging' }]);
    await h.executor.finishAll();
    await h.settle();
    expect(h.executor.started.map((build) => build.pipeline)).toEqual(['check', 'deploy']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check SUCCESS', '1,1 deploy SUCCESS']);
    expect(await scenarios.db.knex('semaphore_holders').where({ holder_tenant: h.tenant })).toEqual([]);
  });

  it('shares a global semaphore between tenants', async () => {
    const spec = {
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: {
        'org/project': { check: [job('publish', { semaphores: [{ name: 'registry', resourcesFirst: false }] })] },
      },
      semaphores: [{ name: 'registry', max: 1, global: true }],
    };
    const first = await harness(spec);
    const second = await harness(spec);
    first.changes.add('org/project', 1);
    second.changes.add('org/project', 1);
    await first.enqueue('check', 'org/project', '1,1');
    await second.enqueue('check', 'org/project', '1,1');
    expect([first.executor.started.length, second.executor.started.length]).toEqual([1, 0]);
    await first.executor.finishAll();
    await first.settle();
    await second.settle();
    expect(second.executor.started).toHaveLength(1);
  });

  it('promotes changes to the head of a dependent queue, restarting the jobs that moved', async () => {
    const h = await harness({
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    const noop = await h.engine.promote(h.tenant, { pipeline: 'gate', changes: ['1,1', '2,1', '3,1'], by: 'admin' });
    expect(noop.ok).toBe(true);
    await h.settle();
    expect(h.executor.canceled).toEqual([]);

    const result = await h.engine.promote(h.tenant, { pipeline: 'gate', changes: ['3,1'], by: 'admin' });
    expect(result.ok).toBe(true);
    await h.settle();
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0].map((item) => item.refs[0].id)).toEqual(['3,1', '1,1', '2,1']);
    expect(h.executor.canceled).toHaveLength(3);
    expect(h.merger.prepared[h.merger.prepared.length - 1]).toEqual(['3,1', '1,1', '2,1']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['3,1 gate SUCCESS', '1,1 gate SUCCESS', '2,1 gate SUCCESS']);
    const events = await new SystemEventRepository(scenarios.db.knex).list(h.tenant, {
      types: ['promoted'],
      limit: 10,
      offset: 0,
    });
    expect(events.map((event) => event.description)).toEqual([
      '3,1 promoted in gate by admin',
      '1,1 2,1 3,1 promoted in gate by admin',
    ]);
  });

  it('validates promote, dequeue and enqueue input with typed errors', async () => {
    const h = await harness({
      pipelines: [pipeline('gate', 'dependent', { triggers: [] }), pipeline('post', 'supercedent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    expect(await h.engine.promote(h.tenant, { pipeline: 'nope', changes: ['1,1'] })).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_PIPELINE', message: 'Unknown pipeline' },
    });
    expect(await h.engine.promote(h.tenant, { pipeline: 'post', changes: ['1,1'] })).toMatchObject({
      ok: false,
      error: { code: 'WRONG_MANAGER' },
    });
    expect(await h.engine.promote(h.tenant, { pipeline: 'gate', changes: ['1,1'] })).toEqual({
      ok: false,
      error: { code: 'CHANGE_NOT_IN_PIPELINE', message: 'Change 1,1 is not in pipeline gate' },
    });
    expect(await h.engine.dequeue(h.tenant, { pipeline: 'gate', project: 'org/unknown', change: '1,1' })).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_PROJECT', message: 'Unknown project' },
    });
    expect(
      await h.engine.dequeue(h.tenant, {
        pipeline: 'gate',
        project: 'org/project',
        change: '1,1',
        ref: 'refs/heads/master',
      }),
    ).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Invalid request body' } });
    expect(await h.engine.enqueue(h.tenant, { pipeline: 'gate', project: 'org/project' })).toEqual({
      ok: false,
      error: { code: 'INVALID_INPUT', message: 'Invalid request body' },
    });
    expect(
      await h.engine.enqueue('no-such-tenant', { pipeline: 'gate', project: 'org/project', change: '1,1' }),
    ).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TENANT' } });
    expect(await h.enqueue('gate', 'org/project', '99,1')).toBe('error: unknown change');
  });

  it('dequeues an item on request, recording who did it, and re-tests the items behind', async () => {
    const h = await harness({
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    const result = await h.engine.dequeue(h.tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '1,1',
      by: 'alice',
    });
    expect(result.ok).toBe(true);
    await h.settle();
    const dequeued = await h.engine.dequeuedItems(h.tenant, { limit: 5 });
    expect(dequeued.map((item) => item.reason)).toEqual([{ kind: 'dequeued-by-admin', by: 'alice' }]);
    // 2 moved to the head; it was tested assuming 1 merges, so it restarts without it.
    expect(h.merger.prepared[h.merger.prepared.length - 1]).toEqual(['2,1']);
    const builds = await h.builds();
    expect(builds.filter((build) => build.result === 'CANCELED').length).toBe(2);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['2,1 gate SUCCESS']);
    const buildsets = await h.buildsets();
    expect(buildsets.map((buildset) => buildset.result)).toEqual(['DEQUEUED', 'DEQUEUED', 'SUCCESS']);
  });

  it('dequeues the old patchset when a new one arrives', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit')] } },
    });
    h.changes.add('org/project', 5);
    await h.patchsetCreated('org/project', 5);
    await h.settle();
    h.changes.add('org/project', 5);
    await h.patchsetCreated('org/project', 5, '2');
    await h.settle();
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues.map((queue) => queue.heads[0][0].refs[0].id)).toEqual(['5,2']);
    expect((await h.engine.dequeuedItems(h.tenant, { limit: 5 })).map((item) => item.reason)).toEqual([
      { kind: 'new-patchset', patchset: '2' },
    ]);
  });

  it('enqueues and dequeues a ref update by admin request', async () => {
    const h = await harness({
      pipelines: [pipeline('post', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { post: [job('publish')] } },
    });
    const enqueued = await h.engine.enqueue(h.tenant, {
      pipeline: 'post',
      project: 'org/project',
      ref: 'refs/heads/stable',
      oldrev: 'aaa',
      newrev: 'bbb',
      by: 'admin',
    });
    expect(enqueued.ok).toBe(true);
    await h.settle();
    expect(
      h.executor.started.map((build) => [build.changes[0].kind, build.changes[0].ref, build.changes[0].newrev]),
    ).toEqual([['branch', 'refs/heads/stable', 'bbb']]);
    // Refs skip the speculative merge.
    expect(h.merger.prepared).toEqual([]);
    // The build is running when the ref is dequeued: it ends ABORTED (docs/rest.md#enqueue-dequeue-and-promote).
    await h.engine.submitResult(h.tenant, {
      type: 'build-started',
      buildUuid: h.executor.started[0].buildUuid,
      startTime: h.clock.now().toISOString(),
    });
    await h.settle();
    const dequeued = await h.engine.dequeue(h.tenant, {
      pipeline: 'post',
      project: 'org/project',
      ref: 'refs/heads/stable',
      by: 'admin',
    });
    expect(dequeued.ok).toBe(true);
    await h.settle();
    expect((await h.builds()).map((build) => build.result)).toEqual(['ABORTED']);
    expect(h.executor.canceled).toEqual([h.executor.started[0].buildUuid]);
    expect(
      await h.engine.dequeue(h.tenant, { pipeline: 'post', project: 'org/project', ref: 'refs/heads/stable' }),
    ).toMatchObject({ ok: false, error: { code: 'CHANGE_NOT_IN_PIPELINE' } });
  });

  it('keeps only the newest item waiting per branch in a supercedent pipeline', async () => {
    const post = pipeline('post', 'supercedent', {
      triggers: [gitTrigger(['ref-updated'], { refs: [{ pattern: /^refs\/heads\//, negate: false }] })],
    });
    const h = await harness({
      pipelines: [post],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { post: [job('publish')] } },
    });
    for (const rev of ['a1', 'a2', 'a3']) {
      await h.engine.submitTrigger(h.tenant, {
        type: 'ref-updated',
        project: 'org/project',
        ref: 'refs/heads/master',
        oldrev: null,
        newrev: rev,
      });
    }
    await h.settle();
    let status = await h.engine.status(h.tenant);
    expect(
      status?.pipelines[0].changeQueues.map((queue) => [
        queue.window,
        queue.heads.flat().map((item) => [item.refs[0].id, item.active]),
      ]),
    ).toEqual([
      [
        1,
        [
          ['a1', true],
          ['a2', false],
          ['a3', false],
        ],
      ],
    ]);
    expect(h.executor.started.map((build) => build.changes[0].newrev)).toEqual(['a1']);
    await h.executor.finishAll();
    await h.settle();
    status = await h.engine.status(h.tenant);
    expect(h.executor.started.map((build) => build.changes[0].newrev)).toEqual(['a1', 'a2']);
    await h.executor.finishAll();
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['a1 post SUCCESS', 'a2 post SUCCESS', 'a3 post SUCCESS']);
  });

  it('supersedes an item in another pipeline when a pipeline says supercedes', async () => {
    const check = pipeline('check', 'independent', { triggers: [] });
    const gate = pipeline('gate', 'dependent', { triggers: [], supercedes: ['check'] });
    const h = await harness({
      pipelines: [check, gate],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit')], gate: [job('unit')] } },
    });
    h.changes.add('org/project', 1);
    await h.enqueue('check', 'org/project', '1,1');
    await h.enqueue('gate', 'org/project', '1,1');
    await h.settle();
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines.map((entry) => entry.changeQueues.length)).toEqual([0, 1]);
    expect((await h.engine.dequeuedItems(h.tenant, { limit: 5 })).map((item) => item.reason)).toEqual([
      { kind: 'superseded', by: 'gate' },
    ]);
  });

  it('fires a timer pipeline for every project in it', async () => {
    const periodic = pipeline('periodic', 'independent', {
      triggers: [timerTrigger('0 */6 * * *')],
    });
    const h = await harness({
      pipelines: [periodic],
      projects: [{ name: 'org/project' }, { name: 'org/other' }],
      jobs: { 'org/project': { periodic: [job('nightly')] }, 'org/other': {} },
    });
    await h.settle();
    expect(h.executor.started).toEqual([]);
    h.clock.advance(6 * 3600 * 1000);
    h.engine.wake(h.tenant);
    await h.settle();
    expect(h.executor.started.map((build) => [build.changes[0].project, build.changes[0].ref, build.job.name])).toEqual(
      [['git.example.com/org/project', 'refs/heads/master', 'nightly']],
    );
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['0000000 periodic SUCCESS']);
  });

  it('retries a build up to its attempts, then reports RETRY_LIMIT', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('flaky', { attempts: 2 })] } },
    });
    h.changes.add('org/project', 1);
    await h.enqueue('check', 'org/project', '1,1');
    await h.executor.finish('flaky', 1, { result: null });
    await h.settle();
    let status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0][0].jobs[0].tries).toBe(2);
    expect(h.executor.started.map((build) => build.attempt)).toEqual([1, 2]);
    await h.executor.finish('flaky', 1, { result: 'ABORTED' });
    await h.settle();
    status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues).toEqual([]);
    const builds = await h.builds();
    expect(builds.map((build) => [build.result, build.final, build.attempt])).toEqual([
      ['RETRY', false, 1],
      ['RETRY_LIMIT', true, 2],
    ]);
    expect(h.reports()).toEqual(['1,1 check FAILURE']);
  });

  it('holds failing builds matching an autohold request until its count is used up', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('integration', { nodeset: { name: 'one', labels: ['ubuntu'] } })] } },
    });
    const created = await h.engine.createAutohold(h.tenant, {
      project: 'org/project',
      job: 'integration',
      count: 1,
      reason: 'debug flake',
      nodeHoldExpiration: 3600,
      change: '7',
    });
    expect(created.ok && created.value.refFilter).toBe('refs/changes/07/7/.*');
    expect(
      await h.engine.createAutohold(h.tenant, {
        project: 'org/project',
        job: 'x',
        count: -1,
        reason: 'r',
        nodeHoldExpiration: null,
      }),
    ).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Count must be greater than 0' } });
    expect(
      await h.engine.createAutohold(h.tenant, {
        project: 'org/project',
        job: 'x',
        count: 1,
        reason: 'r',
        nodeHoldExpiration: null,
        ref: '*abc',
      }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    h.changes.add('org/project', 7);
    h.changes.add('org/project', 8);
    await h.enqueue('check', 'org/project', '8,1');
    await h.enqueue('check', 'org/project', '7,1');
    await h.executor.finish('integration', 8, { result: 'FAILURE' });
    await h.executor.finish('integration', 7, { result: 'FAILURE' });
    await h.settle();
    const requests = await h.engine.listAutoholds(h.tenant);
    expect(requests.map((request) => [request.currentCount, request.expired !== null, request.nodes.length])).toEqual([
      [1, true, 1],
    ]);
    expect(h.nodes.held.map((node) => node.label)).toEqual(['ubuntu']);
    const builds = await h.builds();
    expect(builds.map((build) => [build.held, build.result])).toEqual([
      [false, 'FAILURE'],
      [true, 'FAILURE'],
    ]);
    // Exhausted: another failure of change 7 is not held.
    h.changes.add('org/project', 7);
    await h.enqueue('check', 'org/project', '7,2');
    await h.executor.finish('integration', 7, { result: 'FAILURE' });
    await h.settle();
    expect((await h.builds()).filter((build) => build.held)).toHaveLength(1);
    const events = await new SystemEventRepository(scenarios.db.knex).list(h.tenant, {
      types: ['autohold-created', 'autohold-exhausted'],
      limit: 10,
      offset: 0,
    });
    expect(events.map((event) => event.eventType)).toEqual(['autohold-exhausted', 'autohold-created']);
    const deleted = await h.engine.deleteAutohold(h.tenant, String(Number(requests[0].id)));
    expect(deleted.ok).toBe(true);
    expect(await h.engine.getAutohold(h.tenant, requests[0].id)).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: `Hold request ${requests[0].id} not found.` },
    });
  });
});
