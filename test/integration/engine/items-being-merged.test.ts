/**
 * Items being merged (docs/gating.md#items-being-merged): once a successful item's merge into its
 * branch is stored as engine work, it cannot be called back, so nothing may move, reset or
 * dequeue the item before that merge's outcome comes back. Each test holds the merge while a
 * promote, an admin dequeue or a new patchset arrives, then lets it go: the change must be merged
 * exactly once, reported once, and the item promoted behind it tested on a state holding it.
 * Before, a promote reset the merging head (its outcome then ignored as stale), so the change was
 * tested again on top of the promoted one and merged a second time (a CI run of gate-resets,
 * seed 11).
 */
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { BlockingMerger } from '../../engine/scripted-gateways';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

jest.setTimeout(60_000);

describe('engine: an item whose branch merge is out', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let merger: BlockingMerger;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    const changes = new FakeChanges();
    merger = new BlockingMerger(changes);
    const tenant = nextTenant();
    const layout = makeLayout({
      tenant,
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    h = new EngineHarness(db, layout, { clock: new FakeClock(), changes, merger });
    await h.start();
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
  });

  afterEach(async () => {
    merger.open();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  /** Change 1 at the head succeeds; its merge is held once the runner makes it. */
  async function headMergeHeld(): Promise<void> {
    merger.hold();
    await h.executor.finish('unit', 1, { result: 'SUCCESS' });
    await merger.entered;
    expect(merger.mergedOrder).toEqual([]);
  }

  /** Let the held merge go, finish every build left and settle. */
  async function release(): Promise<void> {
    merger.open();
    await h.finishEverything();
  }

  it('keeps its place at the head when a change behind it is promoted', async () => {
    await headMergeHeld();
    const promoted = await h.engine.promote(h.tenant, { pipeline: 'gate', changes: ['3,1'], by: 'admin' });
    expect(promoted.ok).toBe(true);
    await h.engine.settlePasses(h.tenant);
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0].map((item) => item.refs[0].id)).toEqual(['1,1', '3,1', '2,1']);

    await release();
    expect(merger.mergedOrder).toEqual([1, 3, 2]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '3,1 gate SUCCESS', '2,1 gate SUCCESS']);
    expect(h.testedOn(3)).toEqual([1, 3]);
    expect(h.testedOn(2)).toEqual([1, 3, 2]);
  });

  it('is not dequeued by an administrator: the dequeue is refused and the merge reported', async () => {
    await headMergeHeld();
    const dequeue = await h.engine.dequeue(h.tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '1,1',
      by: 'admin',
    });
    if (!dequeue.ok) {
      throw new Error(dequeue.error.message);
    }
    await h.engine.settlePasses(h.tenant);
    expect(await h.engine.eventOutcome(dequeue.value.eventId)).toBe('error: change is being merged');

    await release();
    expect(merger.mergedOrder).toEqual([1, 2, 3]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);
    const reasons = h.deltas.flatMap((delta) => (delta.type === 'item-dequeued' ? [delta.reason.kind] : []));
    expect(reasons).toEqual(['reported', 'reported', 'reported']);
  });

  it('is not removed by a new patchset of its change: the patchset it tested is the one merged', async () => {
    await headMergeHeld();
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1, '2');
    await h.engine.settlePasses(h.tenant);

    await release();
    expect(merger.mergedOrder).toEqual([1, 2, 3]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);
    // The items behind were never reset: one build each.
    expect(h.executor.started.map((params) => params.changes[0].number)).toEqual([1, 2, 3]);
  });
});
