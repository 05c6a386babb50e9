/**
 * Gerrit's events-log plugin (docs/gerrit.md#the-events-log-plugin), through the real server and
 * the fake Gerrit with the plugin installed: what Gerrit streamed while no stream listened (a new
 * change, a reviewer added, a direct push with its submitter, a vote) is read from the plugin
 * after the restart and stored as the stream sent it, each once, with no change query; a stream
 * that drops and opens again stores nothing twice; with the plugin failing the changes are read
 * over REST again. Without `sshkey` each poll reads the plugin the same way.
 */
import { isDeepStrictEqual } from 'node:util';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import type { FakeGerrit } from '../../helpers/fake-gerrit/server';
import { until } from '../../helpers/github-tenant';
import * as tenant from '../../helpers/gerrit-tenant';

const { checksPassed, eventually, judgedAll, storedEvents } = tenant;

jest.setTimeout(300_000);

const PIPELINES = tenant.GERRIT_PIPELINES;

type Payload = Record<string, unknown>;

/** The change queries of the REST catch-up (`after:`) the fake Gerrit answered so far. */
const changeQueries = (gerrit: FakeGerrit) =>
  gerrit.requests.filter((r) => decodeURIComponent(r.path).includes('q=after:')).length;
const logReads = (gerrit: FakeGerrit) =>
  gerrit.requests.filter((r) => r.path.startsWith('/a/plugins/events-log/events/')).length;

/** Each emitted line is stored exactly once, as Gerrit sent it (field by field). */
async function expectStoredOnce(env: tenant.GerritTenant, lines: string[]): Promise<void> {
  const stored = await storedEvents<Payload>(env.server);
  for (const line of lines) {
    const event = JSON.parse(line) as Payload;
    const same = stored.filter((s) => isDeepStrictEqual(s, event));
    expect({ event, count: same.length }).toEqual({ event, count: 1 });
  }
}

/** While down: a new change, a reviewer added, a direct push (its submitter) and a vote; the lines emitted. */
async function whileDown(gerrit: FakeGerrit, reviewed: number): Promise<{ lines: string[]; change: number }> {
  const from = gerrit.events.length;
  const change = await gerrit.upload('org/app', { subject: 'While down', files: { 'd.txt': 'd\n' } });
  gerrit.addReviewer(reviewed, 'core', 'dev');
  await gerrit.push('org/app', 'master', { 'direct.txt': 'd\n' });
  gerrit.review(reviewed, 'core', { 'Code-Review': 1 });
  return { lines: gerrit.events.slice(from), change: change.number };
}

describe('Gerrit events-log after a stream outage', () => {
  let env: tenant.GerritTenant;

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({ pipelines: PIPELINES });
    env.gerrit.eventsLog.installed = true;
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('stores what was streamed while down from the events-log, each once, as Gerrit sent it', async () => {
    const { gerrit } = env;
    const first = await gerrit.upload('org/app', { subject: 'First', files: { 'f.txt': 'f\n' } });
    await until('the check', () => checksPassed(first) === 1);
    await eventually('every event judged', () => judgedAll(env.server));
    const queries = changeQueries(gerrit);
    let missed = { lines: [] as string[], change: 0 };
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      missed = await whileDown(gerrit, first.number);
    });
    await until('the change made while down checked', () => checksPassed(gerrit.change(missed.change)) === 1);
    await eventually('every event judged', () => judgedAll(env.server));
    const types = missed.lines.map((line) => (JSON.parse(line) as Payload).type);
    expect(types).toEqual(['patchset-created', 'reviewer-added', 'ref-updated', 'comment-added']);
    await expectStoredOnce(env, missed.lines);
    const push = JSON.parse(missed.lines[2]) as { submitter: { username: string } };
    expect(push.submitter.username).toBe('pusher');
    // Read from the plugin: the changes were not asked about.
    expect(logReads(gerrit)).toBeGreaterThan(0);
    expect(changeQueries(gerrit)).toBe(queries);
    // The stream drops and opens again: the plugin is read again, nothing is stored twice.
    const count = (await storedEvents<Payload>(env.server)).length;
    const reads = logReads(gerrit);
    gerrit.ssh.drop();
    await until('the events-log read again', () => logReads(gerrit) > reads);
    await eventually('every event judged', () => judgedAll(env.server));
    expect(await storedEvents<Payload>(env.server)).toHaveLength(count);
    await expectStoredOnce(env, missed.lines);
  });

  it('reads the changes over REST when the plugin fails', async () => {
    const { gerrit } = env;
    gerrit.eventsLog.failing = true;
    const queries = changeQueries(gerrit);
    let uploaded = 0;
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      uploaded = (await gerrit.upload('org/app', { subject: 'Plugin down', files: { 'p.txt': 'p\n' } })).number;
    });
    await until('the change checked', () => checksPassed(gerrit.change(uploaded)) === 1);
    expect(changeQueries(gerrit)).toBeGreaterThan(queries);
    await eventually('every event judged', () => judgedAll(env.server));
    const created = (await storedEvents<{ type: string; change?: { number?: number } }>(env.server)).filter(
      (e) => e.type === 'patchset-created' && e.change?.number === uploaded,
    );
    expect(created).toHaveLength(1);
  });
});

describe('Gerrit events-log polled (no sshkey)', () => {
  let env: tenant.GerritTenant;
  const timers = new FakeTimerClock();
  const POLL_S = 7;

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({
      pipelines: PIPELINES,
      timers,
      polled: true,
      connection: { poll_interval: POLL_S, events_log: 'true' },
    });
    env.gerrit.eventsLog.installed = true;
  });

  afterAll(async () => {
    await env?.stop();
  });

  const poll = async () => {
    const interval = POLL_S * 1000;
    await until('a poll due', () => timers.pending.includes(0) || timers.pending.includes(interval));
    await timers.advance(timers.pending.includes(0) ? 0 : interval);
    await until('the poll ended', () => timers.pending.includes(interval));
  };

  it('reads each poll from the events-log: every event once, as Gerrit sent it', async () => {
    const { gerrit } = env;
    await poll();
    await until('the poll mark', async () => (await storedEvents<Payload>(env.server)).length > 0);
    const queries = changeQueries(gerrit);
    const from = gerrit.events.length;
    const first = await gerrit.upload('org/app', { subject: 'First', files: { 'f.txt': 'f\n' } });
    const missed = await whileDown(gerrit, first.number);
    await poll();
    await until('both changes checked', () =>
      [first.number, missed.change].every((n) => checksPassed(gerrit.change(n)) === 1),
    );
    await poll();
    await eventually('every event judged', () => judgedAll(env.server));
    // Every event since (Sluice's own two reviews among them) is stored once, as Gerrit sent it.
    const lines = gerrit.events.slice(from);
    const authors = lines.map((line) => (JSON.parse(line) as { author?: { username?: string } }).author?.username);
    expect(authors.filter((author) => author === 'zuul')).toHaveLength(2);
    expect(missed.lines.map((line) => (JSON.parse(line) as Payload).type)).toContain('reviewer-added');
    await expectStoredOnce(env, lines);
    // No change, merged-change or branch was read over REST after the first poll.
    expect(changeQueries(gerrit)).toBe(queries);
    expect(gerrit.requests.filter((r) => decodeURIComponent(r.path).includes('status:merged'))).toEqual([]);
  });
});
