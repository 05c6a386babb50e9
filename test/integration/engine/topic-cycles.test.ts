/**
 * `dependencies-by-topic` (docs/gating.md#dependency-cycles) with the real engine and store and
 * the scripted change source, merger and executor: open changes sharing a topic depend on each
 * other, as in the reference, so in a queue that allows cycles they enter as one item, are tested
 * together and merge together; without the option the topic means nothing. A change that joins
 * or leaves the topic after the item entered makes the item leave and its changes enter again.
 */
import { backends } from '../../helpers/database';
import type { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline, type LayoutSpec } from '../../engine/scripted-layout';

describe.each(backends())('engine: dependencies by topic (%s)', (backend) => {
  const { harness } = engineScenarios(backend);

  const spec = (byTopic: boolean): Omit<LayoutSpec, 'tenant'> => ({
    pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
    projects: ['org/server', 'org/client', 'org/other'].map((name) => ({
      name,
      queue: 'integrated',
      allowCycles: true,
      byTopic,
    })),
    jobs: Object.fromEntries(
      ['org/server', 'org/client', 'org/other'].map((project) => [project, { gate: [job('unit')] }]),
    ),
  });

  /** Server 1 and client 2 share the topic `feature`; other 3 has a topic of its own. */
  function addChanges(h: EngineHarness): void {
    h.changes.add('org/server', 1, { topic: 'feature' });
    h.changes.add('org/client', 2, { topic: 'feature' });
    h.changes.add('org/other', 3, { topic: 'unrelated' });
  }

  const items = async (h: EngineHarness) =>
    (await h.engine.status(h.tenant))?.pipelines[0].changeQueues.flatMap((queue) =>
      queue.heads.flat().map((item) => item.refs.map((ref) => ref.id).join(' ')),
    );

  it('enqueues changes sharing a topic as one item, tests them together and merges both', async () => {
    const h = await harness(spec(true));
    addChanges(h);
    expect(await h.enqueue('gate', 'org/client', '2,1')).toBe('ok');
    expect(await items(h)).toEqual(['2,1 1,1']);
    expect(h.merger.prepared).toEqual([['2,1', '1,1']]);
    // Enqueuing the other member later adds nothing; a change of another topic is its own item.
    await h.enqueue('gate', 'org/server', '1,1');
    await h.enqueue('gate', 'org/other', '3,1');
    expect(await items(h)).toEqual(['2,1 1,1', '3,1']);
    await h.executor.finishAll();
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['2,1 1,1 gate SUCCESS', '3,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([2, 1, 3]);
  });

  it('leaves a merged change of the topic out of the cycle', async () => {
    const h = await harness(spec(true));
    addChanges(h);
    h.changes.add('org/other', 4, { topic: 'feature' });
    h.changes.markMerged('org/other', 4);
    await h.enqueue('gate', 'org/server', '1,1');
    expect(await items(h)).toEqual(['1,1 2,1']);
  });

  it('ignores topics where the queue does not say dependencies-by-topic', async () => {
    const h = await harness(spec(false));
    addChanges(h);
    await h.enqueue('gate', 'org/client', '2,1');
    await h.enqueue('gate', 'org/server', '1,1');
    expect(await items(h)).toEqual(['2,1', '1,1']);
  });

  it('takes a change that joins the topic into the item, and lets go of one that leaves it', async () => {
    const h = await harness(spec(true));
    addChanges(h);
    await h.enqueue('gate', 'org/client', '2,1');
    expect(await items(h)).toEqual(['2,1 1,1']);
    // Change 4 is uploaded into the topic: the gate does not take it by itself (no trigger), but
    // the cycle of the item changed, so the item leaves and its changes enter again with it.
    h.changes.add('org/other', 4, { topic: 'feature' });
    await h.patchsetCreated('org/other', 4);
    await h.settle();
    expect(await items(h)).toEqual(['2,1 1,1 4,1']);
    const reasons = async () => (await h.engine.dequeuedItems(h.tenant, { limit: 10 })).map((item) => item.reason);
    expect(await reasons()).toContainEqual({
      kind: 'cycle-changed',
      message: expect.stringContaining(
        'was 2,1 of git.example.com/org/client, 1,1 of git.example.com/org/server',
      ) as unknown,
    });
    // Change 4 moves to another topic: the item enters again without it, and it enters alone.
    h.changes.setTopic('org/other', 4, 'elsewhere');
    await h.trigger({ type: 'topic-changed', project: 'git.example.com/org/other', change: 4, patchset: '1' });
    expect(await items(h)).toEqual(['2,1 1,1', '4,1']);
    await h.executor.finishAll();
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['2,1 1,1 gate SUCCESS', '4,1 gate SUCCESS']);
  });

  it('keeps the item when a member merged elsewhere (the reference counts it as still there)', async () => {
    const h = await harness(spec(true));
    addChanges(h);
    await h.enqueue('gate', 'org/client', '2,1');
    h.changes.markMerged('org/server', 1);
    await h.patchsetCreated('org/client', 2, '1');
    await h.settle();
    expect(await items(h)).toEqual(['2,1 1,1']);
    expect((await h.engine.dequeuedItems(h.tenant, { limit: 10 })).map((item) => item.reason?.kind)).toEqual([]);
  });
});
