/**
 * Builds with their artifacts, provides and events (docs/gating.md#build-history, docs/rest.md#builds). Writes follow
 * docs/gating.md#build-history steps 2–3; lists follow docs/rest.md#builds (builds); build times are in build-times.ts.
 */
import type { Knex } from 'knex';
import type { BuildResult } from '../../model/results';
import { DurationSampleRepository, type SampleBatch } from './duration-samples';
import { flakyCondition } from './run-outcomes';
import { HistoryCountRepository } from './history-counts';
import {
  countRows,
  fetchIdPage,
  isUnfiltered,
  whereAnyOf,
  whereFlag,
  whereIdRange,
  whereProject,
  whereResult,
  whereTenant,
  type KeysetPage,
} from './history-query';
import { pickFields } from '../row-fields';

export interface BuildRecord {
  id: number;
  buildsetId: number;
  tenant: string;
  uuid: string;
  jobName: string;
  result: BuildResult | null;
  startTime: Date | null;
  endTime: Date | null;
  voting: boolean;
  logUrl: string | null;
  errorDetail: string | null;
  final: boolean;
  held: boolean;
  nodeset: string | null;
  refId: number | null;
  attempt: number;
  /** Its result differs from an earlier run on the same revision (docs/analytics.md#flaky-runs). */
  flaky: boolean;
}

export interface ArtifactRecord {
  id: number;
  buildId: number;
  name: string;
  url: string;
  metadata: Record<string, unknown> | null;
}

export interface ProvideRecord {
  id: number;
  buildId: number;
  name: string;
}

export interface BuildEventRecord {
  id: number;
  buildId: number;
  eventTime: Date;
  eventType: string;
  description: string | null;
}

/** Every filter of `T/builds`; list-valued fields are OR'ed, fields are AND'ed. */
export interface BuildFilter {
  /** Wildcard-capable; the build's own ref: the project's name or canonical name. */
  project?: string[];
  /** Wildcard-capable; the buildset's pipeline. */
  pipeline?: string[];
  /** Wildcard-capable; the build's own ref. */
  branch?: string[];
  /** Wildcard-capable. */
  jobName?: string[];
  change?: number[];
  patchset?: string[];
  ref?: string[];
  newrev?: string[];
  /** Build uuids. */
  uuid?: string[];
  nodeset?: string[];
  result?: BuildResult[];
  /** Drops these results and, as in the reference, builds still running. */
  excludeResult?: BuildResult[];
  voting?: boolean;
  /** true: final builds; false: completed builds that were retried (running builds never match). */
  final?: boolean;
  held?: boolean;
  /** true: finished builds only; false: running only. */
  complete?: boolean;
  idxMin?: number;
  idxMax?: number;
}

export interface StartBuild {
  buildsetId: number;
  uuid: string;
  jobName: string;
  startTime: Date;
  voting?: boolean;
  /** Name of the nodeset alternative used ("" for an anonymous nodeset). */
  nodeset?: string | null;
  /** The ref of the change this job ran for. */
  refId?: number | null;
  attempt?: number;
}

export interface NewArtifact {
  name: string;
  url: string;
  metadata?: Record<string, unknown> | null;
}

export interface CompleteBuild {
  result: BuildResult;
  endTime: Date;
  errorDetail?: string | null;
  logUrl?: string | null;
  /** False for builds that will be retried. */
  final?: boolean;
  held?: boolean;
  artifacts?: NewArtifact[];
  provides?: string[];
  events?: NewBuildEvent[];
  /** The data the build returned (its results file's `data`); nothing is kept when empty. */
  resultData?: Record<string, unknown> | null;
}

export interface NewBuildEvent {
  eventTime: Date;
  /** `paused` or `resumed`. */
  eventType: string;
  description?: string | null;
}

interface BuildRow {
  id: number;
  buildset_id: number;
  tenant: string;
  uuid: string;
  job_name: string;
  result: BuildResult | null;
  start_time: Date | null;
  end_time: Date | null;
  voting: boolean;
  log_url: string | null;
  error_detail: string | null;
  final: boolean;
  held: boolean;
  nodeset: string | null;
  ref_id: number | null;
  attempt: number;
  flaky: boolean;
  /**
   * Copies of the ref's project (name and canonical name) and branch and the buildset's pipeline,
   * for filtering (migrations 0004, 0011).
   */
  project: string | null;
  project_canonical: string | null;
  branch: string | null;
  pipeline: string | null;
}

