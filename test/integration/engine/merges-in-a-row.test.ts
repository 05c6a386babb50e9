/**
 * Merges in a row (docs/gating.md#merges-in-a-row): a successful item directly behind one whose
 * merge into its branch is out asks for its own merge at once, and the work runner makes it right
 * after that one, only if that one was made. Each test holds the head's merge while the items
 * behind succeed: their merges must be stored already (not one pass per merge), made in queue
 * order, and never made when the merge ahead of them was refused; such items are tested again on
 * what is really ahead of them and merged once.
 */
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { BlockingMerger } from '../../engine/scripted-gateways';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import type { BranchMergeWork } from '../../../src/engine/work/payloads';
import { MergesAhead } from '../../../src/engine/work/merges-ahead';
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';

jest.setTimeout(60_000);

describe('engine: merges in a row', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let merger: BlockingMerger;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  /** Changes 1 (project org/head) and 2, 3 (org/project) in one shared queue, each with one job. */
  async function startGate(): Promise<void> {
    const changes = new FakeChanges();
    merger = new BlockingMerger(changes);
    const tenant = nextTenant();
    const spec = {
      tenant,
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [
        { name: 'org/head', queue: 'shared' },
        { name: 'org/project', queue: 'shared' },
      ],
      jobs: { 'org/head': { gate: [job('unit')] }, 'org/project': { gate: [job('unit')] } },
    };
    h = new EngineHarness(db, makeLayout(spec), { clock: new FakeClock(), changes, merger });
    await h.start();
    for (const [project, number] of [
      ['org/head', 1],
      ['org/project', 2],
      ['org/project', 3],
    ] as const) {
      h.changes.add(project, number);
      await h.enqueue('gate', project, `${number},1`);
    }
  }

  afterEach(async () => {
    merger.open();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  /** Change 1's merge is held in the merger while changes 2 and 3 succeed behind it. */
  async function allSucceedWhileHeadMergeHeld(): Promise<void> {
    merger.hold();
    await h.executor.finish('unit', 1, { result: 'SUCCESS' });
    await merger.entered;
    await h.executor.finish('unit', 2, { result: 'SUCCESS' });
    await h.executor.finish('unit', 3, { result: 'SUCCESS' });
    await h.engine.settlePasses(h.tenant);
  }

  /** The changes whose branch merges are stored and not done yet, in the order they will be made. */
  async function openBranchMerges(): Promise<number[]> {
    const open = await new EngineWorkRepository(db.knex).open(h.tenant);
    return open
      .filter((row) => row.kind === 'branch-merge')
      .map((row) => (row.payload as BranchMergeWork).items[0].number ?? 0);
  }

  /** Let the held merge go, finish every build left and settle. */
  async function release(): Promise<void> {
    merger.open();
    await h.finishEverything();
  }

  function builtChanges(): number[] {
    return h.executor.started.map((params) => params.changes[0].number ?? 0);
  }

  it('stores the merges of the successful items behind a merging head at once and makes them in order', async () => {
    await startGate();
    await allSucceedWhileHeadMergeHeld();
    // Without merges in a row only change 1's merge would be stored until it came back.
    expect(await openBranchMerges()).toEqual([1, 2, 3]);
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0].map((item) => item.refs[0].id)).toEqual(['1,1', '2,1', '3,1']);

    await release();
    expect(merger.mergedOrder).toEqual([1, 2, 3]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);
    expect(builtChanges()).toEqual([1, 2, 3]);
    expect(await openBranchMerges()).toEqual([]);
  });

  it('does not make the merges behind a refused head merge: those items are tested again without it', async () => {
    await startGate();
    merger.refuseUnforeseen.add(1);
    await allSucceedWhileHeadMergeHeld();
    expect(await openBranchMerges()).toEqual([1, 2, 3]);

    await release();
    // Made after the refusal, changes 2 and 3 would have merged on a state nobody tested.
    expect(merger.mergedOrder).toEqual([2, 3]);
    expect(h.reports()).toEqual(['1,1 gate MERGE_FAILURE', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);
    expect(builtChanges()).toEqual([1, 2, 3, 2, 3]);
    expect(h.testedOn(2)).toEqual([2]);
    expect(h.testedOn(3)).toEqual([2, 3]);
    const outcomes = (await new EngineWorkRepository(db.knex).all(h.tenant))
      .filter((row) => row.kind === 'branch-merge')
      .map((row) => `${(row.payload as BranchMergeWork).items[0].number} ${row.outcome}`);
    expect(outcomes).toEqual([
      '1 refused: refused',
      '2 skipped: the change ahead of it was not merged',
      '3 skipped: the change ahead of it was not merged',
      '2 merged',
      '3 merged',
    ]);
  });

  it('does not make the merges behind a refused merge in the middle of the row', async () => {
    await startGate();
    merger.refuseUnforeseen.add(2);
    await allSucceedWhileHeadMergeHeld();

    await release();
    expect(merger.mergedOrder).toEqual([1, 3]);
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate MERGE_FAILURE', '3,1 gate SUCCESS']);
    expect(builtChanges()).toEqual([1, 2, 3, 3]);
    expect(h.testedOn(3)).toEqual([3]);
  });

  it('keeps the merges behind a head that a reconfiguration takes out: they are still made after it', async () => {
    await startGate();
    await allSucceedWhileHeadMergeHeld();
    h.layout = makeLayout(
      {
        tenant: h.tenant,
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'shared' }],
        jobs: { 'org/project': { gate: [job('unit')] } },
      },
      'layout-2',
    );
    await h.engine.reconfigure(h.tenant);
    await h.engine.settlePasses(h.tenant);

    await release();
    // Reset by the head's departure, changes 2 and 3 would be built and merged a second time.
    expect(merger.mergedOrder).toEqual([1, 2, 3]);
    expect(builtChanges()).toEqual([1, 2, 3]);
    expect(h.reports()).toEqual(['2,1 gate SUCCESS', '3,1 gate SUCCESS']);
  });
});

