/** Autohold requests (docs/gating.md#autohold; docs/rest.md#autohold). */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export interface AutoholdRecord {
  /** 10-digit zero-padded id. */
  id: string;
  tenant: string;
  project: string;
  job: string;
  refFilter: string;
  reason: string;
  maxCount: number;
  currentCount: number;
  nodeExpiration: number;
  expired: Date | null;
  nodes: Array<{ build: string; nodes: string[] }>;
  created: Date;
}

interface AutoholdRow {
  id: number;
  tenant: string;
  project: string;
  job: string;
  ref_filter: string;
  reason: string;
  max_count: number;
  current_count: number;
  node_expiration: number;
  expired: Date | null;
  nodes: Array<{ build: string; nodes: string[] }>;
  created: Date;
}

export interface NewAutohold {
  tenant: string;
  project: string;
  job: string;
  refFilter: string;
  reason: string;
  maxCount: number;
  nodeExpiration: number;
  created: Date;
}

/** Zero-pad a request id to the 10 digits of the API. */
export function formatAutoholdId(id: number): string {
  return String(id).padStart(10, '0');
}

export class AutoholdRepository {
  constructor(private readonly knex: Knex) {}

  async create(input: NewAutohold, trx: Knex = this.knex): Promise<AutoholdRecord> {
    const [row]: AutoholdRow[] = await trx('autohold_requests')
      .insert({
        tenant: input.tenant,
        project: input.project,
        job: input.job,
        ref_filter: input.refFilter,
        reason: input.reason,
        max_count: input.maxCount,
        node_expiration: input.nodeExpiration,
        created: input.created,
      })
      .returning('*');
    return toRecord(row);
  }

  /** Requests of a tenant in creation order; `projectSuffix` keeps those whose project ends with it. */
  async list(tenant: string, projectSuffix?: string, trx: Knex = this.knex): Promise<AutoholdRecord[]> {
    const rows: AutoholdRow[] = await trx('autohold_requests').where({ tenant }).orderBy('id');
    const records = rows.map(toRecord);
    return projectSuffix === undefined ? records : records.filter((record) => record.project.endsWith(projectSuffix));
  }

  /** One request by id (a number, or its decimal text for ids beyond 2^53). */
  async find(id: number | string, trx: Knex = this.knex): Promise<AutoholdRecord | null> {
    const row: AutoholdRow | undefined = await trx('autohold_requests').where({ id }).first();
    return row ? toRecord(row) : null;
  }

  /** Requests that could match a build: same tenant, project and job, not exhausted. */
  async candidates(tenant: string, project: string, job: string, trx: Knex = this.knex): Promise<AutoholdRecord[]> {
    const rows: AutoholdRow[] = await trx('autohold_requests')
      .where({ tenant, project, job })
      .whereNull('expired')
      .orderBy('id')
      .forUpdate();
    return rows.map(toRecord);
  }

  /** Record one held build; sets `expired` when the count is used up. */
  async recordHold(
    id: number,
    entry: { build: string; nodes: string[] },
    at: Date,
    trx: Knex = this.knex,
  ): Promise<AutoholdRecord> {
    const current: AutoholdRow | undefined = await trx('autohold_requests').where({ id }).forUpdate().first();
    if (!current) {
      throw new Error(`autohold request ${id} does not exist`);
    }
    const currentCount = current.current_count + 1;
    const [row]: AutoholdRow[] = await trx('autohold_requests')
      .where({ id })
      .update({
        current_count: currentCount,
        nodes: JSON.stringify([...current.nodes, entry]),
        expired: currentCount >= current.max_count ? at : null,
      })
      .returning('*');
    return toRecord(row);
  }

  async delete(id: number, trx: Knex = this.knex): Promise<boolean> {
    const count = await trx('autohold_requests').where({ id }).delete();
    return count > 0;
  }
}

function toRecord(row: AutoholdRow): AutoholdRecord {
  return {
    ...pickFields(row, [
      'id',
      'tenant',
      'project',
      'job',
      'refFilter',
      'reason',
      'maxCount',
      'currentCount',
      'nodeExpiration',
      'expired',
      'nodes',
      'created',
    ]),
    id: formatAutoholdId(Number(row.id)),
  };
}
