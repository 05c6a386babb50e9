/**
 * The reads of a tenant's pending events (docs/gating.md#what-is-kept-of-engine-events) take the
 * partial index of unprocessed events whatever the statistics say. Statistics taken during a
 * burst of pending events once made the scheduler's read walk the primary key in id order and
 * drop every event processed since, each pass; the read now orders by a key the primary key
 * cannot provide (migration 0035). The oldest pending event the pruning of completed engine work
 * waits for, and the metrics gauge of pending events, were read by scanning the whole table after
 * such statistics. Checked with EXPLAIN ANALYZE on the SQL the repositories send.
 */
import type { Knex } from 'knex';
import { WORK_OUTCOME_TYPES } from '../../../src/engine/work/outcomes';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { OperationalFiguresRepository } from '../../../src/store/repositories/operational-figures';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainPlan, walk } from '../../helpers/query-plans';

jest.setTimeout(120_000);

const BURST = 3_000;
/**
 * The partial indexes of pending events: by tenant and `(id + 0)` (migration 0035), by tenant,
 * category and id (migration 0001).
 */
const PENDING_INDEXES = ['engine_events_pending_order', 'engine_events_pending_idx'];
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
  let work: EngineWorkRepository;
  let figures: OperationalFiguresRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    events = new EngineEventRepository(db.knex);
    work = new EngineWorkRepository(db.knex);
    figures = new OperationalFiguresRepository(db.knex);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  /**
   * The scheduler's read (src/engine/scheduler/pass.ts), the status document's, the oldest pending
   * event the pruning of completed engine work waits for, and the metrics gauge of pending events.
   */
  const reads = (tenant: string) => [
    () => events.pending(tenant, 100, ['management', 'result', 'trigger'], undefined, WORK_OUTCOME_TYPES),
    () => events.pendingRouting(tenant),
    () => work.pruneCompleted(tenant, new Date(), 100),
    () => figures.pendingEvents(),
  ];

  /** The metrics gauge of pending events, as sorted lines. */
  const gauge = async () =>
    (await figures.pendingEvents())
      .map((figure) => `${figure.key.tenant} ${figure.key.category} ${figure.count}`)
      .sort();

  /**
   * Checks the plan of every statement `read` sends: the primary key is not scanned, nor the whole
   * table, no row of engine_events is read and dropped, and the partial index of pending events
   * serves it.
   */
  async function expectPendingIndex(read: () => Promise<unknown>): Promise<void> {
    const queries = (await captureQueries(db.knex, read)).filter((query) => /from "?engine_events"?/i.test(query.sql));
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
      expect({ where, pending: nodes.some((node) => PENDING_INDEXES.includes(node['Index Name'] ?? '')) }).toEqual({
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
    expect(await gauge()).toEqual(['burst management 1']);
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
    expect(await gauge()).toEqual(['burst management 1', 'drained trigger 3']);
  });
});
