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
  return planOf(result) as PlanNode;
}

/** The plan in the result of an `EXPLAIN (FORMAT JSON)`. */
function planOf(result: unknown): PlanNode | undefined {
  const rows = (result as { rows: Record<string, unknown>[] }).rows;
  return (rows[0]?.['QUERY PLAN'] as { Plan: PlanNode }[])[0]?.Plan;
}

/**
 * The generic plan PostgreSQL runs for a captured statement (EXPLAIN ANALYZE of the statement
 * prepared with `plan_cache_mode = force_generic_plan`): the plan of every statement of a scheduler
 * pass, and of a prepared statement once PostgreSQL stops planning it for its values. Its parameters
 * stay parameters, so a partial index is used only when the statement's own text proves its
 * predicate. Run in a transaction that is rolled back: EXPLAIN ANALYZE of a write makes the write.
 */
export async function explainGenericPlan(knex: Knex, query: { sql: string; bindings: unknown[] }): Promise<PlanNode> {
  let parameter = 0;
  const numbered = query.sql.replace(/\?/g, () => `$${(parameter += 1)}`);
  // EXECUTE takes no bound parameters of its own: its values are written as literals, which the
  // generic plan receives as parameters all the same.
  const values = query.bindings.map((value) => knex.raw('?', [value as Knex.Value]).toQuery()).join(', ');
  // A prepared statement outlives the rollback: each check has a name of its own.
  const name = `generic_plan_check_${(planChecks += 1)}`;
  const trx = await knex.transaction();
  trx.executionPromise.catch(() => undefined); // rejected by the rollback below
  try {
    await trx.raw(`SET LOCAL plan_cache_mode = force_generic_plan`);
    await trx.raw(`PREPARE ${name} AS ${numbered}`);
    const plan = planOf(
      await trx.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}${values === '' ? '' : `(${values})`}`),
    );
    await trx.raw(`DEALLOCATE ${name}`);
    if (plan === undefined) {
      throw new Error(`no plan for ${query.sql}`);
    }
    return plan;
  } finally {
    await trx.rollback();
  }
}

/** Generic plans checked by this process (names their prepared statements). */
let planChecks = 0;
