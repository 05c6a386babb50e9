/**
 * Prepared statements (src/store/prepared-statements.ts, docs/development.md#prepared-statements):
 * on PostgreSQL a statement marked `prepared` is parsed once per session under a name derived
 * from its text, survives a schema change that alters its columns and a session that was dropped,
 * and a run of scheduler passes leaves a few statements per session whatever the number of items;
 * past the limit of marked texts the rest run unnamed. The embedded store runs marked statements
 * as any others.
 */
import type { Knex } from 'knex';
import { openDatabase, type Database } from '../../../src/store/database';
import { MAX_PREPARED_TEXTS, prepared } from '../../../src/store/prepared-statements';
import { SchedulerLeaseRepository } from '../../../src/store/repositories/scheduler-leases';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { terminateSessions } from '../../helpers/pg-faults';
import { describeIf, POSTGRES } from '../../helpers/preconditions';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

interface PreparedRow {
  name: string;
  statement: string;
  executions: number;
}

/** The statements the session `knex` runs on has prepared. */
async function preparedIn(knex: Knex | Knex.Transaction, connection?: unknown): Promise<PreparedRow[]> {
  const query = knex.raw(
    `SELECT name, statement, (generic_plans + custom_plans)::int AS executions
     FROM pg_prepared_statements ORDER BY name`,
  );
  const result = (await (connection === undefined ? query : query.connection(connection))) as { rows: PreparedRow[] };
  return result.rows;
}

describe.each(backends())('prepared statements (%s)', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('a marked statement, raw or built, answers as an unmarked one', async () => {
    await db.knex.schema.createTable('marked', (t) => {
      t.integer('id');
      t.text('label');
    });
    await prepared(db.knex('marked')).insert({ id: 1, label: 'one' });
    const raw = (await prepared(db.knex.raw('SELECT label FROM marked WHERE id = ?', [1]))) as {
      rows: Array<{ label: string }>;
    };
    expect(raw.rows).toEqual([{ label: 'one' }]);
    expect(await prepared(db.knex('marked')).where({ id: 1 }).select('label')).toEqual([{ label: 'one' }]);
    expect(await prepared(db.knex('marked')).where({ id: 1 }).update({ label: 'uno' })).toBe(1);
    expect(await db.knex('marked').select('label')).toEqual([{ label: 'uno' }]);
  });

  it("runs the marked statements after a pass's fence with their generic plans on PostgreSQL, in that transaction only", async () => {
    await db.knex.schema.createTable('planned', (t) => {
      t.integer('id');
    });
    const leases = new SchedulerLeaseRepository(db.knex);
    const epoch = await leases.acquire('generic', 'holder', 60_000);
    const setting = async (knex: Knex) =>
      ((await knex.raw(`SELECT current_setting('plan_cache_mode') AS mode`)) as { rows: Array<{ mode: string }> })
        .rows[0].mode;
    const plans = await db.knex.transaction(async (trx) => {
      expect(await leases.renewLockingTenant('generic', 'holder', epoch ?? 0, 60_000, trx)).not.toBeNull();
      for (let run = 0; run < 7; run += 1) {
        await prepared(trx.raw('SELECT count(*) FROM planned WHERE id = ?', [run]));
      }
      const counts = (await trx.raw(
        `SELECT generic_plans::int AS "genericPlans", custom_plans::int AS "customPlans"
         FROM pg_prepared_statements WHERE statement LIKE '%FROM planned WHERE id%'`,
      )) as { rows: Array<{ genericPlans: number; customPlans: number }> };
      return { mode: await setting(trx), counts: counts.rows };
    });
    if (backend === 'pglite') {
      expect(plans.mode).toBe('auto');
      return;
    }
    expect(plans.mode).toBe('force_generic_plan');
    // Without the fence's setting the first five executions are custom plans.
    expect(plans.counts).toEqual([{ genericPlans: 7, customPlans: 0 }]);
    expect(await setting(db.knex)).toBe('auto');
  });
});

const onPostgres = describeIf(POSTGRES);

