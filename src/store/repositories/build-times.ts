/**
 * Build times: a tenant's finished builds with the flat ref and pipeline columns the runtime
 * charts need (docs/rest.md#build-times), newest end time first.
 */
import type { Knex } from 'knex';
import type { BuildResult } from '../../model/results';
import {
  countRows,
  tenantOrder,
  whereAnyOf,
  whereFlag,
  whereProject,
  whereResult,
  whereTenant,
  type KeysetPage,
} from './history-query';
import { pickFields } from '../row-fields';

/** Every filter of `T/build-times` (exact values, OR'ed); only finished builds are listed. */
export interface BuildTimeFilter {
  /** The project's name or canonical name. */
  project?: string[];
  pipeline?: string[];
  branch?: string[];
  ref?: string[];
  jobName?: string[];
  result?: BuildResult[];
  excludeResult?: BuildResult[];
  final?: boolean;
  /** Inclusive lower bound on the end time (REST `start_time`). */
  endTimeMin?: Date;
  /** Inclusive upper bound on the end time (REST `end_time`). */
  endTimeMax?: Date;
}

/** A finished build with the flat ref and pipeline columns the runtime charts need. */
export interface BuildTimeRecord {
  id: number;
  uuid: string;
  jobName: string;
  result: BuildResult;
  startTime: Date | null;
  endTime: Date;
  final: boolean;
  /** The project's name (`org/project`). */
  project: string | null;
  /** The project's canonical name. */
  projectCanonical: string | null;
  branch: string | null;
  ref: string | null;
  pipeline: string;
}

/** Keyset of the build-times order (end time, then id, both descending). */
export interface BuildTimeCursor {
  endTime: Date;
  id: number;
}

interface BuildTimeRow {
  id: number;
  uuid: string;
  job_name: string;
  result: BuildResult;
  start_time: Date | null;
  end_time: Date;
  final: boolean;
  project: string | null;
  project_canonical: string | null;
  branch: string | null;
  ref: string | null;
  pipeline: string;
}

export class BuildTimeRepository {
  constructor(private readonly knex: Knex) {}

  /** One page of a tenant's finished builds for runtime charts, newest end time first. */
  async listBuildTimes(
    tenant: string,
    filter: BuildTimeFilter,
    page: KeysetPage<BuildTimeCursor>,
  ): Promise<BuildTimeRecord[]> {
    const query = this.filtered(tenant, filter).select(
      'builds.id',
      'builds.uuid',
      'builds.job_name',
      'builds.result',
      'builds.start_time',
      'builds.end_time',
      'builds.final',
      'builds.project',
      'builds.project_canonical',
      'builds.branch',
      'refs.ref',
      'builds.pipeline',
    );
    if (page.after !== undefined) {
      query.whereRaw('(builds.end_time, builds.id) < (?, ?)', [page.after.endTime, page.after.id]);
    }
    if (page.before !== undefined) {
      query.whereRaw('(builds.end_time, builds.id) > (?, ?)', [page.before.endTime, page.before.id]);
    }
    const direction = page.fromEnd ? 'asc' : 'desc';
    query
      .orderBy(tenantOrder('builds.tenant', ['builds.end_time', 'builds.id'], direction))
      .limit(page.limit)
      .offset(page.offset);
    const rows: BuildTimeRow[] = await query;
    const ordered = page.fromEnd ? rows.reverse() : rows;
    return ordered.map((row) =>
      pickFields(row, [
        'id',
        'uuid',
        'jobName',
        'result',
        'startTime',
        'endTime',
        'final',
        'project',
        'projectCanonical',
        'branch',
        'ref',
        'pipeline',
      ]),
    );
  }

  /** How many finished builds of a tenant match a build-times filter. */
  async countBuildTimes(tenant: string, filter: BuildTimeFilter): Promise<number> {
    return countRows(this.filtered(tenant, filter));
  }

  private filtered(tenant: string, filter: BuildTimeFilter): Knex.QueryBuilder {
    const query = this.knex('builds')
      .leftJoin('refs', 'refs.id', 'builds.ref_id')
      .whereNotNull('builds.result')
      .whereNotNull('builds.end_time');
    whereTenant(query, 'builds.tenant', tenant);
    whereProject(query, 'builds', filter.project);
    whereAnyOf(query, 'builds.pipeline', filter.pipeline);
    whereAnyOf(query, 'builds.branch', filter.branch);
    whereAnyOf(query, 'refs.ref', filter.ref);
    whereAnyOf(query, 'builds.job_name', filter.jobName);
    whereResult(query, 'builds.result', filter);
    whereFlag(query, 'builds.final', filter.final);
    if (filter.endTimeMin !== undefined) {
      query.where('builds.end_time', '>=', filter.endTimeMin);
    }
    if (filter.endTimeMax !== undefined) {
      query.where('builds.end_time', '<=', filter.endTimeMax);
    }
    return query;
  }
}