interface ArtifactRow {
  id: number;
  build_id: number;
  name: string;
  url: string;
  metadata: Record<string, unknown> | null;
}

interface ProvideRow {
  id: number;
  build_id: number;
  name: string;
}

interface BuildEventRow {
  id: number;
  build_id: number;
  event_time: Date;
  event_type: string;
  description: string | null;
}

export class BuildRepository {
  private readonly counts: HistoryCountRepository;

  constructor(private readonly knex: Knex) {
    this.counts = new HistoryCountRepository(knex);
  }

  /**
   * Build start (docs/gating.md#build-history step 2): inserts the build (with copies of its ref's project names and
   * branch and its buildset's tenant and pipeline) and sets the buildset's first build start time.
   */
  async start(input: StartBuild, trx?: Knex.Transaction): Promise<BuildRecord> {
    if (!trx) {
      return this.knex.transaction((inner) => this.start(input, inner));
    }
    // The buildset's first build start time rides on the insert (one statement; docs/gating.md#performance).
    const [row]: BuildRow[] = await trx('builds')
      .with(
        'first_start',
        trx('buildsets')
          .where('id', input.buildsetId)
          .whereNull('first_build_start_time')
          .update({ first_build_start_time: input.startTime }),
      )
      .insert({
        buildset_id: input.buildsetId,
        tenant: trx('buildsets').select('tenant').where('id', input.buildsetId),
        pipeline: trx('buildsets').select('pipeline').where('id', input.buildsetId),
        project: input.refId == null ? null : trx('refs').select('project').where('id', input.refId),
        project_canonical:
          input.refId == null ? null : trx('refs').select('project_canonical').where('id', input.refId),
        branch: input.refId == null ? null : trx('refs').select('branch').where('id', input.refId),
        uuid: input.uuid,
        job_name: input.jobName,
        start_time: input.startTime,
        voting: input.voting ?? true,
        nodeset: input.nodeset ?? null,
        ref_id: input.refId ?? null,
        attempt: input.attempt ?? 1,
      })
      .returning('*');
    return toBuildRecord(row);
  }

  /**
   * Build end (docs/gating.md#build-history step 3): records result, end time, details, artifacts, provides and events
   * in one transaction.
   */
  async complete(
    buildId: number,
    input: CompleteBuild,
    trx?: Knex.Transaction,
    samples?: SampleBatch,
  ): Promise<BuildRecord> {
    if (!trx) {
      return this.knex.transaction((inner) => this.complete(buildId, input, inner, samples));
    }
    // Result data the build returned none of is removed by the same statement (a paused build may have
    // stored some before): no statement of its own (docs/gating.md#performance).
    const clearsData = input.resultData !== undefined && isEmptyData(input.resultData);
    const update = trx('builds');
    if (clearsData) {
      update.with('cleared', trx('build_result_data').where('build_id', buildId).delete());
    }
    const [row]: BuildRow[] = await update
      .where('id', buildId)
      .update({
        result: input.result,
        end_time: input.endTime,
        error_detail: input.errorDetail ?? null,
        log_url: input.logUrl ?? null,
        final: input.final ?? true,
        held: input.held ?? false,
        flaky: flakyCondition(trx, input.result),
      })
      .returning('*');
    if (!row) {
      throw new Error(`build ${buildId} does not exist`);
    }
    // The job's recent runs behind its estimates (docs/analytics.md#job-estimates).
    await new DurationSampleRepository(trx).recordBuild(
      pickFields(row, ['tenant', 'projectCanonical', 'branch', 'jobName', 'result', 'final', 'startTime', 'endTime']),
      trx,
      samples,
    );
    const artifacts = input.artifacts ?? [];
    if (artifacts.length > 0) {
      await trx('artifacts').insert(
        artifacts.map((artifact) => ({
          build_id: buildId,
          name: artifact.name,
          url: artifact.url,
          metadata: artifact.metadata ?? null,
        })),
      );
    }
    const provides = input.provides ?? [];
    if (provides.length > 0) {
      await trx('provides').insert(provides.map((name) => ({ build_id: buildId, name })));
    }
    const events = input.events ?? [];
    if (events.length > 0) {
      await trx('build_events').insert(events.map((event) => toBuildEventRow(buildId, event)));
    }
    if (input.resultData !== undefined && !clearsData) {
      await this.setResultData(buildId, input.resultData, trx);
    }
    return toBuildRecord(row);
  }

