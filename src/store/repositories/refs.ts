/**
 * Refs: one row per distinct ref that was tested (a change patchset, a branch head, a tag),
 * shared by buildsets and builds and never deleted (docs/gating.md#build-history).
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export interface RefRecord {
  id: number;
  /** The project's name (`org/project`), as the reference keeps it (docs/gating.md#project-names-in-history). */
  project: string;
  /** The project's canonical name (`host/org/project`). */
  projectCanonical: string;
  ref: string;
  refUrl: string | null;
  change: number | null;
  patchset: string | null;
  oldrev: string | null;
  newrev: string | null;
  branch: string | null;
}

/**
 * What identifies a ref (the unique columns, with the canonical project name) plus the short
 * project name, `refUrl` and `branch`, kept from the first insert.
 */
export interface NewRef {
  /** The project's name (`org/project`). */
  project: string;
  /** The project's canonical name; the short name when omitted (projects whose names coincide). */
  projectCanonical?: string;
  ref: string;
  refUrl?: string | null;
  change?: number | null;
  patchset?: string | null;
  oldrev?: string | null;
  newrev?: string | null;
  branch?: string | null;
}

export interface RefRow {
  id: number;
  project: string;
  project_canonical: string;
  ref: string;
  ref_url: string | null;
  change: number | null;
  patchset: string | null;
  oldrev: string | null;
  newrev: string | null;
  branch: string | null;
}

/** A ref together with the buildset it is linked to (one buildset may cover several refs). */
export interface BuildsetRefRecord {
  buildsetId: number;
  ref: RefRecord;
}

export class RefRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * The ref with these unique columns, inserted first when missing. `refUrl` and `branch` of an
   * existing row are left alone, as in the reference. Safe under concurrent inserts.
   */
  async getOrCreate(ref: NewRef, trx: Knex = this.knex): Promise<RefRecord> {
    const row = toNewRefRow(ref);
    const inserted: RefRow[] = await trx('refs').insert(row).onConflict().ignore().returning('*');
    if (inserted.length > 0) {
      return toRefRecord(inserted[0]);
    }
    // NULLS NOT DISTINCT unique key: compare with IS NOT DISTINCT FROM so null columns match.
    const existing: RefRow | undefined = await trx('refs')
      .where('project_canonical', row.project_canonical)
      .where('ref', row.ref)
      .whereRaw('change IS NOT DISTINCT FROM ?::integer', [row.change])
      .whereRaw('patchset IS NOT DISTINCT FROM ?::text', [row.patchset])
      .whereRaw('oldrev IS NOT DISTINCT FROM ?::text', [row.oldrev])
      .whereRaw('newrev IS NOT DISTINCT FROM ?::text', [row.newrev])
      .first();
    if (!existing) {
      throw new Error(`ref ${row.project_canonical} ${row.ref} vanished after a conflicting insert`);
    }
    return toRefRecord(existing);
  }

  /** Refs by id, in no particular order (missing ids are absent). */
  async findByIds(ids: readonly number[]): Promise<RefRecord[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: RefRow[] = await this.knex('refs').whereIn('id', ids);
    return rows.map(toRefRecord);
  }

  /**
   * Refs by id with the tenants whose buildsets use each (refs are shared across tenants), for
   * access checks; one query. Missing ids are absent.
   */
  async findByIdsWithTenants(ids: readonly number[]): Promise<Array<{ ref: RefRecord; tenants: string[] }>> {
    if (ids.length === 0) {
      return [];
    }
    const rows: (RefRow & { tenants: string[] })[] = await this.knex('refs')
      .whereIn('refs.id', ids)
      .select('refs.*')
      .select(
        this.knex.raw(
          'ARRAY(SELECT DISTINCT bs.tenant FROM buildset_refs br JOIN buildsets bs ON bs.id = br.buildset_id WHERE br.ref_id = refs.id) AS tenants',
        ),
      );
    return rows.map((row) => ({ ref: toRefRecord(row), tenants: row.tenants }));
  }

  /** The refs of each buildset, ordered by ref id; one query for all buildsets. */
  async listForBuildsets(buildsetIds: readonly number[]): Promise<BuildsetRefRecord[]> {
    if (buildsetIds.length === 0) {
      return [];
    }
    const rows: (RefRow & { buildset_id: number })[] = await this.knex('buildset_refs')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .whereIn('buildset_refs.buildset_id', buildsetIds)
      .orderBy([{ column: 'buildset_refs.buildset_id' }, { column: 'refs.id' }])
      .select('refs.*', 'buildset_refs.buildset_id');
    return rows.map((row) => ({ buildsetId: row.buildset_id, ref: toRefRecord(row) }));
  }
}

/** Maps a `refs` row to its record. */
/** The columns of a new ref row. */
export function toNewRefRow(ref: NewRef): Omit<RefRow, 'id'> {
  return {
    project: ref.project,
    project_canonical: ref.projectCanonical ?? ref.project,
    ref: ref.ref,
    ref_url: ref.refUrl ?? null,
    change: ref.change ?? null,
    patchset: ref.patchset ?? null,
    oldrev: ref.oldrev ?? null,
    newrev: ref.newrev ?? null,
    branch: ref.branch ?? null,
  };
}

export function toRefRecord(row: RefRow): RefRecord {
  return pickFields(row, [
    'id',
    'project',
    'projectCanonical',
    'ref',
    'refUrl',
    'change',
    'patchset',
    'oldrev',
    'newrev',
    'branch',
  ]);
}
