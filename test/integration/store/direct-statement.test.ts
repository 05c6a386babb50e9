/**
 * Statements written out (src/store/direct-statement.ts, docs/development.md#statements-written-out):
 * run on the connection knex would use (a transaction's own: its rows seen inside it and gone with
 * its rollback), counted by knex's `query` event, prepared on PostgreSQL when asked, with the rows
 * and row count of both stores, and a failed one's error naming its SQL.
 */
import type { Knex } from 'knex';
import { runStatement } from '../../../src/store/direct-statement';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

describe.each(backends())('statements written out (%s)', (backend) => {
  let db: TestDatabase;
  const statements: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    await db.knex.schema.createTable('written_out', (t) => {
      t.integer('id').primary();
      t.text('label').notNullable();
      t.jsonb('data');
    });
    db.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function labels(knex: Knex = db.knex): Promise<string[]> {
    const { rows } = await runStatement<{ label: string }>(knex, 'SELECT label FROM written_out ORDER BY id', []);
    return rows.map((row) => row.label);
  }

  it('returns the rows and row count, sends bindings as they are and is counted as a query', async () => {
    statements.length = 0;
    const inserted = await runStatement<{ id: number }>(
      db.knex,
      'INSERT INTO written_out (id, label, data) VALUES (?, ?, ?), (?, ?, ?) RETURNING id',
      [1, 'one', { list: [1, 2] }, 2, 'two', null],
    );
    expect(inserted).toEqual({ rows: [{ id: 1 }, { id: 2 }], rowCount: 2 });
    const updated = await runStatement(db.knex, 'UPDATE written_out SET label = label || ? WHERE id = ANY(?::int[])', [
      '!',
      [1, 2],
    ]);
    expect(updated.rowCount).toBe(2);
    expect(statements.map((sql) => sql.split(' ')[0])).toEqual(['INSERT', 'UPDATE']);
    expect(await db.knex('written_out').orderBy('id').select('label', 'data')).toEqual([
      { label: 'one!', data: { list: [1, 2] } },
      { label: 'two!', data: null },
    ]);
  });

  it("runs inside a transaction on the transaction's connection", async () => {
    const failure = new Error('roll back');
    await expect(
      db.knex.transaction(async (trx) => {
        await runStatement(trx, 'INSERT INTO written_out (id, label) VALUES (?, ?)', [3, 'three']);
        expect(await labels(trx)).toEqual(['one!', 'two!', 'three']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await labels()).toEqual(['one!', 'two!']);
  });

  it('refuses a statement on a transaction that ended (its session went back to the pool)', async () => {
    const trx = await db.knex.transaction();
    await trx.commit();
    await expect(runStatement(trx, 'INSERT INTO written_out (id, label) VALUES (?, ?)', [4, 'four'])).rejects.toThrow(
      /Transaction query already complete/,
    );
    expect(await labels()).toEqual(['one!', 'two!']);
  });

  it('names the SQL in the error of a failed statement, and the store keeps working', async () => {
    await expect(
      runStatement(db.knex, 'INSERT INTO written_out (id, label) VALUES (?, ?)', [1, 'again']),
    ).rejects.toThrow(/INSERT INTO written_out .* - duplicate key value/);
    expect(await labels()).toEqual(['one!', 'two!']);
  });

  it('prepares the statement on PostgreSQL when asked', async () => {
    const sql = 'SELECT label FROM written_out WHERE id = ?';
    const run = () =>
      db.knex.transaction(async (trx) => {
        const { rows } = await runStatement<{ label: string }>(trx, sql, [2], true);
        const prepared = await runStatement<{ statement: string }>(
          trx,
          `SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT label FROM written_out%'`,
          [],
        );
        return { rows, prepared: prepared.rows.length };
      });
    const result = await run();
    expect(result).toEqual({ rows: [{ label: 'two!' }], prepared: backend === 'postgres' ? 1 : 0 });
  });
});
