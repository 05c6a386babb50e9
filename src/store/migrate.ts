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
import * as historyCounts from './migrations/0017-history-counts';
import * as connectionEvents from './migrations/0020-connection-events';

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
  historyCounts,
  connectionEvents,
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

/** Apply every pending migration; returns the names applied. */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(MIGRATION_CONFIG)) as [number, string[]];
  return applied;
}

/** True when no migration is pending. */
export async function migrationsComplete(knex: Knex): Promise<boolean> {
  const [, pending] = (await knex.migrate.list(MIGRATION_CONFIG)) as [unknown[], unknown[]];
  return pending.length === 0;
}
