/**
 * Which tables need a vacuum, a freeze or an analyze, by autovacuum's default thresholds, and
 * the statement that gives each its care (docs/configuration.md#vacuum-of-the-embedded-store):
 * PGlite runs PostgreSQL in single-user mode, where autovacuum does not run, so the embedded
 * store's service does it (src/server/embedded-vacuum.ts).
 */
import type { Knex } from 'knex';

/** What a table gets: `vacuum` (with analyze), `freeze` (vacuum freezing every row, with analyze) or `analyze` alone. */
export type TableCareKind = 'vacuum' | 'freeze' | 'analyze';

export interface TableCare {
  schema: string;
  table: string;
  kind: TableCareKind;
  /** Why, in numbers (for the log). */
  reason: string;
}

/** PostgreSQL's autovacuum defaults (a base number of rows plus a share of the live rows). */
export interface CareThresholds {
  vacuumBase: number;
  vacuumScale: number;
  insertBase: number;
  insertScale: number;
  analyzeBase: number;
  analyzeScale: number;
  /** Transaction-id age of a table's oldest unfrozen row at which every row is frozen. */
  freezeAge: number;
}

export const DEFAULT_CARE_THRESHOLDS: CareThresholds = {
  vacuumBase: 50,
  vacuumScale: 0.2,
  insertBase: 1000,
  insertScale: 0.2,
  analyzeBase: 50,
  analyzeScale: 0.1,
  // PostgreSQL's vacuum_freeze_table_age: well before autovacuum_freeze_max_age (200 million)
  // and far before the refusal to write at about 2 billion.
  freezeAge: 150_000_000,
};

interface TableStats {
  schema: string;
  table: string;
  live: string | number;
  dead: string | number;
  inserted: string | number;
  modified: string | number;
  xid_age: string | number;
}

/** The tables (user and catalog; a TOAST table goes with its table) that need care now, freezes first, then by dead rows. */
export async function tablesNeedingCare(
  knex: Knex,
  thresholds: CareThresholds = DEFAULT_CARE_THRESHOLDS,
): Promise<TableCare[]> {
  const result = (await knex.raw(
    `SELECT s.schemaname AS schema, s.relname AS "table", s.n_live_tup AS live, s.n_dead_tup AS dead,
            s.n_ins_since_vacuum AS inserted, s.n_mod_since_analyze AS modified,
            GREATEST(age(c.relfrozenxid), COALESCE(age(t.relfrozenxid), 0)) AS xid_age
     FROM pg_stat_all_tables s
     JOIN pg_class c ON c.oid = s.relid
     LEFT JOIN pg_class t ON t.oid = c.reltoastrelid
     WHERE c.relkind IN ('r', 'm') AND s.schemaname NOT IN ('information_schema', 'pg_toast')`,
  )) as { rows: TableStats[] };
  const cares: Array<TableCare & { dead: number }> = [];
  for (const row of result.rows) {
    const live = Number(row.live);
    const dead = Number(row.dead);
    const inserted = Number(row.inserted);
    const modified = Number(row.modified);
    const xidAge = Number(row.xid_age);
    const care = (kind: TableCareKind, reason: string): void => {
      cares.push({ schema: row.schema, table: row.table, kind, reason, dead });
    };
    if (xidAge >= thresholds.freezeAge) {
      care('freeze', `oldest unfrozen transaction id ${xidAge} transactions old`);
    } else if (dead > thresholds.vacuumBase + thresholds.vacuumScale * live) {
      care('vacuum', `${dead} dead rows, ${live} live`);
    } else if (inserted > thresholds.insertBase + thresholds.insertScale * live) {
      care('vacuum', `${inserted} rows inserted since the last vacuum, ${live} live`);
    } else if (modified > thresholds.analyzeBase + thresholds.analyzeScale * live) {
      care('analyze', `${modified} rows changed since the last analyze, ${live} live`);
    }
  }
  const rank = { freeze: 0, vacuum: 1, analyze: 2 };
  return cares.sort((a, b) => rank[a.kind] - rank[b.kind] || b.dead - a.dead).map(({ dead: _dead, ...care }) => care);
}

const STATEMENTS: Record<TableCareKind, string> = {
  vacuum: 'VACUUM (ANALYZE)',
  freeze: 'VACUUM (FREEZE, ANALYZE)',
  analyze: 'ANALYZE',
};

/** Give one table its care (outside any transaction: VACUUM cannot run in one). */
export async function careFor(knex: Knex, care: TableCare): Promise<void> {
  await knex.raw(`${STATEMENTS[care.kind]} ??.??`, [care.schema, care.table]);
}
