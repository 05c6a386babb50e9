/**
 * A pass's history statement (src/store/repositories/history-statement.ts) reads the rows it
 * updates or joins in `builds`, `buildsets`, `refs` and `build_result_data` by index, whatever the
 * size of the history. Its rows are sent as JSON lists, which the planner takes for 100 rows
 * each: joined to a table of a few thousand rows alone, the list made it read and hash the whole
 * table in every pass (docs/gating.md#performance).
 */
import { StoreHistoryWriter, BuildIdReserve } from '../../../src/engine/history-writer';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainGenericPlan, walk } from '../../helpers/query-plans';

jest.setTimeout(120_000);

const HISTORY = 5_000;
const AT = new Date('2026-12-01T10:00:00Z');
const later = (seconds: number) => new Date(AT.getTime() + seconds * 1000);
const TABLES = ['builds', 'buildsets', 'refs', 'build_result_data'];

function ref(number: number) {
  return {
    project: 'org/project',
    projectCanonical: 'review.example.com/org/project',
    ref: `refs/changes/0${number}/${number}/1`,
    refUrl: null,
    change: number,
    patchset: '1',
    oldrev: null,
    newrev: null,
    branch: 'main',
  };
}

const buildset = (uuid: string, number: number) => ({
  uuid,
  tenant: 't1',
  pipeline: 'gate',
  eventId: null,
  eventTimestamp: null,
  refs: [ref(number)],
  triggeredBy: `Triggered by ${uuid}`,
  at: AT,
});

const start = (buildsetId: number, uuid: string, refId: number | null) => ({
  buildsetId,
  uuid,
  jobName: `job-${uuid}`,
  startTime: later(1),
  voting: true,
  nodeset: null,
  refId,
  refIndex: 0,
  attempt: 1,
});

const completion = {
  result: 'SUCCESS' as const,
  endTime: later(20),
  errorDetail: null,
  logUrl: null,
  final: true,
  held: false,
  artifacts: [],
  provides: [],
  resultData: { answer: 42 },
};

describe.each(backends())('history statement plans (%s)', (backend: Backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    // A history of some thousands of buildsets, each with a ref, a build and its result data.
    await db.knex.raw(
      `INSERT INTO refs (project, project_canonical, ref, change, patchset, branch)
       SELECT 'org/old', 'review.example.com/org/old', 'refs/changes/' || n, n, '1', 'main' FROM generate_series(1, ?) AS n`,
      [HISTORY],
    );
    await db.knex.raw(
      `INSERT INTO buildsets (uuid, tenant, pipeline, result, created, updated)
       SELECT 'old-' || n, 't1', 'gate', 'SUCCESS', ?, ? FROM generate_series(1, ?) AS n`,
      [AT, AT, HISTORY],
    );
    await db.knex.raw(
      `INSERT INTO builds (buildset_id, tenant, pipeline, project, project_canonical, branch, uuid, job_name,
                           result, start_time, end_time, final, ref_id)
       SELECT bs.id, 't1', 'gate', 'org/old', 'review.example.com/org/old', 'main', 'old-build-' || bs.id, 'unit',
              'SUCCESS', ?, ?, true, (SELECT min(id) FROM refs)
       FROM buildsets bs`,
      [AT, AT],
    );
    await db.knex.raw(`INSERT INTO build_result_data (build_id, data) SELECT id, '{}'::jsonb FROM builds`);
    await db.knex.raw('ANALYZE');
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('reads the rows it writes or joins by index, not whole tables', async () => {
    const before = new StoreHistoryWriter(db.knex);
    const q = await before.createBuildset(buildset('q', 1));
    const r = await before.createBuildset(buildset('r', 2));
    const refOf = async (number: number) =>
      Number((await db.knex('refs').where({ change: number, project: 'org/project' }).first('id')).id);
    const q1 = await before.startBuild(start(q, 'q1', await refOf(1)));
    const ref2 = await refOf(2);
    // A pass that creates a buildset, starts builds of it and of another, completes a build and
    // finishes a buildset; captured, then rolled back, so that its plan can be read.
    const rolledBack = new Error('rolled back');
    const queries = await captureQueries(db.knex, () =>
      db.knex
        .transaction(async (trx) => {
          const writer = new StoreHistoryWriter(trx, undefined, undefined, new BuildIdReserve());
          const n = await writer.createBuildset(buildset('n', 3));
          await writer.startBuild(start(n, 'n1', null));
          await writer.startBuild(start(r, 'r1', ref2));
          await writer.completeBuild(q1, completion);
          await writer.finishBuildset(q, { result: 'SUCCESS', message: 'Build succeeded.', at: later(30) });
          await writer.flush();
          throw rolledBack;
        })
        .catch((error: unknown) => {
          if (error !== rolledBack) {
            throw error;
          }
        }),
    );
    const statements = queries.filter((query) => /INSERT INTO refs/.test(query.sql));
    expect(statements).toHaveLength(1);
    const scans = [...walk(await explainGenericPlan(db.knex, statements[0]))]
      .filter((node) => TABLES.includes(node['Relation Name'] ?? ''))
      .map((node) => `${node['Node Type']} on ${node['Relation Name']}`);
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.filter((scan) => scan.startsWith('Seq Scan'))).toEqual([]);
  });
});
