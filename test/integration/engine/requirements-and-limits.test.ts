import { backends } from '../../helpers/database';
import { type EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { canonical, gitTrigger, job, makeLayout, pipeline, type LayoutSpec } from '../../engine/scripted-layout';

const PROJECT = canonical('org/project');

describe.each(backends())('engine: pipeline requirements and limits (%s)', (backend) => {
  const scenarios = engineScenarios(backend);
  const { harness } = scenarios;

  describe('require / reject', () => {
    const gateSpec = (overrides: Parameters<typeof pipeline>[2] = {}): Omit<LayoutSpec, 'tenant'> => ({
      pipelines: [
        pipeline('gate', 'dependent', {
          triggers: [gitTrigger(['patchset-created'])],
          submit: true,
          require: [{ connection: 'git', open: true, currentPatchset: true }],
          ...overrides,
        }),
      ],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });

    it('refuses a triggered change that is not the current patchset and says why in the event outcome', async () => {
      const h = await harness(gateSpec());
      h.changes.add('org/project', 1);
      h.changes.add('org/project', 1);
      expect(await h.trigger({ type: 'patchset-created', project: PROJECT, change: 1, patchset: '1' })).toBe(
        `entered 0; refused by gate: Change 1,1 of ${PROJECT} does not meet the requirements of pipeline gate: it is not the current patchset (require current-patchset: true)`,
      );
      expect(h.executor.started).toEqual([]);
      expect(await h.trigger({ type: 'patchset-created', project: PROJECT, change: 1, patchset: '2' })).toBe(
        'entered 1',
      );
      expect(h.executor.started.map((build) => build.changes[0].patchset)).toEqual(['2']);
    });

    it('refuses a change matching a reject entry', async () => {
      const h = await harness(gateSpec({ require: [], reject: [{ connection: 'git', currentPatchset: false }] }));
      h.changes.add('org/project', 1);
      h.changes.add('org/project', 1);
      expect(await h.trigger({ type: 'patchset-created', project: PROJECT, change: 1, patchset: '1' })).toMatch(
        /^entered 0; refused by gate: Change 1,1 of .* is rejected by pipeline gate: it is not the current patchset \(reject current-patchset: false\)$/,
      );
    });

    it('lets an admin enqueue ignore the requirements, and does not re-check them before merging', async () => {
      const h = await harness(gateSpec({ dequeueOnNewPatchset: false }));
      h.changes.add('org/project', 1);
      h.changes.add('org/project', 1);
      expect(await h.enqueue('gate', 'org/project', '1,1')).toBe('ok');
      await h.executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['1,1 gate SUCCESS']);
      expect(h.merger.mergedOrder).toEqual([1]);
    });

    it('re-checks the requirements before merging: a change that moved on is reported failed, dequeued with its reason, and the items behind are retested', async () => {
      const h = await harness(gateSpec({ dequeueOnNewPatchset: false }));
      h.changes.add('org/project', 1);
      h.changes.add('org/project', 2);
      expect(await h.trigger({ type: 'patchset-created', project: PROJECT, change: 1, patchset: '1' })).toBe(
        'entered 1',
      );
      expect(await h.trigger({ type: 'patchset-created', project: PROJECT, change: 2, patchset: '1' })).toBe(
        'entered 1',
      );
      expect(h.merger.prepared).toEqual([['1,1'], ['1,1', '2,1']]);
      // A new patchset appears while 1,1 is being tested (no event: the gate does not dequeue on it anyway).
      h.changes.add('org/project', 1);
      await h.executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['1,1 gate FAILURE']);
      const [dequeued] = await h.engine.dequeuedItems(h.tenant, { limit: 10 });
      const reason = `Change 1,1 of ${PROJECT} does not meet the requirements of pipeline gate: it is not the current patchset (require current-patchset: true)`;
      expect(dequeued.reason).toEqual({ kind: 'requirements-not-met', message: reason });
      const buildsets = await h.buildsets();
      // 1,1 FAILURE; the first buildset of 2,1 closed by its reset, its new one running.
      expect(buildsets.map((buildset) => buildset.result)).toEqual(['FAILURE', 'DEQUEUED', null]);
      expect(buildsets[0].message).toBe(
        `This change is unable to merge due to a missing merge requirement.\n\n${reason}`,
      );
      // 2,1 was tested with 1,1 under it: it is retested alone and merges.
      expect(h.merger.prepared[h.merger.prepared.length - 1]).toEqual(['2,1']);
      await h.executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
      expect(h.merger.mergedOrder).toEqual([2]);
    });
  });

  describe('allow-other-connections', () => {
    const MIRROR = canonical('org/mirror');
    const spec = (): Omit<LayoutSpec, 'tenant'> => ({
      pipelines: [
        pipeline('gate', 'dependent', {
          triggers: [gitTrigger(['patchset-created'])],
          submit: true,
          allowOtherConnections: false,
        }),
        pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] }),
      ],
      projects: [
        { name: 'org/project', queue: 'shared' },
        { name: 'org/mirror', queue: 'shared', connection: 'mirror' },
      ],
      jobs: {
        'org/project': { gate: [job('unit')], check: [job('unit')] },
        'org/mirror': { gate: [job('unit')], check: [job('unit')] },
      },
    });

    it('refuses changes of another connection, also as a dependency and from an admin, when false', async () => {
      const h = await harness(spec());
      h.changes.add('org/mirror', 5);
      h.changes.add('org/project', 1, { dependsOn: [{ project: 'org/mirror', number: 5 }] });
      const refusal = `Change 5,1 of ${MIRROR} is from connection mirror, which pipeline gate does not use (allow-other-connections: false)`;
      expect(await h.enqueue('gate', 'org/mirror', '5,1')).toBe(`error: ${refusal}`);
      // The dependency keeps 1,1 out of the gate; check (allow-other-connections: true) takes it with 5,1 ahead.
      expect(await h.trigger({ type: 'patchset-created', project: PROJECT, change: 1, patchset: '1' })).toBe(
        `entered 1; refused by gate: ${refusal}`,
      );
      const status = await h.engine.status(h.tenant);
      expect(
        status?.pipelines.map((entry) => [
          entry.name,
          entry.changeQueues.flatMap((queue) => queue.heads.flat().map((item) => item.refs[0].id)),
        ]),
      ).toEqual([
        ['gate', []],
        ['check', ['5,1', '1,1']],
      ]);
      expect(await h.enqueue('check', 'org/mirror', '5,1')).toBe('ok');
    });

    it('lets only the connection of a git trigger see its events', async () => {
      const h = await harness(spec());
      h.changes.add('org/mirror', 5);
      expect(await h.trigger({ type: 'patchset-created', project: MIRROR, change: 5, patchset: '1' })).toBe(
        'entered 0',
      );
    });
  });

  describe('tenant limits', () => {
    it('refuses an enqueue past max-changes-per-pipeline with a reported reason, counting the dependencies it would bring', async () => {
      const h = await harness({
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { gate: [job('unit')] } },
        limits: { maxChangesPerPipeline: 2 },
      });
      for (const number of [1, 2, 3, 4]) {
        h.changes.add('org/project', number);
      }
      h.changes.add('org/project', 5, { dependsOn: [{ project: 'org/project', number: 4 }] });
      expect(await h.enqueue('gate', 'org/project', '1,1')).toBe('ok');
      expect(await h.enqueue('gate', 'org/project', '2,1')).toBe('ok');
      const refusal =
        'Unable to enqueue change: pipeline gate would hold more than 2 changes (tenant max-changes-per-pipeline is 2)';
      expect(await h.enqueue('gate', 'org/project', '3,1')).toBe(`error: ${refusal}`);
      const buildsets = await h.buildsets();
      expect(buildsets.map((buildset) => buildset.result)).toEqual([null, null, 'FAILURE']);
      expect(buildsets[2].message).toBe(`Build failed.\n\nWarning:\n  ${refusal}`);
      // 1 merges and leaves: one change fits again, but not 5 with its dependency 4.
      await h.executor.finish('unit', 1, { result: 'SUCCESS' });
      await h.settle();
      expect(await h.enqueue('gate', 'org/project', '5,1')).toBe(`error: ${refusal}`);
      expect(await h.enqueue('gate', 'org/project', '3,1')).toBe('ok');
      const status = await h.engine.status(h.tenant);
      expect(status?.pipelines[0].changeQueues[0].heads.flat().map((item) => item.refs[0].id)).toEqual(['2,1', '3,1']);
    });

    it('refuses a change with too many dependencies, and dequeues one when a new layout lowers max-dependencies', async () => {
      const spec = (maxDependencies: number): Omit<LayoutSpec, 'tenant'> => ({
        pipelines: [pipeline('check', 'independent', { triggers: [] })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('unit')] } },
        limits: { maxDependencies },
      });
      const h = await harness(spec(1));
      h.changes.add('org/project', 1);
      h.changes.add('org/project', 2, { dependsOn: [{ project: 'org/project', number: 1 }] });
      h.changes.add('org/project', 3, { dependsOn: [{ project: 'org/project', number: 2 }] });
      expect(await h.enqueue('check', 'org/project', '3,1')).toBe(
        `error: Change 3,1 of ${PROJECT} depends on more than 1 changes (tenant max-dependencies is 1)`,
      );
      expect(await h.enqueue('check', 'org/project', '2,1')).toBe('ok');
      let status = await h.engine.status(h.tenant);
      expect(status?.pipelines[0].changeQueues[0].heads[0].map((item) => [item.refs[0].id, item.live])).toEqual([
        ['1,1', false],
        ['2,1', true],
      ]);

      h.layout = makeLayout({ ...spec(0), tenant: h.tenant }, 'layout-2');
      await h.engine.reconfigure(h.tenant);
      await h.settle();
      status = await h.engine.status(h.tenant);
      expect(status?.pipelines[0].changeQueues).toEqual([]);
      const dequeued = await h.engine.dequeuedItems(h.tenant, { limit: 10 });
      // Both left in the same pass (same dequeue time): compare in a fixed order.
      expect(
        dequeued.map((entry) => entry.reason).sort((a, b) => (a?.kind ?? '').localeCompare(b?.kind ?? '')),
      ).toEqual([
        { kind: 'non-live-no-items-behind' },
        {
          kind: 'too-many-dependencies',
          message: `Change 2,1 of ${PROJECT} depends on more than 0 changes (tenant max-dependencies is 0)`,
        },
      ]);
      expect(h.executor.canceled).toHaveLength(1);
    });
  });

  describe('changes behind and cycles', () => {
    const spec = (allowCycles = false): Omit<LayoutSpec, 'tenant'> => ({
      pipelines: [
        pipeline('gate', 'dependent', { triggers: [], submit: true }),
        pipeline('check', 'independent', { triggers: [] }),
      ],
      projects: [
        { name: 'org/server', queue: 'integrated', allowCycles },
        { name: 'org/client', queue: 'integrated', allowCycles },
        { name: 'org/other' },
      ],
      jobs: {
        'org/server': { gate: [job('unit')], check: [job('unit')] },
        'org/client': { gate: [job('unit')], check: [job('unit')] },
        'org/other': { gate: [job('unit')], check: [job('unit')] },
      },
    });
    const heads = async (h: EngineHarness, name: string) =>
      (await h.engine.status(h.tenant))?.pipelines
        .find((entry) => entry.name === name)
        ?.changeQueues.map((queue) =>
          queue.heads.flat().map((item) => `${item.refs[0].id}${item.live ? '' : ' (non-live)'}`),
        );

    it('enqueues the open changes that depend on a change entering a dependent pipeline right behind it, in projects sharing its queue', async () => {
      const h = await harness(spec());
      h.changes.add('org/server', 10);
      h.changes.add('org/client', 20, { dependsOn: [{ project: 'org/server', number: 10 }] });
      h.changes.add('org/client', 21, { dependsOn: [{ project: 'org/client', number: 20 }] });
      h.changes.add('org/other', 30, { dependsOn: [{ project: 'org/server', number: 10 }] });
      h.changes.add('org/server', 11, { dependsOn: [{ project: 'org/server', number: 10 }] });
      h.changes.markMerged('org/server', 11);
      expect(await h.enqueue('gate', 'org/server', '10,1')).toBe('ok');
      // 20 follows 10, 21 follows 20; 30 is in a queue of its own project, 11 is merged already.
      expect(await heads(h, 'gate')).toEqual([['10,1', '20,1', '21,1']]);
      expect(h.merger.prepared).toEqual([['10,1'], ['10,1', '20,1'], ['10,1', '20,1', '21,1']]);
      await h.executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['10,1 gate SUCCESS', '20,1 gate SUCCESS', '21,1 gate SUCCESS']);
      expect(h.merger.mergedOrder).toEqual([10, 20, 21]);
    });

    it('does not enqueue dependent changes behind in an independent pipeline', async () => {
      const h = await harness(spec());
      h.changes.add('org/server', 10);
      h.changes.add('org/client', 20, { dependsOn: [{ project: 'org/server', number: 10 }] });
      expect(await h.enqueue('check', 'org/server', '10,1')).toBe('ok');
      expect(await heads(h, 'check')).toEqual([['10,1']]);
    });

    it("refuses a dependency cycle with the reference's message, reported as a non-enqueued change", async () => {
      const h = await harness(spec());
      h.changes.add('org/server', 1, { dependsOn: [{ project: 'org/client', number: 2 }] });
      h.changes.add('org/client', 2, { dependsOn: [{ project: 'org/server', number: 1 }] });
      const reason = `Dependency cycle detected and project org/server doesn't allow circular dependencies (cycle: 1,1 of ${canonical('org/server')}, 2,1 of ${canonical('org/client')})`;
      expect(await h.enqueue('gate', 'org/server', '1,1')).toBe(`error: ${reason}`);
      expect(await heads(h, 'gate')).toEqual([]);
      const buildsets = await h.buildsets();
      expect(buildsets.map((buildset) => [buildset.result, buildset.message])).toEqual([
        ['FAILURE', `Build failed.\n\nWarning:\n  ${reason}`],
      ]);
      expect(h.executor.started).toEqual([]);
    });
  });
});
