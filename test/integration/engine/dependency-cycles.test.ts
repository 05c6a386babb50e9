/**
 * Dependency cycles (docs/gating.md#dependency-cycles) with the real engine and store and the
 * scripted merger and executor: a cycle whose queue allows it enters as one item holding all
 * its changes, is tested on one state holding them all, reports once and merges all or none;
 * jobs the same across the cycle run once (`deduplicate`).
 */
import { backends } from '../../helpers/database';
import type { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { canonical, job, pipeline, type FrozenJobSpec, type LayoutSpec } from '../../engine/scripted-layout';
import type { EngineJob } from '../../../src/model/pipeline-state';

type Jobs = (project: string) => EngineJob[];

const unitPerProject: Jobs = (project) => [job(`${project.split('/')[1]}-unit`), job('lint')];

describe.each(backends())('engine: dependency cycles (%s)', (backend) => {
  const { harness } = engineScenarios(backend);

  const spec = (jobs: Jobs = unitPerProject, allowCycles = true): Omit<LayoutSpec, 'tenant'> => ({
    pipelines: [
      pipeline('gate', 'dependent', { triggers: [], submit: true }),
      pipeline('check', 'independent', { triggers: [] }),
    ],
    projects: [
      { name: 'org/server', queue: 'integrated', allowCycles },
      { name: 'org/client', queue: 'integrated', allowCycles },
      { name: 'org/other', queue: 'integrated', allowCycles },
    ],
    jobs: Object.fromEntries(
      ['org/server', 'org/client', 'org/other'].map((project) => [
        project,
        { gate: jobs(project), check: jobs(project) },
      ]),
    ),
  });

  /** Server 1 and client 2 name each other in Depends-On. */
  function addCycle(h: EngineHarness): void {
    h.changes.add('org/server', 1, { dependsOn: [{ project: 'org/client', number: 2 }] });
    h.changes.add('org/client', 2, { dependsOn: [{ project: 'org/server', number: 1 }] });
  }

  /** `<job> <change number the build is for> <numbers of the changes in its state>` of each started build. */
  const started = (h: EngineHarness) =>
    h.executor.started
      .map(
        (build) =>
          `${build.job.name} ${build.changes[0].number} [${build.mergeItems.map((item) => item.number).join(' ')}]`,
      )
      .sort();

  it('gates a two-change cycle as one item tested on both and merges both', async () => {
    const h = await harness(spec());
    addCycle(h);
    expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
    expect(h.merger.prepared).toEqual([['1,1', '2,1']]);
    // Each member's jobs run for it, every build on the state holding both changes.
    expect(started(h)).toEqual(['client-unit 2 [1 2]', 'lint 1 [1 2]', 'lint 2 [1 2]', 'server-unit 1 [1 2]']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 2,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([1, 2]);
    const buildsets = await h.buildsets();
    expect(buildsets.map((buildset) => buildset.result)).toEqual(['SUCCESS']);
    const refs: Array<{ change: number }> = await h.database
      .knex('buildset_refs')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where({ buildset_id: buildsets[0].id })
      .orderBy('refs.change')
      .select('refs.change');
    expect(refs.map((ref) => Number(ref.change))).toEqual([1, 2]);
    // Each build is recorded against the change it ran for.
    const builds: Array<{ job_name: string; change: number }> = await h.database
      .knex('builds')
      .join('refs', 'refs.id', 'builds.ref_id')
      .where({ buildset_id: buildsets[0].id })
      .orderBy(['job_name', 'refs.change'])
      .select('builds.job_name', 'refs.change');
    expect(builds.map((build) => `${build.job_name} ${Number(build.change)}`)).toEqual([
      'client-unit 2',
      'lint 1',
      'lint 2',
      'server-unit 1',
    ]);
    expect(h.errors).toEqual([]);
  });

  it('enqueuing the other member of a cycle already in the gate adds nothing', async () => {
    const h = await harness(spec());
    addCycle(h);
    expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
    expect(await h.enqueue('gate', 'org/client', '2,1')).toBe('ok');
    expect(h.merger.prepared).toEqual([['1,1', '2,1']]);
  });

  it('merges neither change when a job of one fails, and says the cycle failed', async () => {
    const h = await harness(spec());
    addCycle(h);
    expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
    await h.executor.finish('client-unit', 2, { result: 'FAILURE' });
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 2,1 gate FAILURE']);
    expect(h.merger.mergedOrder).toEqual([]);
    const [buildset] = await h.buildsets();
    expect(buildset.message).toContain('This change is part of a dependency cycle that failed.');
    expect(buildset.message).toContain('Related changes:');
  });

  it('merges none when the source says beforehand that one would not merge', async () => {
    const h = await harness(spec());
    addCycle(h);
    h.merger.refuseMerge.add(2);
    expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 2,1 gate MERGE_FAILURE']);
    expect(h.merger.mergedOrder).toEqual([]);
    const [buildset] = await h.buildsets();
    expect(buildset.message).toContain(
      `Change 2 of ${canonical('org/client')} can not be merged: refused (none of the changes was merged)`,
    );
  });

  it('names the changes merged before a refusal nobody could foresee', async () => {
    const h = await harness(spec());
    addCycle(h);
    h.merger.refuseUnforeseen.add(2);
    expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 2,1 gate MERGE_FAILURE']);
    expect(h.merger.mergedOrder).toEqual([1]);
    const [buildset] = await h.buildsets();
    expect(buildset.message).toContain(`merged before the refusal: 1 of ${canonical('org/server')}; 1 not merged`);
  });

  it('puts the changes a cycle member depends on ahead of the cycle', async () => {
    const h = await harness(spec());
    h.changes.add('org/other', 5);
    h.changes.add('org/server', 1, {
      dependsOn: [
        { project: 'org/client', number: 2 },
        { project: 'org/other', number: 5 },
      ],
    });
    h.changes.add('org/client', 2, { dependsOn: [{ project: 'org/server', number: 1 }] });
    expect(await h.enqueue('gate', 'org/client', '2,1')).toBe('ok');
    expect(h.merger.prepared).toEqual([['5,1'], ['5,1', '2,1', '1,1']]);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['5,1 gate SUCCESS', '2,1 1,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([5, 2, 1]);
  });

  it('reports a cycle in check once, tested on both changes', async () => {
    const h = await harness(spec());
    addCycle(h);
    expect(await h.enqueue('check', 'org/client', '2,1')).toBe('ok');
    expect(started(h)).toEqual(['client-unit 2 [2 1]', 'lint 1 [2 1]', 'lint 2 [2 1]', 'server-unit 1 [2 1]']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['2,1 1,1 check SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([]);
  });

  it('enqueues the other members again when one member gets a new patchset, as they are now', async () => {
    const h = await harness(spec());
    addCycle(h);
    expect(await h.enqueue('check', 'org/server', '1,1')).toBe('ok');
    // Server 1's second patchset no longer depends on client 2: no cycle any more.
    h.changes.add('org/server', 1);
    await h.patchsetCreated('org/server', 1, '2');
    await h.settle();
    const status = await h.engine.status(h.tenant);
    const refs = status?.pipelines
      .find((candidate) => candidate.name === 'check')
      ?.changeQueues.flatMap((queue) =>
        queue.heads.flat().map((item) => `${item.refs.map((ref) => ref.id).join(' ')} ${item.live}`),
      );
    // Client 2 is back, behind the new patchset it needs (not live: the check trigger did not take it).
    expect(refs?.sort()).toEqual(['1,2 false', '2,1 true']);
    expect((await h.engine.dequeuedItems(h.tenant, { limit: 5 })).map((item) => item.reason)).toContainEqual({
      kind: 'new-patchset',
      patchset: '2',
    });
  });

  it('finds no cycle for an outdated patchset the current patchset of its dependency no longer names', async () => {
    const h = await harness(spec());
    addCycle(h);
    // Server 1's second patchset no longer depends on client 2: patchset 1 is in no cycle, as in
    // the reference (a change enqueued by an event judged after the new patchset was uploaded).
    h.changes.add('org/server', 1);
    expect(await h.enqueue('check', 'org/server', '1,1')).toBe('ok');
    const status = await h.engine.status(h.tenant);
    const items = status?.pipelines
      .find((candidate) => candidate.name === 'check')
      ?.changeQueues.flatMap((queue) =>
        queue.heads.flat().map((item) => `${item.refs.map((ref) => ref.id).join(' ')} ${item.live}`),
      );
    // Client 2 (and the patchset it needs) ahead, not live; patchset 1 alone in its item.
    expect(items).toContain('1,1 true');
    expect(items?.filter((item) => item.includes(' 2,1') || item.startsWith('2,1 '))).toEqual(['2,1 false']);
    await h.executor.finishAll();
  });

  it('refuses the cycle when a queue does not allow it', async () => {
    const h = await harness(spec(unitPerProject, false));
    addCycle(h);
    expect(await h.enqueue('check', 'org/server', '1,1')).toBe(
      `error: Dependency cycle detected and project org/server doesn't allow circular dependencies (cycle: 1,1 of ${canonical('org/server')}, 2,1 of ${canonical('org/client')})`,
    );
    expect(h.executor.started).toEqual([]);
  });

  describe('deduplication', () => {
    const shared =
      (overrides: Partial<EngineJob>, params: FrozenJobSpec = {}): Jobs =>
      () => [job('integration', { ...overrides, params })];

    it('runs a job marked deduplicate once for both changes, and its result counts for both', async () => {
      const h = await harness(spec(shared({ deduplicate: true })));
      addCycle(h);
      expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
      expect(started(h)).toEqual(['integration 1 [1 2]']);
      await h.executor.finishAll({ result: 'FAILURE' });
      await h.settle();
      expect(h.reports()).toEqual(['1,1 2,1 gate FAILURE']);
      expect(h.merger.mergedOrder).toEqual([]);
    });

    it('with auto, runs once a job that names required projects', async () => {
      const h = await harness(
        spec(shared({}, { requiredProjects: [{ projectCanonicalName: canonical('org/server') }] })),
      );
      addCycle(h);
      expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
      expect(started(h)).toEqual(['integration 1 [1 2]']);
      await h.executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['1,1 2,1 gate SUCCESS']);
      expect(h.merger.mergedOrder).toEqual([1, 2]);
    });

    it('with auto and no required projects, and with deduplicate false, runs the job for each change', async () => {
      for (const overrides of [{}, { deduplicate: false }] as Array<Partial<EngineJob>>) {
        const h = await harness(spec(shared(overrides)));
        addCycle(h);
        expect(await h.enqueue('gate', 'org/server', '1,1')).toBe('ok');
        expect(started(h)).toEqual(['integration 1 [1 2]', 'integration 2 [1 2]']);
        await h.executor.finish('integration', 2, { result: 'FAILURE' });
        await h.executor.finishAll();
        await h.settle();
        expect(h.reports()).toEqual(['1,1 2,1 gate FAILURE']);
      }
    });
  });
});
