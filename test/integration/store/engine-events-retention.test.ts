/**
 * The retention of processed engine events (docs/gating.md#what-is-kept-of-engine-events): events
 * processed more than a day ago are deleted in batches, oldest first; unprocessed events and
 * recent ones are kept; a service running the scheduler role deletes them every interval.
 */
import type { Knex } from 'knex';
import {
  EVENT_RETENTION_INTERVAL_MS,
  EVENT_RETENTION_MS,
  EngineEventRetention,
} from '../../../src/server/engine-event-retention';
import { silentLogger } from '../../../src/server/logger';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { nextTenant } from '../../engine/harness';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { eventually } from '../../helpers/pg-faults';
import { startTestServer } from '../../helpers/server';

jest.setTimeout(60_000);

const HOUR = 60 * 60_000;

/** Store a management event of `tenant`, processed at `processed` (null: not processed); its id. */
async function event(knex: Knex, tenant: string, processed: Date | null): Promise<number> {
  const repo = new EngineEventRepository(knex);
  const id = await repo.append({ tenant, event: { type: 'reconfigure' }, created: processed ?? new Date() });
  if (processed !== null) {
    await knex('engine_events').where({ id }).update({ processed, outcome: 'done' });
  }
  return id;
}

async function remaining(knex: Knex, tenant: string): Promise<number[]> {
  const rows: Array<{ id: number | string }> = await knex('engine_events').where({ tenant }).orderBy('id').select('id');
  return rows.map((row) => Number(row.id));
}

describe.each(backends())('engine event retention (%s)', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('deletes events processed before the cutoff and keeps unprocessed and recent ones', async () => {
    const tenant = nextTenant();
    const now = Date.now();
    const old = await event(db.knex, tenant, new Date(now - 2 * EVENT_RETENTION_MS));
    const oldUnprocessed = await event(db.knex, tenant, null);
    await db
      .knex('engine_events')
      .where({ id: oldUnprocessed })
      .update({ created: new Date(now - 3 * EVENT_RETENTION_MS) });
    const recent = await event(db.knex, tenant, new Date(now - HOUR));
    const retention = new EngineEventRetention({ knex: db.knex, now: () => new Date(now), logger: silentLogger() });
    expect(await retention.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await remaining(db.knex, tenant)).toEqual([oldUnprocessed, recent]);
    expect(old).toBeLessThan(oldUnprocessed);
  });

  it('deletes in batches, oldest processed first', async () => {
    const tenant = nextTenant();
    const now = Date.now();
    const ids: number[] = [];
    for (let age = 7; age >= 1; age -= 1) {
      ids.push(await event(db.knex, tenant, new Date(now - EVENT_RETENTION_MS - age * HOUR)));
    }
    const repo = new EngineEventRepository(db.knex);
    const before = new Date(now - EVENT_RETENTION_MS);
    // Other tests' events may be old too: only this tenant's are counted.
    await db.knex('engine_events').whereNot({ tenant }).whereNotNull('processed').delete();
    expect(await repo.pruneProcessed(before, 3)).toBe(3);
    expect(await remaining(db.knex, tenant)).toEqual(ids.slice(3));
    expect(await repo.pruneProcessed(before, 3)).toBe(3);
    expect(await repo.pruneProcessed(before, 3)).toBe(1);
    expect(await repo.pruneProcessed(before, 3)).toBe(0);
    expect(await remaining(db.knex, tenant)).toEqual([]);
  });

  it('finds old events through the index of processed events', async () => {
    await db.knex.raw('SET enable_seqscan = off');
    try {
      const plan = (await db.knex.raw(
        `EXPLAIN SELECT id FROM engine_events WHERE processed IS NOT NULL AND processed < now() ORDER BY processed LIMIT 10`,
      )) as { rows: unknown[] };
      expect(JSON.stringify(plan.rows)).toContain('engine_events_processed');
    } finally {
      await db.knex.raw('SET enable_seqscan = on');
    }
  });

  it('runs soon after a service with the scheduler role starts, and then every interval', async () => {
    const timers = new FakeTimerClock();
    const database = await createTestDatabase({ backend });
    const tenant = nextTenant();
    const old = await event(database.knex, tenant, new Date(Date.now() - 2 * EVENT_RETENTION_MS));
    const kept = await event(database.knex, tenant, new Date(Date.now() - HOUR));
    const server = await startTestServer({ backend, timers, tenants: [], database });
    try {
      await timers.advance(0);
      await eventually('the first run', async () => (await remaining(database.knex, tenant)).length === 1);
      expect(await remaining(database.knex, tenant)).toEqual([kept]);
      expect(timers.pending).toContain(EVENT_RETENTION_INTERVAL_MS);
      expect(old).toBeLessThan(kept);
    } finally {
      await server.stop();
      await database.destroy();
    }
  });
});
