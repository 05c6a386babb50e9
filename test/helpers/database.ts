/**
 * Test databases. Each test file gets its own: a fresh PostgreSQL database on the server named
 * by DATABASE_URL (created here, dropped by `destroy`), or an in-memory PGlite store when
 * DATABASE_URL is unset. `backends()` lists what to run store tests against: PGlite always,
 * PostgreSQL too when DATABASE_URL is set.
 *
 * A migrated PGlite store starts from a cached cluster with every migration applied (made once
 * per set of migrations, like the pristine template of src/store/pglite.ts): loading it takes
 * about a second, where initdb and the migrations took ten on this machine.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import ClientPgLite from 'knex-pglite';
import { openDatabase, type Database } from '../../src/store/database';
import { migrateLatest } from '../../src/store/migrate';
import { cachedTemplate, openPglite, pgliteVersion } from '../../src/store/pglite';
import { parseTemplateTree, type TemplateTree } from '../../src/store/pglite-memory';
import { pgTypeParsers } from '../../src/store/type-parsers';

export type Backend = 'pglite' | 'postgres';

export interface TestDatabase extends Database {
  /** URL of the PostgreSQL test database (undefined for PGlite). */
  url?: string;
  destroy(): Promise<void>;
}

/**
 * Every database a test creates starts with this prefix. `.ci/run` sets its own
 * (`SLUICE_TEST_DB_PREFIX`), so its clean-up drops only what its run created and never another
 * run's databases on a shared server.
 */
export function testDatabasePrefix(): string {
  const prefix = process.env.SLUICE_TEST_DB_PREFIX ?? 'sluice_test_';
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) {
    throw new Error(`SLUICE_TEST_DB_PREFIX must be a lower-case SQL identifier prefix, not ${JSON.stringify(prefix)}`);
  }
  return prefix;
}

export function backends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export function defaultBackend(): Backend {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

/** A new, empty database; `migrate: true` (the default) applies all migrations. */
export async function createTestDatabase(
  options: { backend?: Backend; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const backend = options.backend ?? defaultBackend();
  let database: TestDatabase;
  if (backend === 'pglite') {
    const migrated = options.migrate ?? true;
    const db = openDatabase({ kind: 'pglite', template: () => testTemplateTree(migrated) });
    database = { ...db, destroy: () => db.close() };
  } else {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      throw new Error('DATABASE_URL is required for the postgres backend');
    }
    pgTypeParsers();
    const name = `${testDatabasePrefix()}${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
    await admin.raw(`CREATE DATABASE ${name}`);
    await admin.destroy();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 5 });
    let closed = false;
    database = {
      ...db,
      url: url.toString(),
      close: async () => {
        if (!closed) {
          closed = true;
          await db.close();
        }
      },
      destroy: async () => {
        if (!closed) {
          closed = true;
          await db.close();
        }
        const cleanup = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
        await cleanup.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.destroy();
      },
    };
  }
  if (options.migrate ?? true) {
    await migrateLatest(database.knex);
  }
  return database;
}

const STORE = path.resolve(__dirname, '../../src/store');

/** Hash of the migration sources: a changed or new migration makes a new template. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const files = ['migrate.ts', ...readdirSync(path.join(STORE, 'migrations')).map((f) => `migrations/${f}`)].sort();
  for (const file of files) {
    hash.update(file).update(readFileSync(path.join(STORE, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

const fileShared = new Map<string, Promise<unknown>>();

/**
 * What every test file of a jest worker can reuse, made by the first that asks: kept by the
 * worker's runtime (test/helpers/code-cache-runtime.js), or per test file under another runtime.
 * Values cross test files' realms (jest shares its typed arrays and Buffer between them, not
 * everything: never test them with instanceof).
 */
function workerShared<T>(key: string, make: () => Promise<T>): Promise<T> {
  const cache = (globalThis as { sluiceWorkerCache?: Map<string, Promise<unknown>> }).sluiceWorkerCache ?? fileShared;
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
    value.catch(() => cache.delete(key)); // a failure is not kept
  }
  return value as Promise<T>;
}

/**
 * The cluster a test store starts from, parsed (docs/development.md#opening-test-stores): the
 * pristine one, or one with every migration applied. The tarball is cached on disk, the parsed
 * tree per worker. It holds the `postgres` database only: template0 and template1 are dropped, as
 * no test store creates a database, and they were almost half the files every store loads.
 */
function testTemplateTree(migrated: boolean): Promise<TemplateTree> {
  const name = migrated
    ? `pglite-${pgliteVersion()}-migrated-${migrationsHash()}-postgres-only.tar`
    : `pglite-${pgliteVersion()}-postgres-only.tar`;
  return workerShared(name, async () =>
    parseTemplateTree(await cachedTemplate(name, () => makeTestTemplate(migrated))),
  );
}

async function makeTestTemplate(migrated: boolean): Promise<Uint8Array> {
  const pglite = await openPglite({});
  const knex = knexFactory({ client: ClientPgLite, dialect: 'postgres', connection: { pglite } as never });
  try {
    if (migrated) {
      await migrateLatest(knex);
    }
    for (const template of ['template0', 'template1']) {
      await pglite.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE false`);
      await pglite.query(`DROP DATABASE ${template}`); // a statement of its own: not in a transaction
    }
    await pglite.query('CHECKPOINT'); // little WAL to replay when a store starts from the dump
    const tar = await pglite.dumpDataDir('none');
    return new Uint8Array(await tar.arrayBuffer());
  } finally {
    await knex.destroy();
  }
}