  /** Replaces the data a build returned (a paused build returned it before it ends); null or `{}` removes it. */
  async setResultData(buildId: number, data: Record<string, unknown> | null, trx: Knex = this.knex): Promise<void> {
    if (isEmptyData(data)) {
      await trx('build_result_data').where('build_id', buildId).delete();
      return;
    }
    await trx('build_result_data').insert({ build_id: buildId, data }).onConflict('build_id').merge();
  }

  /** The data each build returned, by build id (builds that returned none are absent); one query. */
  async listResultData(buildIds: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
    if (buildIds.length === 0) {
      return new Map();
    }
    const rows: Array<{ build_id: number; data: Record<string, unknown> }> = await this.knex('build_result_data')
      .whereIn('build_id', buildIds)
      .select('build_id', 'data');
    return new Map(rows.map((row) => [Number(row.build_id), row.data]));
  }

  /**
   * A build that never started (SKIPPED, CANCELED, NODE_FAILURE placeholders, docs/gating.md#build-history step 3):
   * inserted and completed at once; its start time is the time of recording.
   */
  async recordPlaceholder(input: Omit<StartBuild, 'startTime'> & CompleteBuild): Promise<BuildRecord> {
    return this.knex.transaction(async (trx) => {
      const started = await this.start({ ...input, startTime: input.endTime }, trx);
      return this.complete(started.id, input, trx);
    });
  }

  /** Records a pause or resume while the build runs. */
  async addEvent(buildId: number, event: NewBuildEvent): Promise<BuildEventRecord> {
    const [row]: BuildEventRow[] = await this.knex('build_events')
      .insert(toBuildEventRow(buildId, event))
      .returning('*');
    return toBuildEventRecord(row);
  }

  /** Builds by id, in no particular order (missing ids are absent). */
  async findByIds(ids: readonly number[]): Promise<BuildRecord[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: BuildRow[] = await this.knex('builds').whereIn('id', ids);
    return rows.map(toBuildRecord);
  }

  /** The newest build of a tenant with this uuid, or null. */
  async findByUuid(tenant: string, uuid: string): Promise<BuildRecord | null> {
    const row: BuildRow | undefined = await this.knex('builds').where({ tenant, uuid }).orderBy('id', 'desc').first();
    return row ? toBuildRecord(row) : null;
  }

  /** One page of a tenant's builds matching `filter`, newest first. */
  async list(tenant: string, filter: BuildFilter, page: KeysetPage<number>): Promise<BuildRecord[]> {
    const rows = await fetchIdPage<BuildRow>(
      this.filtered(tenant, filter).select('builds.*'),
      'builds.id',
      page,
      'builds.tenant',
    );
    return rows.map(toBuildRecord);
  }

  /** How many of a tenant's builds match `filter`. */
  async count(tenant: string, filter: BuildFilter): Promise<number> {
    if (isUnfiltered(filter)) {
      return this.counts.count(tenant, 'builds');
    }
    return countRows(this.filtered(tenant, filter));
  }

  /** Builds of each buildset, oldest first; one query for all buildsets. */
  async listForBuildsets(buildsetIds: readonly number[]): Promise<BuildRecord[]> {
    if (buildsetIds.length === 0) {
      return [];
    }
    const rows: BuildRow[] = await this.knex('builds').whereIn('buildset_id', buildsetIds).orderBy('id', 'asc');
    return rows.map(toBuildRecord);
  }

