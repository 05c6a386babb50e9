/**
 * Query plans in store tests: the SQL statements an action sends (to EXPLAIN them) and a walk
 * over a plan's nodes.
 */
import type { Knex } from 'knex';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

export function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) {
    yield* walk(child);
  }
}

/** The index a scan reads: its own, or that of the bitmap index scan under it. */
export function indexOf(node: PlanNode): string | undefined {
  return node['Index Name'] ?? (node.Plans ?? []).find((child) => child['Index Name'])?.['Index Name'];
}

/** Runs `action` and returns the SQL statements (with their bindings) it sent. */
export async function captureQueries(
  knex: Knex,
  action: () => Promise<unknown>,
): Promise<{ sql: string; bindings: unknown[] }[]> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listener = (query: { sql: string; bindings?: unknown[] }): void => {
    // The event carries the driver's numbered placeholders; knex.raw below wants `?`.
    seen.push({ sql: query.sql.replace(/\$\d+/g, '?'), bindings: query.bindings ?? [] });
  };
  knex.on('query', listener);
  try {
    await action();
  } finally {
    knex.off('query', listener);
  }
  return seen;
}

/** The plan PostgreSQL ran for a captured statement (EXPLAIN ANALYZE). */
export async function explainPlan(knex: Knex, query: { sql: string; bindings: unknown[] }): Promise<PlanNode> {
  const result = await knex.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, query.bindings as Knex.RawBinding[]);
  const rows = (result as { rows: Record<string, unknown>[] }).rows;
  return (rows[0]?.['QUERY PLAN'] as { Plan: PlanNode }[])[0]?.Plan as PlanNode;
}
