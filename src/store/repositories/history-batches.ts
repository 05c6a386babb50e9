/**
 * The build-history writes of a scheduler pass in multi-row statements (docs/gating.md#performance):
 * the builds it started, the builds it completed and the buildsets it finished, each kind in one
 * statement at the pass's end instead of one statement per row, and the buildsets it created with
 * their refs. Build and buildset ids are taken from their sequences ahead (`reserveHistoryIds`),
 * so a row has its id before it is written. Each statement does what the single-row writes of
 * builds.ts and buildsets.ts do (a single buildset is written with `createBuildsets` too).
 */
import type { Knex } from 'knex';
import { prepared } from '../prepared-statements';
import type { QueuedWrite } from '../writes-together';
import type { BuildResult, BuildsetResult } from '../../model/results';
import {
  BUILDSET_COLUMNS,
  toBuildsetRecord,
  type BuildsetRecord,
  type BuildsetRow,
  type NewBuildset,
} from './buildsets';
import type { FinishedBuild } from './duration-samples';
import { RefRepository, toNewRefRow, type RefRow } from './refs';
import { FAILED_RUN, flakyCondition } from './run-outcomes';

export interface BatchedBuildStart {
  id: number;
  buildsetId: number;
  uuid: string;
  jobName: string;
  startTime: Date;
  voting: boolean;
  nodeset: string | null;
  refId: number | null;
  attempt: number;
}

/** What a build's end writes (the history port's `completeBuild` input). */
export interface BuildCompletion {
  result: BuildResult;
  endTime: Date;
  errorDetail: string | null;
  logUrl: string | null;
  final: boolean;
  held: boolean;
  artifacts: Array<{ name: string; url: string; metadata: Record<string, unknown> | null }>;
  provides: string[];
  /** The data the build returned (docs/gating.md#build-history); empty when none. */
  resultData: Record<string, unknown>;
}

export interface BatchedBuildCompletion extends BuildCompletion {
  id: number;
}

export interface BatchedBuildsetFinish {
  id: number;
  result: BuildsetResult;
  message: string | null;
  at: Date;
}

/** A buildset to create with a given id (taken ahead with `reserveHistoryIds`). */
export interface BatchedBuildsetCreation extends NewBuildset {
  id: number;
}

/** Fresh ids from the sequences of `builds` and `buildsets`, as many as asked of each (one statement). */
export async function reserveHistoryIds(
  knex: Knex,
  count: { builds: number; buildsets: number },
): Promise<{ builds: number[]; buildsets: number[] }> {
  const query = historyIdsQuery(count);
  const result = (await knex.raw(query.sql, query.bindings)) as { rows: HistoryIdRow[] };
  return readHistoryIds(result.rows);
}

/** A row of `historyIdsQuery`. */
export interface HistoryIdRow {
  build: string | number | null;
  buildset: string | number | null;
}

/** The query of `reserveHistoryIds`, to send after other writes (`writeTogether`); `readHistoryIds` reads its rows. */
export function historyIdsQuery(count: { builds: number; buildsets: number }): QueuedWrite {
  return {
    sql: `SELECT CASE WHEN n <= ? THEN nextval(pg_get_serial_sequence('builds', 'id')) END AS build,
       CASE WHEN n <= ? THEN nextval(pg_get_serial_sequence('buildsets', 'id')) END AS buildset
     FROM generate_series(1, GREATEST(?::int, ?::int)) AS n`,
    bindings: [count.builds, count.buildsets, count.builds, count.buildsets],
  };
}

/** The ids of each kind in `historyIdsQuery`'s rows, ascending. */
export function readHistoryIds(rows: readonly HistoryIdRow[]): { builds: number[]; buildsets: number[] } {
  const ids = (column: 'build' | 'buildset') =>
    rows
      .filter((row) => row[column] !== null)
      .map((row) => Number(row[column]))
      .sort((a, b) => a - b);
  return { builds: ids('build'), buildsets: ids('buildset') };
}

/**
 * Insert started builds (as `BuildRepository.start` does, one row each, in the given order) and
 * set each buildset's first build start time, from its first build in the given order, when unset.
 */
