/**
 * Opens the store: knex on PostgreSQL when a URL is given, otherwise embedded PGlite in a data
 * directory (or in memory), opened as pglite.ts describes. Both speak the same SQL dialect, so one
 * set of migrations serves both.
 */
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { IN_USE_BY_ANOTHER_PROCESS, lockDataDirectory, type DataDirectoryLock } from './data-dir-lock';
import { LazyPgliteClient, openPglite, type TemplateData } from './pglite';
import { PreparingPgClient } from './prepared-statements';
import { pgTypeParsers } from './type-parsers';

export type DatabaseTarget =
  | {
      kind: 'postgres';
      url: string;
      poolMax?: number;
      /** `application_name` of the pool's sessions (docs/operations.md#database-links). */
      applicationName?: string;
      /** Where knex's own messages go (a dropped pooled session, for instance); else the console. */
      log?: (level: 'warn' | 'error', message: string) => void;
    }
  | {
      kind: 'pglite';
      dataDir?: string;
      /** Where knex's own messages go; else the console. */
      log?: (level: 'warn' | 'error', message: string) => void;
      /** The cluster a new store starts from (tests pass a migrated one); see pglite.ts. */
      template?: () => Promise<TemplateData>;
    };

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
    // knex drops a pooled session that errored or ended and opens another for the next query,
    // so a terminated session or a PostgreSQL restart costs the queries in flight, never the
    // process (docs/operations.md#database-links). Connecting gives up after 5 s (the pool
    // retries while a query waits); keepalive notices a peer that vanished without a word.
    // Statements marked `prepared` are parsed and planned once per session (./prepared-statements.ts).
    const knex = knexFactory({
      client: PreparingPgClient,
      connection: {
        connectionString: target.url,
        application_name: target.applicationName ?? 'sluice',
        connectionTimeoutMillis: 5000,
        keepAlive: true,
      } as Knex.PgConnectionConfig,
      pool: { min: 0, max: target.poolMax ?? 10, afterCreate: withoutJit },
      ...(target.log === undefined ? {} : { log: knexLog(target.log) }),
    });
    return { knex, kind: 'postgres', describe: `postgres ${redactUrl(target.url)}`, close: () => knex.destroy() };
  }
  const { dataDir, template } = target;
  // A data directory is this process's alone from the first open to close()
  // (docs/operations.md#one-process-per-embedded-store); a refused open is tried again by the
  // next query, like any failed open.
  let lock: Promise<DataDirectoryLock> | undefined;
  const locked = async (): Promise<void> => {
    if (dataDir === undefined) {
      return;
    }
    lock ??= lockDataDirectory(path.resolve(dataDir));
    const taking = lock;
    await taking.catch((err: unknown) => {
      if (lock === taking) {
        lock = undefined;
      }
      throw err;
    });
  };
  const log = target.log ?? ((level, message) => console[level](message));
  const knex = knexFactory({
    client: LazyPgliteClient,
    dialect: 'postgres',
    // knex warns of every failed open with its stack; a refusal by the lock reaches the caller,
    // who says it in one line.
    log: knexLog((level, message) => {
      if (!message.includes(IN_USE_BY_ANOTHER_PROCESS)) {
        log(level, message);
      }
    }),
    connection: {
      open: async () => {
        await locked();
        return openPglite({ dataDir, template });
      },
    } as Knex.StaticConnectionConfig,
  });
  return {
    knex,
    kind: 'pglite',
    describe: target.dataDir === undefined ? 'pglite (in memory)' : `pglite ${target.dataDir}`,
    close: async () => {
      await knex.destroy();
      const held = lock;
      lock = undefined;
      await held?.then(
        (taken) => taken.release(),
        () => undefined,
      );
    },
  };
}

/**
 * Each pooled PostgreSQL session runs without JIT compilation (docs/operations.md#database-links).
 * Sluice's statements are short; JIT only pays for long scans, and a plan estimated large enough
 * to cross `jit_above_cost` compiles at every execution: a plan a trigger function kept from a
 * large first insert cost each later item save of that session 380 to 530 ms, most of it
 * compiling.
 */
function withoutJit(connection: PgSession, done: (error: Error | null, connection: PgSession) => void): void {
  connection.query('SET jit = off', (error) => done(error, connection));
}

/** A pooled node-pg session, as far as `withoutJit` needs. */
interface PgSession {
  query(sql: string, callback: (error: Error | null) => void): void;
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

function knexLog(log: (level: 'warn' | 'error', message: string) => void): Knex.Config['log'] {
  const text = (message: unknown): string => (message instanceof Error ? message.message : String(message));
  return {
    warn: (message: unknown) => log('warn', text(message)),
    error: (message: unknown) => log('error', text(message)),
    deprecate: (method: string, alternative: string) => log('warn', `${method} is deprecated, use ${alternative}`),
    debug: () => undefined,
  };
}
