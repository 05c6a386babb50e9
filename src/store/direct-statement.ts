/**
 * A statement whose SQL text is written out, run on the store's knex client without knex's query
 * builder and runner (docs/development.md#statements-written-out). A scheduler pass and the work
 * runner send a few fixed statements per change; building a knex query for each, compiling it
 * and walking its bindings cost more CPU than sending it (about a seventh of a change's CPU). Here
 * the text goes to the client as it is: the connection is the one knex would use (the
 * transaction's inside one, else one from the pool), the `query` event is still emitted
 * (statement counts, tests), a failed statement's error still names its SQL, as knex's own do,
 * and a transaction that ended takes no statement.
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

/** A pooled session as knex marks it. */
interface KnexConnection {
  __knexUid?: string;
  __knexTxId?: string;
}

/** The part of a knex client (plain or a transaction's) this runs a statement through. */
interface StatementClient {
  acquireConnection(): Promise<KnexConnection>;
  releaseConnection(connection: KnexConnection): Promise<unknown>;
  positionBindings(sql: string): string;
  _query(connection: KnexConnection, obj: StatementObject): Promise<StatementObject>;
  processResponse(obj: StatementObject, runner: unknown): unknown;
  emit(event: 'query', query: unknown): boolean;
}

/**
 * Texts with their `?` turned into the dialect's placeholders (`$1`...), by text: knex does it
 * with a pass of a regular expression over the text for every statement, and a pass's texts are
 * kilobytes long. Bounded: texts whose `VALUES` lists follow their input are many.
 */
const positioned = new Map<string, string>();
const MAX_POSITIONED = 256;

function positionedText(client: StatementClient, sql: string): string {
  let text = positioned.get(sql);
  if (text === undefined) {
    if (positioned.size >= MAX_POSITIONED) {
      positioned.clear();
    }
    text = client.positionBindings(sql);
    positioned.set(sql, text);
  }
  return text;
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
  const transaction = knex as unknown as { isTransaction?: boolean; isCompleted?: () => boolean };
  if (transaction.isTransaction === true && transaction.isCompleted?.() === true) {
    // As knex refuses it: the transaction's session went back to the pool.
    throw new Error(`Transaction query already complete: ${sql.slice(0, 60)}`);
  }
  const connection = await client.acquireConnection();
  try {
    const obj: StatementObject = { sql: positionedText(client, sql), bindings, method: 'raw' };
    if (prepare) {
      obj.options = { ...PREPARED_OPTIONS };
    }
    client.emit('query', { __knexUid: connection.__knexUid, __knexTxId: connection.__knexTxId, ...obj });
    let done: StatementObject;
    try {
      done = await client._query(connection, obj);
    } catch (error) {
      if (error instanceof Error) {
        error.message = `${obj.sql} - ${error.message}`;
      }
      throw error;
    }
    const response = client.processResponse(done, null) as { rows?: Row[]; rowCount?: number | null };
    const rows = response.rows ?? [];
    return { rows, rowCount: response.rowCount ?? rows.length };
  } finally {
    await client.releaseConnection(connection);
  }
}
