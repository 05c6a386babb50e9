/**
 * `estimated_time` of status jobs (docs/rest.md#status-document): the average duration of the
 * newest ten final SUCCESS builds of the job on the project and branch, for started builds, read
 * from build history in one statement per status computation however many jobs run.
 */
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import type { JobStatus, TenantStatus } from '../../../src/engine/status';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

/** Jobs of the status by `<change number> <job>`. */
function jobsOf(status: TenantStatus | null): Map<string, JobStatus> {
  const jobs = new Map<string, JobStatus>();
  for (const item of (status?.pipelines ?? []).flatMap((p) => p.changeQueues.flatMap((q) => q.heads.flat()))) {
    for (const one of item.jobs) {
      jobs.set(`${item.refs[0].id.split(',')[0]} ${one.name}`, one);
    }
  }
  return jobs;
}

describe.each(backends())('engine: status estimates from build history (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;

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
  async function measuredStatus(): Promise<{ statements: string[]; status: TenantStatus | null }> {
    const seen: Array<{ sql: string; tx: string | undefined }> = [];
    const count = (query: { sql: string; __knexTxId?: string }): void => {
      seen.push({ sql: query.sql, tx: query.__knexTxId });
    };
    db.knex.on('query', count);
    try {
      const status = await h.engine.status(h.tenant);
      const passes = new Set(seen.filter((q) => /scheduler_leases|for update/i.test(q.sql)).map((q) => q.tx));
      const statements = seen.filter((q) => q.tx === undefined || !passes.has(q.tx)).map((q) => q.sql);
      return { statements, status };
    } finally {
      db.knex.off('query', count);
    }
  }

  it('has no estimate before a job ever succeeded', async () => {
    await startChange(1);
    const jobs = jobsOf(await h.engine.status(h.tenant));
    expect([jobs.get('1 unit')?.estimatedTime, jobs.get('1 unit')?.remainingTime]).toEqual([null, null]);
    // History: unit succeeds in 60 s, lint in 30 s; a failure of 900 s does not count.
    await h.executor.finish('unit', 1, { result: 'SUCCESS', durationMs: 60_000 });
    await h.executor.finish('lint', 1, { result: 'SUCCESS', durationMs: 30_000 });
    await startChange(2);
    await h.executor.finish('unit', 2, { result: 'SUCCESS', durationMs: 120_000 });
    await h.executor.finish('lint', 2, { result: 'FAILURE', durationMs: 900_000 });
    await h.settle();
  });

  it('estimates started jobs from their successful runs on the same branch, in one query', async () => {
    await startChange(3);
    const one = await measuredStatus();
    h.clock.advance(20_000);
    await startChange(4);
    await startChange(5);
    await startChange(6, 'stable');
    const many = await measuredStatus();
    expect(many.statements).toHaveLength(one.statements.length);
    expect(many.statements.filter((sql) => /\bfrom builds\b/i.test(sql))).toHaveLength(1);

    const jobs = jobsOf(many.status);
    expect(jobs.get('3 unit')).toMatchObject({ estimatedTime: 90, elapsedTime: 20_000, remainingTime: 70_000 });
    expect(jobs.get('3 lint')).toMatchObject({ estimatedTime: 30, remainingTime: 10_000 });
    expect(jobs.get('5 unit')).toMatchObject({ estimatedTime: 90, elapsedTime: 0, remainingTime: 90_000 });
    // No successful run on that branch yet.
    expect(jobs.get('6 unit')).toMatchObject({ estimatedTime: null, remainingTime: null });
    await h.executor.finishAll();
    await h.settle();
  });
});
