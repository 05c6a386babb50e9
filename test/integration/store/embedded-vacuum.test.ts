/**
 * The vacuum of the embedded store (docs/configuration.md#vacuum-of-the-embedded-store): PGlite
 * has no autovacuum, so Sluice picks the tables autovacuum would treat (dead rows, rows inserted
 * since the last vacuum, rows changed since the last analyze, transaction-id age) and vacuums,
 * freezes or analyzes them; a service on an embedded store does it on its own every interval.
 */
import type { Knex } from 'knex';
import { EMBEDDED_VACUUM_INTERVAL_MS, EmbeddedVacuum } from '../../../src/server/embedded-vacuum';
import { DEFAULT_CARE_THRESHOLDS, tablesNeedingCare, type TableCare } from '../../../src/store/table-care';
import { silentLogger } from '../../../src/server/logger';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { eventually } from '../../helpers/pg-faults';
import { startTestServer } from '../../helpers/server';

jest.setTimeout(60_000);

interface TableStats {
  dead: number;
  vacuums: number;
  analyzes: number;
  xidAge: number;
}

/** The table's statistics, after this session's pending ones reached the shared view. */
async function stats(knex: Knex, table: string): Promise<TableStats> {
  await knex.raw('SELECT pg_stat_force_next_flush()');
  const { rows } = (await knex.raw(
    `SELECT s.n_dead_tup AS dead, s.vacuum_count AS vacuums, s.analyze_count AS analyzes, age(c.relfrozenxid) AS xid_age
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = ?`,
    [table],
  )) as { rows: Array<Record<string, string | number>> };
  const row = rows[0];
  return {
    dead: Number(row.dead),
    vacuums: Number(row.vacuums),
    analyzes: Number(row.analyzes),
    xidAge: Number(row.xid_age),
  };
}

async function careOf(knex: Knex, table: string, thresholds = DEFAULT_CARE_THRESHOLDS): Promise<TableCare | undefined> {
  await knex.raw('SELECT pg_stat_force_next_flush()');
  return (await tablesNeedingCare(knex, thresholds)).find((care) => care.table === table);
}

/** A table of `rows` rows, each updated `updates` times (every update leaves a dead row). */
async function probeTable(knex: Knex, name: string, rows: number, updates: number): Promise<void> {
  await knex.raw(`CREATE TABLE ${name} (id int PRIMARY KEY, n int NOT NULL)`);
  await knex.raw(`INSERT INTO ${name} SELECT g, 0 FROM generate_series(1, ${rows}) g`);
  for (let round = 0; round < updates; round += 1) {
    await knex.raw(`UPDATE ${name} SET n = n + 1`);
  }
}

describe('vacuum of the embedded store', () => {
  let db: TestDatabase;
  const vacuum = () => new EmbeddedVacuum({ knex: db.knex, logger: silentLogger() });

  beforeAll(async () => {
    db = await createTestDatabase({ backend: 'pglite' });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('vacuums a table with more dead rows than autovacuum allows, and then leaves it alone', async () => {
    await probeTable(db.knex, 'probe_dead', 100, 2);
    expect(await careOf(db.knex, 'probe_dead')).toMatchObject({ kind: 'vacuum', reason: '200 dead rows, 100 live' });
    const done = await vacuum().runOnce();
    expect(done.map((care) => care.table)).toContain('probe_dead');
    expect(await stats(db.knex, 'probe_dead')).toMatchObject({ dead: 0, vacuums: 1, analyzes: 1 });
    expect(await careOf(db.knex, 'probe_dead')).toBeUndefined();
    expect((await vacuum().runOnce()).map((care) => care.table)).not.toContain('probe_dead');
  });

  it('leaves a table alone below the threshold', async () => {
    await probeTable(db.knex, 'probe_few', 1000, 0);
    await db.knex.raw('ANALYZE probe_few');
    // 200 dead rows of 1,000 live: the threshold is 50 + 20% of 1,000 = 250.
    await db.knex.raw('UPDATE probe_few SET n = 1 WHERE id <= 200');
    expect(await careOf(db.knex, 'probe_few')).toMatchObject({ kind: 'analyze' });
    await db.knex.raw('ANALYZE probe_few');
    expect(await careOf(db.knex, 'probe_few')).toBeUndefined();
    await db.knex.raw('UPDATE probe_few SET n = 2 WHERE id <= 60');
    expect(await careOf(db.knex, 'probe_few')).toMatchObject({ kind: 'vacuum', reason: '260 dead rows, 1000 live' });
  });

  it('analyzes a table that only grew, and vacuums one that grew a lot', async () => {
    await probeTable(db.knex, 'probe_grown', 200, 0);
    expect(await careOf(db.knex, 'probe_grown')).toMatchObject({ kind: 'analyze' });
    await vacuum().runOnce();
    expect(await stats(db.knex, 'probe_grown')).toMatchObject({ vacuums: 0, analyzes: 1 });
    await db.knex.raw('INSERT INTO probe_grown SELECT g, 0 FROM generate_series(201, 1500) g');
    expect(await careOf(db.knex, 'probe_grown')).toMatchObject({ kind: 'vacuum' });
  });

  it('freezes a table whose oldest row is older than the freeze age', async () => {
    await probeTable(db.knex, 'probe_old', 10, 0);
    await db.knex.raw('VACUUM ANALYZE probe_old');
    for (let spent = 0; spent < 30; spent += 1) {
      await db.knex.raw('SELECT txid_current()'); // each takes a transaction id
    }
    const thresholds = { ...DEFAULT_CARE_THRESHOLDS, freezeAge: 20 };
    expect((await stats(db.knex, 'probe_old')).xidAge).toBeGreaterThanOrEqual(20);
    expect(await careOf(db.knex, 'probe_old', thresholds)).toMatchObject({ kind: 'freeze' });
    await new EmbeddedVacuum({ knex: db.knex, logger: silentLogger(), thresholds }).runOnce();
    expect((await stats(db.knex, 'probe_old')).xidAge).toBeLessThan(20);
    expect(await careOf(db.knex, 'probe_old', thresholds)).toBeUndefined();
  });

  it('stops a run between tables when stopped', async () => {
    await probeTable(db.knex, 'probe_stop', 100, 1);
    await db.knex.raw('SELECT pg_stat_force_next_flush()');
    const task = vacuum();
    const run = task.runOnce();
    await task.stop();
    expect(await run).toEqual([]);
    expect(await stats(db.knex, 'probe_stop')).toMatchObject({ vacuums: 0, dead: 100 });
  });

  it('runs every interval in a service on an embedded store', async () => {
    const timers = new FakeTimerClock();
    const server = await startTestServer({ backend: 'pglite', timers, tenants: [] });
    try {
      const { knex } = server.database;
      await probeTable(knex, 'probe_service', 100, 1);
      const before = await stats(knex, 'probe_service');
      await timers.advance(EMBEDDED_VACUUM_INTERVAL_MS - 1);
      expect(await stats(knex, 'probe_service')).toEqual(before);
      await timers.advance(1);
      await eventually('the vacuum run', async () => (await stats(knex, 'probe_service')).vacuums === 1);
      expect(await stats(knex, 'probe_service')).toMatchObject({ dead: 0, analyzes: 1 });
    } finally {
      await server.stop();
    }
  });
});
