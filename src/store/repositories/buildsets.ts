/**
 * Buildsets: one row per attempt to test a queue item (a gate reset makes a new one), with their
 * refs and events (docs/gating.md#build-history, docs/rest.md#builds). Writes follow docs/gating.md#build-history;
 * lists follow docs/rest.md#buildsets.
 */
import type { Knex } from 'knex';
import type { BuildsetResult } from '../../model/results';
import {
  countRows,
  fetchIdPage,
  isUnfiltered,
  tenantOrder,
  whereAnyOf,
  whereIdRange,
  whereProject,
  whereResult,
  whereTenant,
  type KeysetPage,
} from './history-query';
import { DurationSampleRepository, type SampleBatch } from './duration-samples';
import { createBuildsets, reserveHistoryIds } from './history-batches';
import { HistoryCountRepository } from './history-counts';
import { RefRepository, type NewRef, type RefRecord } from './refs';
import { pickFields } from '../row-fields';

export interface BuildsetRecord {
  id: number;
  uuid: string;
  tenant: string;
  pipeline: string;
  result: BuildsetResult | null;
  message: string | null;
  eventId: string | null;
  eventTimestamp: Date | null;
  firstBuildStartTime: Date | null;
  lastBuildEndTime: Date | null;
  created: Date;
  updated: Date;
}

export interface BuildsetEventRecord {
  id: number;
  buildsetId: number;
  eventTime: Date;
  eventType: string;
  description: string | null;
}

/** Every filter of `T/buildsets`; list-valued fields are OR'ed, fields are AND'ed. */
export interface BuildsetFilter {
  /** Wildcard-capable (the project's name or canonical name); matches when any ref of the buildset matches. */
  project?: string[];
  /** Wildcard-capable. */
  pipeline?: string[];
  /** Wildcard-capable; matches when any ref of the buildset matches. */
  branch?: string[];
  change?: number[];
  patchset?: string[];
  ref?: string[];
  newrev?: string[];
  /** Buildset uuids. */
  uuid?: string[];
  result?: BuildsetResult[];
  /** Drops these results and, as in the reference, buildsets still running. */
  excludeResult?: BuildsetResult[];
  /** true: finished buildsets only; false: running only. */
  complete?: boolean;
  idxMin?: number;
  idxMax?: number;
}

export interface NewBuildset {
  uuid: string;
  tenant: string;
  pipeline: string;
  eventId?: string | null;
  eventTimestamp?: Date | null;
  /** The changes of the item; get-or-created and linked. */
  refs: NewRef[];
  /** Description of the `triggered` event (e.g. "Triggered by change org/project 1,1"). */
  triggeredBy: string;
  /** When the buildset starts (also the `triggered` event time). */
  at: Date;
}

export interface FinishBuildset {
  result: BuildsetResult;
  /** The report text; null for non-final ends (dequeue, reset). */
  message: string | null;
  at: Date;
}

/** The columns of `BuildsetRow`, for statements that name them. */
export const BUILDSET_COLUMNS = [
  'id',
  'uuid',
  'tenant',
  'pipeline',
  'result',
  'message',
  'event_id',
  'event_timestamp',
  'first_build_start_time',
  'last_build_end_time',
  'created',
  'updated',
] as const satisfies ReadonlyArray<keyof BuildsetRow>;

export interface BuildsetRow {
  id: number;
  uuid: string;
  tenant: string;
  pipeline: string;
  result: BuildsetResult | null;
  message: string | null;
  event_id: string | null;
  event_timestamp: Date | null;
  first_build_start_time: Date | null;
  last_build_end_time: Date | null;
  created: Date;
  updated: Date;
}

interface BuildsetEventRow {
  id: number;
  buildset_id: number;
  event_time: Date;
  event_type: string;
  description: string | null;
}

export class BuildsetRepository {
  private readonly counts: HistoryCountRepository;

