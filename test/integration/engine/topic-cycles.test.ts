/**
 * `dependencies-by-topic` (docs/gating.md#dependency-cycles) with the real engine and store and
 * the scripted change source, merger and executor: open changes sharing a topic depend on each
 * other, as in the reference, so in a queue that allows cycles they enter as one item, are tested
 * together and merge together; without the option the topic means nothing.
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
});
