import { backends, createTestDatabase, type TestDatabase } from '../helpers/database';
import { migrateLatest, migrationsComplete } from '../../src/store/migrate';
import { SystemEventRepository } from '../../src/store/repositories/system-events';
import { openDatabase } from '../../src/store/database';
import { describeIf, MULTI_PROCESS } from '../helpers/preconditions';

const EXPECTED_TABLES = [
  'artifacts',
  'autohold_requests',
  'build_events',
  'build_requests',
  'builds',
  'bus_messages',
  'buildset_events',
  'buildset_refs',
  'buildsets',
  'change_queues',
  'components',
  'config_errors',
  'engine_events',
  'git_poller_state',
  'image_build_artifacts',
  'image_uploads',
  'keys',
  'nodes',
  'nodeset_requests',
  'pipeline_state',
  'provides',
  'queue_item_jobs',
  'queue_items',
  'refs',
  'scheduler_leases',
  'semaphore_holders',
  'system_events',
  'tenant_state',
];

describe.each(backends())('store on %s', (backend) => {
  it('applies every migration on an empty database, then nothing more', async () => {
    const db = await createTestDatabase({ backend, migrate: false });
    try {
      expect(await migrationsComplete(db.knex)).toBe(false);
      const applied = await migrateLatest(db.knex);
      expect(applied[0]).toBe('0001-initial');
      expect(await migrationsComplete(db.knex)).toBe(true);
      expect(await migrateLatest(db.knex)).toEqual([]);
      const rows = await db
        .knex('information_schema.tables')
        .where({ table_schema: 'public' })
        .whereNotIn('table_name', ['sluice_migrations', 'sluice_migrations_lock'])
        .pluck('table_name');
      expect(rows.sort()).toEqual(expect.arrayContaining(EXPECTED_TABLES));
    } finally {
      await db.destroy();
    }
  });

  it('indexes every documented build filter column', async () => {
    const db = await createTestDatabase({ backend });
    try {
      const indexes: string[] = await db.knex('pg_indexes').where({ schemaname: 'public' }).pluck('indexdef');
      const covered = (table: string, column: string) =>
        indexes.some(
          (def) =>
            def.includes(` ON public.${table} `) && new RegExp(`(\\(|, )${column}( text_pattern_ops)?[,)]`).test(def),
        );
      for (const column of ['project', 'ref', 'change', 'patchset', 'newrev', 'branch']) {
        expect([column, covered('refs', column)]).toEqual([column, true]);
      }
      for (const column of ['uuid', 'job_name', 'buildset_id', 'ref_id', 'end_time', 'tenant']) {
        expect([column, covered('builds', column)]).toEqual([column, true]);
      }
      for (const column of ['tenant', 'pipeline', 'result']) {
        expect([column, covered('buildsets', column)]).toEqual([column, true]);
      }
    } finally {
      await db.destroy();
    }
  });

  it('round-trips a system event with timestamptz and jsonb columns', async () => {
    const db = await createTestDatabase({ backend });
    try {
      const repo = new SystemEventRepository(db.knex);
      const at = new Date('2026-05-01T10:20:30.000Z');
      await repo.record({
        tenant: 't1',
        eventType: 'reconfigured',
        description: 'first',
        eventTime: at,
        data: { a: [1] },
      });
      await repo.record({ tenant: 't1', eventType: 'enqueued', description: 'second', eventTime: at });
      await repo.record({ tenant: 't2', eventType: 'reconfigured', description: 'other tenant', eventTime: at });
      const all = await repo.list('t1', { limit: 10, offset: 0 });
      expect(all.map((e) => e.description)).toEqual(['second', 'first']);
      expect(all[1].eventTime.toISOString()).toBe(at.toISOString());
      expect(all[1].data).toEqual({ a: [1] });
      expect(all[1].eventId).toMatch(/^[0-9a-f]{32}$/);
      const filtered = await repo.list('t1', { types: ['reconfigured'], limit: 10, offset: 0 });
      expect(filtered.map((e) => e.description)).toEqual(['first']);
    } finally {
      await db.destroy();
    }
  });
});

const withPostgres = describeIf(MULTI_PROCESS);

withPostgres('migrations of processes starting at once (PostgreSQL)', () => {
  const lockRows = async (db: TestDatabase): Promise<number> =>
    Number(((await db.knex('sluice_migrations_lock').count({ n: '*' })) as Array<{ n: string }>)[0].n);

  it.each([1, 2, 3])(
    'eight pools migrating one empty database together all succeed; the migrations run once (round %i)',
    async () => {
      const db = await createTestDatabase({ backend: 'postgres', migrate: false });
      const others = Array.from({ length: 7 }, () => openDatabase({ kind: 'postgres', url: db.url ?? '' }));
      try {
        // Few attempts: a store wedged by a second lock row would never migrate, not slowly.
        const results = await Promise.all(
          [db, ...others].map((pool) => migrateLatest(pool.knex, { attempts: 50, delayMs: 100 })),
        );
        // Each migration was applied by exactly one of them.
        expect(results.flat().sort()).toEqual(
          [...results.flat()].sort().filter((name, i, all) => all.indexOf(name) === i),
        );
        expect(results.flat()).toContain('0001-initial');
        expect(await migrationsComplete(db.knex)).toBe(true);
        expect(await lockRows(db)).toBe(1);
      } finally {
        await Promise.all(others.map((pool) => pool.close()));
        await db.destroy();
      }
    },
  );

  it('repairs a store whose lock table got a second row from that race in an earlier version', async () => {
    const db = await createTestDatabase({ backend: 'postgres', migrate: false });
    try {
      await db.knex.schema.createTable('sluice_migrations_lock', (t) => {
        t.increments('index').primary();
        t.integer('is_locked');
      });
      await db.knex('sluice_migrations_lock').insert([{ is_locked: 0 }, { is_locked: 0 }]);
      await migrateLatest(db.knex, { attempts: 3, delayMs: 10 });
      expect(await migrationsComplete(db.knex)).toBe(true);
      expect(await lockRows(db)).toBe(1);
    } finally {
      await db.destroy();
    }
  });
});
