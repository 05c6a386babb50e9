/**
 * What the work runner writes while it does a tenant's engine work (docs/gating.md#engine-work):
 * a branch merge records each change merged on its row except the last, which its completion
 * records; a new leader skips the changes recorded and still brings back a failed success report
 * recorded; and a drain claims until nothing is left only in the first drain of a lead, later ones
 * end with a claim that took every open row.
 */
import type { EngineGateways } from '../../../src/engine/pass-context';
import type { MergerGateway } from '../../../src/engine/ports/merger';
import { WorkRunner } from '../../../src/engine/work/work-runner';
import type { MergeItem } from '../../../src/model/changes';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { StatementCounter } from '../../../bench/statement-counter';
import { nextTenant } from '../../engine/harness';
import { FakeClock } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

function change(number: number): MergeItem {
  return {
    project: 'example.com/org/project',
    ref: `refs/changes/${number}/1`,
    branch: 'master',
    number,
    patchset: '1',
    oldrev: null,
    newrev: null,
    connection: 'git',
    mergeMode: 'merge-resolve',
    buildsetUuid: `bs-${number}`,
  };
}

describe('engine work runner rounds', () => {
  let db: TestDatabase;
  let repo: EngineWorkRepository;
  let counter: StatementCounter;
  const clock = new FakeClock();

  beforeAll(async () => {
    db = await createTestDatabase();
    repo = new EngineWorkRepository(db.knex);
    counter = new StatementCounter(db.knex);
  });

  afterAll(async () => {
    await db.destroy();
  });

  /** A runner under `epoch` whose merger records the changes it merges and the row's stored progress then. */
  function runner(tenant: string, epoch: number) {
    const merged: Array<{ change: number | null; progress: unknown }> = [];
    const errors: unknown[] = [];
    const merger = {
      mergeToBranch: async (item: MergeItem) => {
        const [row] = await repo.open(tenant);
        merged.push({ change: item.number, progress: row?.progress ?? null });
        return { merged: true as const, oldrev: null, newrev: `rev-${item.number}` };
      },
    } as unknown as MergerGateway;
    const work = new WorkRunner({
      knex: db.knex,
      tenant,
      gateways: { merger } as unknown as EngineGateways,
      clock,
      epoch: () => epoch,
      leading: () => true,
      onCompleted: () => undefined,
      logger: { error: (_message, error) => errors.push(error) },
    });
    return { work, merged, errors };
  }

  async function drained(work: WorkRunner): Promise<void> {
    work.kick();
    while (!(await work.settled())) {
      // A round ran: wait for the next one, if any.
    }
  }

  function count(kind: string, pattern: RegExp, sqls: string[]): number {
    return sqls.filter((sql) => sql.startsWith(kind) && pattern.test(sql)).length;
  }

  function recording(): { sqls: string[]; stop: () => void } {
    const sqls: string[] = [];
    const onQuery = (query: { sql: string }) => sqls.push(query.sql.replace(/\s+/g, ' ').toLowerCase());
    db.knex.on('query', onQuery);
    return { sqls, stop: () => db.knex.removeListener('query', onQuery) };
  }

  async function branchMerge(tenant: string, numbers: number[]): Promise<void> {
    await repo.create(
      tenant,
      [
        {
          kind: 'branch-merge',
          payload: {
            pipeline: 'gate',
            buildsetUuid: `bs-${numbers.join('-')}`,
            report: null,
            items: numbers.map(change),
          },
        },
      ],
      clock.now(),
      db.knex,
    );
  }

  async function outcomeEvents(tenant: string): Promise<unknown[]> {
    const events = await new EngineEventRepository(db.knex).list(tenant, 'result');
    return events.map((event) => event.payload.changes);
  }

  it('records each change merged but the last on the row, and the last with the completion', async () => {
    const tenant = nextTenant();
    await branchMerge(tenant, [1, 2, 3]);
    const { work, merged, errors } = runner(tenant, 1);
    const log = recording();
    await drained(work);
    log.stop();
    expect(errors).toEqual([]);
    const done = (number: number) => ({ project: 'example.com/org/project', change: number, newrev: `rev-${number}` });
    expect(merged).toEqual([
      { change: 1, progress: null },
      { change: 2, progress: { reported: true, merged: [done(1)] } },
      { change: 3, progress: { reported: true, merged: [done(1), done(2)] } },
    ]);
    expect(count('update', /"progress"/, log.sqls)).toBe(2);
    expect((await repo.all(tenant)).map((row) => [row.state, row.outcome])).toEqual([['completed', 'merged']]);
    expect(await outcomeEvents(tenant)).toEqual([[done(1), done(2), done(3)]]);
  });

  it('lets a new leader skip the changes recorded and merge the rest', async () => {
    const tenant = nextTenant();
    await branchMerge(tenant, [1, 2]);
    // A former leader (epoch 1) merged change 1, recorded it, and died.
    const [claimed] = await repo.claim(tenant, 1, clock.now(), 10);
    const first = { project: 'example.com/org/project', change: 1, newrev: 'rev-1' };
    expect(await repo.recordProgress(claimed.id, 1, { reported: true, merged: [first] }, clock.now())).toBe(true);
    const { work, merged, errors } = runner(tenant, 2);
    await drained(work);
    expect(errors).toEqual([]);
    expect(merged.map((entry) => entry.change)).toEqual([2]);
    expect(await outcomeEvents(tenant)).toEqual([[first, { ...first, change: 2, newrev: 'rev-2' }]]);
  });

  it('keeps a failed success report on the row, so a leader that takes it over still brings it back', async () => {
    const tenant = nextTenant();
    const report = {
      tenant,
      pipeline: 'gate',
      phase: 'success',
      change: { kind: 'change', project: 'example.com/org/project', number: 1, patchset: '1', ref: 'refs/changes/1/1' },
      buildsetUuid: 'bs-1',
      message: '',
      result: 'SUCCESS',
      jobs: [],
    };
    await repo.create(
      tenant,
      [{ kind: 'branch-merge', payload: { pipeline: 'gate', buildsetUuid: 'bs-1', report, items: [change(1)] } }],
      clock.now(),
      db.knex,
    );
    const failure = {
      pipeline: 'gate',
      phase: 'success',
      project: 'example.com/org/project',
      change: '1,1',
      error: '503 Service Unavailable',
    };
    // The first leader's report fails; it dies while its merge is out (the merge never answers).
    const progressAtMerge: unknown[] = [];
    const first = new WorkRunner({
      knex: db.knex,
      tenant,
      gateways: {
        reporter: { report: () => Promise.reject(new Error('503 Service Unavailable')) },
        merger: {
          mergeToBranch: async () => {
            progressAtMerge.push((await repo.open(tenant))[0]?.progress);
            return new Promise(() => undefined);
          },
        },
      } as unknown as EngineGateways,
      clock,
      epoch: () => 1,
      leading: () => true,
      onCompleted: () => undefined,
      logger: { error: () => undefined },
    });
    first.kick();
    while (progressAtMerge.length === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(progressAtMerge).toEqual([{ reported: true, reportFailure: failure, merged: [] }]);
    // The next leader (epoch 2) finds the report made, merges, and its completion carries the failure.
    const { work, merged, errors } = runner(tenant, 2);
    await drained(work);
    expect(errors).toEqual([]);
    expect(merged.map((entry) => entry.change)).toEqual([1]);
    const [event] = await new EngineEventRepository(db.knex).list(tenant, 'result');
    expect(event.payload).toMatchObject({ type: 'merge-completed', merged: true, reportFailure: failure });
  });

  it('claims until nothing is left in the first drain of a lead only', async () => {
    const tenant = nextTenant();
    const { work, merged, errors } = runner(tenant, 1);
    // A claim relaxes its commit first (src/store/unflushed-commit.ts): `with unflushed as (...) update`.
    const claims = (sqls: string[]) => count('with unflushed', /update engine_work set state = 'running', epoch/, sqls);
    await branchMerge(tenant, [1]);
    let log = recording();
    await drained(work);
    log.stop();
    // The first drain: its row, then a claim that found nothing.
    expect(claims(log.sqls)).toBe(2);
    await branchMerge(tenant, [2]);
    log = recording();
    counter.start();
    await drained(work);
    counter.stop();
    log.stop();
    // Later: one claim took every open row; and a single change's merge writes no progress.
    expect(claims(log.sqls)).toBe(1);
    expect(count('update', /"progress"/, log.sqls)).toBe(0);
    // The claim, the merger's look at the row (this test's) and the completion with its event
    // (the claim and the completion are both `with` statements).
    expect(counter.perItem(1)).toEqual([
      ['with engine_work', 2],
      ['select engine_work', 1],
    ]);
    expect(counter.total).toBe(3);
    expect(merged.map((entry) => entry.change)).toEqual([1, 2]);
    expect(errors).toEqual([]);
    expect((await repo.all(tenant)).map((row) => row.outcome)).toEqual(['merged', 'merged']);
  });

  it('writes the completions of a row of merges behind the merges after them', async () => {
    const tenant = nextTenant();
    for (const number of [1, 2, 3]) {
      await branchMerge(tenant, [number]);
    }
    const [first] = await repo.all(tenant);
    const made: number[] = [];
    let allMade: () => void = () => undefined;
    const madeThree = new Promise<void>((resolve) => (allMade = resolve));
    // On PostgreSQL the first row, once claimed, is held locked by another session while it is
    // merged: its completion cannot be written, and the merges after it are made meanwhile
    // (PGlite has one session: nothing is held there).
    const holder = db.kind === 'postgres' ? await db.knex.transaction() : null;
    const merger = {
      mergeToBranch: async (item: MergeItem) => {
        if (item.number === 1) {
          await holder?.raw('SELECT id FROM engine_work WHERE id = ? FOR UPDATE', [first.id]);
        }
        made.push(item.number ?? 0);
        if (made.length === 3) {
          allMade();
        }
        return { merged: true as const, oldrev: null, newrev: `rev-${item.number}` };
      },
    } as unknown as MergerGateway;
    const errors: unknown[] = [];
    const work = new WorkRunner({
      knex: db.knex,
      tenant,
      gateways: { merger } as unknown as EngineGateways,
      clock,
      epoch: () => 1,
      leading: () => true,
      onCompleted: () => undefined,
      logger: { error: (_message, error) => errors.push(error) },
    });
    const log = recording();
    work.kick();
    await madeThree;
    if (holder) {
      expect((await repo.all(tenant)).map((row) => row.state)).toEqual(['running', 'running', 'running']);
      await holder.commit();
    }
    await drained(work);
    log.stop();
    expect(errors).toEqual([]);
    expect(made).toEqual([1, 2, 3]);
    expect((await repo.all(tenant)).map((row) => [row.state, row.outcome])).toEqual([
      ['completed', 'merged'],
      ['completed', 'merged'],
      ['completed', 'merged'],
    ]);
    const events = await new EngineEventRepository(db.knex).list(tenant, 'result');
    expect(events.map((event) => event.payload.buildsetUuid)).toEqual(['bs-1', 'bs-2', 'bs-3']);
    const completionWrites = count('with unflushed', /update engine_work (as w )?set state = 'completed'/, log.sqls);
    if (holder) {
      // The first row alone, then the two merged while it was held.
      expect(completionWrites).toBe(2);
    } else {
      expect(completionWrites).toBeGreaterThanOrEqual(1);
      expect(completionWrites).toBeLessThanOrEqual(3);
    }
  });
});
