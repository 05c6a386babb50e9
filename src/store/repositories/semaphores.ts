/**
 * Semaphore holders (docs/gating.md#semaphores): a holder is (buildset, job). Tenant
 * semaphores count holders of the same tenant; global ones count holders of every tenant.
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export interface SemaphoreHolderRecord {
  semaphore: string;
  global: boolean;
  holderTenant: string;
  buildsetUuid: string;
  jobName: string;
  acquired: Date;
}

interface HolderRow {
  tenant: string | null;
  semaphore: string;
  global: boolean;
  holder_tenant: string;
  buildset_uuid: string;
  job_name: string;
  acquired: Date;
}

export interface SemaphoreClaim {
  name: string;
  max: number;
  global: boolean;
}

export class SemaphoreRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Acquire every semaphore for the holder or none (all-or-nothing). Already held ones count
   * as acquired. Returns the names that were not available.
   */
  async acquireAll(
    tenant: string,
    holder: { buildsetUuid: string; jobName: string },
    claims: readonly SemaphoreClaim[],
    at: Date,
    trx: Knex,
  ): Promise<string[]> {
    const sorted = [...claims].sort((a, b) => a.name.localeCompare(b.name));
    const unavailable: string[] = [];
    const toInsert: HolderRow[] = [];
    for (const claim of sorted) {
      const scope = claim.global
        ? { semaphore: claim.name, global: true }
        : { semaphore: claim.name, global: false, tenant };
      const rows: HolderRow[] = await trx('semaphore_holders').where(scope).forUpdate();
      if (
        rows.some(
          (row) =>
            row.buildset_uuid === holder.buildsetUuid &&
            row.job_name === holder.jobName &&
            row.holder_tenant === tenant,
        )
      ) {
        continue;
      }
      if (rows.length >= claim.max) {
        unavailable.push(claim.name);
        continue;
      }
      toInsert.push({
        tenant: claim.global ? null : tenant,
        semaphore: claim.name,
        global: claim.global,
        holder_tenant: tenant,
        buildset_uuid: holder.buildsetUuid,
        job_name: holder.jobName,
        acquired: at,
      });
    }
    if (unavailable.length === 0 && toInsert.length > 0) {
      await trx('semaphore_holders').insert(toInsert);
    }
    return unavailable;
  }

  /** Release every semaphore the holder has; returns the names released. */
  async releaseAll(tenant: string, holder: { buildsetUuid: string; jobName: string }, trx: Knex): Promise<string[]> {
    const rows: Array<{ semaphore: string }> = await trx('semaphore_holders')
      .where({ holder_tenant: tenant, buildset_uuid: holder.buildsetUuid, job_name: holder.jobName })
      .delete()
      .returning('semaphore');
    return rows.map((row) => row.semaphore);
  }

  /** Holders of the semaphores visible to a tenant (its own and global ones). */
  async listForTenant(tenant: string, trx: Knex = this.knex): Promise<SemaphoreHolderRecord[]> {
    const rows: HolderRow[] = await trx('semaphore_holders')
      .where((query) => {
        void query.where({ tenant, global: false }).orWhere({ global: true });
      })
      .orderBy('id');
    return rows.map((row) =>
      pickFields(row, ['semaphore', 'global', 'holderTenant', 'buildsetUuid', 'jobName', 'acquired']),
    );
  }
}
