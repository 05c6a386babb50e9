/**
 * The poll of Gerrit's pending checks (docs/gerrit.md#pending-checks), through the real server and
 * the fake Gerrit's checks plugin: while the stream stands (no reconnect, no catch-up), the checks
 * pending of the checkers the `pending-check` triggers name, by uuid or by scheme, are read every
 * 30 s (the poll's timers are a fake clock the test moves on), stored once each and checked; the
 * next poll, the checks still pending, stores nothing again. A poll under way when the server stops
 * is waited for and stores nothing after the stop.
 */
import { BASE_JOB, until } from '../../helpers/github-tenant';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import * as tenant from '../../helpers/gerrit-tenant';

const { checkPipeline, checksPassed, eventually, judgedAll, storedEvents, PENDING_CHECK_TRIGGERS } = tenant;

jest.setTimeout(300_000);

const PIPELINES = `${checkPipeline('- event: patchset-created', ...PENDING_CHECK_TRIGGERS)}\n${BASE_JOB}`;

const POLL_MS = 30_000;

interface Stored {
  type: string;
  uuid?: string;
  scheme?: string;
  change?: { number?: number };
  patchSet?: { number?: number };
}

describe('Gerrit pending checks polled while the stream stands', () => {
  let env: tenant.GerritTenant;
  const timers = new FakeTimerClock();

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({ pipelines: PIPELINES, timers });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const pendingStored = () =>
    storedEvents<Stored>(env.server).then((events) => events.filter((e) => e.type === 'pending-check'));
  const asked = () => env.gerrit.requests.filter((r) => r.path.includes('checks.pending')).length;
  // A stream that opened again lists the branches (its catch-up): the polls do not.
  const listings = () => env.gerrit.requests.filter((r) => r.path.endsWith('/branches/')).length;
  const nextPoll = () => until('the next poll due', () => timers.pending.includes(POLL_MS));

  it('stores the checks pending every 30 s, each once, and checks them', async () => {
    const { gerrit } = env;
    const first = await gerrit.upload('org/app', { subject: 'By uuid', files: { 'u.txt': 'u\n' } });
    const second = await gerrit.upload('org/app', { subject: 'By scheme', files: { 's.txt': 's\n' } });
    await until('the checks', () => checksPassed(first) === 1 && checksPassed(second) === 1);
    await eventually('every event judged', () => judgedAll(env.server));
    const listed = listings();
    tenant.addPendingChecks(gerrit, first.number, second.number);
    // Nothing reads them before the poll is due.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await pendingStored()).toEqual([]);
    await nextPoll();
    await timers.advance(POLL_MS);
    await until('both checked again', () => checksPassed(first) === 2 && checksPassed(second) === 2);
    await eventually('every event judged', () => judgedAll(env.server));
    expect((await pendingStored()).map((e) => [e.change?.number, e.patchSet?.number, e.uuid, e.scheme])).toEqual([
      [second.number, 1, 'sluice:lint', 'sluice'],
      [first.number, 1, 'zuul:check', 'zuul'],
    ]);
    expect(gerrit.ssh.listening).toBe(true);
    expect(listings()).toBe(listed);
    // The next poll asks again; the checks still pending are not stored nor checked again.
    const before = asked();
    await nextPoll();
    await timers.advance(POLL_MS);
    await until('the checks asked again', () => asked() >= before + 2);
    await nextPoll();
    await eventually('every event judged', () => judgedAll(env.server));
    expect(await pendingStored()).toHaveLength(2);
    expect([checksPassed(first), checksPassed(second)]).toEqual([2, 2]);
    expect(listings()).toBe(listed);
  });

  // Last: it stops the server.
  it('waits for a poll under way when the server stops, which stores nothing after it', async () => {
    const { gerrit } = env;
    const late = await gerrit.upload('org/app', { subject: 'Late', files: { 'l.txt': 'l\n' } });
    await until('the check', () => checksPassed(late) === 1);
    await eventually('every event judged', () => judgedAll(env.server));
    gerrit.pendingChecks.push({ change: late.number, patchset: 1, uuid: 'zuul:check' });
    const release = gerrit.holdChangeRequests();
    await nextPoll();
    await timers.advance(POLL_MS);
    await until('the poll waiting on Gerrit', () => gerrit.heldPaths.some((p) => p.startsWith('/a/plugins/checks/')));
    await tenant.stopOnceGerritAnswered(env, release);
    expect((await pendingStored()).filter((e) => e.change?.number === late.number)).toEqual([]);
    // No poll is due any more.
    expect(timers.pending).toEqual([]);
  });
});