onPostgres('prepared statements on PostgreSQL', () => {
  let db: TestDatabase;
  /** A store of one session on the same database, so every statement shares it. */
  let single: Database;
  const logged: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ backend: 'postgres' });
    single = openDatabase({
      kind: 'postgres',
      url: db.url as string,
      poolMax: 1,
      applicationName: 'prepared-single',
      log: (_level, message) => logged.push(message),
    });
    await db.knex.raw('CREATE TABLE shapes (id int PRIMARY KEY, label text)');
    await db.knex.raw(`INSERT INTO shapes VALUES (1, 'one')`);
  });

  afterAll(async () => {
    await single.close();
    await db.destroy();
  });

  it('parses a marked statement once per session, under a name from its text; an unmarked one is not kept', async () => {
    await single.knex.transaction(async (trx) => {
      const before = await preparedIn(trx);
      for (let id = 1; id <= 3; id += 1) {
        await prepared(trx.raw('SELECT label FROM shapes WHERE id = ? AND ? > 0', [1, id]));
        await trx.raw('SELECT label FROM shapes WHERE id = ? AND ? < 10', [1, id]);
      }
      const added = (await preparedIn(trx)).filter((row) => !before.some((seen) => seen.name === row.name));
      expect(added).toEqual([
        {
          name: expect.stringMatching(/^sluice_[0-9a-f]{24}$/) as string,
          statement: 'SELECT label FROM shapes WHERE id = $1 AND $2 > 0',
          executions: 3,
        },
      ]);
    });
  });

  it('runs a statement again once a schema change altered its columns; inside a transaction the next try prepares it anew', async () => {
    const select = (knex: Knex) => prepared(knex.raw('SELECT * FROM shapes WHERE id = ?', [1]));
    expect(((await select(single.knex)) as { rows: unknown[] }).rows).toEqual([{ id: 1, label: 'one' }]);
    await db.knex.raw('ALTER TABLE shapes ADD COLUMN colour text');
    // Outside a transaction: run again at once, under a new name.
    expect(((await select(single.knex)) as { rows: unknown[] }).rows).toEqual([{ id: 1, label: 'one', colour: null }]);

    await single.knex.transaction(async (trx) => {
      await select(trx);
    });
    await db.knex.raw('ALTER TABLE shapes ADD COLUMN size int');
    await expect(single.knex.transaction(async (trx) => select(trx))).rejects.toMatchObject({ code: '0A000' });
    const rows = await single.knex.transaction(async (trx) => ((await select(trx)) as { rows: unknown[] }).rows);
    expect(rows).toEqual([{ id: 1, label: 'one', colour: null, size: null }]);
  });

  it('prepares again in the session that replaces a dropped one', async () => {
    const select = () => prepared(single.knex.raw('SELECT label FROM shapes WHERE id = ? AND true', [1]));
    const connection = (await single.knex.client.acquireConnection()) as { once(event: 'end', done: () => void): void };
    const ended = new Promise<void>((resolve) => connection.once('end', resolve));
    await single.knex.client.releaseConnection(connection);
    await select();
    expect(await terminateSessions(db.knex, `application_name = 'prepared-single'`)).toBe(1);
    await ended;
    expect(((await select()) as { rows: unknown[] }).rows).toEqual([{ label: 'one' }]);
    const statements = await preparedIn(single.knex);
    expect(statements.filter((row) => row.statement.includes('AND true'))).toEqual([
      expect.objectContaining({ executions: 1 }),
    ]);
  });

  it(`runs marked texts past the first ${MAX_PREPARED_TEXTS} unnamed, and says so once`, async () => {
    const store = openDatabase({
      kind: 'postgres',
      url: db.url as string,
      poolMax: 1,
      log: (_level, message) => logged.push(message),
    });
    try {
      for (let n = 0; n < MAX_PREPARED_TEXTS + 3; n += 1) {
        await prepared(store.knex.raw(`SELECT ?::int + ${n} AS n`, [1]));
      }
      expect((await preparedIn(store.knex)).length).toBe(MAX_PREPARED_TEXTS);
      expect(logged.filter((message) => message.includes('marked prepared'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});

/**
 * Statements a session may hold after passes: the item saves (2 texts), the tenant's row, the
 * builds started and completed, buildsets created and finished, engine work claimed and completed
 * (2), the lease renewals (2), pending events (a text per set of categories), duration samples
 * and a single event's insert. Measured: 13 texts in all, 8 to 11 per session.
 */
const SESSION_BOUND = 24;

onPostgres('prepared statements after scheduler passes', () => {
  let db: TestDatabase;
  let h: EngineHarness;

  beforeAll(async () => {
    db = await createTestDatabase({ backend: 'postgres' });
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
      }),
    );
    h.executor.auto = () => ({ result: 'SUCCESS', durationMs: 0 });
    await h.start();
  });

  afterAll(async () => {
    await h.stop();
    await db.destroy();
  });

  /** The statements each session of the pool has prepared (every session the pool holds). */
  async function perSession(): Promise<PreparedRow[][]> {
    const pool = (db.knex.client as { pool: { numUsed(): number; numFree(): number } }).pool;
    const connections: unknown[] = [];
    try {
      while (pool.numFree() > 0) {
        connections.push(await db.knex.client.acquireConnection());
      }
      return await Promise.all(connections.map((connection) => preparedIn(db.knex, connection)));
    } finally {
      await Promise.all(connections.map((connection) => db.knex.client.releaseConnection(connection)));
    }
  }

  async function gate(numbers: number[]): Promise<void> {
    for (const number of numbers) {
      h.changes.add('org/project', number);
    }
    // Enqueued together: passes of several items, rows written in batches of varying sizes.
    await Promise.all(
      numbers.map((number) =>
        h.engine.enqueue(h.tenant, { pipeline: 'gate', project: 'org/project', change: `${number},1`, by: 'admin' }),
      ),
    );
    await h.finishEverything();
  }

  it('leaves a bounded set of statements in each session, however many items went through', async () => {
    await gate([1]);
    await gate([2, 3]);
    const early = await perSession();
    const earlyTexts = new Set(early.flat().map((row) => row.statement));
    await gate([4, 5, 6, 7, 8]);
    await gate([9, 10, 11, 12, 13, 14, 15, 16]);
    expect(h.errors).toEqual([]);
    expect(h.merger.mergedOrder).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    const late = await perSession();
    const texts = new Set(late.flat().map((row) => row.statement));
    expect(texts.size).toBeGreaterThan(0);
    expect(Math.max(...late.map((rows) => rows.length))).toBeLessThanOrEqual(SESSION_BOUND);
    expect(texts.size).toBeLessThanOrEqual(SESSION_BOUND);
    // Three times the items in bigger batches prepared next to nothing new.
    expect([...texts].filter((text) => !earlyTexts.has(text)).length).toBeLessThanOrEqual(4);
    process.stdout.write(
      `prepared per session: ${late.map((rows) => rows.length).join(', ')}; texts ${earlyTexts.size} -> ${texts.size}\n`,
    );
  });
});
