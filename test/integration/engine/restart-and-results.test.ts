import { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline, type LayoutSpec } from '../../engine/scripted-layout';

describe('engine: restart, merge conflicts, configuration errors and event-queue state', () => {
  const scenarios = engineScenarios();
  const { harness } = scenarios;

  const gateSpec = (): Omit<LayoutSpec, 'tenant'> => ({
    pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
    projects: [{ name: 'org/project' }],
    jobs: { 'org/project': { gate: [job('unit'), job('integration')] } },
  });

  /** Three changes, the second fails; `restartAfter` kills the engine after that many steps. */
  async function gateRun(
    h: EngineHarness,
    restart: ((h: EngineHarness) => Promise<EngineHarness>) | null,
  ): Promise<EngineHarness> {
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await h.executor.finish('unit', 2, { result: 'FAILURE' });
    await h.executor.finish('unit', 1, { result: 'SUCCESS' });
    await h.settle();
    let current = h;
    if (restart) {
      current = await restart(h);
    }
    for (let round = 0; round < 4; round += 1) {
      await current.executor.finishAll();
      await current.settle();
    }
    return current;
  }

  it('resumes a gate run after a restart with the same results as an uninterrupted run', async () => {
    const uninterrupted = await harness(gateSpec());
    await gateRun(uninterrupted, null);

    const first = await harness(gateSpec());
    const resumed = await gateRun(first, async (h) => {
      // A new process: same store and git state, a fresh executor that lost every running build.
      const next = await scenarios.restart(h, { keepExecutor: false });
      // Builds without a result were submitted again; the lost ones run anew.
      expect(next.executor.started.length).toBeGreaterThan(0);
      return next;
    });
    const summary = async (h: EngineHarness) =>
      (await h.buildsets()).map((buildset) => `${buildset.pipeline}:${buildset.result}`);
    expect(await summary(resumed)).toEqual(await summary(uninterrupted));
    expect(resumed.merger.mergedOrder).toEqual([1, 3]);
    expect(uninterrupted.merger.mergedOrder).toEqual([1, 3]);
    const finalBuilds = async (h: EngineHarness) =>
      (await h.builds())
        .filter((build) => build.final)
        .map((build) => `${build.jobName}:${build.result}`)
        .sort();
    expect(await finalBuilds(resumed)).toEqual(await finalBuilds(uninterrupted));
    expect(
      (await resumed.engine.status(resumed.tenant))?.pipelines[0].changeQueues.map((queue) => queue.heads),
    ).toEqual([[]]);
  });

  it('a stop during a tenant start leaves no scheduler behind (its leadership is free again)', async () => {
    const first = await harness(gateSpec());
    await first.stop();
    // A reconfiguration starting the tenant races the shutdown.
    const racing = new EngineHarness(scenarios.db, first.layout);
    const starting = racing.engine.startTenant(racing.tenant);
    await racing.stop();
    expect(await starting).toBe(false);
    // Nothing of the racing engine holds the tenant: a new process leads it.
    const next = new EngineHarness(scenarios.db, first.layout);
    expect(await next.engine.startTenant(next.tenant)).toBe(true);
    await next.stop();
  });

  it('reports MERGE_CONFLICT, CONFIG_ERROR and NO_JOBS without running jobs', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [] })],
      projects: [{ name: 'org/project' }, { name: 'org/broken' }, { name: 'org/nojobs' }],
      jobs: {
        'org/project': { check: [job('unit')] },
        'org/broken': { check: { error: 'Job unit depends on build which was not run.' } },
        'org/nojobs': {},
      },
    });
    h.changes.add('org/project', 1);
    h.changes.add('org/broken', 2);
    h.changes.add('org/nojobs', 3);
    h.merger.conflicts.add(1);
    await h.enqueue('check', 'org/project', '1,1');
    await h.enqueue('check', 'org/broken', '2,1');
    await h.enqueue('check', 'org/nojobs', '3,1');
    expect(h.executor.started).toEqual([]);
    expect(h.reports()).toEqual(['1,1 check MERGE_CONFLICT', '2,1 check CONFIG_ERROR', '3,1 check NO_JOBS']);
    const buildsets = await h.buildsets();
    expect(buildsets.map((buildset) => [buildset.result, buildset.message])).toEqual([
      ['MERGE_CONFLICT', 'Merge Failed.'],
      ['CONFIG_ERROR', 'Unable to freeze job graph: Job unit depends on build which was not run.'],
    ]);
  });

  it('reports MERGE_FAILURE when the change cannot be merged and re-tests the items behind', async () => {
    const h = await harness(gateSpec());
    h.merger.refuseMerge.add(1);
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate MERGE_FAILURE']);
    expect(h.merger.prepared[h.merger.prepared.length - 1]).toEqual(['2,1']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate MERGE_FAILURE', '2,1 gate SUCCESS']);
  });

  it('cancels the other jobs on the first failure with fail-fast', async () => {
    const h = await harness({ ...gateSpec(), failFast: true });
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    await h.executor.finish('unit', 1, { result: 'FAILURE' });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE']);
    const builds = await h.builds();
    expect(builds.map((build) => `${build.jobName}:${build.result}`)).toEqual(['unit:FAILURE', 'integration:CANCELED']);
  });

  it('disables a pipeline after consecutive failures', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [], disableAfterConsecutiveFailures: 2 })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit')] } },
    });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('check', 'org/project', `${number},1`);
      await h.executor.finishAll({ result: 'FAILURE' });
      await h.settle();
    }
    let status = await h.engine.status(h.tenant);
    expect([status?.pipelines[0].disabled, status?.pipelines[0].consecutiveFailures]).toEqual([true, 2]);
    // A new layout re-enables it.
    h.layout = { ...h.layout, uuid: 'layout-2' };
    await h.engine.reconfigure(h.tenant);
    await h.settle();
    status = await h.engine.status(h.tenant);
    expect([status?.pipelines[0].disabled, status?.pipelines[0].consecutiveFailures]).toEqual([false, 0]);
  });

  it('pauses and discards trigger events and pauses result events by tenant state', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent')],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit')] } },
    });
    const paused = await h.engine.setTenantState(h.tenant, { triggerQueuePaused: true, reason: 'maintenance' });
    expect(paused).toEqual({
      ok: true,
      value: {
        triggerQueueDiscarding: false,
        triggerQueuePaused: true,
        resultQueuePaused: false,
        reason: 'maintenance',
      },
    });
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    let status = await h.engine.status(h.tenant);
    expect([status?.triggerEventQueue.length, status?.state.reason, h.executor.started.length]).toEqual([
      1,
      'maintenance',
      0,
    ]);

    await h.engine.setTenantState(h.tenant, { triggerQueuePaused: false, resultQueuePaused: true });
    await h.settle();
    expect(h.executor.started).toHaveLength(1);
    await h.executor.finishAll();
    await h.settle();
    status = await h.engine.status(h.tenant);
    expect([status?.resultEventQueue.length, status?.state.reason]).toEqual([2, null]);
    expect(h.reports()).toEqual([]);

    await h.engine.setTenantState(h.tenant, { resultQueuePaused: false, triggerQueueDiscarding: true });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check SUCCESS']);
    h.changes.add('org/project', 2);
    await h.patchsetCreated('org/project', 2);
    await h.settle();
    status = await h.engine.status(h.tenant);
    expect([status?.triggerEventQueue.length, h.executor.started.length]).toEqual([0, 1]);
  });
});