export async function insertStartedBuilds(trx: Knex, starts: readonly BatchedBuildStart[]): Promise<void> {
  if (starts.length === 0) {
    return;
  }
  const rows = starts.map((start, order) => ({
    ord: order,
    id: start.id,
    buildset_id: start.buildsetId,
    uuid: start.uuid,
    job_name: start.jobName,
    start_time: start.startTime.toISOString(),
    voting: start.voting,
    nodeset: start.nodeset,
    ref_id: start.refId,
    attempt: start.attempt,
  }));
  await prepared(
    trx.raw(
      `WITH v AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS v(ord int, id bigint, buildset_id bigint, uuid text,
         job_name text, start_time timestamptz, voting boolean, nodeset text, ref_id bigint, attempt int)
     ), first_start AS (
       UPDATE buildsets SET first_build_start_time = f.start_time
       FROM (SELECT DISTINCT ON (buildset_id) buildset_id, start_time FROM v ORDER BY buildset_id, ord) f
       WHERE buildsets.id = f.buildset_id AND buildsets.first_build_start_time IS NULL
     )
     INSERT INTO builds (id, buildset_id, tenant, pipeline, project, project_canonical, branch, uuid, job_name,
                         start_time, voting, nodeset, ref_id, attempt)
     SELECT v.id, v.buildset_id, bs.tenant, bs.pipeline, r.project, r.project_canonical, r.branch, v.uuid, v.job_name,
            v.start_time, v.voting, v.nodeset, v.ref_id, v.attempt
     FROM v LEFT JOIN buildsets bs ON bs.id = v.buildset_id LEFT JOIN refs r ON r.id = v.ref_id
     ORDER BY v.ord`,
      [JSON.stringify(rows)],
    ),
  );
}

/**
 * Complete builds (as `BuildRepository.complete` does: result, end time, flaky flag, result data
 * cleared or replaced, artifacts and provides); each build at most once per call. Returns what the
 * duration samples need of each, in the given order.
 */
export async function completeBuilds(
  trx: Knex,
  completions: readonly BatchedBuildCompletion[],
): Promise<FinishedBuild[]> {
  if (completions.length === 0) {
    return [];
  }
  const rows = completions.map((done) => ({
    id: done.id,
    result: done.result,
    end_time: done.endTime.toISOString(),
    error_detail: done.errorDetail,
    log_url: done.logUrl,
    final: done.final,
    held: done.held,
    clears: Object.keys(done.resultData).length === 0,
  }));
  const failed = FAILED_RUN.map(() => '?').join(', ');
  const whenSuccess = flakyCondition(trx, 'SUCCESS') as Knex.Raw;
  const whenFailed = flakyCondition(trx, 'FAILURE') as Knex.Raw;
  const updated = (await prepared(
    trx.raw(
      `WITH v AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, result text, end_time timestamptz,
         error_detail text, log_url text, final boolean, held boolean, clears boolean)
     ), cleared AS (
       DELETE FROM build_result_data USING v WHERE build_result_data.build_id = v.id AND v.clears
     )
     UPDATE builds SET result = v.result, end_time = v.end_time, error_detail = v.error_detail, log_url = v.log_url,
       final = v.final, held = v.held,
       flaky = CASE WHEN v.result = 'SUCCESS' THEN ? WHEN v.result IN (${failed}) THEN ? ELSE false END
     FROM v WHERE builds.id = v.id
     RETURNING builds.id, builds.tenant, builds.project_canonical, builds.branch, builds.job_name, builds.result,
       builds.final, builds.start_time, builds.end_time`,
      [JSON.stringify(rows), whenSuccess, ...FAILED_RUN, whenFailed],
    ),
  )) as { rows: Array<Record<string, unknown> & { id: string | number }> };
  const byId = new Map(updated.rows.map((row) => [Number(row.id), row]));
  const missing = completions.find((done) => !byId.has(done.id));
  if (missing) {
    throw new Error(`build ${missing.id} does not exist`);
  }
  const artifacts = completions.flatMap((done) =>
    done.artifacts.map((artifact) => ({
      build_id: done.id,
      name: artifact.name,
      url: artifact.url,
      metadata: artifact.metadata ?? null,
    })),
  );
  if (artifacts.length > 0) {
    await trx('artifacts').insert(artifacts);
  }
  const provides = completions.flatMap((done) => done.provides.map((name) => ({ build_id: done.id, name })));
  if (provides.length > 0) {
    await trx('provides').insert(provides);
  }
  const data = completions
    .filter((done) => Object.keys(done.resultData).length > 0)
    .map((done) => ({ build_id: done.id, data: done.resultData }));
  if (data.length > 0) {
    await trx('build_result_data').insert(data).onConflict('build_id').merge();
  }
  return completions.map((done) => {
    const row = byId.get(done.id) as Record<string, unknown>;
    return {
      tenant: row.tenant as string,
      projectCanonical: (row.project_canonical as string | null) ?? null,
      branch: (row.branch as string | null) ?? null,
      jobName: row.job_name as string,
      result: (row.result as string | null) ?? null,
      final: row.final as boolean,
      startTime: (row.start_time as Date | null) ?? null,
      endTime: (row.end_time as Date | null) ?? null,
    };
  });
}

