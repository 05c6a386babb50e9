/**
 * What an admin dequeue leaves in the build history (docs/gating.md#leaving-a-pipeline), as the
 * reference decides it: a buildset with jobs, a configuration error or a failed merge is recorded
 * `DEQUEUED`; an item taken out before its job graph was frozen leaves none. The scripted merger
 * holds chosen speculative merges, so a promote and a dequeue land while they are under way.
 */
import type { MergeOutcome } from '../../../src/engine/ports/merger';
import type { EngineDelta } from '../../../src/engine/event-bus';
import type { MergeItem } from '../../../src/model/changes';
import { BuildsetRepository } from '../../../src/store/repositories/buildsets';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { FakeChanges } from '../../engine/fake-changes';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { ScriptedMerger } from '../../engine/scripted-gateways';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';

/** A merger whose speculative merges of the changes in `held` wait until `release()`. */
class HoldingMerger extends ScriptedMerger {
  readonly held = new Set<number>();
  private waiting: Array<() => void> = [];

  override async prepare(items: readonly MergeItem[]): Promise<MergeOutcome> {
    const last = items[items.length - 1];
    if (last?.number !== null && last !== undefined && this.held.has(last.number)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return super.prepare(items);
  }

  release(): void {
    this.held.clear();
    for (const resolve of this.waiting.splice(0)) {
      resolve();
    }
  }
}

describe('engine: what a dequeue records', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let merger: HoldingMerger;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    const changes = new FakeChanges();
    merger = new HoldingMerger(changes);
    const layout = makeLayout({
      tenant: nextTenant(),
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    h = new EngineHarness(db, layout, { clock: new FakeClock(), changes, merger });
    await h.start();
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
    }
  });

  afterEach(async () => {
    merger.release();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  /** Resolves with the first delta of the tenant that `matches` (deltas already seen count). */
  function delta(matches: (seen: EngineDelta) => boolean): Promise<EngineDelta> {
    const found = h.deltas.find(matches);
    if (found) {
      return Promise.resolve(found);
    }
    return new Promise((resolve) => {
      const stop = h.bus.subscribe(h.tenant, (seen) => {
        if (matches(seen)) {
          stop();
          resolve(seen);
        }
      });
    });
  }

  async function dequeue(change: string): Promise<void> {
    const result = await h.engine.dequeue(h.tenant, { pipeline: 'gate', project: 'org/project', change, by: 'admin' });
    expect(result.ok).toBe(true);
    await delta((seen) => seen.type === 'item-dequeued');
  }

  async function resultsOf(change: number): Promise<Array<string | null>> {
    const buildsets = await new BuildsetRepository(db.knex).list(
      h.tenant,
      { change: [change] },
      { limit: 100, offset: 0, fromEnd: false },
    );
    return buildsets.map((buildset) => buildset.result);
  }

  it('records DEQUEUED for an item that could not merge, dequeued before it was reported', async () => {
    merger.conflicts.add(2);
    await h.enqueue('gate', 'org/project', '1,1');
    await h.enqueue('gate', 'org/project', '2,1');
    // 2 waits behind 1, unable to merge and not reported yet: no row so far.
    expect(await resultsOf(2)).toEqual([]);
    await dequeue('2,1');
    await h.settle();
    expect(await resultsOf(2)).toEqual(['DEQUEUED']);
  });

  it('records the frozen buildset of a promoted item, and none for one dequeued before its merge', async () => {
    await h.enqueue('gate', 'org/project', '1,1');
    await h.enqueue('gate', 'org/project', '2,1');
    expect(h.executor.started.length).toBe(2);
    // Every merge after the promote is held: 1, reset behind 2, is dequeued while its merge waits.
    merger.held.add(1);
    const promoted = await h.engine.promote(h.tenant, { pipeline: 'gate', changes: ['2,1'], by: 'admin' });
    expect(promoted.ok).toBe(true);
    await delta((seen) => seen.type === 'item-moved');
    await dequeue('1,1');
    merger.release();
    await h.settle();
    // The buildset 1 was frozen with before the promote; the one it was dequeued with had no jobs yet.
    expect(await resultsOf(1)).toEqual(['DEQUEUED']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['2,1 gate SUCCESS']);
  });
});
