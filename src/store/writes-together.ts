/**
 * Writes sent together (docs/gating.md#performance): several data-modifying statements whose
 * results nobody reads go to the store as one, each but the last a data-modifying `WITH` of it
 * (PostgreSQL runs every one of them, read or not). They all see the same snapshot and none sees
 * another's rows, so a write may only be grouped with writes it does not depend on and that
 * touch other rows; a failed one fails them all, which inside a transaction changes nothing. A
 * query can close the group, its rows returned. Groups are cut so that no statement has more
 * than `MAX_BINDINGS` parameters.
 */
import type { Knex } from 'knex';
import { runStatement } from './direct-statement';

/** One data-modifying statement with `?` placeholders (not itself starting with `WITH`). */
export interface QueuedWrite {
  sql: string;
  bindings: readonly Knex.Value[];
}

/** Parameters per statement, well under the protocol's 65,535. */
const MAX_BINDINGS = 30_000;

/** A knex query as a queued write. */
export function queuedWrite(query: Knex.QueryBuilder): QueuedWrite {
  const { sql, bindings } = query.toSQL();
  return { sql, bindings };
}

/**
 * Send `writes` (nulls skipped) and then `query` in as few statements as the parameter limit
 * allows, in that order; the rows of `query` (none without it).
 */
export async function writeTogether<Row = unknown>(
  knex: Knex,
  writes: ReadonlyArray<QueuedWrite | null>,
  query?: QueuedWrite,
): Promise<Row[]> {
  const statements = [...writes, query].filter((write): write is QueuedWrite => write != null);
  for (const statement of statements) {
    if (/^\s*with\b/i.test(statement.sql)) {
      throw new Error(`a write sent together may not start with WITH: ${statement.sql.slice(0, 60)}`);
    }
  }
  const groups: QueuedWrite[][] = [];
  let size = Infinity;
  for (const statement of statements) {
    if (size + statement.bindings.length > MAX_BINDINGS) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push(statement);
    size += statement.bindings.length;
  }
  let rows: Row[] = [];
  for (const group of groups) {
    const last = group[group.length - 1];
    const ahead = group.slice(0, -1).map((write, index) => `w${index} AS (${write.sql})`);
    const sql = ahead.length === 0 ? last.sql : `WITH ${ahead.join(', ')} ${last.sql}`;
    rows = (
      await runStatement<Row>(
        knex,
        sql,
        group.flatMap((write) => write.bindings),
      )
    ).rows;
  }
  return query === undefined ? [] : rows;
}
