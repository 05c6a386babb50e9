/**
 * A pass's history writes in one statement (src/store/repositories/history-statement.ts,
 * docs/gating.md#performance): a pass that creates a buildset, starts builds (one of them of that
 * buildset, its ref one the same statement inserts), completes builds and finishes buildsets sends
 * one statement at its flush, and writes what the single-row writes of builds.ts and buildsets.ts
 * write one after another (rows, ref ids, first and last build times, artifacts, provides, result
 * data, duration samples).
 */
import type { Knex } from 'knex';
import { StatementCounter } from '../../../bench/statement-counter';
import { BuildIdReserve, StoreHistoryWriter } from '../../../src/engine/history-writer';
import { SampleBatch } from '../../../src/store/repositories/duration-samples';
import type { NewRef } from '../../../src/store/repositories/refs';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const AT = new Date('2026-11-30T10:00:00Z');
const later = (seconds: number) => new Date(AT.getTime() + seconds * 1000);

function change(number: number, branch = 'main'): Required<NewRef> {
  return {
    project: 'org/project',
    projectCanonical: 'review.example.com/org/project',
    ref: `refs/changes/0${number}/${number}/1`,
    refUrl: `https://review.example.com/${number}`,
    change: number,
    patchset: '1',
    oldrev: null,
    newrev: null,
    branch,
  };
}

const buildset = (uuid: string, refs: Array<Required<NewRef>>) => ({
  uuid,
  tenant: 't1',
  pipeline: 'gate',
  eventId: null,
  eventTimestamp: null,
  refs,
  triggeredBy: `Triggered by ${uuid}`,
  at: AT,
});

const start = (buildsetId: number, uuid: string, startTime: Date, refId: number | null, refIndex = 0) => ({
  buildsetId,
  uuid,
  jobName: `job-${uuid}`,
  startTime,
  voting: true,
  nodeset: null,
  refId,
  refIndex,
  attempt: 1,
});

const completion = (endTime: Date, extra: { resultData?: Record<string, unknown>; provides?: string[] } = {}) => ({
  result: 'SUCCESS' as const,
  endTime,
  errorDetail: null,
  logUrl: 'https://logs.example.com/x',
  final: true,
  held: false,
  artifacts: extra.provides ? [{ name: 'docs', url: 'https://logs.example.com/docs', metadata: { type: 'docs' } }] : [],
  provides: extra.provides ?? [],
  resultData: extra.resultData ?? {},
});

/** What was written, by natural keys (uuids, ref names), ids left out. */
async function dump(knex: Knex): Promise<Record<string, unknown>> {
  const rows = async (sql: string) => (await knex.raw(sql)).rows as unknown[];
  return {
    buildsets: await rows(`SELECT uuid, tenant, pipeline, result, message, first_build_start_time,
      last_build_end_time, created, updated FROM buildsets ORDER BY uuid`),
    refs: await rows(`SELECT bs.uuid, r.ref, r.project, r.branch, r.ref_url FROM buildset_refs l
      JOIN buildsets bs ON bs.id = l.buildset_id JOIN refs r ON r.id = l.ref_id ORDER BY bs.uuid, r.ref`),
    events: await rows(`SELECT bs.uuid, e.event_type, e.event_time, e.description FROM buildset_events e
      JOIN buildsets bs ON bs.id = e.buildset_id ORDER BY bs.uuid, e.id`),
    builds: await rows(`SELECT b.uuid, bs.uuid AS buildset, b.tenant, b.pipeline, b.project, b.project_canonical,
      b.branch, r.ref, b.job_name, b.start_time, b.end_time, b.result, b.final, b.held, b.flaky, b.log_url
      FROM builds b JOIN buildsets bs ON bs.id = b.buildset_id LEFT JOIN refs r ON r.id = b.ref_id ORDER BY b.uuid`),
    artifacts: await rows(`SELECT b.uuid, a.name, a.url, a.metadata FROM artifacts a JOIN builds b ON b.id = a.build_id
      ORDER BY b.uuid, a.name`),
    provides: await rows(
      `SELECT b.uuid, p.name FROM provides p JOIN builds b ON b.id = p.build_id ORDER BY b.uuid, p.name`,
    ),
    data: await rows(
      `SELECT b.uuid, d.data FROM build_result_data d JOIN builds b ON b.id = d.build_id ORDER BY b.uuid`,
    ),
    samples: await rows(`SELECT * FROM duration_samples ORDER BY level, project, branch, name`),
  };
}

