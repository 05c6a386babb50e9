/**
 * A scheduler pass's build-history writes in one statement (docs/gating.md#performance): the
 * buildsets it created with their refs, links and events, the builds it started, the builds it
 * completed (with their artifacts, provides and result data) and the buildsets it finished, each
 * a data-modifying `WITH` of one statement of fixed text (prepared, ../prepared-statements.ts).
 *
 * The parts of one statement see the same snapshot and none sees another's rows, so each does
 * what a statement of its own after the earlier kinds would do:
 * - a started build takes its buildset's tenant and pipeline from the buildset created in the same
 *   statement when there is one, and its ref (project, branch) from the refs inserted by it;
 * - a created buildset is written with the start time of its first build started here; another
 *   buildset's is set when unset, by its finish when it also finishes here (a row is updated once);
 * - a finish's last build end counts the end times the statement's completions write.
 * What cannot be folded is the caller's to keep apart (`writeHistory` refuses it): a completion of
 * a build started in the batch, a finish of a buildset created in it, a build completed or a
 * buildset finished twice (each is a row written twice, or one a statement cannot see).
 *
 * PostgreSQL runs the parts in no defined order: no row is written by two of them, and the rows
 * they lock (the tenant's buildsets, builds and result data) are written by no other transaction
 * while the pass holds the tenant's row, so the order of their locks matters no more than the
 * order of the statements did.
 *
 * Every part waits on the refs: when another transaction inserted one of them since the
 * statement's snapshot, nothing but the other refs is written; they are then found or created one
 * at a time and the statement runs again.
 */
import type { Knex } from 'knex';
import { prepared } from '../prepared-statements';
import { BUILDSET_COLUMNS, toBuildsetRecord, type BuildsetRecord, type BuildsetRow } from './buildsets';
import type { FinishedBuild } from './duration-samples';
import type {
  BatchedBuildCompletion,
  BatchedBuildsetCreation,
  BatchedBuildsetFinish,
  BatchedBuildStart,
} from './history-batches';
import { RefRepository, toNewRefRow, type RefRow } from './refs';
import { FAILED_RUN, flakyCondition } from './run-outcomes';

/** A build start whose ref is the `index`th ref of the batch's `creation`th buildset (the first when it has fewer). */
export type HistoryStart = BatchedBuildStart & { refOf?: { creation: number; index: number } };

/** What one history statement writes, each kind in the order given. */
export interface HistoryBatch {
  creations?: readonly BatchedBuildsetCreation[];
  starts?: readonly HistoryStart[];
  completions?: readonly BatchedBuildCompletion[];
  finishes?: readonly BatchedBuildsetFinish[];
}

/** What the callers are told: created buildsets with their refs' ids, completed builds, finished buildsets. */
export interface HistoryWritten {
  created: Array<{ record: BuildsetRecord; refIds: number[] }>;
  completed: FinishedBuild[];
  finished: Array<{ record: BuildsetRecord; firstProject: string | null }>;
}

/** `a` and `b` are the same ref by its unique columns (NULLS NOT DISTINCT). */
function sameRef(a: string, b: string): string {
  return `${a}.project_canonical = ${b}.project_canonical AND ${a}.ref = ${b}.ref
     AND ${a}.change IS NOT DISTINCT FROM ${b}.change AND ${a}.patchset IS NOT DISTINCT FROM ${b}.patchset
     AND ${a}.oldrev IS NOT DISTINCT FROM ${b}.oldrev AND ${a}.newrev IS NOT DISTINCT FROM ${b}.newrev`;
}

/** The types of the returned buildset columns, for the rows that hold none. */
const BUILDSET_TYPES: Record<(typeof BUILDSET_COLUMNS)[number], string> = {
  id: 'bigint',
  uuid: 'text',
  tenant: 'text',
  pipeline: 'text',
  result: 'text',
  message: 'text',
  event_id: 'text',
  event_timestamp: 'timestamptz',
  first_build_start_time: 'timestamptz',
  last_build_end_time: 'timestamptz',
  created: 'timestamptz',
  updated: 'timestamptz',
};

