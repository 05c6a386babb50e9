/**
 * Merges and reports run as engine work, outside any pass transaction (docs/gating.md#engine-work):
 * while one tenant's merger hangs, on PGlite (one connection) the API still answers for that
 * tenant and another tenant's changes are gated and merged. Were a merge made inside a pass, the
 * pass would hold the only connection until the merger answered, and both would wait. Also the
 * runner's order: merges withdrawn when their items are reset or leave, and a branch merge done
 * before the speculative merges a round had already claimed.
 */
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { BlockingMerger } from '../../engine/scripted-gateways';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken, startLiveServer, type LiveServer } from '../../helpers/live';

const layoutOf = (tenant: string) =>
  makeLayout({
    tenant,
    pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
    projects: [{ name: 'org/project', queue: 'integrated' }],
    jobs: { 'org/project': { gate: [job('unit')] } },
  });

describe('engine work: no pass transaction is open while a merge runs', () => {
  let db: TestDatabase;
  let blocked: EngineHarness;
  let other: EngineHarness;
  let merger: BlockingMerger;
  let server: LiveServer;

  beforeAll(async () => {
    db = await createTestDatabase({ backend: 'pglite' });
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    const changes = new FakeChanges();
    merger = new BlockingMerger(changes);
    blocked = new EngineHarness(db, layoutOf(nextTenant()), { clock: new FakeClock(), changes, merger });
    other = new EngineHarness(db, layoutOf(nextTenant()));
    await blocked.start();
    await other.start();
    server = await startLiveServer(db, { harness: blocked });
  });

  afterEach(async () => {
    merger.open();
    await server.stop();
    await blocked.stop();
    await other.stop();
    expect([...blocked.errors, ...other.errors]).toEqual([]);
  });

  /** While the blocked tenant's merger hangs: its status is served, and the other tenant gates and merges a change. */
  async function othersKeepWorking(change: number): Promise<void> {
    const res = await fetch(`${server.url}/api/tenant/${blocked.tenant}/status`, {
      headers: { Authorization: `Bearer ${adminToken(blocked.tenant)}` },
    });
    expect(res.status).toBe(200);
    const status = (await res.json()) as { pipelines: Array<{ name: string }> };
    expect(status.pipelines.map((entry) => entry.name)).toEqual(['gate']);
    other.changes.add('org/project', change);
    await other.enqueue('gate', 'org/project', `${change},1`);
    await other.executor.finish('unit', change, { result: 'SUCCESS' });
    await other.settle();
    expect(other.reports()).toContain(`${change},1 gate SUCCESS`);
    expect(other.merger.mergedOrder).toContain(change);
  }

  it('serves the API and runs another tenant while a speculative merge and a branch merge hang', async () => {
    blocked.changes.add('org/project', 1);
    merger.hold();
    const enqueued = await blocked.engine.enqueue(blocked.tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '1,1',
      by: 'admin',
    });
    expect(enqueued.ok).toBe(true);
    await merger.entered;
    await othersKeepWorking(1);
    expect(blocked.executor.started).toEqual([]);
    const work = new EngineWorkRepository(db.knex);
    expect((await work.open(blocked.tenant)).map((row) => [row.kind, row.state])).toEqual([
      ['speculative-merge', 'running'],
    ]);

    merger.open();
    await blocked.settle();
    expect(blocked.executor.started.map((build) => build.job.name)).toEqual(['unit']);
    merger.hold();
    await blocked.executor.finish('unit', 1, { result: 'SUCCESS' });
    await merger.entered;
    await othersKeepWorking(2);
    expect(blocked.reports()).toEqual([]);
    expect(merger.mergedOrder).toEqual([]);

    merger.open();
    await blocked.settle();
    expect(blocked.reports()).toEqual(['1,1 gate SUCCESS']);
    expect(merger.mergedOrder).toEqual([1]);
    expect(await work.open(blocked.tenant)).toEqual([]);
    expect((await work.all(blocked.tenant)).map((row) => [row.kind, row.outcome])).toEqual([
      ['speculative-merge', 'merged'],
      ['branch-merge', 'merged'],
    ]);
  });

  /**
   * Changes 1, 2 and 3 enqueued with merges held: 1's merge goes through, then the runner's next
   * round claims 2's and 3's and hangs in 2's.
   */
  async function secondRoundHeld(): Promise<void> {
    merger.hold();
    for (const number of [1, 2, 3]) {
      blocked.changes.add('org/project', number);
      const enqueued = await blocked.engine.enqueue(blocked.tenant, {
        pipeline: 'gate',
        project: 'org/project',
        change: `${number},1`,
        by: 'admin',
      });
      expect(enqueued.ok).toBe(true);
      await blocked.engine.settlePasses(blocked.tenant);
    }
    await merger.entered;
    merger.open();
    merger.hold();
    await merger.entered;
  }

  it('withdraws the speculative merges of items reset or dequeued before the runner made them', async () => {
    const work = new EngineWorkRepository(db.knex);
    await secondRoundHeld();
    // Dequeuing 2 withdraws its merge (under way) and 3's (claimed, not begun): 3 is reset.
    const dequeue = await blocked.engine.dequeue(blocked.tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '2,1',
      by: 'admin',
    });
    expect(dequeue.ok).toBe(true);
    await blocked.engine.settlePasses(blocked.tenant);
    merger.open();
    await blocked.settle();
    expect(merger.prepared).toEqual([['1,1'], ['1,1', '2,1'], ['1,1', '3,1']]);
    expect((await work.all(blocked.tenant)).map((row) => [row.kind, row.outcome])).toEqual([
      ['speculative-merge', 'merged'],
      ['speculative-merge', 'withdrawn'],
      ['speculative-merge', 'withdrawn'],
      ['speculative-merge', 'merged'],
    ]);
    const outcomes = await db
      .knex('engine_events')
      .where({ tenant: blocked.tenant, event_type: 'merge-completed' })
      .orderBy('id')
      .pluck('outcome');
    expect(outcomes).toEqual(['ok', 'ok']);
  });

  it('does a branch merge stored meanwhile before the speculative merges a round had claimed', async () => {
    await secondRoundHeld();
    await blocked.engine.settlePasses(blocked.tenant);
    // 1's build succeeds meanwhile: its branch merge is stored behind the claimed round.
    await blocked.executor.finish('unit', 1, { result: 'SUCCESS' });
    await blocked.engine.settlePasses(blocked.tenant);
    merger.open();
    await blocked.settle();
    expect(merger.calls).toEqual(['prepare 1', 'prepare 1 2', 'merge 1', 'prepare 1 2 3']);
    expect(blocked.reports()).toEqual(['1,1 gate SUCCESS']);
  });

  it('claims reports and branch merges before older speculative merges', async () => {
    const work = new EngineWorkRepository(db.knex);
    const tenant = nextTenant();
    const now = new Date();
    await work.create(
      tenant,
      [
        { kind: 'speculative-merge', payload: { buildsetUuid: 'a' } },
        { kind: 'tag-branches', payload: { buildsetUuid: 'b' } },
        { kind: 'branch-merge', payload: { buildsetUuid: 'c' } },
        { kind: 'report', payload: { buildsetUuid: 'd' } },
      ],
      now,
      db.knex,
    );
    const claimed = await work.claim(tenant, 1, now, 3);
    expect(claimed.map((row) => row.kind)).toEqual(['branch-merge', 'report', 'speculative-merge']);
    expect((await work.claim(tenant, 1, now, 10)).map((row) => row.kind)).toEqual([
      'branch-merge',
      'report',
      'speculative-merge',
      'tag-branches',
    ]);
  });
});
