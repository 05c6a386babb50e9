/**
 * A pass after one that stored merges into branches waits for the work runner's round
 * (docs/gating.md#merges-in-a-row): three changes that succeed in one pass are merged in a row and
 * reported by one pass, not by a pass per merge outcome as the outcomes trickle in. The wait is
 * bounded: a merge held in the merger delays the next pass by the bound only, and the gate goes on.
 * Each merge takes 30 ms, so without the wait the passes run while the merges are made and take
 * their outcomes one at a time (the first test fails).
 */
import type { EngineDelta } from '../../../src/engine/event-bus';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { BlockingMerger } from '../../engine/scripted-gateways';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

jest.setTimeout(60_000);

/** A merger whose merges into branches take a while, as a remote's do: without the wait a pass runs meanwhile. */
class SlowBranchMerger extends BlockingMerger {
  override async mergeToBranch(item: Parameters<BlockingMerger['mergeToBranch']>[0]) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return super.mergeToBranch(item);
  }
}

/** The deltas of each pass: a pass's status delta (`queue-delta`) is always its last. */
function passesOf(deltas: readonly EngineDelta[]): EngineDelta[][] {
  const passes: EngineDelta[][] = [[]];
  for (const delta of deltas) {
    passes[passes.length - 1].push(delta);
    if (delta.type === 'queue-delta') {
      passes.push([]);
    }
  }
  return passes.filter((pass) => pass.length > 0);
}

describe.each(backends())('engine: a pass waits for the branch merges stored before it (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;
  let merger: BlockingMerger;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  afterEach(async () => {
    merger.open();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  /** A gate of changes 1 to 3, each with one job that succeeds as it starts; the waits bounded by `waitMs`. */
  async function startGate(waitMs: number): Promise<void> {
    const changes = new FakeChanges();
    merger = new SlowBranchMerger(changes);
    const layout = makeLayout({
      tenant: nextTenant(),
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    h = new EngineHarness(db, layout, { clock: new FakeClock(), changes, merger }, { branchMergeWaitMs: waitMs });
    h.executor.auto = () => ({ result: 'SUCCESS', durationMs: 0 });
    await h.start();
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
    }
  }

  /** Enqueue changes 1 to 3 at once (one pass takes them together), then wait for the gate. */
  async function enqueueAll(): Promise<void> {
    for (const number of [1, 2, 3]) {
      const result = await h.engine.enqueue(h.tenant, {
        pipeline: 'gate',
        project: 'org/project',
        change: `${number},1`,
      });
      expect(result.ok).toBe(true);
    }
    await h.engine.settlePasses(h.tenant);
  }

  it('reports the changes merged in a row in one pass', async () => {
    // Wide enough for a loaded machine: the round ends long before, and the test waits for it.
    await startGate(10_000);
    h.executor.auto = null;
    await enqueueAll();
    expect(h.executor.started.map((params) => params.changes.at(-1)?.number)).toEqual([1, 2, 3]);
    // The three results are taken by one pass: the three branch merges are stored together.
    expect((await h.engine.setTenantState(h.tenant, { resultQueuePaused: true })).ok).toBe(true);
    await h.executor.finishAll();
    expect((await h.engine.setTenantState(h.tenant, { resultQueuePaused: false })).ok).toBe(true);
    await h.engine.settlePasses(h.tenant);
    expect(h.merger.mergedOrder).toEqual([1, 2, 3]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);
    const reporting = passesOf(h.deltas).filter((pass) => pass.some((delta) => delta.type === 'item-reported'));
    expect(reporting.map((pass) => pass.filter((delta) => delta.type === 'item-reported').length)).toEqual([3]);
  });

  it('waits no longer than its bound for a merge held in the merger', async () => {
    await startGate(200);
    merger.hold();
    const enqueued = enqueueAll();
    await merger.entered;
    // Passes go on while the merge is held: an enqueue is taken (an unbounded wait would hang here).
    h.changes.add('org/project', 4);
    expect((await h.engine.enqueue(h.tenant, { pipeline: 'gate', project: 'org/project', change: '4,1' })).ok).toBe(
      true,
    );
    await h.engine.settlePasses(h.tenant);
    expect(h.deltas.some((delta) => delta.type === 'item-enqueued' && delta.changeIds.includes('4,1'))).toBe(true);
    expect(h.merger.mergedOrder).toEqual([]);
    merger.open();
    await enqueued;
    await h.engine.settlePasses(h.tenant);
    expect(h.merger.mergedOrder).toEqual([1, 2, 3, 4]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS', '3,1 gate SUCCESS', '4,1 gate SUCCESS']);
  });
});