  constructor(private readonly knex: Knex) {
    this.counts = new HistoryCountRepository(knex);
  }

  /**
   * Buildset start (docs/gating.md#build-history step 1): get-or-creates its refs, then inserts the buildset, links
   * the refs and records the `triggered` event in one statement (with an id taken from the sequence first), in one
   * transaction (the caller's, when it is one: no savepoint). A scheduler pass writes its buildsets together instead
   * (`createBuildsets`).
   */
  async create(input: NewBuildset): Promise<{ buildset: BuildsetRecord; refs: RefRecord[] }> {
    const run = async (trx: Knex.Transaction): Promise<{ buildset: BuildsetRecord; refs: RefRecord[] }> => {
      const [id] = (await reserveHistoryIds(trx, { builds: 0, buildsets: 1 })).buildsets;
      const [{ record, refIds }] = await createBuildsets(trx, [{ ...input, id }]);
      const refs = new Map((await new RefRepository(trx).findByIds(refIds)).map((ref) => [ref.id, ref]));
      return { buildset: record, refs: refIds.map((refId) => refs.get(refId) as RefRecord) };
    };
    return this.knex.isTransaction ? run(this.knex as Knex.Transaction) : this.knex.transaction(run);
  }

  /**
   * Buildset end (docs/gating.md#build-history step 4): sets result and message, `last_build_end_time` (the latest of
   * the first build start and every build end) and `updated`.
   */
  async finish(buildsetId: number, input: FinishBuildset, samples?: SampleBatch): Promise<BuildsetRecord> {
    // The project of the first ref (what item estimates are kept under) rides on the update.
    const [row]: Array<BuildsetRow & { first_project: string | null }> = await this.knex('buildsets')
      .where('id', buildsetId)
      .update({
        result: input.result,
        message: input.message,
        updated: input.at,
        last_build_end_time: this.knex.raw(
          'GREATEST(first_build_start_time, (SELECT max(end_time) FROM builds WHERE builds.buildset_id = buildsets.id))',
        ),
      })
      .returning([
        '*',
        this.knex.raw(
          `(SELECT refs.project_canonical FROM buildset_refs JOIN refs ON refs.id = buildset_refs.ref_id
            WHERE buildset_refs.buildset_id = buildsets.id ORDER BY refs.id LIMIT 1) AS first_project`,
        ),
      ] as unknown as string[]);
    if (!row) {
      throw new Error(`buildset ${buildsetId} does not exist`);
    }
    const record = toBuildsetRecord(row);
    // The pipeline's recent items behind item estimates (docs/analytics.md#item-etas).
    await new DurationSampleRepository(this.knex).recordBuildset(
      { ...record, finished: record.updated },
      row.first_project,
      this.knex,
      samples,
    );
    return record;
  }

  /** Adds an event to a buildset's history. */
  async addEvent(
    buildsetId: number,
    event: { eventTime: Date; eventType: string; description: string | null },
  ): Promise<BuildsetEventRecord> {
    const [row]: BuildsetEventRow[] = await this.knex('buildset_events')
      .insert({
        buildset_id: buildsetId,
        event_time: event.eventTime,
        event_type: event.eventType,
        description: event.description,
      })
      .returning('*');
    return toBuildsetEventRecord(row);
  }

  /** Buildsets by id, in no particular order (missing ids are absent). */
  async findByIds(ids: readonly number[]): Promise<BuildsetRecord[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: BuildsetRow[] = await this.knex('buildsets').whereIn('id', ids);
    return rows.map(toBuildsetRecord);
  }

  /** The buildset of a tenant with this uuid, or null. */
  async findByUuid(tenant: string, uuid: string): Promise<BuildsetRecord | null> {
    const row: BuildsetRow | undefined = await this.knex('buildsets').where({ tenant, uuid }).first();
    return row ? toBuildsetRecord(row) : null;
  }

