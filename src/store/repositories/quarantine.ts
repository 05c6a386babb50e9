/**
 * The quarantine list (docs/analytics.md#quarantine): jobs whose failures are reported but do not
 * fail their item, for one project or every project of a tenant ('' in `project`).
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export interface QuarantineEntry {
  tenant: string;
  /** Canonical project name; null for every project of the tenant. */
  project: string | null;
  job: string;
  reason: string;
  addedBy: string | null;
  addedAt: Date;
}

interface QuarantineRow {
  tenant: string;
  project: string;
  job: string;
  reason: string;
  added_by: string | null;
  added_at: Date;
}

function toEntry(row: QuarantineRow): QuarantineEntry {
  return {
    ...pickFields(row, ['tenant', 'project', 'job', 'reason', 'addedBy', 'addedAt']),
    project: row.project === '' ? null : row.project,
  };
}

export class QuarantineRepository {
  constructor(private readonly knex: Knex) {}

  /** A tenant's list, by job then project. */
  async list(tenant: string): Promise<QuarantineEntry[]> {
    const rows: QuarantineRow[] = await this.knex('job_quarantine').where({ tenant }).orderBy(['job', 'project']);
    return rows.map(toEntry);
  }

  /** Add a job (or replace its reason); returns the entry. */
  async add(entry: Omit<QuarantineEntry, 'addedAt'>, at: Date, trx: Knex = this.knex): Promise<QuarantineEntry> {
    const [row]: QuarantineRow[] = await trx('job_quarantine')
      .insert({
        tenant: entry.tenant,
        project: entry.project ?? '',
        job: entry.job,
        reason: entry.reason,
        added_by: entry.addedBy,
        added_at: at,
      })
      .onConflict(['tenant', 'job', 'project'])
      .merge()
      .returning('*');
    return toEntry(row);
  }

  /** Remove a job; returns the entry removed, or null when it was not there. */
  async remove(
    tenant: string,
    job: string,
    project: string | null,
    trx: Knex = this.knex,
  ): Promise<QuarantineEntry | null> {
    const [row]: QuarantineRow[] = await trx('job_quarantine')
      .where({ tenant, job, project: project ?? '' })
      .delete()
      .returning('*');
    return row ? toEntry(row) : null;
  }

  /** Whether a job of a project is quarantined (for that project or for every project). */
  async isQuarantined(tenant: string, project: string, job: string, trx: Knex = this.knex): Promise<boolean> {
    const row = await trx('job_quarantine').where({ tenant, job }).whereIn('project', [project, '']).first('job');
    return row !== undefined;
  }
}
