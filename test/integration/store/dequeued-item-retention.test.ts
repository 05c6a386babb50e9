/**
 * The retention of dequeued items (docs/gating.md#what-is-kept-of-dequeued-items): items dequeued
 * more than the retention ago are deleted with their job rows, in batches, oldest first; queued
 * items, whatever their age, and recent dequeued ones are kept; the deletion reads an index; a
 * service running the scheduler role deletes them every interval.
 */
import type { Knex } from 'knex';
import {
  DEQUEUED_RETENTION_INTERVAL_MS,
  DEQUEUED_RETENTION_MS,
  DequeuedItemRetention,
} from '../../../src/server/dequeued-item-retention';
import { silentLogger } from '../../../src/server/logger';
import { EngineStateRepository, PRUNE_DEQUEUED } from '../../../src/store/repositories/engine-state';
import { nextTenant } from '../../engine/harness';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { eventually } from '../../helpers/pg-faults';
import { startTestServer } from '../../helpers/server';

jest.setTimeout(60_000);

const HOUR = 60 * 60_000;
let items = 0;

/** Store an item of `tenant` with two job rows, dequeued at `dequeued` (null: queued); its uuid. */
async function item(
  knex: Knex,
  tenant: string,
  dequeued: Date | null,
  enqueued = dequeued ?? new Date(),
): Promise<string> {
  items += 1;
  const uuid = `${tenant}-item-${items}`;
  const [row] = (await knex('queue_items')
    .insert({
      uuid,
      tenant,
      pipeline: 'gate',
      position: 0,
      changes: JSON.stringify([]),
      enqueue_time: enqueued,
      dequeue_time: dequeued,
      data: JSON.stringify({ uuid }),
    })
    .returning('id')) as Array<{ id: number | string }>;
  await knex('queue_item_jobs').insert(['build', 'test'].map((job_name) => ({ item_id: row.id, job_name })));
  return uuid;
}

/** The uuids of `tenant`'s items, oldest dequeued first, queued ones last. */
async function remaining(knex: Knex, tenant: string): Promise<string[]> {
  const rows: Array<{ uuid: string }> = await knex('queue_items')
    .where({ tenant })
    .orderByRaw('dequeue_time NULLS LAST, id')
    .select('uuid');
  return rows.map((row) => row.uuid);
}

async function jobRows(knex: Knex, tenant: string): Promise<number> {
  const [row] = (await knex('queue_item_jobs as j')
    .join('queue_items as i', 'i.id', 'j.item_id')
    .where('i.tenant', tenant)
    .count({ n: '*' })) as Array<{ n: number | string }>;
  return Number(row.n);
}

