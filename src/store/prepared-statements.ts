/**
 * Server-side prepared statements on PostgreSQL (docs/development.md#prepared-statements). A
 * statement marked with `prepared(query)` is sent under a name derived from its SQL text, so each
 * pooled session parses and plans it once (node-pg sends the named Parse once per session) instead
 * of with every execution: most of the planning time of a scheduler pass went to its few large
 * fixed statements (docs/gating.md#performance). Mark only statements whose text is fixed (rows
 * passed as one JSON parameter, single-row forms), never ones whose text grows with their input
 * (a `VALUES` list, `IN (?, ?, ...)`): a session keeps every statement it prepared.
 *
 * The embedded store ignores the mark (one in-process session; src/store/pglite.ts).
 */
import { createHash } from 'node:crypto';
import ClientPg from 'knex/lib/dialects/postgres';

/** The `.options()` key of the mark. */
const PREPARE = 'sluicePrepare';

/**
 * Distinct marked texts one store prepares at most; past it a marked statement runs unnamed and
 * knex's log says so once. A guard against marking a statement whose text varies, which would
 * otherwise fill every session with statements.
 */
export const MAX_PREPARED_TEXTS = 64;

/**
 * Where a transaction's first statement may add `GENERIC_PLANS_JOIN`: on PostgreSQL, so that every
 * marked statement after it in that transaction runs its generic plan, planned once per session,
 * instead of the custom plans PostgreSQL otherwise makes for a statement's first five executions
 * in each session and, for the large statements of a scheduler pass (rows passed as one JSON
 * parameter: nothing in a custom plan depends on the values), for most executions after them,
 * 2 to 3 ms each (docs/gating.md#performance). The setting ends with the transaction. Unmarked
 * statements with parameters in that transaction are planned generically too, once each; the
 * statements of a pass are keyed look-ups and writes, never pattern matches. The embedded store
 * names no statement, so there it adds nothing.
 */
export function namesStatements(knex: { client: unknown }): boolean {
  return knex.client instanceof PreparingPgClient;
}

/** Joined into a transaction's first statement: generic plans until the transaction ends (`namesStatements`). */
export const GENERIC_PLANS_JOIN = `CROSS JOIN (SELECT set_config('plan_cache_mode', 'force_generic_plan', true)) AS generic_plans`;

/** The query options of the mark (also for statements run without a knex query: ./direct-statement.ts). */
export const PREPARED_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({ [PREPARE]: true });

/** Mark a query (builder or raw) to run as a prepared statement on PostgreSQL. */
export function prepared<Query extends { options(options: Readonly<Record<string, unknown>>): Query }>(
  query: Query,
): Query {
  return query.options(PREPARED_OPTIONS);
}

/** What knex hands a client's `_query`, as far as naming needs. */
interface QueryObject {
  sql: string;
  options?: Record<string, unknown>;
}

/** A pooled node-pg session as knex holds it (`__knexTxId` while a transaction runs on it). */
interface PooledSession {
  __knexTxId?: string;
}

type QueryHandler = (this: unknown, connection: PooledSession, obj: QueryObject) => Promise<unknown>;

/**
 * A statement prepared before a schema change that altered its result's columns fails with
 * `cached plan must not change result type` (its row description is fixed when it is parsed);
 * one a pooler or `DISCARD ALL` dropped fails with "does not exist". Told apart by the server
 * function that raised them, which does not depend on the server's language.
 */
function stalePreparedStatement(error: unknown): boolean {
  const { code, routine } = error as { code?: unknown; routine?: unknown };
  return (
    (code === '0A000' && routine === 'RevalidateCachedQuery') ||
    (code === '26000' && routine === 'FetchPreparedStatement')
  );
}

/** What one store remembers of its prepared statements. */
interface PreparedState {
  /** Marked SQL text -> statement name. */
  names: Map<string, string>;
  /** Per session, the statements it prepared again under a new name (how many times). */
  renamed: WeakMap<PooledSession, Map<string, number>>;
  warnedFull: boolean;
}

/**
 * By the store's configuration object: a transaction runs on a client knex makes afresh from this
 * class's prototype with the store's configuration, not on the store's client itself.
 */
const states = new WeakMap<object, PreparedState>();

/** knex's PostgreSQL client, naming the statements marked with `prepared`. */
export class PreparingPgClient extends ClientPg {
  _query(connection: PooledSession, obj: QueryObject): Promise<unknown> {
    const inherited = (ClientPg.prototype as unknown as { _query: QueryHandler })._query;
    const options = obj.options;
    if (options?.[PREPARE] !== true) {
      return inherited.call(this, connection, obj);
    }
    const { [PREPARE]: _mark, ...rest } = options;
    const state = this.state();
    const base = this.nameOf(state, obj.sql);
    if (base === undefined) {
      obj.options = rest;
      return inherited.call(this, connection, obj);
    }
    const run = () => {
      const again = state.renamed.get(connection)?.get(base);
      obj.options = { ...rest, name: again === undefined ? base : `${base}_${again}` };
      return inherited.call(this, connection, obj);
    };
    return run().catch((error: unknown) => {
      if (!stalePreparedStatement(error)) {
        throw error;
      }
      // This session's statement of that name stays unusable: prepare it again under another.
      const renamed = state.renamed.get(connection) ?? new Map<string, number>();
      state.renamed.set(connection, renamed);
      renamed.set(base, (renamed.get(base) ?? 0) + 1);
      // Outside a transaction it is simply run again; inside one the error has aborted it, so it
      // reaches the caller, whose next try prepares the statement anew.
      if (connection.__knexTxId !== undefined) {
        throw error;
      }
      return run();
    });
  }

  private state(): PreparedState {
    const config = this.config as object;
    let state = states.get(config);
    if (state === undefined) {
      state = { names: new Map(), renamed: new WeakMap(), warnedFull: false };
      states.set(config, state);
    }
    return state;
  }

  /** The statement name of a marked text; undefined once `MAX_PREPARED_TEXTS` are named. */
  private nameOf(state: PreparedState, sql: string): string | undefined {
    let name = state.names.get(sql);
    if (name === undefined) {
      if (state.names.size >= MAX_PREPARED_TEXTS) {
        if (!state.warnedFull) {
          state.warnedFull = true;
          this.logger.warn?.(
            `more than ${MAX_PREPARED_TEXTS} statement texts marked prepared: the others run unnamed (is a varying text marked?)`,
          );
        }
        return undefined;
      }
      // Derived from the text, so a name never stands for two texts (node-pg refuses that too).
      name = `sluice_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      state.names.set(sql, name);
    }
    return name;
  }
}