describe('engine work: the state of the merge ahead, read from the store', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('tells merged, refused or skipped, still running and unknown merges apart', async () => {
    const tenant = nextTenant();
    const repo = new EngineWorkRepository(db.knex);
    const now = new Date('2026-01-01T00:00:00Z');
    const merge = (buildsetUuid: string) => ({
      kind: 'branch-merge' as const,
      payload: { pipeline: 'gate', buildsetUuid, report: null, items: [] },
    });
    await repo.create(tenant, [merge('a'), merge('b'), merge('c'), merge('d')], now, db.knex);
    const rows = await repo.claim(tenant, 1, now, 10);
    const [a, b, c, d] = rows;
    const completion = (record: (typeof rows)[number], outcome: string) => ({
      record,
      outcome,
      event: {
        type: 'merge-completed' as const,
        work: record.id,
        mode: 'branch' as const,
        pipeline: 'gate',
        buildsetUuid: (record.payload as { buildsetUuid: string }).buildsetUuid,
        merged: outcome === 'merged',
        error: null,
        files: null,
        repoState: null,
      },
    });
    await repo.completeMany(
      [completion(a, 'merged'), completion(b, 'refused: no'), completion(c, 'skipped: ahead')],
      1,
      now,
    );
    // A new runner (a takeover) knows nothing in memory: everything comes from the store.
    const ahead = new MergesAhead(repo, tenant);
    const after = d.id + 1;
    expect(await ahead.state('a', after)).toBe('merged');
    expect(await ahead.state('b', after)).toBe('not-merged');
    expect(await ahead.state('c', after)).toBe('not-merged');
    expect(await ahead.state('d', after)).toBe('pending');
    expect(await ahead.state('unknown', after)).toBe('not-merged');
    // Only merges stored before the row asking count.
    expect(await ahead.state('a', a.id)).toBe('not-merged');
    // Another tenant's rows are not looked at.
    expect(await new MergesAhead(repo, nextTenant()).state('a', after)).toBe('not-merged');
    // What this runner recorded wins over the store (it is recorded after its row's completion).
    ahead.made('d', true);
    expect(await ahead.state('d', after)).toBe('merged');
  });
});
