/**
 * Events by polling where SSH is not allowed (docs/gerrit.md#events-by-polling), through the real
 * server and the fake Gerrit, the connection without `sshkey` (no stream is opened): every
 * `poll_interval` (the poll's timers a fake clock the test moves on) the changes updated since the
 * newest stored event are read and their events stored, each once. A new patch set is checked and
 * voted; `Code-Review +2` and `Workflow +1` gate and submit it (the merge polled as
 * `change-merged`); changes uploaded before, during and after a restart are each checked once.
 * One process polls a connection: the poll lease.
 */
import { until } from '../../helpers/github-tenant';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import type { FakeChange } from '../../helpers/fake-gerrit/server';
import * as tenant from '../../helpers/gerrit-tenant';
import { PollLease } from '../../../src/drivers/gerrit/poll-lease';

const { checksPassed, eventually, judgedAll, lastVote, storedEvents } = tenant;

jest.setTimeout(300_000);

/** Not a multiple of the pending checks' 30 s: the tests tell the event poll's timer by its delay. */
const POLL_S = 7;

interface Stored {
  type: string;
  change?: { number?: number };
  patchSet?: { number?: number };
}

describe('Gerrit events by polling (no sshkey)', () => {
  let env: tenant.GerritTenant;
  const timers = new FakeTimerClock();

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({
      pipelines: tenant.WORKFLOW_PIPELINES,
      timers,
      polled: true,
      connection: { poll_interval: POLL_S },
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const INTERVAL_MS = POLL_S * 1000;
  /** The poll due now (at start) or next: move the fake clock on to it; resolves once it ended (the next one due). */
  const poll = async () => {
    await until('a poll due', () => timers.pending.includes(0) || timers.pending.includes(INTERVAL_MS));
    await timers.advance(timers.pending.includes(0) ? 0 : INTERVAL_MS);
    await until('the poll ended', () => timers.pending.includes(INTERVAL_MS));
  };
  const eventsOf = async (change: FakeChange, type: string) =>
    (await storedEvents<Stored>(env.server)).filter((e) => e.type === type && e.change?.number === change.number);

  it('checks a new patch set, gates and submits on Code-Review +2 and Workflow +1', async () => {
    const { gerrit } = env;
    // The first poll, at start, marks where the next ones catch up from.
    await poll();
    await until('the poll mark', async () => (await storedEvents<Stored>(env.server)).length > 0);
    expect(gerrit.ssh.listening).toBe(false);
    const change = await gerrit.upload('org/app', { subject: 'Polled', files: { 'p.txt': 'p\n' } });
    // Nothing reads it before the poll is due.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await eventsOf(change, 'patchset-created')).toEqual([]);
    await poll();
    await until('the check', () => lastVote(change, 'Verified') === 1);
    gerrit.review(change.number, 'core', { 'Code-Review': 2 });
    gerrit.review(change.number, 'core', { Workflow: 1 });
    await poll();
    await until('the change submitted', () => change.status === 'MERGED');
    expect(lastVote(change, 'Verified')).toBe(2);
    expect(gerrit.submitted).toEqual([`${change.number},1`]);
    await poll();
    await eventually('every event judged', () => judgedAll(env.server));
    // Each event once, though later polls read the change again; the merge once (catch-up and merged poll).
    expect((await eventsOf(change, 'patchset-created')).map((e) => e.patchSet?.number)).toEqual([1]);
    expect(await eventsOf(change, 'change-merged')).toHaveLength(1);
    // Sluice's own two reviews (Verified +1, +2) and the two by core.
    expect(await eventsOf(change, 'comment-added')).toHaveLength(4);
    expect(checksPassed(change)).toBe(1);
    const merged = gerrit.requests.filter((r) => decodeURIComponent(r.path).includes('status:merged -age:'));
    expect(merged.length).toBeGreaterThan(0);
  });

  it('loses nothing across a restart while changes arrive', async () => {
    const { gerrit } = env;
    // Uploaded after the last poll (not read before the stop), while down, and right after the start.
    const before = await gerrit.upload('org/app', { subject: 'Before the stop', files: { 'b.txt': 'b\n' } });
    let during: FakeChange | undefined;
    await env.restart(async () => {
      during = await gerrit.upload('org/app', { subject: 'While down', files: { 'd.txt': 'd\n' } });
    });
    const after = await gerrit.upload('org/app', { subject: 'After the start', files: { 'a.txt': 'a\n' } });
    await poll();
    const all = [before, during as FakeChange, after];
    await until('all three checked', () => all.every((c) => lastVote(c, 'Verified') === 1));
    await poll();
    await eventually('every event judged', () => judgedAll(env.server));
    for (const change of all) {
      expect(await eventsOf(change, 'patchset-created')).toHaveLength(1);
      expect(checksPassed(change)).toBe(1);
    }
  });

  it('polls a connection in one process at a time (the poll lease)', async () => {
    const { knex } = env.server.database;
    const key = 'events@gerrit:test-lease';
    const first = new PollLease(knex, key, 60_000);
    const second = new PollLease(knex, key, 60_000);
    expect(await first.hold()).toBe(true);
    expect(await second.hold()).toBe(false);
    // The holder renews it; once given up, the other takes it.
    expect(await first.hold()).toBe(true);
    await first.release();
    expect(await second.hold()).toBe(true);
    expect(await first.hold()).toBe(false);
    // The running server holds its connection's lease.
    const row = await knex('scheduler_leases').where({ tenant: 'events@gerrit:gerrit' }).first();
    expect(row).toBeDefined();
  });
});