/**
 * The same history, the pass's part written by `writer` (the statements sent by its flush
 * counted); the refs ids given to the new buildset and the ids of its build and buildset.
 */
async function history(db: TestDatabase, batched: boolean) {
  const before = new StoreHistoryWriter(db.knex);
  // Q: a build to complete in the pass, then Q finished; R: its first build started and R finished
  // in the pass; P: a build to complete, its result data cleared, another build done before.
  const q = await before.createBuildset(buildset('q', [change(1)]));
  const r = await before.createBuildset(buildset('r', [change(2, 'stable')]));
  const p = await before.createBuildset(buildset('p', [change(3)]));
  const refOf = async (number: number) => Number((await db.knex('refs').where({ change: number }).first('id')).id);
  const q1 = await before.startBuild(start(q, 'q1', later(1), await refOf(1)));
  const p1 = await before.startBuild(start(p, 'p1', later(2), await refOf(3)));
  const p2 = await before.startBuild(start(p, 'p2', later(3), await refOf(3)));
  await before.completeBuild(p2, completion(later(20)));
  await before.buildEvent(p1, { eventType: 'paused', eventTime: later(5), resultData: { paused: true } });
  const ref2 = await refOf(2);
  const counter = new StatementCounter(db.knex);
  let refIds: number[] = [];
  const ids = await db.knex.transaction(async (trx) => {
    const samples = new SampleBatch();
    const writer = batched
      ? new StoreHistoryWriter(trx, undefined, samples, new BuildIdReserve())
      : new StoreHistoryWriter(trx);
    const n = await writer.createBuildset(buildset('n', [change(4), change(5, 'feature')]), (written) => {
      refIds = written;
    });
    // Its refs' ids are known at once without a reserve (the single-row write), else once written.
    const n1 = await writer.startBuild(start(n, 'n1', later(30), batched ? null : refIds[1], 1));
    await writer.startBuild(start(r, 'r1', later(31), ref2));
    await writer.completeBuild(q1, completion(later(40), { resultData: { answer: 42 }, provides: ['docs'] }));
    await writer.completeBuild(p1, completion(later(41)));
    await writer.finishBuildset(q, { result: 'SUCCESS', message: 'Build succeeded.', at: later(50) });
    await writer.finishBuildset(r, { result: 'DEQUEUED', message: null, at: later(51) });
    counter.start();
    await writer.flush();
    counter.stop();
    await samples.flush(trx);
    return { n, n1 };
  });
  return { ...ids, refIds, statements: counter.total, byKind: counter.perItem(1) };
}

describe.each(backends())('a pass history in one statement on %s', (backend) => {
  let batched: TestDatabase;
  let single: TestDatabase;

  beforeAll(async () => {
    batched = await createTestDatabase({ backend });
    single = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await batched.destroy();
    await single.destroy();
  });

  it('creates, starts, completes and finishes in one statement, as the single-row writes do', async () => {
    const written = await history(batched, true);
    expect({ statements: written.statements, byKind: written.byKind }).toEqual({
      statements: 1,
      byKind: expect.any(Array),
    });
    // The build started with its new buildset has that buildset's second ref, as told to the pass.
    const [n4, n5] = written.refIds;
    expect((await batched.knex('refs').where({ id: n4 }).first('change')).change).toBe(4);
    const build = await batched.knex('builds').where({ id: written.n1 }).first();
    expect({ ref: Number(build.ref_id), branch: build.branch, tenant: build.tenant, pipeline: build.pipeline }).toEqual(
      {
        ref: n5,
        branch: 'feature',
        tenant: 't1',
        pipeline: 'gate',
      },
    );
    const rows = await dump(batched.knex);
    await history(single, false);
    expect(rows).toEqual(await dump(single.knex));
    // What the folds write: a new buildset's and a finished one's first build start, a finish's last end.
    const times = Object.fromEntries(
      (rows.buildsets as Array<Record<string, Date | null>>).map((row) => [
        row.uuid,
        [row.first_build_start_time?.toISOString() ?? null, row.last_build_end_time?.toISOString() ?? null],
      ]),
    );
    expect(times).toEqual({
      n: [later(30).toISOString(), null],
      p: [later(2).toISOString(), null],
      q: [later(1).toISOString(), later(40).toISOString()],
      r: [later(31).toISOString(), later(31).toISOString()],
    });
    expect(rows.samples).not.toEqual([]);
  });
});
