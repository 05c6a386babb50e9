/**
 * Reconfiguration requests: `management` rows of `engine_events` with event type `reconfigure`
 * (written by `sluice reconfigure`, later by an admin mutation) and claimed by the process that
 * holds the layouts.
 */
import type { Knex } from 'knex';

export interface ReconfigureRequest {
  id: number;
  /** Undefined = every tenant. */
  tenant?: string;
}

/** Tenant value used for requests that cover every tenant (the column is not nullable). */
export const ALL_TENANTS = '*';

export class ReconfigureRequestRepository {
  constructor(private readonly knex: Knex) {}

  /** Queue a request for one tenant or (no tenant) all tenants. */
  async request(tenant: string | undefined, at: Date): Promise<number> {
    const [row] = await this.knex('engine_events')
      .insert({
        tenant: tenant ?? ALL_TENANTS,
        category: 'management',
        event_type: 'reconfigure',
        payload: { tenant: tenant ?? null },
        created: at,
      })
      .returning<{ id: number | string }[]>('id');
    return Number(row.id);
  }

  /**
   * Claim every pending request (FOR UPDATE SKIP LOCKED, so concurrent processes never take the
   * same row) and mark them processed in the same transaction.
   */
  async claimPending(at: Date): Promise<ReconfigureRequest[]> {
    return this.knex.transaction(async (trx) => {
      const rows = await trx('engine_events')
        .where({ category: 'management', event_type: 'reconfigure' })
        .whereNull('processed')
        .orderBy('id')
        .forUpdate()
        .skipLocked()
        .select<{ id: number | string; tenant: string }[]>('id', 'tenant');
      if (rows.length === 0) {
        return [];
      }
      await trx('engine_events')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .update({ processed: at, outcome: 'claimed' });
      return rows.map((r) => ({ id: Number(r.id), tenant: r.tenant === ALL_TENANTS ? undefined : r.tenant }));
    });
  }
}
