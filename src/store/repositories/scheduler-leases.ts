/**
 * Scheduler leases (docs/operations.md#leadership-model): one row per tenant naming the
 * scheduler that leads it, a fencing epoch raised on every change of hands, and an expiry.
 * Times are the database's (`clock_timestamp()`), so the processes' clocks do not matter.
 */
import type { Knex } from 'knex';
import { defaultEventQueues, type TenantEventQueueState } from '../../model/pipeline-state';
import { GENERIC_PLANS_JOIN, namesStatements } from '../prepared-statements';
import { runStatement } from '../direct-statement';
import { pickFields } from '../row-fields';

export interface SchedulerLease {
  tenant: string;
  holder: string;
  epoch: number;
  expiresAt: Date;
}

/** How long taking a lease waits for a row a running pass has locked before giving up for now. */
const ACQUIRE_LOCK_WAIT_MS = 2000;

/** PostgreSQL's "lock not available" (lock_timeout). */
const LOCK_NOT_AVAILABLE = '55P03';

/** The `tenant_state` columns a pass's first statement returns (all null when the tenant has no row). */
interface TenantQueueRow {
  tenant: string | null;
  trigger_queue_discarding: boolean;
  trigger_queue_paused: boolean;
  result_queue_paused: boolean;
  reason: string | null;
}

export class SchedulerLeaseRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Take the tenant's lease for `holder` when nobody holds it (no row, expired or released) or
   * `holder` holds it already. Returns the new epoch, or null when another holder has it (or
   * is in the middle of a pass, holding the row).
   */
  async acquire(tenant: string, holder: string, ttlMs: number): Promise<number | null> {
    try {
      return await this.knex.transaction(async (trx) => {
        await trx.raw(`SET LOCAL lock_timeout = ${ACQUIRE_LOCK_WAIT_MS}`);
        const result = (await trx.raw(
          `INSERT INTO scheduler_leases AS lease (tenant, holder, epoch, acquired_at, renewed_at, expires_at)
           VALUES (?, ?, 1, clock_timestamp(), clock_timestamp(), clock_timestamp() + make_interval(secs => ?))
           ON CONFLICT (tenant) DO UPDATE
             SET holder = excluded.holder, epoch = lease.epoch + 1, acquired_at = excluded.acquired_at,
                 renewed_at = excluded.renewed_at, expires_at = excluded.expires_at
             WHERE lease.expires_at <= clock_timestamp() OR lease.holder = excluded.holder
           RETURNING epoch`,
          [tenant, holder, ttlMs / 1000],
        )) as { rows: Array<{ epoch: number | string }> };
        const row = result.rows[0];
        return row === undefined ? null : Number(row.epoch);
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) {
        return null;
      }
      throw error;
    }
  }

  /**
   * Extend the lease when `holder` still holds it at `epoch` and it has not run out; false
   * otherwise (then it may have changed hands). Run in a transaction, this locks the row until
   * the transaction ends: nobody takes the lease meanwhile.
   */
  async renew(
    tenant: string,
    holder: string,
    epoch: number,
    ttlMs: number,
    trx: Knex = this.knex,
    /** The caller's transaction locked the row already: nobody can have taken it, even if it ran out since. */
    locked = false,
  ): Promise<boolean> {
    const result = await runStatement(
      trx,
      `UPDATE scheduler_leases
       SET renewed_at = clock_timestamp(), expires_at = clock_timestamp() + make_interval(secs => ?)
       WHERE tenant = ? AND holder = ? AND epoch = ? AND (? OR expires_at > clock_timestamp())
       RETURNING epoch`,
      [ttlMs / 1000, tenant, holder, epoch, locked],
      true,
    );
    return result.rows.length === 1;
  }

  /**
   * A scheduler pass's first statement (docs/operations.md#leadership-model): `renew`, and only
   * when that proved the lease, the tenant's `tenant_state` row locked (`FOR UPDATE`) until the
   * transaction ends, its event-queue flags returned (defaults without a row). Null when the lease
   * was not proven: then nothing of the tenant was read or locked. The row is looked up by the
   * tenant the lease update returned, so it is locked after the lease row, whatever the plan. On
   * PostgreSQL it also has the pass's prepared statements run their generic plans
   * (`GENERIC_PLANS_JOIN`, ../prepared-statements.ts).
   */
  async renewLockingTenant(
    tenant: string,
    holder: string,
    epoch: number,
    ttlMs: number,
    trx: Knex,
  ): Promise<TenantEventQueueState | null> {
    const result = await runStatement<TenantQueueRow>(
      trx,
      `WITH lease AS (
         UPDATE scheduler_leases
         SET renewed_at = clock_timestamp(), expires_at = clock_timestamp() + make_interval(secs => ?)
         WHERE tenant = ? AND holder = ? AND epoch = ? AND expires_at > clock_timestamp()
         RETURNING tenant
       )
       SELECT state.tenant, state.trigger_queue_discarding, state.trigger_queue_paused, state.result_queue_paused,
              state.reason
       FROM lease ${namesStatements(trx) ? GENERIC_PLANS_JOIN : ''} LEFT JOIN LATERAL (
         SELECT * FROM tenant_state WHERE tenant_state.tenant = lease.tenant FOR UPDATE
       ) AS state ON true`,
      [ttlMs / 1000, tenant, holder, epoch],
      true,
    );
    const row = result.rows[0];
    if (row === undefined) {
      return null;
    }
    return row.tenant === null
      ? defaultEventQueues()
      : pickFields(row, ['triggerQueueDiscarding', 'triggerQueuePaused', 'resultQueuePaused', 'reason']);
  }

  /** Give the lease up (it expires now), if `holder` still holds it at `epoch`. */
  async release(tenant: string, holder: string, epoch: number): Promise<void> {
    await this.knex('scheduler_leases')
      .where({ tenant, holder, epoch })
      .update({ expires_at: this.knex.raw('clock_timestamp()') });
  }

  /** The tenant's lease row (null when it was never taken). */
  async get(tenant: string): Promise<SchedulerLease | null> {
    const row = (await this.knex('scheduler_leases').where({ tenant }).first()) as
      { tenant: string; holder: string; epoch: number | string; expires_at: Date } | undefined;
    return row === undefined
      ? null
      : { tenant: row.tenant, holder: row.holder, epoch: Number(row.epoch), expiresAt: row.expires_at };
  }
}