/**
 * Finish buildsets (as `BuildsetRepository.finish` does); each buildset at most once per call. The
 * records, in the given order, with the project of each one's first ref.
 */
export async function finishBuildsets(
  trx: Knex,
  finishes: readonly BatchedBuildsetFinish[],
): Promise<Array<{ record: BuildsetRecord; firstProject: string | null }>> {
  if (finishes.length === 0) {
    return [];
  }
  const rows = finishes.map((finish) => ({
    id: finish.id,
    result: finish.result,
    message: finish.message,
    at: finish.at.toISOString(),
  }));
  // The columns named, not `buildsets.*`: a prepared statement's columns are fixed (../prepared-statements.ts).
  const result = (await prepared(
    trx.raw(
      `UPDATE buildsets SET result = v.result, message = v.message, updated = v.at,
       last_build_end_time = GREATEST(first_build_start_time,
         (SELECT max(end_time) FROM builds WHERE builds.buildset_id = buildsets.id))
     FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, result text, message text, at timestamptz)
     WHERE buildsets.id = v.id
     RETURNING ${BUILDSET_COLUMNS.map((column) => `buildsets.${column}`).join(', ')},
       (SELECT refs.project_canonical FROM buildset_refs JOIN refs ON refs.id = buildset_refs.ref_id
        WHERE buildset_refs.buildset_id = buildsets.id ORDER BY refs.id LIMIT 1) AS first_project`,
      [JSON.stringify(rows)],
    ),
  )) as { rows: Array<BuildsetRow & { first_project: string | null }> };
  const byId = new Map(result.rows.map((row) => [Number(row.id), row]));
  return finishes.map((finish) => {
    const row = byId.get(finish.id);
    if (!row) {
      throw new Error(`buildset ${finish.id} does not exist`);
    }
    return { record: toBuildsetRecord(row), firstProject: row.first_project };
  });
}

/** `a` and `b` are the same ref by its unique columns (NULLS NOT DISTINCT). */
function sameRef(a: string, b: string): string {
  return `${a}.project_canonical = ${b}.project_canonical AND ${a}.ref = ${b}.ref
     AND ${a}.change IS NOT DISTINCT FROM ${b}.change AND ${a}.patchset IS NOT DISTINCT FROM ${b}.patchset
     AND ${a}.oldrev IS NOT DISTINCT FROM ${b}.oldrev AND ${a}.newrev IS NOT DISTINCT FROM ${b}.newrev`;
}

/**
 * Buildset starts in one statement (docs/gating.md#build-history step 1, in the given order): the refs of all of them inserted when missing (each distinct ref once, the first
 * occurrence's name, URL and branch kept), the buildsets with their given ids, their ref links
 * and their `triggered` events. Returns each buildset's record and the ids of its refs (in the
 * order given), in the given order. When a ref was inserted by another transaction since the
 * statement's snapshot, the refs are found or created one at a time and the statement runs again.
 */
