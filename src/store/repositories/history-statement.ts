/**
 * A scheduler pass's build-history writes in one statement (docs/gating.md#performance): the
 * buildsets it created with their refs, links and events, the builds it started, the builds it
 * completed (with their artifacts, provides and result data) and the buildsets it finished, each
 * kind data-modifying `WITH`s of one statement. Its text holds the parts of the kinds the batch
 * has, so it is one of 15 fixed texts, each prepared (../prepared-statements.ts).
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
 * Every part waits on the refs when the batch creates buildsets: when another transaction inserted one of them since the
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
import { historyParameters, unfoldable } from './history-parameters';
import { RefRepository } from './refs';
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

/**
 * `column` is one of the values `values` (a sub-query) gives: said beside a join to a row list
 * sent as JSON, so the table is read by its index. The planner takes a JSON row list for 100
 * rows, so it read and hashed every row of builds, buildsets or refs until those held tens of
 * thousands, more of them with every pass (3.4 ms a statement at 6,000 changes of
 * bench/engine-gate.ts, against 2.1 ms at 2,000); an array from a sub-query counts as 10
 * values, for which an index scan is the cheaper plan (docs/gating.md#performance).
 */
function amongValues(column: string, values: string): string {
  return `${column} = ANY(ARRAY(${values}))`;
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

/**
 * A returned row's select list: `kind`, the buildset columns, ref ids, first project, build
 * columns; the columns of other kinds as typed nulls when rows of several kinds are returned
 * (`alone`: only this kind, only its columns).
 */
function resultColumns(
  kind: string,
  from: string,
  extra: { refIds?: string; firstProject?: boolean; build?: boolean },
  alone: boolean,
) {
  const shared = new Set(['id', 'tenant', 'result']);
  const own = (column: string, type: string, ours: boolean) =>
    ours ? [`${from}.${column}`] : alone ? [] : [`NULL::${type} AS ${column}`];
  return [
    `'${kind}' AS kind`,
    ...BUILDSET_COLUMNS.flatMap((column) => own(column, BUILDSET_TYPES[column], !extra.build || shared.has(column))),
    ...(extra.refIds ? [`${extra.refIds} AS ref_ids`] : alone ? [] : ['NULL::jsonb AS ref_ids']),
    ...own('first_project', 'text', extra.firstProject === true),
    ...BUILD_COLUMNS.flatMap(([column, type]) => own(column, type, extra.build === true)),
  ].join(', ');
}

/** Which kinds a batch holds. */
interface Kinds {
  creations: boolean;
  starts: boolean;
  completions: boolean;
  finishes: boolean;
}

/** The batch's rows as JSON parameters (./history-parameters.ts). */
type Json = ReturnType<typeof historyParameters>['json'];

/**
 * The statement for the kinds a batch holds: its parts for those kinds only, so one of 15 fixed
 * texts (its rows are JSON parameters). A part sent empty would still cost its planning and the
 * statement triggers of its table (migrations 0017, 0025, 0029), which fire on no rows too.
 */
function historyStatement(trx: Knex, kinds: Kinds, json: Json): { sql: string; bindings: Knex.RawBinding[] } {
  const parts: Array<[string, Knex.RawBinding[]]> = [];
  const part = (sql: string, ...bindings: Knex.RawBinding[]) => parts.push([sql, bindings]);
  // Every part waits on the refs when the batch inserts some (module comment).
  const guard = kinds.creations ? 'AND (SELECT ok FROM g)' : '';
  if (kinds.creations) {
    part(
      `r AS (
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
     )`,
      json.refs,
      json.buildsets,
    );
  }
  if (kinds.starts) {
    part(
      `st AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS st(ord int, id bigint, buildset_id bigint, uuid text,
         job_name text, start_time timestamptz, voting boolean, nodeset text, ref_id bigint, ref_k int, attempt int)
     ), fs AS (
       SELECT DISTINCT ON (buildset_id) buildset_id, start_time FROM st ORDER BY buildset_id, ord
     )`,
      json.starts,
    );
  }
  if (kinds.completions) {
    part(
      `cv AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS cv(id bigint, result text, end_time timestamptz,
         error_detail text, log_url text, final boolean, held boolean, clears boolean)
     )`,
      json.completions,
    );
  }
  if (kinds.finishes) {
    part(
      `fv AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS fv(id bigint, result text, message text, at timestamptz))`,
      json.finishes,
    );
  }
  if (kinds.creations) {
    const firstStart = kinds.starts ? 'fs.start_time' : 'NULL::timestamptz';
    part(
      `b AS (
       INSERT INTO buildsets (id, uuid, tenant, pipeline, event_id, event_timestamp, created, updated,
                              first_build_start_time)
       SELECT s.id, s.uuid, s.tenant, s.pipeline, s.event_id, s.event_timestamp, s.at, s.at, ${firstStart}
       FROM s ${kinds.starts ? 'LEFT JOIN fs ON fs.buildset_id = s.id' : ''}
       WHERE true ${guard}
       ORDER BY s.ord RETURNING ${BUILDSET_COLUMNS.join(', ')}
     ), l AS (
       INSERT INTO buildset_refs (buildset_id, ref_id)
       SELECT b.id, matched.id
       FROM jsonb_to_recordset(?::jsonb) AS l(buildset_id bigint, k int)
       JOIN b ON b.id = l.buildset_id JOIN matched ON matched.k = l.k
     ), e AS (
       INSERT INTO buildset_events (buildset_id, event_time, event_type, description)
       SELECT s.id, s.at, 'triggered', s.triggered_by FROM s JOIN b ON b.id = s.id ORDER BY s.ord
     )`,
      json.links,
    );
  }
  if (kinds.starts) {
    // A ref of a buildset created here is one the statement may insert (`ins`), else stored (`rf`).
    const refId = kinds.creations ? 'COALESCE(st.ref_id, m.id)' : 'st.ref_id';
    const refIds = `SELECT ${refId} FROM st ${kinds.creations ? 'LEFT JOIN matched m ON m.k = st.ref_k' : ''}`;
    const refColumn = (column: string) =>
      kinds.creations ? `CASE WHEN rf.id IS NULL THEN ins.${column} ELSE rf.${column} END` : `rf.${column}`;
    part(
      `first_start AS (
       UPDATE buildsets SET first_build_start_time = fs.start_time
       FROM fs
       WHERE buildsets.id = fs.buildset_id AND ${amongValues('buildsets.id', 'SELECT buildset_id FROM fs')}
         AND buildsets.first_build_start_time IS NULL
         ${kinds.finishes ? 'AND NOT EXISTS (SELECT 1 FROM fv WHERE fv.id = fs.buildset_id)' : ''} ${guard}
     ), started AS (
       INSERT INTO builds (id, buildset_id, tenant, pipeline, project, project_canonical, branch, uuid, job_name,
                           start_time, voting, nodeset, ref_id, attempt)
       SELECT st.id, st.buildset_id, ${kinds.creations ? 'COALESCE(bs.tenant, s.tenant), COALESCE(bs.pipeline, s.pipeline)' : 'bs.tenant, bs.pipeline'},
              ${refColumn('project')}, ${refColumn('project_canonical')}, ${refColumn('branch')},
              st.uuid, st.job_name, st.start_time, st.voting, st.nodeset, ${refId}, st.attempt
       FROM st LEFT JOIN buildsets bs ON bs.id = st.buildset_id AND ${amongValues('bs.id', 'SELECT buildset_id FROM st')}
         ${kinds.creations ? 'LEFT JOIN matched m ON m.k = st.ref_k LEFT JOIN s ON s.id = st.buildset_id' : ''}
         LEFT JOIN refs rf ON rf.id = ${refId} AND ${amongValues('rf.id', refIds)}
         ${kinds.creations ? `LEFT JOIN ins ON ins.id = ${refId}` : ''}
       WHERE true ${guard}
       ORDER BY st.ord
     )`,
    );
  }
  if (kinds.completions) {
    const failed = FAILED_RUN.map(() => '?').join(', ');
    part(
      `cleared AS (
       DELETE FROM build_result_data USING cv
       WHERE build_result_data.build_id = cv.id AND ${amongValues('build_result_data.build_id', 'SELECT id FROM cv')}
         AND cv.clears ${guard}
     ), done AS (
       UPDATE builds SET result = cv.result, end_time = cv.end_time, error_detail = cv.error_detail,
         log_url = cv.log_url, final = cv.final, held = cv.held,
         flaky = CASE WHEN cv.result = 'SUCCESS' THEN ? WHEN cv.result IN (${failed}) THEN ? ELSE false END
       FROM cv WHERE builds.id = cv.id AND ${amongValues('builds.id', 'SELECT id FROM cv')} ${guard}
       RETURNING builds.id, builds.tenant, builds.project_canonical, builds.branch, builds.job_name, builds.result,
         builds.final, builds.start_time, builds.end_time
     ), artifact AS (
       INSERT INTO artifacts (build_id, name, url, metadata)
       SELECT a.build_id, a.name, a.url, a.metadata
       FROM jsonb_to_recordset(?::jsonb) AS a(ord int, build_id bigint, name text, url text, metadata jsonb)
       WHERE true ${guard} ORDER BY a.ord
     ), provided AS (
       INSERT INTO provides (build_id, name)
       SELECT p.build_id, p.name FROM jsonb_to_recordset(?::jsonb) AS p(ord int, build_id bigint, name text)
       WHERE true ${guard} ORDER BY p.ord
     ), data AS (
       INSERT INTO build_result_data (build_id, data)
       SELECT d.build_id, d.data FROM jsonb_to_recordset(?::jsonb) AS d(ord int, build_id bigint, data jsonb)
       WHERE true ${guard} ORDER BY d.ord
       ON CONFLICT (build_id) DO UPDATE SET data = EXCLUDED.data
     )`,
      flakyCondition(trx, 'SUCCESS') as Knex.Raw,
      ...FAILED_RUN,
      flakyCondition(trx, 'FAILURE') as Knex.Raw,
      json.artifacts,
      json.provides,
      json.data,
    );
  }
  if (kinds.finishes) {
    // Its first build's start, when started here (the one update of its row); the end times its
    // completions here write.
    const firstStart = kinds.starts
      ? 'COALESCE(buildsets.first_build_start_time, fs.start_time)'
      : 'buildsets.first_build_start_time';
    const endTime = kinds.completions ? 'CASE WHEN c.id IS NULL THEN x.end_time ELSE c.end_time END' : 'x.end_time';
    part(
      `fin AS (
       UPDATE buildsets SET result = fv.result, message = fv.message, updated = fv.at,
         first_build_start_time = ${firstStart},
         last_build_end_time = GREATEST(${firstStart},
           (SELECT max(${endTime}) FROM builds x ${kinds.completions ? 'LEFT JOIN cv c ON c.id = x.id' : ''}
            WHERE x.buildset_id = buildsets.id))
       FROM fv ${kinds.starts ? 'LEFT JOIN fs ON fs.buildset_id = fv.id' : ''}
       WHERE buildsets.id = fv.id AND ${amongValues('buildsets.id', 'SELECT id FROM fv')} ${guard}
       RETURNING ${BUILDSET_COLUMNS.map((column) => `buildsets.${column}`).join(', ')},
         (SELECT refs.project_canonical FROM buildset_refs JOIN refs ON refs.id = buildset_refs.ref_id
          WHERE buildset_refs.buildset_id = buildsets.id ORDER BY refs.id LIMIT 1) AS first_project
     )`,
    );
  }
  const alone = [kinds.creations, kinds.completions, kinds.finishes].filter(Boolean).length === 1;
  const returned = [
    kinds.creations &&
      `SELECT ${resultColumns('created', 'b', { refIds: '(SELECT jsonb_object_agg(matched.k, matched.id) FROM matched)' }, alone)} FROM b`,
    kinds.completions && `SELECT ${resultColumns('completed', 'done', { build: true }, alone)} FROM done`,
    kinds.finishes && `SELECT ${resultColumns('finished', 'fin', { firstProject: true }, alone)} FROM fin`,
  ].filter((select): select is string => typeof select === 'string');
  const main = returned.length > 0 ? returned.join(' UNION ALL ') : `SELECT 'none' AS kind WHERE false`;
  return {
    sql: `WITH ${parts.map(([sql]) => sql).join(', ')} ${main}`,
    bindings: parts.flatMap(([, bindings]) => bindings),
  };
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
  const { refs, refNumbers, json } = historyParameters(batch);
  const statement = historyStatement(
    trx,
    {
      creations: batch.creations.length > 0,
      starts: batch.starts.length > 0,
      completions: batch.completions.length > 0,
      finishes: batch.finishes.length > 0,
    },
    json,
  );
  const run = async () => ((await prepared(trx.raw(statement.sql, statement.bindings))) as { rows: HistoryRow[] }).rows;
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
