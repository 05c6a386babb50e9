/**
 * Migrations are listed here explicitly (not discovered on disk) so they run the same under
 * tsx, jest and a compiled build.
 */
import type { Knex } from 'knex';
import * as initial from './migrations/0001-initial';
import * as configErrorContext from './migrations/0002-config-error-context';
import * as historyReadPaths from './migrations/0004-history-read-paths';
import * as buildRequestLifecycle from './migrations/0005-build-request-lifecycle';
import * as engineState from './migrations/0006-engine-state';
import * as launcher from './migrations/0009-launcher';
import * as buildRequestPause from './migrations/0010-build-request-pause';
import * as shortProjectNames from './migrations/0011-short-project-names';
import * as recovery from './migrations/0013-recovery';
import * as leasesAndBusOutbox from './migrations/0012-leases-and-bus-outbox';
import * as buildEstimates from './migrations/0015-build-estimates';
import * as historyCounts from './migrations/0017-history-counts';
import * as dashboardGaps from './migrations/0019-dashboard-gaps';
import * as connectionEvents from './migrations/0020-connection-events';
import * as githubCheckRuns from './migrations/0023-github-check-runs';
import * as durationSamples from './migrations/0024-duration-samples';
import * as analytics from './migrations/0025-analytics';
import * as flakyGating from './migrations/0026-flaky-gating';
import * as successDurationsIndex from './migrations/0027-success-durations-index';
import * as engineWork from './migrations/0028-engine-work';
import * as durationHistograms from './migrations/0029-duration-histograms';
import * as connectionEventsIndexes from './migrations/0030-connection-events-indexes';
import * as oidcSigningKeys from './migrations/0031-oidc-signing-keys';
import * as engineWorkRetention from './migrations/0032-engine-work-retention';
import * as engineEventsRetention from './migrations/0033-engine-events-retention';
import * as itemMergeLists from './migrations/0034-item-merge-lists';
import * as engineEventsPendingOrder from './migrations/0035-engine-events-pending-order';
import * as buildsRefJobIndex from './migrations/0036-builds-ref-job-index';
import * as itemRowsFillfactor from './migrations/0037-item-rows-fillfactor';
import * as historyPatternIndexes from './migrations/0038-history-pattern-indexes';

interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const MIGRATIONS: Migration[] = [
  initial,
  configErrorContext,
  historyReadPaths,
  buildRequestLifecycle,
  engineState,
  launcher,
  buildRequestPause,
  shortProjectNames,
  recovery,
  leasesAndBusOutbox,
  buildEstimates,
  historyCounts,
  dashboardGaps,
  connectionEvents,
  githubCheckRuns,
  durationSamples,
  analytics,
  flakyGating,
  successDurationsIndex,
  engineWork,
  durationHistograms,
  connectionEventsIndexes,
  oidcSigningKeys,
  engineWorkRetention,
  engineEventsRetention,
  itemMergeLists,
  engineEventsPendingOrder,
  buildsRefJobIndex,
  itemRowsFillfactor,
  historyPatternIndexes,
];

class ListedMigrationSource implements Knex.MigrationSource<Migration> {
  getMigrations(): Promise<Migration[]> {
    return Promise.resolve(MIGRATIONS);
  }
  getMigrationName(migration: Migration): string {
    return migration.name;
  }
  getMigration(migration: Migration): Promise<Knex.Migration> {
    return Promise.resolve(migration);
  }
}

const MIGRATION_CONFIG: Knex.MigratorConfig = {
  migrationSource: new ListedMigrationSource(),
  tableName: 'sluice_migrations',
};

/** The names of every migration, in the order they are applied. */
export function migrationNames(): string[] {
  return MIGRATIONS.map((migration) => migration.name);
}

/**
 * Apply every pending migration; returns the names applied. Processes of a cluster may start at
 * once (docs/operations.md#running-a-cluster): one migrates, the others find the migration table
 * locked (or lose the race to create it) and try again every `delayMs` until it is done.
 */
export async function migrateLatest(knex: Knex, retry = { attempts: 300, delayMs: 200 }): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      await prepareMigrationTables(knex);
      const [, applied] = (await knex.migrate.latest(MIGRATION_CONFIG)) as [number, string[]];
      return applied;
    } catch (err) {
      if (attempt >= retry.attempts || !isConcurrentMigration(err)) {
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs));
    }
  }
}

/** Any fixed key: it serialises the creation of the migration tables across processes. */
const MIGRATION_TABLES_LOCK = 7_112_004_001;

/**
 * Create knex's migration tables and the single lock row, one process at a time. knex creates
 * them itself with check-then-act statements: processes starting at once could each insert a
 * lock row, and with two rows knex reports "Migration table is already locked" forever. A store
 * left with extra rows by that race is repaired here (the rows are interchangeable; knex only
 * ever sets is_locked inside the migrating transaction).
 */
async function prepareMigrationTables(knex: Knex): Promise<void> {
  const table = MIGRATION_CONFIG.tableName ?? 'knex_migrations';
  const lockTable = `${table}_lock`;
  await knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_TABLES_LOCK]);
    await trx.raw(
      `CREATE TABLE IF NOT EXISTS ?? (id serial PRIMARY KEY, name varchar(255), batch integer, migration_time timestamptz)`,
      [table],
    );
    await trx.raw(`CREATE TABLE IF NOT EXISTS ?? ("index" serial PRIMARY KEY, is_locked integer)`, [lockTable]);
    await trx.raw(`DELETE FROM ?? WHERE "index" > (SELECT min("index") FROM ??)`, [lockTable, lockTable]);
    await trx.raw(`INSERT INTO ?? (is_locked) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM ??)`, [lockTable, lockTable]);
  });
}

/** Another process migrates: knex's lock is taken, or it created the migration tables first. */
function isConcurrentMigration(err: unknown): boolean {
  const { name, message, code } = err as { name?: string; message?: string; code?: string };
  return (
    name === 'MigrationLocked' ||
    (message ?? '').includes('Migration table is already locked') ||
    code === '23505' || // unique_violation: the same table's type created at once
    code === '42P07' // duplicate_table
  );
}

/** True when no migration is pending. */
export async function migrationsComplete(knex: Knex): Promise<boolean> {
  const [, pending] = (await knex.migrate.list(MIGRATION_CONFIG)) as [unknown[], unknown[]];
  return pending.length === 0;
}

/**
 * Apply the pending migrations up to and including `last`, in order (a migration's data changes
 * are tested from the state before it); returns the names applied.
 */
export async function migrateUpTo(knex: Knex, last: string): Promise<string[]> {
  if (!MIGRATIONS.some((migration) => migration.name === last)) {
    throw new Error(`unknown migration ${last}`);
  }
  const [completed] = (await knex.migrate.list(MIGRATION_CONFIG)) as [Array<{ name: string } | string>, unknown[]];
  const done = new Set(completed.map((row) => (typeof row === 'string' ? row : row.name)));
  const applied: string[] = [];
  for (const migration of MIGRATIONS) {
    if (!done.has(migration.name)) {
      await knex.migrate.up({ ...MIGRATION_CONFIG, name: migration.name });
      applied.push(migration.name);
    }
    if (migration.name === last) {
      break;
    }
  }
  return applied;
}
