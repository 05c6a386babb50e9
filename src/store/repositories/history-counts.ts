/**
 * Maintained per-tenant counts of builds and buildsets (migration 0017,
 * docs/rest.md#history-pages-on-a-shared-store): an unfiltered `totalCount` reads the folded
 * total plus the deltas written since, in one statement (one snapshot), and folds the deltas in
 * once there are enough of them to matter.
 */
import type { Knex } from 'knex';

export type CountedHistory = 'builds' | 'buildsets';

/** Pending delta rows above which a read folds them into the total. */
const FOLD_AFTER_DELTAS = 64;

export class HistoryCountRepository {
  constructor(private readonly knex: Knex) {}

  /** How many rows of `kind` the tenant has. */
  async count(tenant: string, kind: CountedHistory): Promise<number> {
    const result = await this.knex.raw<{ rows: { total: string | number; pending: string | number }[] }>(
      `SELECT COALESCE((SELECT count FROM history_counts WHERE tenant = :tenant AND kind = :kind), 0)
            + COALESCE(sum(delta), 0) AS total,
              count(*) AS pending
       FROM history_count_deltas WHERE tenant = :tenant AND kind = :kind`,
      { tenant, kind },
    );
    const row = result.rows[0];
    if (Number(row?.pending ?? 0) > FOLD_AFTER_DELTAS) {
      await this.fold(tenant, kind);
    }
    return Number(row?.total ?? 0);
  }

  /**
   * Moves the tenant's pending deltas into its total in one statement: a concurrent fold skips
   * the rows this one deleted, so every delta is added exactly once.
   */
  async fold(tenant: string, kind: CountedHistory): Promise<void> {
    await this.knex.raw(
      `WITH moved AS (
         DELETE FROM history_count_deltas WHERE tenant = :tenant AND kind = :kind RETURNING delta
       )
       INSERT INTO history_counts (tenant, kind, count)
         SELECT :tenant, :kind, COALESCE(sum(delta), 0) FROM moved
       ON CONFLICT (tenant, kind) DO UPDATE SET count = history_counts.count + EXCLUDED.count`,
      { tenant, kind },
    );
  }
}
