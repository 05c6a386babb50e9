/**
 * The settings every pooled PostgreSQL session of the store opens with (src/store/database.ts,
 * docs/operations.md#database-links): JIT compilation is off in each of them.
 */
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { describeIf, POSTGRES } from '../../helpers/preconditions';

describeIf(POSTGRES)('store sessions on PostgreSQL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend: 'postgres' });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('runs every pooled session without JIT compilation', async () => {
    // Several transactions at once, so the pool opens several sessions.
    const sessions = await Promise.all(
      Array.from({ length: 3 }, () =>
        db.knex.transaction(async (trx) => {
          const { rows } = (await trx.raw(`SELECT pg_backend_pid() AS pid, current_setting('jit') AS jit`)) as {
            rows: Array<{ pid: number; jit: string }>;
          };
          await trx.raw('SELECT pg_sleep(0.05)');
          return rows[0];
        }),
      ),
    );
    expect(new Set(sessions.map((session) => session.pid)).size).toBe(3);
    expect(sessions.map((session) => session.jit)).toEqual(['off', 'off', 'off']);
  });
});
