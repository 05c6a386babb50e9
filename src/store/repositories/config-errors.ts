/** Configuration errors of each tenant's current layout (served by `T/config-errors` and GraphQL). */
import type { Knex } from 'knex';
import { columnOf, pickFields } from '../row-fields';

export interface ConfigErrorRecord {
  keyHash: string;
  /** Short project name of the source context (null for errors not tied to a repository). */
  project: string | null;
  projectCanonicalName: string | null;
  connectionName: string | null;
  branch: string | null;
  path: string | null;
  line: number | null;
  severity: 'error' | 'warning';
  name: string;
  error: string;
  shortError: string;
  firstSeen: Date;
}

export type NewConfigError = Omit<ConfigErrorRecord, 'firstSeen'>;

export interface ConfigErrorFilter {
  project?: string;
  branch?: string;
  severity?: 'error' | 'warning';
  name?: string;
  limit: number;
  offset: number;
}

interface ConfigErrorRow {
  id: number;
  tenant: string;
  key_hash: string;
  project: string | null;
  project_canonical_name: string | null;
  connection_name: string | null;
  branch: string | null;
  path: string | null;
  line: number | null;
  severity: 'error' | 'warning';
  name: string;
  error: string;
  short_error: string;
  first_seen: Date;
  position: number;
}

export class ConfigErrorRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Replace the tenant's errors with `errors` in one transaction (duplicates by key hash keep the
   * first). Errors already present keep their `firstSeen`. Returns whether the set changed.
   */
  async replace(tenant: string, errors: readonly NewConfigError[]): Promise<{ changed: boolean }> {
    const unique = new Map<string, NewConfigError>();
    for (const e of errors) {
      if (!unique.has(e.keyHash)) {
        unique.set(e.keyHash, e);
      }
    }
    return this.knex.transaction(async (trx) => {
      const existing = await trx<ConfigErrorRow>('config_errors').where({ tenant }).select('key_hash').forUpdate();
      const before = new Set(existing.map((r) => r.key_hash));
      const after = new Set(unique.keys());
      const changed = before.size !== after.size || [...after].some((k) => !before.has(k));
      const removed = [...before].filter((k) => !after.has(k));
      if (removed.length > 0) {
        await trx('config_errors').where({ tenant }).whereIn('key_hash', removed).delete();
      }
      let position = 0;
      const rows = [...unique.values()].map((e) => ({
        tenant,
        key_hash: e.keyHash,
        project: e.project,
        project_canonical_name: e.projectCanonicalName,
        connection_name: e.connectionName,
        branch: e.branch,
        path: e.path,
        line: e.line,
        severity: e.severity,
        name: e.name,
        error: e.error,
        short_error: e.shortError,
        position: position++,
      }));
      for (let i = 0; i < rows.length; i += 500) {
        await trx('config_errors')
          .insert(rows.slice(i, i + 500))
          .onConflict(['tenant', 'key_hash'])
          .merge([...DESCRIBED.map(columnOf), 'position']);
      }
      return { changed };
    });
  }

  /** Errors in layout order; filters are exact matches, applied before offset/limit. */
  async list(tenant: string, filter: ConfigErrorFilter): Promise<ConfigErrorRecord[]> {
    const rows: ConfigErrorRow[] = await this.filtered(tenant, filter)
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .limit(filter.limit)
      .offset(filter.offset)
      .select<ConfigErrorRow[]>('*');
    return rows.map(toRecord);
  }

  /** Number of errors matching the filter (for `config_error_count` and page info). */
  async count(tenant: string, filter: Omit<ConfigErrorFilter, 'limit' | 'offset'> = {}): Promise<number> {
    const [row] = await this.filtered(tenant, filter).count<{ count: string | number }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  /** Drop the errors of tenants that no longer exist. */
  async deleteTenantsExcept(tenants: readonly string[]): Promise<void> {
    await this.knex('config_errors')
      .whereNotIn('tenant', tenants.length > 0 ? [...tenants] : [''])
      .delete();
  }

  private filtered(
    tenant: string,
    filter: Omit<ConfigErrorFilter, 'limit' | 'offset'>,
  ): Knex.QueryBuilder<ConfigErrorRow> {
    const query = this.knex<ConfigErrorRow>('config_errors').where({ tenant });
    if (filter.project !== undefined) {
      query.where('project', filter.project);
    }
    if (filter.branch !== undefined) {
      query.where('branch', filter.branch);
    }
    if (filter.severity !== undefined) {
      query.where('severity', filter.severity);
    }
    if (filter.name !== undefined) {
      query.where('name', filter.name);
    }
    return query;
  }
}

/** The fields that describe an error, rewritten when it is seen again. */
const DESCRIBED = [
  'project',
  'projectCanonicalName',
  'connectionName',
  'branch',
  'path',
  'line',
  'severity',
  'name',
  'error',
  'shortError',
] as const;

function toRecord(row: ConfigErrorRow): ConfigErrorRecord {
  return pickFields(row, ['keyHash', ...DESCRIBED, 'firstSeen']);
}