/** The completed builds' columns beyond id, tenant and result, with their types. */
const BUILD_COLUMNS: ReadonlyArray<[string, string]> = [
  ['project_canonical', 'text'],
  ['branch', 'text'],
  ['job_name', 'text'],
  ['final', 'boolean'],
  ['start_time', 'timestamptz'],
  ['end_time', 'timestamptz'],
];

/** A returned row's select list: `kind`, the buildset columns, ref ids, first project, build columns. */
function resultColumns(kind: string, from: string, extra: { refIds?: string; firstProject?: string; build?: boolean }) {
  const shared = new Set(['id', 'tenant', 'result']);
  const buildset = BUILDSET_COLUMNS.map((column) =>
    extra.build && !shared.has(column) ? `NULL::${BUILDSET_TYPES[column]} AS ${column}` : `${from}.${column}`,
  );
  const build = BUILD_COLUMNS.map(([column, type]) =>
    extra.build ? `${from}.${column}` : `NULL::${type} AS ${column}`,
  );
  return [
    `'${kind}' AS kind`,
    ...buildset,
    `${extra.refIds ?? 'NULL::jsonb'} AS ref_ids`,
    `${extra.firstProject ?? 'NULL::text'} AS first_project`,
    ...build,
  ].join(', ');
}

/** The statement's text: fixed, whatever the batch holds (its rows are JSON parameters). */
function historySql(): string {
  const guard = '(SELECT ok FROM g)';
  const failed = FAILED_RUN.map(() => '?').join(', ');
  return `WITH r AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS r(k int, project text, project_canonical text, ref text,
       ref_url text, change int, patchset text, oldrev text, newrev text, branch text)
   ), ins AS (
     INSERT INTO refs (project, project_canonical, ref, ref_url, change, patchset, oldrev, newrev, branch)
     SELECT project, project_canonical, ref, ref_url, change, patchset, oldrev, newrev, branch FROM r ORDER BY k
     ON CONFLICT DO NOTHING RETURNING *
   ), matched AS (
     SELECT r.k, COALESCE(ins.id, (SELECT refs.id FROM refs WHERE ${sameRef('refs', 'r')})) AS id
     FROM r LEFT JOIN ins ON ${sameRef('ins', 'r')}
   ), g AS (
     SELECT NOT EXISTS (SELECT 1 FROM matched WHERE matched.id IS NULL) AS ok
   ), s AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS s(ord int, id bigint, uuid text, tenant text, pipeline text,
       event_id text, event_timestamp timestamptz, at timestamptz, triggered_by text)
   ), st AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS st(ord int, id bigint, buildset_id bigint, uuid text,
       job_name text, start_time timestamptz, voting boolean, nodeset text, ref_id bigint, ref_k int, attempt int)
   ), cv AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS cv(id bigint, result text, end_time timestamptz,
       error_detail text, log_url text, final boolean, held boolean, clears boolean)
   ), fv AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS fv(id bigint, result text, message text, at timestamptz)
   ), fs AS (
     SELECT DISTINCT ON (buildset_id) buildset_id, start_time FROM st ORDER BY buildset_id, ord
   ), b AS (
     INSERT INTO buildsets (id, uuid, tenant, pipeline, event_id, event_timestamp, created, updated,
                            first_build_start_time)
     SELECT s.id, s.uuid, s.tenant, s.pipeline, s.event_id, s.event_timestamp, s.at, s.at, fs.start_time
     FROM s LEFT JOIN fs ON fs.buildset_id = s.id
     WHERE ${guard}
     ORDER BY s.ord RETURNING ${BUILDSET_COLUMNS.join(', ')}
   ), l AS (
     INSERT INTO buildset_refs (buildset_id, ref_id)
     SELECT b.id, matched.id
     FROM jsonb_to_recordset(?::jsonb) AS l(buildset_id bigint, k int)
     JOIN b ON b.id = l.buildset_id JOIN matched ON matched.k = l.k
   ), e AS (
     INSERT INTO buildset_events (buildset_id, event_time, event_type, description)
     SELECT s.id, s.at, 'triggered', s.triggered_by FROM s JOIN b ON b.id = s.id ORDER BY s.ord
   ), first_start AS (
     UPDATE buildsets SET first_build_start_time = fs.start_time
     FROM fs
     WHERE buildsets.id = fs.buildset_id AND buildsets.first_build_start_time IS NULL
       AND NOT EXISTS (SELECT 1 FROM fv WHERE fv.id = fs.buildset_id) AND ${guard}
   ), started AS (
     INSERT INTO builds (id, buildset_id, tenant, pipeline, project, project_canonical, branch, uuid, job_name,
                         start_time, voting, nodeset, ref_id, attempt)
     SELECT st.id, st.buildset_id, COALESCE(bs.tenant, s.tenant), COALESCE(bs.pipeline, s.pipeline),
            CASE WHEN rf.id IS NULL THEN ins.project ELSE rf.project END,
            CASE WHEN rf.id IS NULL THEN ins.project_canonical ELSE rf.project_canonical END,
            CASE WHEN rf.id IS NULL THEN ins.branch ELSE rf.branch END,
            st.uuid, st.job_name, st.start_time, st.voting, st.nodeset, COALESCE(st.ref_id, m.id), st.attempt
     FROM st LEFT JOIN matched m ON m.k = st.ref_k
       LEFT JOIN buildsets bs ON bs.id = st.buildset_id LEFT JOIN s ON s.id = st.buildset_id
       LEFT JOIN refs rf ON rf.id = COALESCE(st.ref_id, m.id) LEFT JOIN ins ON ins.id = COALESCE(st.ref_id, m.id)
     WHERE ${guard}
     ORDER BY st.ord
   ), cleared AS (
     DELETE FROM build_result_data USING cv WHERE build_result_data.build_id = cv.id AND cv.clears AND ${guard}
   ), done AS (
     UPDATE builds SET result = cv.result, end_time = cv.end_time, error_detail = cv.error_detail,
       log_url = cv.log_url, final = cv.final, held = cv.held,
       flaky = CASE WHEN cv.result = 'SUCCESS' THEN ? WHEN cv.result IN (${failed}) THEN ? ELSE false END
     FROM cv WHERE builds.id = cv.id AND ${guard}
     RETURNING builds.id, builds.tenant, builds.project_canonical, builds.branch, builds.job_name, builds.result,
       builds.final, builds.start_time, builds.end_time
   ), artifact AS (
     INSERT INTO artifacts (build_id, name, url, metadata)
     SELECT a.build_id, a.name, a.url, a.metadata
     FROM jsonb_to_recordset(?::jsonb) AS a(ord int, build_id bigint, name text, url text, metadata jsonb)
     WHERE ${guard} ORDER BY a.ord
   ), provided AS (
     INSERT INTO provides (build_id, name)
     SELECT p.build_id, p.name FROM jsonb_to_recordset(?::jsonb) AS p(ord int, build_id bigint, name text)
     WHERE ${guard} ORDER BY p.ord
   ), data AS (
     INSERT INTO build_result_data (build_id, data)
     SELECT d.build_id, d.data FROM jsonb_to_recordset(?::jsonb) AS d(ord int, build_id bigint, data jsonb)
     WHERE ${guard} ORDER BY d.ord
     ON CONFLICT (build_id) DO UPDATE SET data = EXCLUDED.data
   ), fin AS (
     UPDATE buildsets SET result = fv.result, message = fv.message, updated = fv.at,
       first_build_start_time = COALESCE(buildsets.first_build_start_time, fs.start_time),
       last_build_end_time = GREATEST(COALESCE(buildsets.first_build_start_time, fs.start_time),
         (SELECT max(CASE WHEN c.id IS NULL THEN x.end_time ELSE c.end_time END)
          FROM builds x LEFT JOIN cv c ON c.id = x.id WHERE x.buildset_id = buildsets.id))
     FROM fv LEFT JOIN fs ON fs.buildset_id = fv.id
     WHERE buildsets.id = fv.id AND ${guard}
     RETURNING ${BUILDSET_COLUMNS.map((column) => `buildsets.${column}`).join(', ')},
       (SELECT refs.project_canonical FROM buildset_refs JOIN refs ON refs.id = buildset_refs.ref_id
        WHERE buildset_refs.buildset_id = buildsets.id ORDER BY refs.id LIMIT 1) AS first_project
   )
   SELECT ${resultColumns('created', 'b', { refIds: '(SELECT jsonb_object_agg(matched.k, matched.id) FROM matched)' })} FROM b
   UNION ALL SELECT ${resultColumns('completed', 'done', { build: true })} FROM done
   UNION ALL SELECT ${resultColumns('finished', 'fin', { firstProject: 'fin.first_project' })} FROM fin`;
}

