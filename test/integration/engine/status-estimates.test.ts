/**
 * Estimates in the status (docs/analytics.md#job-estimates, docs/analytics.md#item-etas) on a
 * seeded history with an injected clock: the reference-style `estimatedTime` (the average of
 * the newest ten successful runs on the branch), the calibrated p50/p90 with failure and retry
 * probabilities and their fallback, job and item ranges, the overdue state, the samples the
 * writers keep (equal to what the migration fills from the raw rows), and one read of the
 * samples per status computation however many jobs run.
 */
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { startLiveServer } from '../../helpers/live';
import { canonical, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import type { JobStatus, TenantStatus } from '../../../src/engine/status';
import { fillDurationSamples } from '../../../src/store/migrations/0024-duration-samples';
import { BuildRepository } from '../../../src/store/repositories/builds';
import { BuildsetRepository } from '../../../src/store/repositories/buildsets';
import {
  DurationSampleRepository,
  SampleBatch,
  type FinishedBuild,
} from '../../../src/store/repositories/duration-samples';
import type { BuildResult } from '../../../src/model/results';

const PROJECT = canonical('org/project');
const T0 = Date.parse('2025-12-01T00:00:00Z');

/** Jobs of the status by `<change number> <job>`. */
function jobsOf(status: TenantStatus | null): Map<string, JobStatus> {
  const jobs = new Map<string, JobStatus>();
  for (const item of (status?.pipelines ?? []).flatMap((p) => p.changeQueues.flatMap((q) => q.items))) {
    for (const one of item.jobs) {
      jobs.set(`${item.refs[0].id.split(',')[0]} ${one.name}`, one);
    }
  }
  return jobs;
}

function itemOf(status: TenantStatus | null, change: number) {
  return (status?.pipelines ?? [])
    .flatMap((p) => p.changeQueues.flatMap((q) => q.items))
    .find((item) => item.refs[0].id === `${change},1`);
}

describe.each(backends())('engine: status estimates from recent runs (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;
  let seeded = 0;

  /** A finished run in history: a buildset of the check pipeline with one build. */
  async function run(jobName: string, branch: string, result: BuildResult, seconds: number, final = true) {
    seeded += 1;
    const at = new Date(T0 + seeded * 3_600_000);
    const { buildset, refs } = await new BuildsetRepository(db.knex).create({
      uuid: `seed-${h.tenant}-${seeded}`,
      tenant: h.tenant,
      pipeline: 'check',
      refs: [{ project: 'org/project', projectCanonical: PROJECT, ref: `refs/changes/${seeded}`, branch }],
      triggeredBy: 'seed',
      at,
    });
    const builds = new BuildRepository(db.knex);
    const build = await builds.start({
      buildsetId: buildset.id,
      uuid: `seed-build-${seeded}`,
      jobName,
      startTime: at,
      refId: refs[0].id,
    });
    await builds.complete(build.id, { result, endTime: new Date(at.getTime() + seconds * 1000), final });
  }

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('check', 'independent', { triggers: [] })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('unit'), job('lint')] } },
      }),
    );
    await h.start();
    // unit on master: ten successes of 10 to 100 s, a failure of 500 s, a retried attempt.
    for (const seconds of [30, 10, 100, 50, 70]) {
      await run('unit', 'master', 'SUCCESS', seconds);
    }
    await run('unit', 'master', 'FAILURE', 500);
    await run('unit', 'master', 'RETRY', 5, false);
    for (const seconds of [20, 90, 40, 60, 80]) {
      await run('unit', 'master', 'SUCCESS', seconds);
    }
    // lint only on stable: master falls back to the project's runs.
    for (let n = 0; n < 6; n += 1) {
      await run('lint', 'stable', 'SUCCESS', 30);
    }
    // Runs that do not count: a skipped placeholder and a canceled build.
    await run('unit', 'master', 'SKIPPED', 0);
    await run('unit', 'master', 'CANCELED', 3);
  });

  afterAll(async () => {
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  /** Enqueue change `number` into check and report its builds started. */
  async function startChange(number: number, branch = 'master'): Promise<void> {
    h.changes.add('org/project', number, { branch });
    expect(await h.enqueue('check', 'org/project', `${number},1`)).toBe('ok');
    for (const params of h.executor.started.filter((p) => p.changes[0].number === number)) {
      await h.engine.submitResult(h.tenant, {
        type: 'build-started',
        buildUuid: params.buildUuid,
        startTime: h.clock.now().toISOString(),
      });
    }
    await h.settle();
  }

  /**
   * The SQL statements of one status computation, and the status. A scheduler pass may run at the
   * same time (its periodic look for missed events); its transaction, known by the lease it
   * re-proves or the rows it locks, is left out.
   */
  async function measuredStatus(): Promise<{ statements: string[]; read: string[]; status: TenantStatus | null }> {
    const seen: Array<{ sql: string; tx: string | undefined }> = [];
    const count = (query: { sql: string; __knexTxId?: string }): void => {
      seen.push({ sql: query.sql, tx: query.__knexTxId });
    };
    db.knex.on('query', count);
    try {
      const status = await h.engine.status(h.tenant);
      const passes = new Set(seen.filter((q) => /scheduler_leases|for update/i.test(q.sql)).map((q) => q.tx));
      const kept = seen.filter((q) => q.tx === undefined || !passes.has(q.tx));
      // The status read's own transaction: the one that reads the duration samples (a pass that
      // locks nothing may run at the same time and begin first).
      const readTx = kept.find((q) => q.tx !== undefined && /\bduration_samples\b/i.test(q.sql))?.tx;
      const read = readTx === undefined ? [] : kept.filter((q) => q.tx === readTx).map((q) => q.sql);
      return { statements: kept.map((q) => q.sql), read, status };
    } finally {
      db.knex.off('query', count);
    }
  }

  async function samples(): Promise<unknown[]> {
    const rows: Array<Record<string, unknown>> = await db
      .knex('duration_samples')
      .where('tenant', h.tenant)
      .orderBy(['level', 'project', 'branch', 'name']);
    return rows.map((row) => ({
      ...row,
      successes: (row.successes as number[]).map(Number),
      failures: (row.failures as number[]).map(Number),
    }));
  }

  it('keeps the recent runs as the migration fills them from the raw rows', async () => {
    const kept = await samples();
    expect(kept).toContainEqual({
      tenant: h.tenant,
      level: 'branch',
      project: PROJECT,
      branch: 'master',
      name: 'unit',
      outcomes: 'sssssfrsssss',
      successes: [30, 10, 100, 50, 70, 20, 90, 40, 60, 80],
      failures: [500],
    });
    expect(kept).toContainEqual(expect.objectContaining({ level: 'job', project: '', branch: '', name: 'lint' }));
    await db.knex('duration_samples').where('tenant', h.tenant).delete();
    await fillDurationSamples(db.knex);
    expect(await samples()).toEqual(kept);
  });

  it('keeps the same samples when a pass collects its runs and writes them in one statement', async () => {
    const repository = new DurationSampleRepository(db.knex);
    const runs = (tenant: string): FinishedBuild[] =>
      Array.from({ length: 130 }, (_, n) => ({
        tenant,
        projectCanonical: PROJECT,
        branch: n % 3 === 0 ? 'stable' : 'master',
        jobName: n % 2 === 0 ? 'unit' : 'lint',
        result: n % 7 === 0 ? 'FAILURE' : n % 11 === 0 ? 'RETRY' : 'SUCCESS',
        final: n % 11 !== 0,
        startTime: new Date(T0),
        endTime: new Date(T0 + (n % 5) * 1000),
      }));
    for (const build of runs(`${h.tenant}-single`)) {
      await repository.recordBuild(build);
    }
    // Two batches: the first inserts the keys, the second appends to them past the limit.
    const batched = runs(`${h.tenant}-batched`);
    const statements: string[] = [];
    // The harness's scheduler may run a pass meanwhile: only the samples' statements count.
    const count = (query: { sql: string }): void => {
      if (query.sql.includes('duration_samples')) {
        statements.push(query.sql);
      }
    };
    db.knex.on('query', count);
    for (const part of [batched.slice(0, 60), batched.slice(60)]) {
      const batch = new SampleBatch();
      for (const build of part) {
        await repository.recordBuild(build, db.knex, batch);
      }
      await batch.flush(db.knex);
    }
    db.knex.off('query', count);
    expect(statements).toHaveLength(2);
    const rows = async (tenant: string) =>
      (await db.knex('duration_samples').where({ tenant }).orderBy(['level', 'project', 'branch', 'name'])).map(
        (row: Record<string, unknown>) => ({
          ...row,
          level: row.level as string,
          name: row.name as string,
          outcomes: row.outcomes as string,
          tenant: null,
          successes: (row.successes as number[]).map(Number),
          failures: (row.failures as number[]).map(Number),
        }),
      );
    const single = await rows(`${h.tenant}-single`);
    expect(single.find((row) => row.level === 'job' && row.name === 'unit')?.outcomes).toHaveLength(50);
    expect(single).toHaveLength(8);
    expect(await rows(`${h.tenant}-batched`)).toEqual(single);
  });

  it('estimates every job from its recent runs, falling back to the project, in one read', async () => {
    await startChange(1);
    const one = await measuredStatus();
    await startChange(2);
    await startChange(3);
    await startChange(4, 'stable');
    const many = await measuredStatus();
    // A read after a pass first finds the kept parsed state outdated (src/engine/status-inputs.ts).
    expect(one.read.length).toBeGreaterThan(0);
    expect(many.read).toHaveLength(one.read.length);
    // Reads only: a pass that began before the count may write its samples during it.
    expect(many.statements.filter((sql) => /^\s*select\b[\s\S]*\bduration_samples\b/i.test(sql))).toHaveLength(1);
    expect(many.statements.filter((sql) => /\bfrom builds\b/i.test(sql))).toHaveLength(0);

    const jobs = jobsOf(many.status);
    const unit = jobs.get('1 unit');
    // The reference's estimate: the newest ten successful runs on the branch, averaged.
    expect(unit?.estimatedTime).toBe(55);
    expect(unit?.estimate).toMatchObject({ basis: 'branch', runs: 12, successes: 10, failures: 1 });
    expect(unit?.estimate?.failureProbability).toBeCloseTo(1 / 11);
    expect(unit?.estimate?.retryProbability).toBeCloseTo(1 / 12);
    expect(unit?.estimate?.success?.[5]).toBeCloseTo(55);
    expect(unit?.estimate?.success?.[9]).toBeCloseTo(99);
    expect(unit?.estimate?.failure?.[5]).toBe(500);
    // Nothing on master for lint: its runs on any branch of the project.
    expect(jobs.get('1 lint')).toMatchObject({ estimatedTime: null, estimate: { basis: 'project', successes: 6 } });
    expect(jobs.get('4 lint')).toMatchObject({ estimatedTime: 30, estimate: { basis: 'branch' } });
    // Just started: one run (p50 55 s, p90 99 s), or two when retried (1 attempt in 12).
    expect(unit?.eta).toEqual({ remainingP50: 57_391, remainingP90: 103_304, overdue: false, overdueBy: null });
    expect(itemOf(many.status, 1)?.eta).toMatchObject({ remainingP50: 57_391, remainingP90: 103_304, overdue: false });
    expect(many.status?.estimates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'job', project: PROJECT, branch: 'master', name: 'unit' }),
        expect.objectContaining({ kind: 'job', project: PROJECT, branch: 'stable', name: 'lint' }),
      ]),
    );
  });

  it('serves the estimates and ranges over GraphQL, and estimates by key', async () => {
    const server = await startLiveServer(db, { harness: h });
    try {
      const status = await server.graphql<{
        tenant: { status: { estimates: unknown[]; pipelines: Array<{ changeQueues: Array<{ items: unknown[] }> }> } };
      }>(
        /* GraphQL */ `
          query ($tenant: String!) {
            tenant(name: $tenant) {
              ... on Tenant {
                status {
                  ... on TenantStatus {
                    estimates {
                      kind
                      project
                      branch
                      name
                      estimate {
                        basis
                        p50
                        p90
                        failureProbability
                      }
                    }
                    pipelines {
                      changeQueues {
                        items {
                          refs {
                            branch
                          }
                          eta {
                            remainingP50
                            remainingP90
                            overdue
                            resetProbability
                          }
                          jobs {
                            name
                            estimate {
                              basis
                              p50
                              p90
                              runs
                            }
                            eta {
                              remainingP50
                              remainingP90
                              overdue
                              overdueBy
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        `,
        { tenant: h.tenant },
      );
      expect(status.errors).toBeUndefined();
      const first = status.data?.tenant.status.pipelines[0].changeQueues[0].items[0];
      expect(first).toEqual({
        refs: [{ branch: 'master' }],
        eta: { remainingP50: 57_391, remainingP90: 103_304, overdue: false, resetProbability: 0 },
        jobs: [
          {
            name: 'unit',
            estimate: { basis: 'BRANCH', p50: 55, p90: 99, runs: 12 },
            eta: { remainingP50: 57_391, remainingP90: 103_304, overdue: false, overdueBy: null },
          },
          {
            name: 'lint',
            estimate: { basis: 'PROJECT', p50: 30, p90: 30, runs: 6 },
            eta: { remainingP50: 30_000, remainingP90: 30_000, overdue: false, overdueBy: null },
          },
        ],
      });
      const byKey = /* GraphQL */ `
        query ($tenant: String!, $keys: [EstimateKeyInput!]!) {
          tenant(name: $tenant) {
            ... on Tenant {
              estimates(keys: $keys) {
                __typename
                ... on EstimateList {
                  estimates {
                    kind
                    name
                    branch
                    estimate {
                      basis
                      successes
                    }
                  }
                }
                ... on InvalidInputError {
                  message
                  field
                }
              }
            }
          }
        }
      `;
      const keys = [
        { kind: 'JOB', project: PROJECT, branch: 'master', name: 'lint' },
        { kind: 'JOB', project: PROJECT, branch: 'master', name: 'nothing-ran' },
      ];
      const found = await server.graphql<{ tenant: { estimates: unknown } }>(byKey, { tenant: h.tenant, keys });
      expect(found.data?.tenant.estimates).toEqual({
        __typename: 'EstimateList',
        estimates: [{ kind: 'JOB', name: 'lint', branch: 'master', estimate: { basis: 'PROJECT', successes: 6 } }],
      });
      const tooMany = await server.graphql<{ tenant: { estimates: unknown } }>(byKey, {
        tenant: h.tenant,
        keys: Array.from({ length: 501 }, () => keys[0]),
      });
      expect(tooMany.data?.tenant.estimates).toEqual({
        __typename: 'InvalidInputError',
        message: 'At most 500 keys',
        field: 'keys',
      });
    } finally {
      await server.stop();
    }
  });

  it('shows an overdue job by how much it is over, not as a frozen estimate', async () => {
    h.clock.advance(100_000);
    const status = await h.engine.status(h.tenant);
    const unit = jobsOf(status).get('1 unit');
    expect(unit).toMatchObject({ elapsedTime: 100_000, remainingTime: 0 });
    expect(unit?.eta).toMatchObject({ overdue: true, overdueBy: 1_000 });
    expect(itemOf(status, 1)?.eta?.overdue).toBe(true);
  });

  it('takes a finished build into the estimates of the next status', async () => {
    await h.executor.finish('unit', 1, { result: 'SUCCESS', durationMs: 100_000 });
    await h.settle();
    const unit = jobsOf(await h.engine.status(h.tenant)).get('2 unit');
    // 100 s of running before the finish, 100 s after: one more success of 200 s.
    expect(unit?.estimate).toMatchObject({ runs: 13, successes: 11 });
    expect(unit?.estimate?.success?.[11]).toBe(200);
    expect(unit?.estimatedTime).toBe(72);
    // Reported items are runs of the pipeline's items.
    await h.executor.finishAll();
    await h.settle();
    const items = await db.knex('duration_samples').where({ tenant: h.tenant, level: 'item-project' }).first();
    expect(items).toMatchObject({ project: PROJECT, name: 'check', outcomes: 'ssss' });
    const [status] = (await h.engine.status(h.tenant))?.pipelines ?? [];
    expect(status.changeQueues).toEqual([]);
  });

  it('has a pass read the samples for its status delta only when they may have changed', async () => {
    /** Reads of the samples by scheduler passes (known by the lease they prove or the row they lock) while `during` runs. */
    async function passReads(during: () => Promise<void>): Promise<number> {
      const seen: Array<{ sql: string; tx: string | undefined }> = [];
      const count = (query: { sql: string; __knexTxId?: string }): void => {
        seen.push({ sql: query.sql, tx: query.__knexTxId });
      };
      db.knex.on('query', count);
      try {
        await during();
      } finally {
        db.knex.off('query', count);
      }
      const passes = new Set(seen.filter((q) => /scheduler_leases|for update/i.test(q.sql)).map((q) => q.tx));
      return seen.filter((q) => passes.has(q.tx) && /^\s*select\b[\s\S]*\bduration_samples\b/i.test(q.sql)).length;
    }
    /** The last `estimatedTime` the deltas since `from` sent for job `name` of item `itemId`. */
    function sentEstimate(from: number, itemId: string, name: string): number | null | undefined {
      let sent: number | null | undefined;
      for (const delta of h.deltas.slice(from)) {
        for (const change of delta.type === 'queue-delta' ? delta.changes : []) {
          const jobs =
            change.kind === 'job-changed' && change.itemId === itemId
              ? [change.job]
              : change.kind === 'item-changed' && change.itemId === itemId
                ? (change.jobs ?? [])
                : [];
          sent = jobs.find((one) => one.name === name)?.estimatedTime ?? sent;
        }
      }
      return sent;
    }
    await startChange(30);
    // Passes that write items (an enqueue, started builds) but no sample, with the same keys to estimate.
    expect(await passReads(() => startChange(31))).toBe(0);
    const before = jobsOf(await h.engine.status(h.tenant)).get('31 unit')?.estimatedTime;
    // A finished build's pass writes its samples and appends them to those it keeps, as the
    // store does: its delta sends the estimate a fresh read gives, with no read.
    const from = h.deltas.length;
    expect(
      await passReads(async () => {
        await h.executor.finish('unit', 30, { result: 'SUCCESS', durationMs: 1_000 });
        await h.settle();
      }),
    ).toBe(0);
    const status = await h.engine.status(h.tenant);
    const after = jobsOf(status).get('31 unit')?.estimatedTime;
    expect(after).not.toBe(before);
    expect(sentEstimate(from, itemOf(status, 31)?.id ?? '', 'unit')).toBe(after);
    await h.executor.finishAll();
    await h.settle();
  });
});