  /** Artifacts of each build, by name; one query for all builds. */
  async listArtifacts(buildIds: readonly number[]): Promise<ArtifactRecord[]> {
    if (buildIds.length === 0) {
      return [];
    }
    const rows: ArtifactRow[] = await this.knex('artifacts')
      .whereIn('build_id', buildIds)
      .orderBy([{ column: 'build_id' }, { column: 'name' }, { column: 'id' }]);
    return rows.map((row) => pickFields(row, ['id', 'buildId', 'name', 'url', 'metadata']));
  }

  /** Provides of each build, by name; one query for all builds. */
  async listProvides(buildIds: readonly number[]): Promise<ProvideRecord[]> {
    if (buildIds.length === 0) {
      return [];
    }
    const rows: ProvideRow[] = await this.knex('provides')
      .whereIn('build_id', buildIds)
      .orderBy([{ column: 'build_id' }, { column: 'name' }, { column: 'id' }]);
    return rows.map((row) => ({ id: row.id, buildId: row.build_id, name: row.name }));
  }

  /** Events of each build, oldest first; one query for all builds. */
  async listEvents(buildIds: readonly number[]): Promise<BuildEventRecord[]> {
    if (buildIds.length === 0) {
      return [];
    }
    const rows: BuildEventRow[] = await this.knex('build_events')
      .whereIn('build_id', buildIds)
      .orderBy([{ column: 'build_id' }, { column: 'event_time' }, { column: 'id' }]);
    return rows.map(toBuildEventRecord);
  }

  private filtered(tenant: string, filter: BuildFilter): Knex.QueryBuilder {
    const query = this.knex('builds');
    whereTenant(query, 'builds.tenant', tenant);
    whereAnyOf(query, 'builds.pipeline', filter.pipeline, true);
    whereProject(query, 'builds', filter.project, true);
    whereAnyOf(query, 'builds.branch', filter.branch, true);
    const refFilters = [filter.change, filter.patchset, filter.ref, filter.newrev];
    if (refFilters.some((values) => values !== undefined && values.length > 0)) {
      query.join('refs', 'refs.id', 'builds.ref_id');
      whereAnyOf(query, 'refs.change', filter.change);
      whereAnyOf(query, 'refs.patchset', filter.patchset);
      whereAnyOf(query, 'refs.ref', filter.ref);
      whereAnyOf(query, 'refs.newrev', filter.newrev);
    }
    whereAnyOf(query, 'builds.job_name', filter.jobName, true);
    whereAnyOf(query, 'builds.uuid', filter.uuid);
    whereAnyOf(query, 'builds.nodeset', filter.nodeset);
    whereResult(query, 'builds.result', filter);
    whereFlag(query, 'builds.voting', filter.voting);
    whereFinal(query, filter.final);
    whereFlag(query, 'builds.held', filter.held);
    whereIdRange(query, 'builds.id', filter);
    return query;
  }
}

/**
 * `final` is only decided when a build completes; like the reference (where it is null until
 * then), asking for non-final builds means retried ones, not running ones.
 */
function whereFinal(query: Knex.QueryBuilder, value: boolean | undefined): void {
  whereFlag(query, 'builds.final', value);
  if (value === false) {
    query.whereNotNull('builds.result');
  }
}

function toBuildEventRow(buildId: number, event: NewBuildEvent): Omit<BuildEventRow, 'id'> {
  return {
    build_id: buildId,
    event_time: event.eventTime,
    event_type: event.eventType,
    description: event.description ?? null,
  };
}

function toBuildRecord(row: BuildRow): BuildRecord {
  return pickFields(row, [
    'id',
    'buildsetId',
    'tenant',
    'uuid',
    'jobName',
    'result',
    'startTime',
    'endTime',
    'voting',
    'logUrl',
    'errorDetail',
    'final',
    'held',
    'nodeset',
    'refId',
    'attempt',
    'flaky',
  ]);
}

function toBuildEventRecord(row: BuildEventRow): BuildEventRecord {
  return pickFields(row, ['id', 'buildId', 'eventTime', 'eventType', 'description']);
}

/** Result data that stores nothing: null or `{}` (a build's row in `build_result_data` is removed). */
function isEmptyData(data: Record<string, unknown> | null): boolean {
  return data === null || Object.keys(data).length === 0;
}
