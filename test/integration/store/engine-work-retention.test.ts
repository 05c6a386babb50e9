/**
 * The retention of engine work (docs/gating.md#engine-work): completed rows older than a day
 * whose outcome was processed are deleted in batches; recent rows, open rows, rows whose outcome
 * event is unprocessed and branch merges an open merge behind may look up are kept. The work
 * runner prunes on the engine's clock once the tenant's work is done.
 */
import type { Knex } from 'knex';
import { EngineWorkRepository, type EngineWorkKind } from '../../../src/store/repositories/engine-work';
import { WORK_RETENTION_MS } from '../../../src/engine/work/work-runner';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

jest.setTimeout(60_000);

const DAY = 24 * 60 * 60_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** Insert a row as it stands after its life: `updated` is when it was last written. */
async function row(
  knex: Knex,
  tenant: string,
  fields: { kind?: EngineWorkKind; state?: string; updated: number; buildsetUuid?: string },
): Promise<number> {
  const [inserted] = (await knex('engine_work')
    .insert({
      tenant,
      kind: fields.kind ?? 'report',
      state: fields.state ?? 'completed',
      payload: JSON.stringify({ buildsetUuid: fields.buildsetUuid ?? 'b' }),
      outcome: (fields.state ?? 'completed') === 'completed' ? 'done' : null,
      created: new Date(fields.updated),
      updated: new Date(fields.updated),
    })
    .returning('id')) as Array<{ id: number | string }>;
  return Number(inserted.id);
}

async function ids(repo: EngineWorkRepository, tenant: string): Promise<number[]> {
  return (await repo.all(tenant)).map((record) => record.id);
}

describe('engine work retention', () => {
  let db: TestDatabase;
  let repo: EngineWorkRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    repo = new EngineWorkRepository(db.knex);
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('deletes old completed rows and keeps recent, open and other tenants’ rows', async () => {
    const tenant = nextTenant();
    const other = nextTenant();
    const before = new Date(NOW - DAY);
    const old = await row(db.knex, tenant, { updated: NOW - 2 * DAY });
    const recent = await row(db.knex, tenant, { updated: NOW - DAY + 1000 });
    const requested = await row(db.knex, tenant, {
      kind: 'speculative-merge',
      state: 'requested',
      updated: NOW - 3 * DAY,
    });
    const running = await row(db.knex, tenant, { kind: 'speculative-merge', state: 'running', updated: NOW - 3 * DAY });
    const elsewhere = await row(db.knex, other, { updated: NOW - 2 * DAY });
    expect(await repo.pruneCompleted(tenant, before, 100)).toBe(1);
    expect(await ids(repo, tenant)).toEqual([recent, requested, running]);
    expect(await ids(repo, other)).toEqual([elsewhere]);
    expect(old).toBeLessThan(recent);
  });

  it('keeps rows completed at or after the tenant’s oldest unprocessed event', async () => {
    const tenant = nextTenant();
    const first = await row(db.knex, tenant, { updated: NOW - 5 * DAY });
    const second = await row(db.knex, tenant, { updated: NOW - 4 * DAY });
    // The outcome event of `second`, appended with its completion, is not processed yet.
    await db.knex('engine_events').insert({
      tenant,
      category: 'result',
      event_type: 'report-completed',
      payload: JSON.stringify({}),
      created: new Date(NOW - 4 * DAY),
    });
    expect(await repo.pruneCompleted(tenant, new Date(NOW - DAY), 100)).toBe(1);
    expect(await ids(repo, tenant)).toEqual([second]);
    expect(first).toBeLessThan(second);
    await db
      .knex('engine_events')
      .where({ tenant })
      .update({ processed: new Date(NOW) });
    expect(await repo.pruneCompleted(tenant, new Date(NOW - DAY), 100)).toBe(1);
    expect(await ids(repo, tenant)).toEqual([]);
  });

  it('keeps a completed branch merge while an open branch merge stored after it may look it up', async () => {
    const tenant = nextTenant();
    const ahead = await row(db.knex, tenant, { kind: 'branch-merge', updated: NOW - 2 * DAY, buildsetUuid: 'a' });
    const behind = await row(db.knex, tenant, { kind: 'branch-merge', state: 'running', updated: NOW - 2 * DAY });
    expect(await repo.pruneCompleted(tenant, new Date(NOW - DAY), 100)).toBe(0);
    expect(await repo.branchMergeBefore(tenant, 'a', behind)).toEqual({ state: 'completed', outcome: 'done' });
    await db.knex('engine_work').where({ id: behind }).update({ state: 'completed', outcome: 'merged' });
    expect(await repo.pruneCompleted(tenant, new Date(NOW - DAY), 100)).toBe(2);
    expect(ahead).toBeLessThan(behind);
  });

  it('deletes a backlog in batches, oldest first', async () => {
    const tenant = nextTenant();
    const rows: number[] = [];
    for (let i = 0; i < 7; i++) {
      rows.push(await row(db.knex, tenant, { updated: NOW - 10 * DAY + i * 1000 }));
    }
    const before = new Date(NOW - DAY);
    expect(await repo.pruneCompleted(tenant, before, 3)).toBe(3);
    expect(await ids(repo, tenant)).toEqual(rows.slice(3));
    expect(await repo.pruneCompleted(tenant, before, 3)).toBe(3);
    expect(await repo.pruneCompleted(tenant, before, 3)).toBe(1);
    expect(await repo.pruneCompleted(tenant, before, 3)).toBe(0);
  });

  it('uses the index of completed rows', async () => {
    await db.knex.raw('SET enable_seqscan = off');
    try {
      const plan = await db.knex.raw(
        `EXPLAIN SELECT id FROM engine_work
         WHERE tenant = 'x' AND state = 'completed' AND updated < now() ORDER BY updated LIMIT 10`,
      );
      expect(JSON.stringify(plan.rows)).toContain('engine_work_completed');
    } finally {
      await db.knex.raw('SET enable_seqscan = on');
    }
  });

  it('is done by the work runner on the engine clock once the tenant’s work is done', async () => {
    const clock = new FakeClock(NOW);
    const spec = {
      tenant: nextTenant(),
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project', queue: 'integrated' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    };
    const h = new EngineHarness(db, makeLayout(spec), { clock, changes: new FakeChanges() });
    await h.start();
    try {
      h.changes.add('org/project', 1);
      await h.enqueue('gate', 'org/project', '1,1');
      await h.executor.finish('unit', 1, { result: 'SUCCESS' });
      await h.settle();
      expect(h.reports()).toContain('1,1 gate SUCCESS');
      const first = await ids(repo, h.tenant);
      expect(first.length).toBeGreaterThan(1);
      // A day later (and more) the next change's work is done: the first change's rows go, its own stay.
      clock.advance(WORK_RETENTION_MS + 60_000);
      h.changes.add('org/project', 2);
      await h.enqueue('gate', 'org/project', '2,1');
      await h.executor.finish('unit', 2, { result: 'SUCCESS' });
      await h.settle();
      expect(h.reports()).toContain('2,1 gate SUCCESS');
      const left = await repo.all(h.tenant);
      expect(left.length).toBeGreaterThan(0);
      expect(left.filter((record) => first.includes(record.id))).toEqual([]);
    } finally {
      await h.stop();
    }
    expect(h.errors).toEqual([]);
  });
});
