/**
 * Fenced scheduler leadership (docs/operations.md#leadership-model), on both stores: a
 * scheduler whose lease was taken stops at once and writes nothing more; the scheduler that
 * takes over continues from the stored state, and each change is tested, reported and merged
 * once. A lease that cannot be renewed in time stops the scheduler too.
 */
import { randomUUID } from 'node:crypto';
import type { LeadershipChange } from '../../../src/engine/scheduler/tenant-scheduler';
import { SchedulerLeaseRepository } from '../../../src/store/repositories/scheduler-leases';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

/** Records leadership changes; `next(pred)` resolves with the first (past or future) one matching. */
class LeadershipLog {
  readonly changes: LeadershipChange[] = [];
  private readonly waiters: Array<{ match: (c: LeadershipChange) => boolean; resolve: (c: LeadershipChange) => void }> =
    [];

  readonly record = (change: LeadershipChange): void => {
    this.changes.push(change);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(change)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(change);
      }
    }
  };

  next(match: (change: LeadershipChange) => boolean, after = 0): Promise<LeadershipChange> {
    const seen = this.changes.slice(after).find(match);
    if (seen) {
      return Promise.resolve(seen);
    }
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

describe.each(backends())('fenced leadership on %s', (backend) => {
  let db: TestDatabase;
  const harnesses: EngineHarness[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterEach(async () => {
    for (const h of harnesses.splice(0)) {
      await h.stop();
    }
  });

  afterAll(async () => {
    await db.destroy();
  });

  const gateLayout = () =>
    makeLayout({
      tenant: nextTenant(),
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });

  it('a scheduler whose lease was taken stops at once; the next leader carries on from the store', async () => {
    const aLog = new LeadershipLog();
    const bLog = new LeadershipLog();
    // A never retries within the test; B retries often, so B is the one taking over.
    const a = new EngineHarness(db, gateLayout(), undefined, {
      leadership: { ttlMs: 60_000, standbyRetryMs: 3_600_000 },
      onLeadershipChange: aLog.record,
    });
    harnesses.push(a);
    await a.start();
    const tenant = a.tenant;
    const leases = new SchedulerLeaseRepository(db.knex);
    const aEpoch = (await leases.get(tenant))?.epoch ?? 0;
    expect(a.engine.leadership()).toEqual([{ tenant, leading: true, epoch: aEpoch }]);

    a.changes.add('org/project', 1);
    await a.enqueue('gate', 'org/project', '1,1');
    expect(a.executor.started.map((build) => build.job.name)).toEqual(['unit']);

    const b = new EngineHarness(
      db,
      a.layout,
      { clock: a.clock, changes: a.changes, merger: a.merger, executor: a.executor },
      {
        leadership: { ttlMs: 60_000, standbyRetryMs: 20 },
        onLeadershipChange: bLog.record,
        // Another process: its own uuids (the harness's counter would repeat A's).
        uuid: () => randomUUID().replace(/-/g, ''),
      },
    );
    harnesses.push(b);
    expect(await b.engine.startTenant(tenant)).toBe(false);

    // Another process takes the lease (as after A's lease ran out while A could not reach the database).
    await db
      .knex('scheduler_leases')
      .where({ tenant })
      .update({
        holder: 'intruder',
        epoch: db.knex.raw('epoch + 1'),
        expires_at: db.knex.raw("clock_timestamp() + interval '1 hour'"),
      });
    const lost = await aLog.next((change) => !change.leading);
    expect(lost).toMatchObject({ tenant, leading: false, epoch: aEpoch });
    expect(lost.reason).toMatch(/another scheduler holds the lease/);
    expect(a.engine.leadership()).toEqual([{ tenant, leading: false, epoch: null }]);

    // Work arrives while the intruder leads: A must not touch it.
    const deltasBefore = a.deltas.length;
    const buildsetsBefore = (await a.buildsets()).length;
    a.changes.add('org/project', 2);
    const enqueued = await a.engine.enqueue(tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '2,1',
      by: 'admin',
    });
    expect(enqueued.ok).toBe(true);
    await a.executor.finish('unit', 1, { result: 'SUCCESS' });
    await a.settle();
    const pending: string[] = await db
      .knex('engine_events')
      .where({ tenant })
      .whereNull('processed')
      .pluck('event_type');
    expect(pending).toEqual(expect.arrayContaining(['enqueue', 'build-completed']));
    expect(await a.engine.eventOutcome(enqueued.ok ? enqueued.value.eventId : 0)).toBeNull();
    expect(a.deltas.length).toBe(deltasBefore);
    expect((await a.buildsets()).length).toBe(buildsetsBefore);
    expect(a.merger.mergedOrder).toEqual([]);

    // The intruder goes away; B takes over from the stored state.
    await db
      .knex('scheduler_leases')
      .where({ tenant, holder: 'intruder' })
      .update({
        expires_at: db.knex.raw('clock_timestamp()'),
      });
    const took = await bLog.next((change) => change.leading);
    expect(took.epoch).toBe(aEpoch + 2);
    for (let round = 0; round < 4; round += 1) {
      await b.settle();
      await b.executor.finishAll({ result: 'SUCCESS' });
    }
    await b.settle();

    const buildsets = await b.buildsets();
    expect(buildsets.map((buildset) => [buildset.pipeline, buildset.result])).toEqual([
      ['gate', 'SUCCESS'],
      ['gate', 'SUCCESS'],
    ]);
    expect([...a.errors, ...b.errors]).toEqual([]);
    expect(a.merger.mergedOrder).toEqual([1, 2]);
    const started = a.executor.started.map((build) => build.buildUuid);
    expect(new Set(started).size).toBe(started.length);
    const finals = (await b.builds()).filter((build) => build.final).map((build) => build.jobName);
    expect(finals).toEqual(['unit', 'unit']);
    expect(aLog.changes.filter((change) => change.leading)).toHaveLength(1);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('a lease not renewed in time stops the scheduler; it leads again from the store with a new epoch', async () => {
    let clock = 0;
    const log = new LeadershipLog();
    // No renewal outside passes within the test (renewAfterMs): only passes prove the lease.
    const h = new EngineHarness(db, gateLayout(), undefined, {
      leadership: { ttlMs: 10_000, renewAfterMs: 3_600_000, monotonic: () => clock },
      onLeadershipChange: log.record,
    });
    harnesses.push(h);
    await h.start();
    const first = h.engine.leadership()[0]?.epoch ?? 0;
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');

    // Renewals "stall" (the monotonic clock jumps past the lease's safe part).
    const mark = log.changes.length;
    clock += 9_000;
    const lost = await log.next((change) => !change.leading, mark);
    expect(lost.reason).toMatch(/could not be renewed in time/);
    const again = await log.next((change) => change.leading, mark);
    expect(again.epoch).toBe(first + 1);

    await h.executor.finishAll({ result: 'SUCCESS' });
    await h.settle();
    expect((await h.buildsets()).map((buildset) => buildset.result)).toEqual(['SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([1]);
    expect(h.errors).toEqual([]);
  });

  it('a pass longer than the lease still commits: its transaction holds the lease row', async () => {
    const log = new LeadershipLog();
    const h = new EngineHarness(db, gateLayout(), undefined, {
      leadership: { ttlMs: 1000 },
      onLeadershipChange: log.record,
    });
    harnesses.push(h);
    await h.start();
    const prepare = h.merger.prepare.bind(h.merger);
    h.merger.prepare = async (items) => {
      // The speculative merge takes longer than the whole lease.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return prepare(items);
    };
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['unit']);
    await h.executor.finishAll({ result: 'SUCCESS' });
    await h.settle();
    expect(h.merger.mergedOrder).toEqual([1]);
    expect(log.changes.map((change) => change.leading)).toEqual([true]);
    expect(h.errors).toEqual([]);
  });

  it('work before a pass that takes longer than the lease keeps the lead: the lease is renewed meanwhile', async () => {
    const log = new LeadershipLog();
    const h = new EngineHarness(db, gateLayout(), undefined, {
      leadership: { ttlMs: 1000 },
      onLeadershipChange: log.record,
    });
    harnesses.push(h);
    await h.start();
    h.changes.add('org/project', 1);
    const getChange = h.changes.getChange.bind(h.changes);
    let slow = true;
    h.changes.getChange = async (project, number, patchset) => {
      if (slow) {
        // Read before the pass opens its transaction (a loaded machine): longer than the whole lease.
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      return getChange(project, number, patchset);
    };
    const result = await h.engine.enqueue(h.tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '1,1',
      by: 'admin',
    });
    expect(result.ok).toBe(true);
    await h.settle();
    expect(await h.engine.eventOutcome(result.ok ? result.value.eventId : 0)).not.toBeNull();
    slow = false;
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['unit']);
    await h.executor.finishAll({ result: 'SUCCESS' });
    await h.settle();
    expect(h.merger.mergedOrder).toEqual([1]);
    // Before, each try lost the lead at the pass's fence and took it again: the event was never handled.
    expect(log.changes.map((change) => change.leading)).toEqual([true]);
    expect(h.errors).toEqual([]);
  });

  it('a stop with a deadline leaves a pass still reading then; the pass opens no transaction after it', async () => {
    const h = new EngineHarness(db, gateLayout(), undefined, { leadership: { ttlMs: 60_000 } });
    harnesses.push(h);
    await h.start();
    h.changes.add('org/project', 1);
    const getChange = h.changes.getChange.bind(h.changes);
    let reading: (() => void) | null = null;
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    h.changes.getChange = async (project, number, patchset) => {
      if (reading) {
        reading();
        reading = null;
        // A read before the pass (git on a loaded machine) outlasting the shutdown's deadline.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        done();
      }
      return getChange(project, number, patchset);
    };
    const result = await h.engine.enqueue(h.tenant, {
      pipeline: 'gate',
      project: 'org/project',
      change: '1,1',
      by: 'admin',
    });
    expect(result.ok).toBe(true);
    await read;
    const asked = Date.now();
    await h.engine.stop(asked + 200);
    expect(Date.now() - asked).toBeLessThan(1500);
    await finished;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Stopped while reading: the event waits for the next leader, nothing was written.
    expect(await h.engine.eventOutcome(result.ok ? result.value.eventId : 0)).toBeNull();
    expect(h.executor.started).toEqual([]);
    expect(h.errors).toEqual([]);
  });

  it('a scheduler standing by stops at once, however long it would wait before trying again', async () => {
    const leader = new EngineHarness(db, gateLayout());
    harnesses.push(leader);
    await leader.start();
    for (const standbyRetryMs of [3_600_000, 5]) {
      const standby = new EngineHarness(db, leader.layout, undefined, {
        leadership: { ttlMs: 60_000, standbyRetryMs },
      });
      expect(await standby.engine.startTenant(leader.tenant)).toBe(false);
      const asked = Date.now();
      await standby.stop();
      expect(Date.now() - asked).toBeLessThan(5000);
    }
    expect(leader.engine.leadership()[0]?.leading).toBe(true);
  });
});
