/**
 * Read side of semaphore holders for the API: who holds the semaphores a tenant can see (its
 * own and the global ones). The engine writes the rows when jobs acquire and release.
 */
import type { Knex } from 'knex';

export interface SemaphoreHolder {
  semaphore: string;
  global: boolean;
  /** Tenant of the buildset holding the semaphore. */
  holderTenant: string;
  buildsetUuid: string;
  jobName: string;
  acquired: Date;
}

interface SemaphoreHolderRow {
  /** The semaphore's tenant; null for global semaphores. */
  tenant: string | null;
  semaphore: string;
  global: boolean;
  holder_tenant: string;
  buildset_uuid: string;
  job_name: string;
  acquired: Date;
}

export class SemaphoreHolderRepository {
  constructor(private readonly knex: Knex) {}

  /** Holders of the tenant's own semaphores and of every global semaphore, oldest first. */
  async visibleTo(tenant: string): Promise<SemaphoreHolder[]> {
    const rows: SemaphoreHolderRow[] = await this.knex<SemaphoreHolderRow>('semaphore_holders')
      .where((query) => {
        void query.where({ tenant, global: false }).orWhere({ global: true });
      })
      .orderBy('id')
      .select('semaphore', 'global', 'holder_tenant', 'buildset_uuid', 'job_name', 'acquired');
    return rows.map((row) => ({
      semaphore: row.semaphore,
      global: row.global,
      holderTenant: row.holder_tenant,
      buildsetUuid: row.buildset_uuid,
      jobName: row.job_name,
      acquired: row.acquired,
    }));
  }
}
