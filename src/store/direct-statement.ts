/**
 * A statement whose SQL text is written out, run on the store's knex client without knex's query
 * builder and runner (docs/development.md#statements-written-out). A scheduler pass and the work
 * runner send a few fixed statements per change; building a knex query for each, compiling it
 * and walking its bindings cost more CPU than sending it (about a seventh of a change's CPU). Here
 * the text goes to the client as it is: the connection is the one knex would use (the
 * transaction's inside one, else one from the pool), the `query` event is still emitted
 * (statement counts, tests) and a failed statement's error still names its SQL, as knex's own do.
 *
 * `?` placeholders only (no `??` identifiers, no named bindings); a binding is sent as it is.
 */
import type { Knex } from 'knex';
import { PREPARED_OPTIONS } from './prepared-statements';

/** What a statement hands back on both stores: its rows and how many rows it touched. */
export interface StatementResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** The query object knex's clients take (`sql`, `bindings`, `options`, `method`). */
interface StatementObject {
  sql: string;
  bindings: readonly unknown[];
  method: 'raw';
  options?: Record<string, unknown>;
}

/** The part of a knex client (plain or a transaction's) this runs a statement through. */
interface StatementClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  query(connection: unknown, obj: StatementObject): Promise<StatementObject>;
  processResponse(obj: StatementObject, runner: unknown): unknown;
}

/**
 * Run `sql` with `bindings` on `knex` (a transaction or the store), as a prepared statement on
 * PostgreSQL when `prepare` is set (its text must then be fixed: ./prepared-statements.ts).
 */
export async function runStatement<Row = Record<string, unknown>>(
  knex: Knex,
  sql: string,
  bindings: readonly unknown[],
  prepare = false,
): Promise<StatementResult<Row>> {
  const client = knex.client as StatementClient;
  const connection = await client.acquireConnection();
  try {
    const obj: StatementObject = { sql, bindings, method: 'raw' };
    if (prepare) {
      obj.options = { ...PREPARED_OPTIONS };
    }
    const response = client.processResponse(await client.query(connection, obj), null) as {
      rows?: Row[];
      rowCount?: number | null;
    };
    const rows = response.rows ?? [];
    return { rows, rowCount: response.rowCount ?? rows.length };
  } finally {
    await client.releaseConnection(connection);
  }
}
