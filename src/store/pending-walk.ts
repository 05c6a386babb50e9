/**
 * Reads of every pending engine event of a kind as walks over a partial index of pending events,
 * one probe a row (docs/gating.md#what-is-kept-of-engine-events). Each step takes the next row
 * past the previous one in an order only that index gives, `LIMIT 1`: for a step the index costs
 * a probe whatever the statistics say, where the table costs a scan of every row it keeps. Read
 * in one statement without a limit, a tenant's pending events were scanned with the whole table
 * once statistics taken during a burst believed most of them pending and the table held a day of
 * processed history. A walk reads the pending rows only; the result set is the CTE `pending`.
 */

/**
 * A tenant's pending events (the `tenant` placeholder, bound twice), in `id + 0` order, over
 * `engine_events_pending_order` (migration 0035): `columns` (with `id`) in the CTE `pending`.
 */
export function tenantPendingWalk(columns: readonly string[], tenant = '?'): string {
  const select = `SELECT ${['id', ...columns].join(', ')} FROM engine_events WHERE tenant = ${tenant} AND processed IS NULL`;
  return `WITH RECURSIVE pending AS (
      (${select} ORDER BY id + 0 LIMIT 1)
      UNION ALL
      SELECT next.* FROM pending AS previous CROSS JOIN LATERAL (
        ${select} AND id + 0 > previous.id ORDER BY id + 0 LIMIT 1) AS next)`;
}

/**
 * Every tenant's pending events of the category bound (bindings: category, category), in the
 * order of `engine_events_pending_idx` (tenant, category, id; migration 0001), which neither the
 * table nor the primary key gives: `columns` (with `tenant`, `category`, `id`) in the CTE `pending`.
 * No category: every pending event (no bindings).
 */
export function categoryPendingWalk(columns: readonly string[], ofCategory: boolean): string {
  const select = `SELECT ${['tenant', 'category', 'id', ...columns].join(', ')} FROM engine_events
        WHERE ${ofCategory ? 'category = ? AND ' : ''}processed IS NULL`;
  return `WITH RECURSIVE pending AS (
      (${select} ORDER BY tenant, category, id LIMIT 1)
      UNION ALL
      SELECT next.* FROM pending AS previous CROSS JOIN LATERAL (
        ${select} AND (tenant, category, id) > (previous.tenant, previous.category, previous.id)
        ORDER BY tenant, category, id LIMIT 1) AS next)`;
}
