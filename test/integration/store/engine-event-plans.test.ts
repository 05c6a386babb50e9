/**
 * The reads of a tenant's pending events (docs/gating.md#what-is-kept-of-engine-events) take the
 * partial index of unprocessed events whatever the statistics say. Statistics taken during a
 * burst of pending events once made the scheduler's read walk the primary key in id order and
 * drop every event processed since, each pass; the read now orders by a key the primary key
 * cannot provide (migration 0035). The oldest pending event the pruning of completed engine work
 * waits for, and the metrics gauge of pending events, were read by scanning the whole table after
 * such statistics. The reads that filter a tenant's pending events by type (node fulfilments, image
 * builds) and the claim of reconfiguration requests scanned the whole table after statistics taken
 * during a burst of other events of that category (or, for image builds, of triggers): the type
 * they looked for, believed rare, made the partial index look dearer than the table. Checked with
 * EXPLAIN ANALYZE on the SQL the repositories send.
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

/** Store `count` pending events of `tenant` in one statement (trigger events unless told); their ids. */
async function pendingBurst(
  knex: Knex,
  tenant: string,
  count: number,
  [category, type]: readonly [string, string] = ['trigger', 'ref-updated'],
): Promise<number[]> {
  const rows: Array<{ id: number | string }> = (
    await knex.raw(
      `INSERT INTO engine_events (tenant, category, event_type, payload, created)
       SELECT ?, ?, ?, ?::jsonb, ? FROM generate_series(1, ?)
       RETURNING id`,
      [tenant, category, type, JSON.stringify({ type }), created, count],
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
   * event the pruning of completed engine work waits for, the metrics gauge of pending events, the
   * node fulfilments a new leader skips (src/engine/scheduler/tenant-scheduler.ts), the image
   * manager's look for a pending image build and the claim of reconfiguration requests.
   */
  const reads = (tenant: string) => [
    () => events.pending(tenant, 100, ['management', 'result', 'trigger'], undefined, WORK_OUTCOME_TYPES),
    () => events.pendingRouting(tenant),
    () => work.pruneCompleted(tenant, new Date(), 100),
    () => figures.pendingEvents(),
    () => events.pendingNodeFulfilments(tenant),
    () => events.hasPendingImageBuild(tenant, 'image'),
    () => events.claimReconfigureRequests(new Date()),
  ];

  /** The metrics gauge of pending events, as sorted lines. */
  const gauge = async () =>
    (await figures.pendingEvents())
      .map((figure) => `${figure.key.tenant} ${figure.key.category} ${figure.count}`)
      .sort();

  /**
   * Checks the plan of every statement `read` sends: the primary key is not walked (looked up by
   * id is fine), the whole table is not scanned, no processed row of engine_events is read and
   * dropped (a scan drops at most the pending ones: a read by type may pass over the tenant's
   * events of other types), and a partial index of pending events serves it.
   */
  async function expectPendingIndex(read: () => Promise<unknown>): Promise<void> {
    const queries = (await captureQueries(db.knex, read)).filter((query) => /from "?engine_events"?/i.test(query.sql));
    expect(queries.length).toBeGreaterThan(0);
    const pending = Number((await db.knex('engine_events').whereNull('processed').count({ n: '*' }))[0].n);
    for (const query of queries) {
      const nodes = [...walk(await explainPlan(db.knex, query))];
      const where = `${nodes.map((node) => `${node['Node Type']} (${node['Index Name'] ?? '-'})`).join(', ')} in\n${query.sql}`;
      const scans = nodes.filter((node) => node['Relation Name'] === 'engine_events');
      expect({
        where,
        pkey: nodes.some((node) => node['Index Name'] === 'engine_events_pkey' && !node['Index Cond']),
      }).toEqual({
        where,
        pkey: false,
      });
      expect({ where, seq: scans.some((node) => node['Node Type'] === 'Seq Scan') }).toEqual({ where, seq: false });
      const dropped = scans.map((node) => Math.min(node['Rows Removed by Filter'] ?? 0, pending + 1));
      expect({ where, dropped }).toEqual({ where, dropped: dropped.map((rows) => Math.min(rows, pending)) });
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

  it.each([
    ['result', 'nodes-provisioned'],
    ['management', 'enqueue'],
  ] as const)(
    'after statistics taken during a burst of %s events, reads them without walking the processed ones',
    async (...kind) => {
      const tenant = kind[1];
      // A table of the burst alone, as in the first case.
      await db.knex.raw('TRUNCATE engine_events');
      const burst = await pendingBurst(db.knex, tenant, BURST, kind);
      await db.knex.raw('ANALYZE engine_events');
      await events.markProcessed(burst, 'done', new Date());
      for (const read of reads(tenant)) {
        await expectPendingIndex(read);
      }
      // The answers, from pending events only.
      const [answered] = await pendingBurst(db.knex, tenant, 1, ['result', 'nodes-provisioned']);
      await db
        .knex('engine_events')
        .where({ id: answered })
        .update({ payload: { requestId: 'r1' } });
      const [build] = await pendingBurst(db.knex, tenant, 1, ['trigger', 'image-build']);
      await db
        .knex('engine_events')
        .where({ id: build })
        .update({ payload: { imageNames: ['image'] } });
      const request = await events.requestReconfigure(tenant, new Date());
      expect(await events.pendingNodeFulfilments(tenant)).toEqual(new Set(['r1']));
      expect([
        await events.hasPendingImageBuild(tenant, 'image'),
        await events.hasPendingImageBuild(tenant, 'x'),
      ]).toEqual([true, false]);
      expect(await events.claimReconfigureRequests(new Date())).toEqual([{ id: request, tenant }]);
      await events.markProcessed([answered, build], 'done', new Date());
      expect([await events.pendingNodeFulfilments(tenant), await events.hasPendingImageBuild(tenant, 'image')]).toEqual(
        [new Set(), false],
      );
      expect(await events.claimReconfigureRequests(new Date())).toEqual([]);
    },
  );
});
