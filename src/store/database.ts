/**
 * Opens the store: knex on PostgreSQL when a URL is given, otherwise embedded PGlite in a data
 * directory (or in memory). Both speak the same SQL dialect, so one set of migrations serves both.
 */
import { mkdirSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { pgTypeParsers } from './type-parsers';

export type DatabaseTarget = { kind: 'postgres'; url: string; poolMax?: number } | { kind: 'pglite'; dataDir?: string };

export interface Database {
  knex: Knex;
  kind: DatabaseTarget['kind'];
  /** A short description for logs (never includes credentials). */
  describe: string;
  close(): Promise<void>;
}

export function openDatabase(target: DatabaseTarget): Database {
  if (target.kind === 'postgres') {
    pgTypeParsers();
    const knex = knexFactory({
      client: 'pg',
      connection: target.url,
      pool: { min: 0, max: target.poolMax ?? 10 },
    });
    return { knex, kind: 'postgres', describe: `postgres ${redactUrl(target.url)}`, close: () => knex.destroy() };
  }
  if (target.dataDir !== undefined) {
    mkdirSync(target.dataDir, { recursive: true });
  }
  const knex = knexFactory({
    client: ClientPgLite,
    dialect: 'postgres',
    connection: target.dataDir === undefined ? {} : { filename: target.dataDir },
  });
  return {
    knex,
    kind: 'pglite',
    describe: target.dataDir === undefined ? 'pglite (in memory)' : `pglite ${target.dataDir}`,
    close: () => knex.destroy(),
  };
}

/** Remove the password from a database URL for logging. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = '***';
    }
    return parsed.toString();
  } catch {
    return '(unparseable database URL)';
  }
}
