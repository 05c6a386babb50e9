/**
 * The reads of a tenant's pending events (docs/gating.md#what-is-kept-of-engine-events) take the
 * partial index of unprocessed events whatever the statistics say. Statistics taken during a
 * burst of pending events once made the scheduler's read walk the primary key in id order and
 * drop every event processed since, each pass; the read now orders by a key the primary key
 * cannot provide (migration 0035). Checked with EXPLAIN ANALYZE on the SQL the repository sends.
 */
import type { Knex } from 'knex';
import { WORK_OUTCOME_TYPES } from '../../../src/engine/work/outcomes';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainPlan, walk } from '../../helpers/query-plans';

jest.setTimeout(120_000);

const BURST = 3_000;
/** The partial index of pending events, ordered by tenant and `(id + 0)` (migration 0035). */
const PENDING_INDEX = 'engine_events_pending_order';
const created = new Date('2026-01-01T00:00:00Z');

/** Store `count` pending trigger events of `tenant` in one statement; their ids. */
async function pendingBurst(knex: Knex, tenant: string, count: number): Promise<number[]> {
  const rows: Array<{ id: number | string }> = (
    await knex.raw(
      `INSERT INTO engine_events (tenant, category, event_type, payload, created)
       SELECT ?, 'trigger', 'ref-updated', '{"type":"ref-updated"}'::jsonb, ? FROM generate_series(1, ?)
       RETURNING id`,
      [tenant, created, count],
    )
  ).rows;
  return rows.map((row) => Number(row.id));
}

describe.each(backends())('pending engine event reads (%s)', (backend: Backend) => {
  let db: TestDatabase;
  let events: EngineEventRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    events = new EngineEventRepository(db.knex);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  /** The scheduler's read (src/engine/scheduler/pass.ts) and the status document's. */
  const reads = (tenant: string) => [
    () => events.pending(tenant, 100, ['management', 'result', 'trigger'], undefined, WORK_OUTCOME_TYPES),
    () => events.pendingRouting(tenant),
  ];

  /**
   * Checks the plan of every statement `read` sends: the primary key is not scanned, nor the whole
   * table, no row of engine_events is read and dropped, and the partial index of pending events
   * serves it.
   */
  async function expectPendingIndex(read: () => Promise<unknown>): Promise<void> {
    const queries = (await captureQueries(db.knex, read)).filter((query) => /from "engine_events"/i.test(query.sql));
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      const nodes = [...walk(await explainPlan(db.knex, query))];
      const where = `${nodes.map((node) => `${node['Node Type']} (${node['Index Name'] ?? '-'})`).join(', ')} in\n${query.sql}`;
      const scans = nodes.filter((node) => node['Relation Name'] === 'engine_events');
      expect({ where, pkey: nodes.some((node) => node['Index Name'] === 'engine_events_pkey') }).toEqual({
        where,
        pkey: false,
      });
      expect({ where, seq: scans.some((node) => node['Node Type'] === 'Seq Scan') }).toEqual({ where, seq: false });
      expect({ where, dropped: scans.map((node) => node['Rows Removed by Filter'] ?? 0) }).toEqual({
        where,
        dropped: scans.map(() => 0),
      });
      expect({ where, pending: nodes.some((node) => node['Index Name'] === PENDING_INDEX) }).toEqual({
        where,
        pending: true,
      });
    }
  }

  it('after statistics taken during a burst, reads the pending events without walking the processed ones', async () => {
    const burst = await pendingBurst(db.knex, 'burst', BURST);
    await db.knex.raw('ANALYZE engine_events');
    await events.markProcessed(burst, 'done', new Date());
    const next = await events.append({ tenant: 'burst', event: { type: 'reconfigure' }, created });
    for (const read of reads('burst')) {
      await expectPendingIndex(read);
    }
    expect((await events.pending('burst', 100)).map((event) => event.id)).toEqual([next]);
  });

  it('with statistics of a drained table, reads through the same index, in id order', async () => {
    const drained = await pendingBurst(db.knex, 'drained', BURST);
    await events.markProcessed(drained, 'done', new Date());
    const later = await pendingBurst(db.knex, 'drained', 3);
    await db.knex.raw('ANALYZE engine_events');
    for (const read of reads('drained')) {
      await expectPendingIndex(read);
    }
    expect((await events.pending('drained', 2)).map((event) => event.id)).toEqual(later.slice(0, 2));
    expect(await events.pendingRouting('drained')).toHaveLength(3);
  });
});