export async function createBuildsets(
  trx: Knex,
  creations: readonly BatchedBuildsetCreation[],
): Promise<Array<{ record: BuildsetRecord; refIds: number[] }>> {
  if (creations.length === 0) {
    return [];
  }
  // Each distinct ref once (by its unique columns), numbered in order of first occurrence.
  const refs: Array<{ k: number } & Omit<RefRow, 'id'>> = [];
  const numbers = new Map<string, number>();
  const refNumbers = creations.map((creation) =>
    creation.refs.map((ref) => {
      const row = toNewRefRow(ref);
      const key = JSON.stringify([row.project_canonical, row.ref, row.change, row.patchset, row.oldrev, row.newrev]);
      let k = numbers.get(key);
      if (k === undefined) {
        k = refs.length;
        numbers.set(key, k);
        refs.push({ k, ...row });
      }
      return k;
    }),
  );
  const links = creations.flatMap((creation, index) =>
    [...new Set(refNumbers[index])].map((k) => ({ buildset_id: creation.id, k })),
  );
  const buildsets = creations.map((creation, order) => ({
    ord: order,
    id: creation.id,
    uuid: creation.uuid,
    tenant: creation.tenant,
    pipeline: creation.pipeline,
    event_id: creation.eventId ?? null,
    event_timestamp: creation.eventTimestamp?.toISOString() ?? null,
    at: creation.at.toISOString(),
    triggered_by: creation.triggeredBy,
  }));
  // The buildsets' columns named, not `RETURNING *`: a prepared statement's columns are fixed.
  const run = async () =>
    (await prepared(
      trx.raw(
        `WITH r AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb) AS r(k int, project text, project_canonical text, ref text,
           ref_url text, change int, patchset text, oldrev text, newrev text, branch text)
       ), ins AS (
         INSERT INTO refs (project, project_canonical, ref, ref_url, change, patchset, oldrev, newrev, branch)
         SELECT project, project_canonical, ref, ref_url, change, patchset, oldrev, newrev, branch FROM r ORDER BY k
         ON CONFLICT DO NOTHING RETURNING *
       ), matched AS (
         SELECT r.k, COALESCE(ins.id, (SELECT refs.id FROM refs WHERE ${sameRef('refs', 'r')})) AS id
         FROM r LEFT JOIN ins ON ${sameRef('ins', 'r')}
       ), s AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb) AS s(ord int, id bigint, uuid text, tenant text, pipeline text,
           event_id text, event_timestamp timestamptz, at timestamptz, triggered_by text)
       ), b AS (
         INSERT INTO buildsets (id, uuid, tenant, pipeline, event_id, event_timestamp, created, updated)
         SELECT id, uuid, tenant, pipeline, event_id, event_timestamp, at, at FROM s
         WHERE NOT EXISTS (SELECT 1 FROM matched WHERE matched.id IS NULL)
         ORDER BY ord RETURNING ${BUILDSET_COLUMNS.join(', ')}
       ), l AS (
         INSERT INTO buildset_refs (buildset_id, ref_id)
         SELECT b.id, matched.id
         FROM jsonb_to_recordset(?::jsonb) AS l(buildset_id bigint, k int)
         JOIN b ON b.id = l.buildset_id JOIN matched ON matched.k = l.k
       ), e AS (
         INSERT INTO buildset_events (buildset_id, event_time, event_type, description)
         SELECT s.id, s.at, 'triggered', s.triggered_by FROM s JOIN b ON b.id = s.id ORDER BY s.ord
       )
       SELECT b.*, (SELECT jsonb_object_agg(matched.k, matched.id) FROM matched) AS ref_ids FROM b`,
        [JSON.stringify(refs), JSON.stringify(buildsets), JSON.stringify(links)],
      ),
    )) as { rows: Array<BuildsetRow & { ref_ids: Record<string, number | string> }> };
  let result = await run();
  if (result.rows.length === 0) {
    // A ref inserted by another transaction since the snapshot: found once it is visible.
    const repository = new RefRepository(trx);
    for (const ref of refs) {
      await repository.getOrCreate(
        {
          project: ref.project,
          projectCanonical: ref.project_canonical,
          ref: ref.ref,
          refUrl: ref.ref_url,
          change: ref.change,
          patchset: ref.patchset,
          oldrev: ref.oldrev,
          newrev: ref.newrev,
          branch: ref.branch,
        },
        trx,
      );
    }
    result = await run();
  }
  const byId = new Map(result.rows.map((row) => [Number(row.id), row]));
  return creations.map((creation, index) => {
    const row = byId.get(creation.id);
    if (!row) {
      throw new Error(`buildset ${creation.id} was not written`);
    }
    return { record: toBuildsetRecord(row), refIds: refNumbers[index].map((k) => Number(row.ref_ids[k])) };
  });
}
