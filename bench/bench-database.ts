/**
 * The database of a benchmark: embedded PGlite in memory, or a fresh PostgreSQL database on the
 * server of DATABASE_URL (dropped by `cleanup`).
 */
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { openDatabase, type Database } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';

export async function openBenchDatabase(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const opened = await openEmpty();
  await migrateLatest(opened.database.knex);
  return opened;
}

async function openEmpty(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = openDatabase({ kind: 'pglite' });
    return { database, cleanup: () => database.close() };
  }
  const name = `sluice_bench_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = openDatabase({ kind: 'postgres', url: target.toString(), poolMax: 5 });
  return {
    database,
    cleanup: async () => {
      await database.close();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
