/**
 * The flaky check at a build's completion (docs/analytics.md#flaky-runs) reads only the earlier
 * runs of the same job on the same ref, through `builds_ref_job_idx` (migration 0036), whatever the
 * statistics say (docs/gating.md#performance). With statistics taken while the builds table was
 * small and no run had failed, the planner once read every failed run of the tenant through the
 * index of results for each completed build. Checked with
 * EXPLAIN ANALYZE on the SQL both completion paths send.
 */
import type { Knex } from 'knex';
import { BuildRepository } from '../../../src/store/repositories/builds';
import { completeBuilds } from '../../../src/store/repositories/history-batches';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainPlan, indexOf, walk, type PlanNode } from '../../helpers/query-plans';

jest.setTimeout(120_000);

const HISTORY = 1_000;
/** The index of a ref's runs by job (migration 0036). */
const REF_JOB_INDEX = 'builds_ref_job_idx';
const at = new Date('2026-01-01T00:00:00Z');

/** `count` new refs; their ids. */
async function newRefs(knex: Knex, count: number): Promise<number[]> {
  const rows: Array<{ id: number | string }> = (
    await knex.raw(
      `INSERT INTO refs (project_canonical, project, ref, change, patchset)
       SELECT 'example.org/p', 'p', 'refs/changes/' || gen_random_uuid(), g, '1' FROM generate_series(1, ?) AS g RETURNING id`,
      [count],
    )
  ).rows;
  return rows.map((row) => Number(row.id));
}

/** A buildset of `tenant` that reported `result` (null: not reported yet); its id. */
async function buildset(knex: Knex, tenant: string, result: string | null): Promise<number> {
  const [row] = (
    await knex.raw(
      `INSERT INTO buildsets (uuid, tenant, pipeline, result) VALUES (gen_random_uuid()::text, ?, 'check', ?) RETURNING id`,
      [tenant, result],
    )
  ).rows as Array<{ id: number | string }>;
  return Number(row.id);
}

/**
 * Finished runs of `job` in one reported buildset: `count` of them, spread over `refs` in turn,
 * every seventh one failed (or all ending `result`).
 */
async function runs(
  knex: Knex,
  tenant: string,
  job: string,
  refs: number[],
  count: number,
  result: string | null = null,
): Promise<void> {
  await knex.raw(
    `INSERT INTO builds (buildset_id, tenant, uuid, job_name, ref_id, result, final, start_time, end_time)
     SELECT ?, ?, gen_random_uuid()::text, ?, (?::bigint[])[1 + g % ?],
       COALESCE(?, CASE WHEN g % 7 = 0 THEN 'FAILURE' ELSE 'SUCCESS' END), true, ?, ?
     FROM generate_series(1, ?) AS g`,
    [await buildset(knex, tenant, 'SUCCESS'), tenant, job, refs, refs.length, result, at, at, count],
  );
}

/** One finished run of each of `count` other jobs on `ref`, all reported. */
async function otherJobs(knex: Knex, tenant: string, ref: number, count: number): Promise<void> {
  await knex.raw(
    `INSERT INTO builds (buildset_id, tenant, uuid, job_name, ref_id, result, final, start_time, end_time)
     SELECT ?, ?, gen_random_uuid()::text, 'job-' || g, ?, 'FAILURE', true, ?, ?
     FROM generate_series(1, ?) AS g`,
    [await buildset(knex, tenant, 'FAILURE'), tenant, ref, at, at, count],
  );
}

/** A running build of `job` on `ref` in a buildset not reported yet; its id. */
async function running(knex: Knex, tenant: string, job: string, ref: number): Promise<number> {
  const [row] = (
    await knex.raw(
      `INSERT INTO builds (buildset_id, tenant, uuid, job_name, ref_id, start_time)
       VALUES (?, ?, gen_random_uuid()::text, ?, ?, ?) RETURNING id`,
      [await buildset(knex, tenant, null), tenant, job, ref, at],
    )
  ).rows as Array<{ id: number | string }>;
  return Number(row.id);
}