  /** One page of a tenant's buildsets matching `filter`, newest first. */
  async list(tenant: string, filter: BuildsetFilter, page: KeysetPage<number>): Promise<BuildsetRecord[]> {
    const rows = await fetchIdPage<BuildsetRow>(
      this.filtered(tenant, filter).select('buildsets.*'),
      'buildsets.id',
      page,
      'buildsets.tenant',
    );
    return rows.map(toBuildsetRecord);
  }

  /** How many of a tenant's buildsets match `filter`. */
  async count(tenant: string, filter: BuildsetFilter): Promise<number> {
    if (isUnfiltered(filter)) {
      return this.counts.count(tenant, 'buildsets');
    }
    return countRows(this.filtered(tenant, filter));
  }

  /** The newest finished buildset matching a badge query (docs/rest.md#badge), or null. */
  async newestComplete(
    tenant: string,
    filter: Pick<BuildsetFilter, 'project' | 'pipeline' | 'branch'>,
  ): Promise<BuildsetRecord | null> {
    const [row]: BuildsetRow[] = await this.filtered(tenant, { ...filter, complete: true })
      .select('buildsets.*')
      .orderBy(tenantOrder('buildsets.tenant', ['buildsets.id'], 'desc'))
      .limit(1);
    return row ? toBuildsetRecord(row) : null;
  }

  /** Events of each buildset, oldest first; one query for all buildsets. */
  async listEvents(buildsetIds: readonly number[]): Promise<BuildsetEventRecord[]> {
    if (buildsetIds.length === 0) {
      return [];
    }
    const rows: BuildsetEventRow[] = await this.knex('buildset_events')
      .whereIn('buildset_id', buildsetIds)
      .orderBy([{ column: 'buildset_id' }, { column: 'event_time' }, { column: 'id' }]);
    return rows.map(toBuildsetEventRecord);
  }

  private filtered(tenant: string, filter: BuildsetFilter): Knex.QueryBuilder {
    const query = this.knex('buildsets');
    whereTenant(query, 'buildsets.tenant', tenant);
    whereAnyOf(query, 'buildsets.pipeline', filter.pipeline, true);
    whereAnyOf(query, 'buildsets.uuid', filter.uuid);
    whereResult(query, 'buildsets.result', filter);
    whereIdRange(query, 'buildsets.id', filter);
    if (hasRefFilter(filter)) {
      // All ref conditions must hold for one and the same ref of the buildset.
      query.whereExists((refs) => {
        refs
          .select(this.knex.raw('1'))
          .from('buildset_refs')
          .join('refs', 'refs.id', 'buildset_refs.ref_id')
          .whereRaw('buildset_refs.buildset_id = buildsets.id');
        whereProject(refs, 'refs', filter.project, true);
        whereAnyOf(refs, 'refs.branch', filter.branch, true);
        whereAnyOf(refs, 'refs.change', filter.change);
        whereAnyOf(refs, 'refs.patchset', filter.patchset);
        whereAnyOf(refs, 'refs.ref', filter.ref);
        whereAnyOf(refs, 'refs.newrev', filter.newrev);
      });
    }
    return query;
  }
}

function hasRefFilter(filter: BuildsetFilter): boolean {
  return [filter.project, filter.branch, filter.change, filter.patchset, filter.ref, filter.newrev].some(
    (values) => values !== undefined && values.length > 0,
  );
}

export function toBuildsetRecord(row: BuildsetRow): BuildsetRecord {
  return pickFields(row, [
    'id',
    'uuid',
    'tenant',
    'pipeline',
    'result',
    'message',
    'eventId',
    'eventTimestamp',
    'firstBuildStartTime',
    'lastBuildEndTime',
    'created',
    'updated',
  ]);
}

function toBuildsetEventRecord(row: BuildsetEventRow): BuildsetEventRecord {
  return pickFields(row, ['id', 'buildsetId', 'eventTime', 'eventType', 'description']);
}
