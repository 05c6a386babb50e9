/**
 * A PostgreSQL database named by `database.url` that does not exist yet is created before the
 * first process uses it (`CREATE DATABASE`, through the server's `postgres` database), so a
 * cluster starts on an empty server (examples/cluster/). When it cannot be created the start
 * ends with one line naming the database and the reason (docs/operations.md#database-links).
 * Any other connection failure is left to the store, which retries it.
 */
import pg from 'pg';
import { redactUrl } from './database';

/**
 * The database is missing and could not be created, or the server refuses the credentials (which
 * no retry mends): the operator's one-line message.
 */
export class DatabaseSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseSetupError';
  }
}

const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';
/** invalid_authorization_specification (an unknown role) and invalid_password. */
const REFUSED_CREDENTIALS = new Set(['28000', '28P01']);

function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return redactUrl(url);
  }
}

function databaseOf(url: string): string | undefined {
  try {
    const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

function code(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? ((err as { code?: string }).code ?? undefined) : undefined;
}

async function connectAndEnd(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  // An error after connect (the server going away) must not be an unhandled 'error' event.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * "database "X" does not exist on host:port" when the server says so, else undefined (it exists,
 * or the server cannot be reached: the store reports and retries that). Throws DatabaseSetupError
 * when the server refuses the credentials.
 */
export async function missingPostgresDatabase(url: string): Promise<string | undefined> {
  const database = databaseOf(url);
  try {
    await connectAndEnd(url);
    return undefined;
  } catch (err) {
    if (REFUSED_CREDENTIALS.has(code(err) ?? '')) {
      throw new DatabaseSetupError(
        `PostgreSQL at ${serverOf(url)} refuses the connection to database "${database}": ${(err as Error).message}`,
      );
    }
    return code(err) === INVALID_CATALOG_NAME && database !== undefined
      ? `database "${database}" does not exist on ${serverOf(url)}`
      : undefined;
  }
}

/**
 * Creates the database of `url` when the server says it does not exist; resolves to true when it
 * created it. Throws DatabaseSetupError when it cannot, or when the server refuses the
 * credentials; any other failure to connect resolves to false (the store reports and retries those).
 */
export async function ensurePostgresDatabase(url: string): Promise<boolean> {
  const database = databaseOf(url);
  if (database === undefined || (await missingPostgresDatabase(url)) === undefined) {
    return false;
  }
  const maintenance = new URL(url);
  maintenance.pathname = database === 'postgres' ? '/template1' : '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
    return true;
  } catch (err) {
    // Another process of the cluster created it at the same moment.
    if (code(err) === DUPLICATE_DATABASE || code(err) === UNIQUE_VIOLATION) {
      return false;
    }
    throw new DatabaseSetupError(
      `database "${database}" does not exist on ${serverOf(url)} and could not be created ` +
        `(${err instanceof Error ? err.message : String(err)}); create it (createdb "${database}") or change ` +
        'database.url / DATABASE_URL',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