describe.each(backends())('the flaky check at build completion (%s)', (backend: Backend) => {
  let db: TestDatabase;
  let builds: BuildRepository;

  // A database of its own for each case: the statistics are those of its own history.
  beforeEach(async () => {
    db = await createTestDatabase({ backend });
    builds = new BuildRepository(db.knex);
  });

  afterEach(async () => {
    await db?.destroy();
  });

  /**
   * Completes the build through `complete` and checks the plan of the statement that evaluates the
   * flaky check: the earlier runs are read through `builds_ref_job_idx` and at most a handful of
   * rows are read and dropped. Resolves with the build's flaky flag.
   */
  async function expectRefJobIndex(complete: () => Promise<unknown>, id: number): Promise<boolean> {
    const queries = (await captureQueries(db.knex, complete)).filter((query) => /earlier\.job_name/.test(query.sql));
    expect(queries).toHaveLength(1);
    const nodes = [...walk(await explainPlan(db.knex, queries[0]))];
    const earlier = nodes.filter((node) => node.Alias === 'earlier');
    const where = nodes.map((node) => `${node['Node Type']} (${node['Index Name'] ?? '-'})`).join(', ');
    const read = (node: PlanNode) => (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0);
    expect({ where, handful: earlier.map((node) => read(node) <= 5) }).toEqual({ where, handful: [true] });
    expect({ where, index: earlier.map(indexOf) }).toEqual({ where, index: [REF_JOB_INDEX] });
    const [row] = await db.knex('builds').where({ id }).select('flaky');
    return row.flaky as boolean;
  }

  /**
   * A change's earlier failed run of `job` among the failed runs of 30 other jobs, then its runs
   * now, completed by both paths: each success is flaky; in another tenant it is not.
   */
  async function expectBothPaths(tenant: string, job: string): Promise<void> {
    const [ref] = await newRefs(db.knex, 1);
    await otherJobs(db.knex, tenant, ref, 30);
    await runs(db.knex, tenant, job, [ref], 1, 'FAILURE');
    const one = await running(db.knex, tenant, job, ref);
    expect(await expectRefJobIndex(() => builds.complete(one, { result: 'SUCCESS', endTime: at }), one)).toBe(true);
    const batched = await running(db.knex, tenant, job, ref);
    const completion = {
      ...{ id: batched, result: 'SUCCESS' as const, endTime: at, errorDetail: null, logUrl: null },
      ...{ final: true, held: false, artifacts: [], provides: [], resultData: {} },
    };
    expect(await expectRefJobIndex(() => completeBuilds(db.knex, [completion]), batched)).toBe(true);
    const other = await running(db.knex, `${tenant}-other`, job, ref);
    expect(await expectRefJobIndex(() => builds.complete(other, { result: 'SUCCESS', endTime: at }), other)).toBe(
      false,
    );
  }

  it('with statistics taken while every run had passed, reads only the runs of the job on the ref', async () => {
    const first = await newRefs(db.knex, 10);
    await runs(db.knex, 'passed', 'unit', first, 10, 'SUCCESS');
    await runs(db.knex, 'passed', 'lint', first, 10, 'SUCCESS');
    await db.knex.raw('ANALYZE builds');
    await runs(db.knex, 'passed', 'unit', await newRefs(db.knex, 200), HISTORY);
    await expectBothPaths('passed', 'unit');
  });

  it("with statistics taken while the table held one change's runs, reads only the runs of the job on the ref", async () => {
    const [first] = await newRefs(db.knex, 1);
    await runs(db.knex, 'one', 'unit', [first], 10);
    await runs(db.knex, 'one', 'lint', [first], 10);
    await db.knex.raw('ANALYZE builds');
    await runs(db.knex, 'one', 'unit', await newRefs(db.knex, 200), HISTORY);
    await expectBothPaths('one', 'unit');
  });

  it("with statistics of another job's history, reads only the runs of the job on the ref", async () => {
    const [busy, ...refs] = await newRefs(db.knex, 201);
    await runs(db.knex, 'busy', 'docs', [busy], HISTORY);
    await db.knex.raw('ANALYZE builds');
    await runs(db.knex, 'busy', 'unit', refs, HISTORY);
    await expectBothPaths('busy', 'unit');
  });
});