/** A returned row. */
type HistoryRow = BuildsetRow & {
  kind: 'created' | 'completed' | 'finished';
  ref_ids: Record<string, number | string> | null;
  first_project: string | null;
  project_canonical: string | null;
  branch: string | null;
  job_name: string;
  final: boolean;
  start_time: Date | null;
  end_time: Date | null;
};

/** The batch's rows as the statement's JSON parameters (refs numbered by first occurrence). */
function parameters(batch: Required<HistoryBatch>) {
  const refs: Array<{ k: number } & Omit<RefRow, 'id'>> = [];
  const numbers = new Map<string, number>();
  const refNumbers = batch.creations.map((creation) =>
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
  const links = batch.creations.flatMap((creation, index) =>
    [...new Set(refNumbers[index])].map((k) => ({ buildset_id: creation.id, k })),
  );
  const buildsets = batch.creations.map((creation, order) => ({
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
  const starts = batch.starts.map((start, order) => {
    const numbered = start.refOf === undefined ? undefined : refNumbers[start.refOf.creation];
    return {
      ord: order,
      id: start.id,
      buildset_id: start.buildsetId,
      uuid: start.uuid,
      job_name: start.jobName,
      start_time: start.startTime.toISOString(),
      voting: start.voting,
      nodeset: start.nodeset,
      ref_id: numbered === undefined ? start.refId : null,
      ref_k: numbered === undefined ? null : (numbered[start.refOf?.index ?? 0] ?? numbered[0] ?? null),
      attempt: start.attempt,
    };
  });
  const completions = batch.completions.map((done) => ({
    id: done.id,
    result: done.result,
    end_time: done.endTime.toISOString(),
    error_detail: done.errorDetail,
    log_url: done.logUrl,
    final: done.final,
    held: done.held,
    clears: Object.keys(done.resultData).length === 0,
  }));
  const artifacts = batch.completions.flatMap((done) =>
    done.artifacts.map((artifact) => ({
      build_id: done.id,
      name: artifact.name,
      url: artifact.url,
      metadata: artifact.metadata ?? undefined,
    })),
  );
  const provides = batch.completions.flatMap((done) => done.provides.map((name) => ({ build_id: done.id, name })));
  const data = batch.completions
    .filter((done) => Object.keys(done.resultData).length > 0)
    .map((done) => ({ build_id: done.id, data: done.resultData }));
  const finishes = batch.finishes.map((finish) => ({
    id: finish.id,
    result: finish.result,
    message: finish.message,
    at: finish.at.toISOString(),
  }));
  const numbered = <T>(rows: T[]) => JSON.stringify(rows.map((row, ord) => ({ ord, ...row })));
  return {
    refs,
    refNumbers,
    json: {
      refs: JSON.stringify(refs),
      buildsets: JSON.stringify(buildsets),
      starts: JSON.stringify(starts),
      completions: JSON.stringify(completions),
      finishes: JSON.stringify(finishes),
      links: JSON.stringify(links),
      artifacts: numbered(artifacts),
      provides: numbered(provides),
      data: numbered(data),
    },
  };
}

/** What the batch may not hold together (module comment); the first such row, described. */
function unfoldable(batch: Required<HistoryBatch>): string | null {
  const started = new Set(batch.starts.map((start) => start.id));
  const created = new Set(batch.creations.map((creation) => creation.id));
  const completed = new Set<number>();
  for (const done of batch.completions) {
    if (started.has(done.id) || completed.has(done.id)) {
      return `build ${done.id} is started or completed again in the same statement`;
    }
    completed.add(done.id);
  }
  const finished = new Set<number>();
  for (const finish of batch.finishes) {
    if (created.has(finish.id) || finished.has(finish.id)) {
      return `buildset ${finish.id} is created or finished again in the same statement`;
    }
    finished.add(finish.id);
  }
  return null;
}

/**
 * Write a pass's history in one statement (module comment); what the callers are told, each kind
 * in the order given. Nothing is sent for an empty batch.
 */
export async function writeHistory(trx: Knex, input: HistoryBatch): Promise<HistoryWritten> {
  const batch: Required<HistoryBatch> = {
    creations: input.creations ?? [],
    starts: input.starts ?? [],
    completions: input.completions ?? [],
    finishes: input.finishes ?? [],
  };
  if (Object.values(batch).every((rows) => rows.length === 0)) {
    return { created: [], completed: [], finished: [] };
  }
  const refused = unfoldable(batch);
  if (refused !== null) {
    throw new Error(refused);
  }
  const { refs, refNumbers, json } = parameters(batch);
  const run = async () =>
    (
      (await prepared(
        trx.raw(historySql(), [
          json.refs,
          json.buildsets,
          json.starts,
          json.completions,
          json.finishes,
          json.links,
          flakyCondition(trx, 'SUCCESS') as Knex.Raw,
          ...FAILED_RUN,
          flakyCondition(trx, 'FAILURE') as Knex.Raw,
          json.artifacts,
          json.provides,
          json.data,
        ]),
      )) as { rows: HistoryRow[] }
    ).rows;
  let rows = await run();
  if (batch.creations.length > 0 && !rows.some((row) => row.kind === 'created')) {
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
    rows = await run();
  }
  return told(batch, refNumbers, rows);
}

/** The rows of each kind in the order given; an error for a row the statement did not write. */
function told(batch: Required<HistoryBatch>, refNumbers: number[][], rows: HistoryRow[]): HistoryWritten {
  const byKind = (kind: HistoryRow['kind']) =>
    new Map(rows.filter((row) => row.kind === kind).map((row) => [Number(row.id), row]));
  const created = byKind('created');
  const completed = byKind('completed');
  const finished = byKind('finished');
  const found = (rows: Map<number, HistoryRow>, id: number, what: string): HistoryRow => {
    const row = rows.get(id);
    if (!row) {
      throw new Error(what);
    }
    return row;
  };
  return {
    created: batch.creations.map((creation, index) => {
      const row = found(created, creation.id, `buildset ${creation.id} was not written`);
      const ids = row.ref_ids ?? {};
      return { record: toBuildsetRecord(row), refIds: refNumbers[index].map((k) => Number(ids[k])) };
    }),
    completed: batch.completions.map((done) => {
      const row = found(completed, done.id, `build ${done.id} does not exist`);
      return {
        tenant: row.tenant,
        projectCanonical: row.project_canonical ?? null,
        branch: row.branch ?? null,
        jobName: row.job_name,
        result: row.result ?? null,
        final: row.final,
        startTime: row.start_time ?? null,
        endTime: row.end_time ?? null,
      };
    }),
    finished: batch.finishes.map((finish) => {
      const row = found(finished, finish.id, `buildset ${finish.id} does not exist`);
      return { record: toBuildsetRecord(row), firstProject: row.first_project };
    }),
  };
}