describe.each(backends())('dequeued item retention (%s)', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('deletes items dequeued before the cutoff with their jobs and keeps queued and recent ones', async () => {
    const tenant = nextTenant();
    const other = nextTenant();
    const now = Date.now();
    await item(db.knex, tenant, new Date(now - 2 * DEQUEUED_RETENTION_MS));
    await item(db.knex, other, new Date(now - 3 * DEQUEUED_RETENTION_MS));
    const queued = await item(db.knex, tenant, null, new Date(now - 3 * DEQUEUED_RETENTION_MS));
    const recent = await item(db.knex, tenant, new Date(now - HOUR));
    expect(await jobRows(db.knex, tenant)).toBe(6);
    const retention = new DequeuedItemRetention({ knex: db.knex, now: () => new Date(now), logger: silentLogger() });
    expect(await retention.runOnce()).toBeGreaterThanOrEqual(2);
    expect(await remaining(db.knex, tenant)).toEqual([recent, queued]);
    expect(await remaining(db.knex, other)).toEqual([]);
    expect(await jobRows(db.knex, tenant)).toBe(4);
    const orphans = await db.knex('queue_item_jobs').whereNotExists(function () {
      void this.select(1).from('queue_items').whereRaw('queue_items.id = queue_item_jobs.item_id');
    });
    expect(orphans).toEqual([]);
  });

  it('deletes in batches, oldest dequeued first, across tenants, until none is left', async () => {
    const first = nextTenant();
    const second = nextTenant();
    const now = Date.now();
    const uuids: string[] = [];
    for (let age = 7; age >= 1; age -= 1) {
      uuids.push(
        await item(db.knex, age % 2 === 0 ? first : second, new Date(now - DEQUEUED_RETENTION_MS - age * HOUR)),
      );
    }
    const queued = await item(db.knex, first, null, new Date(now - 2 * DEQUEUED_RETENTION_MS));
    // Other tests' items may be old too: only these tenants' are counted.
    await db.knex('queue_items').whereNotIn('tenant', [first, second]).whereNotNull('dequeue_time').delete();
    const repo = new EngineStateRepository(db.knex);
    const before = new Date(now - DEQUEUED_RETENTION_MS);
    const left = async () => [...(await remaining(db.knex, first)), ...(await remaining(db.knex, second))].sort();
    expect(await repo.pruneDequeued(before, 3)).toBe(3);
    expect(await left()).toEqual([...uuids.slice(3), queued].sort());
    expect(await repo.pruneDequeued(before, 3)).toBe(3);
    expect(await left()).toEqual([uuids[6], queued].sort());
    expect(await repo.pruneDequeued(before, 3)).toBe(1);
    expect(await repo.pruneDequeued(before, 3)).toBe(0);
    expect(await left()).toEqual([queued]);
    expect(await jobRows(db.knex, first)).toBe(2);
    expect(await jobRows(db.knex, second)).toBe(0);
  });

  it('goes on past a full batch until every old item is gone', async () => {
    const tenant = nextTenant();
    const now = Date.now();
    const rows = Array.from({ length: 1_100 }, (_, n) => ({
      uuid: `${tenant}-bulk-${n}`,
      tenant,
      pipeline: 'check',
      position: 0,
      changes: JSON.stringify([]),
      enqueue_time: new Date(now - 2 * DEQUEUED_RETENTION_MS),
      dequeue_time: new Date(now - 2 * DEQUEUED_RETENTION_MS + n * 1000),
    }));
    await db.knex.batchInsert('queue_items', rows, 500);
    const kept = await item(db.knex, tenant, new Date(now - HOUR));
    const retention = new DequeuedItemRetention({ knex: db.knex, now: () => new Date(now), logger: silentLogger() });
    expect(await retention.runOnce()).toBeGreaterThanOrEqual(1_100);
    expect(await remaining(db.knex, tenant)).toEqual([kept]);
  });

  it('finds the tenants and their oldest dequeued items through indexes, never the whole table', async () => {
    // A table as the service keeps it: mostly dequeued items, statistics taken.
    const tenant = nextTenant();
    const now = Date.now();
    const rows = Array.from({ length: 20_000 }, (_, n) => ({
      uuid: `${tenant}-plan-${n}`,
      tenant,
      pipeline: 'check',
      position: 0,
      changes: JSON.stringify([]),
      enqueue_time: new Date(now - 20 * HOUR),
      dequeue_time: new Date(now - 20 * HOUR + n * 1000),
    }));
    await db.knex.batchInsert('queue_items', rows, 1_000);
    await db.knex.raw('ANALYZE queue_items');
    await db.knex.raw('SET enable_seqscan = off');
    try {
      const plan = (await db.knex.raw(`EXPLAIN ${PRUNE_DEQUEUED}`, { before: new Date(), limit: 500 })) as {
        rows: unknown[];
      };
      const text = plan.rows.map((row) => Object.values(row as Record<string, string>)[0]).join('\n');
      // Only `queue_items_dequeued_idx` has both: each tenant's oldest are read in its order.
      expect(text).toMatch(
        /Index Scan using queue_items_dequeued_idx .*\n\s*Index Cond: \(\(tenant = t\.tenant\) AND .*\(dequeue_time < /,
      );
      expect(text).not.toContain('Seq Scan');
    } finally {
      await db.knex.raw('SET enable_seqscan = on');
    }
  });

  it('runs soon after a service with the scheduler role starts, and then every interval', async () => {
    const timers = new FakeTimerClock();
    const database = await createTestDatabase({ backend });
    const tenant = nextTenant();
    await item(database.knex, tenant, new Date(Date.now() - 2 * DEQUEUED_RETENTION_MS));
    const kept = await item(database.knex, tenant, new Date(Date.now() - HOUR));
    const server = await startTestServer({ backend, timers, tenants: [], database });
    try {
      await timers.advance(0);
      await eventually('the first run', async () => (await remaining(database.knex, tenant)).length === 1);
      expect(await remaining(database.knex, tenant)).toEqual([kept]);
      expect(timers.pending).toContain(DEQUEUED_RETENTION_INTERVAL_MS);
    } finally {
      await server.stop();
      await database.destroy();
    }
  });
});
