/**
 * Query helpers shared by the build-history repositories: REST-compatible value matching
 * (repeated values OR'ed, `*` wildcards) and keyset pages over newest-first lists.
 */
import type { Knex } from 'knex';

/**
 * One page of a newest-first list. `after` and `before` are keyset cursors (the sort key of a
 * row); `offset` skips rows inside the window they leave (REST `skip`). With `fromEnd` the page
 * is taken from the oldest end of the window (GraphQL `last`); rows still come back newest first.
 */
export interface KeysetPage<Cursor> {
  after?: Cursor;
  before?: Cursor;
  limit: number;
  offset: number;
  fromEnd: boolean;
}

/** Escapes LIKE metacharacters and turns `*` into `%` (docs/rest.md#builds "Wildcards"). */
export function wildcardToLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/\*/g, '%');
}

/**
 * Restricts `column` to any of `values` (OR). With `wildcards`, a value containing `*` is matched
 * with LIKE; other values are compared exactly. An empty or absent list adds no condition.
 */
export function whereAnyOf(
  query: Knex.QueryBuilder,
  column: string,
  values: readonly (string | number)[] | undefined,
  wildcards = false,
): void {
  if (values === undefined || values.length === 0) {
    return;
  }
  const exact = values.filter((value) => !(wildcards && typeof value === 'string' && value.includes('*')));
  const patterns = values.filter(
    (value): value is string => wildcards && typeof value === 'string' && value.includes('*'),
  );
  query.where((inner) => {
    if (exact.length > 0) {
      inner.orWhereIn(column, exact);
    }
    for (const pattern of patterns) {
      inner.orWhereRaw('?? LIKE ? ESCAPE ?', [column, wildcardToLike(pattern), '\\']);
    }
  });
}

/**
 * The `project` filter of the history lists: each value matches the project's name
 * (`org/project`, what the reference stores) or, for convenience, its canonical name
 * (`host/org/project`); `table` has both columns (docs/gating.md#project-names-in-history).
 */
export function whereProject(
  query: Knex.QueryBuilder,
  table: 'refs' | 'builds',
  values: readonly string[] | undefined,
  wildcards = false,
): void {
  if (values === undefined || values.length === 0) {
    return;
  }
  query.where((inner) => {
    inner.where((byName) => whereAnyOf(byName, `${table}.project`, values, wildcards));
    inner.orWhere((byCanonical) => whereAnyOf(byCanonical, `${table}.project_canonical`, values, wildcards));
  });
}

/** REST `result` / `exclude_result` / `complete` on a nullable result column. */
export function whereResult(
  query: Knex.QueryBuilder,
  column: string,
  filter: { result?: readonly string[]; excludeResult?: readonly string[]; complete?: boolean },
): void {
  whereAnyOf(query, column, filter.result);
  if (filter.excludeResult !== undefined && filter.excludeResult.length > 0) {
    // SQL semantics of the reference: NOT IN also drops rows whose result is still null.
    query.whereNotIn(column, filter.excludeResult).whereNotNull(column);
  }
  if (filter.complete === true) {
    query.whereNotNull(column);
  } else if (filter.complete === false) {
    query.whereNull(column);
  }
}

/** Inclusive id range (REST `idx_min` / `idx_max`). */
export function whereIdRange(
  query: Knex.QueryBuilder,
  column: string,
  range: { idxMin?: number; idxMax?: number },
): void {
  if (range.idxMin !== undefined) {
    query.where(column, '>=', range.idxMin);
  }
  if (range.idxMax !== undefined) {
    query.where(column, '<=', range.idxMax);
  }
}

/**
 * Restricts a list to one tenant as a range (`>= t AND <= t`, equality under PostgreSQL's
 * deterministic collations) instead of `= t`. With `=`, the planner treats the tenant as a
 * constant, so the primary key's id order also satisfies "newest first" and it may walk the
 * primary key backward through another tenant's newer rows (docs/rest.md#history-pages-on-a-shared-store).
 * With the range, only indexes that lead with the tenant give the order the page asks for
 * (`tenantOrder`), so the scan never leaves the tenant's rows.
 */
export function whereTenant(query: Knex.QueryBuilder, column: string, tenant: string): void {
  query.where(column, '>=', tenant).andWhere(column, '<=', tenant);
}

/** Applies a keyset page on a unique, newest-first id column and returns the rows newest first. */
export async function fetchIdPage<Row extends { id: number }>(
  query: Knex.QueryBuilder,
  idColumn: string,
  page: KeysetPage<number>,
  tenantColumn?: string,
): Promise<Row[]> {
  if (page.after !== undefined) {
    query.where(idColumn, '<', page.after);
  }
  if (page.before !== undefined) {
    query.where(idColumn, '>', page.before);
  }
  query
    .orderBy(tenantOrder(tenantColumn, [idColumn], page.fromEnd ? 'asc' : 'desc'))
    .limit(page.limit)
    .offset(page.offset);
  const rows: Row[] = await query;
  return page.fromEnd ? rows.reverse() : rows;
}

/** `columns` in `order`, led by the tenant column of a `whereTenant` list (see there for why). */
export function tenantOrder(
  tenantColumn: string | undefined,
  columns: readonly string[],
  order: 'asc' | 'desc',
): { column: string; order: 'asc' | 'desc' }[] {
  const all = tenantColumn === undefined ? columns : [tenantColumn, ...columns];
  return all.map((column) => ({ column, order }));
}

/** Number of rows a filtered query matches (ordering and paging removed). */
export async function countRows(query: Knex.QueryBuilder): Promise<number> {
  const rows: { count: string | number }[] = await query.clearSelect().clearOrder().count({ count: '*' });
  return Number(rows[0]?.count ?? 0);
}

/** True when a list filter restricts nothing (every condition absent or an empty list). */
export function isUnfiltered(filter: object): boolean {
  return Object.values(filter).every(
    (value) => value === undefined || value === null || (Array.isArray(value) && value.length === 0),
  );
}

/** Restricts a boolean column when a value is given. */
export function whereFlag(query: Knex.QueryBuilder, column: string, value: boolean | undefined): void {
  if (value !== undefined) {
    query.where(column, value);
  }
}
