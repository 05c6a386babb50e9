/**
 * The Gerrit driver through the real server and the fake Gerrit (docs/gerrit.md): events come
 * over `gerrit stream-events` on SSH and are stored before they become trigger events; `check`
 * votes Verified +1 / -1 on new patch sets; `gate` takes changes approved (Approved +1 with
 * Code-Review +2), votes Verified +2 and submits them in order over the REST API; a failing
 * change gets Verified -2 and is not submitted.
 */
import { REVIEW_RETRY_DELAYS_MS } from '../../../src/drivers/gerrit/review-posting';
import { until } from '../../helpers/github-tenant';
import type { FakeChange } from '../../helpers/fake-gerrit/server';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { eventually, lastVote, startGerritGateTenant, type GerritTenant } from '../../helpers/gerrit-tenant';

jest.setTimeout(240_000);

describe('Gerrit driver end to end', () => {
  let env: GerritTenant;
  // The drivers' timers: the waits between review retries pass when the test moves this clock on.
  const timers = new FakeTimerClock();

  beforeAll(async () => {
    env = await startGerritGateTenant({ timers });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('votes Verified +1 on a good patch set and -1 on a failing one, with the results as the message', async () => {
    const { gerrit } = env;
    const good = await gerrit.upload('org/app', { subject: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const bad = await gerrit.upload('org/app', { subject: 'Break it', files: { FAIL: 'yes\n' } });
    await until('Verified +1', () => lastVote(good, 'Verified') === 1);
    await until('Verified -1', () => lastVote(bad, 'Verified') === -1);
    expect(good.reviews.at(-1)).toMatchObject({ patchset: '1', message: expect.stringMatching(/unit.*SUCCESS/s) });
    expect(bad.reviews.at(-1)?.message).toMatch(/unit.*FAILURE/s);
    // The events were stored on arrival and processed once each.
    const stored = await env.server.database
      .knex('connection_events')
      .where({ connection: 'gerrit', event_type: 'patchset-created' })
      .select('outcome');
    expect(stored.map((row: { outcome: string }) => row.outcome)).toEqual(['submitted 1', 'submitted 1']);
  });

  it('gates approved changes, votes Verified +2 and submits them in order', async () => {
    const { gerrit } = env;
    const first = gerrit.change(1);
    const second = await gerrit.upload('org/app', { subject: 'Second feature', files: { 'second.txt': 'y\n' } });
    await until('check of the second change', () => lastVote(second, 'Verified') === 1);
    gerrit.review(first.number, 'core', { 'Code-Review': 2 });
    gerrit.review(first.number, 'core', { Approved: 1 });
    gerrit.review(second.number, 'core', { 'Code-Review': 2, Approved: 1 });
    await until('both submitted', () => first.status === 'MERGED' && second.status === 'MERGED');
    expect(gerrit.submitted).toEqual(['1,1', '3,1']);
    expect(lastVote(first, 'Verified')).toBe(2);
    expect(lastVote(second, 'Verified')).toBe(2);
  });

  it('does not take Approved +1 without Code-Review +2 (the requirement is read from the change)', async () => {
    const { gerrit, server } = env;
    const change = await gerrit.upload('org/app', { subject: 'Unreviewed', files: { 'u.txt': 'u\n' } });
    await until('check', () => lastVote(change, 'Verified') === 1);
    gerrit.review(change.number, 'core', { Approved: 1 });
    const judged = async () => {
      const rows = await server.database
        .knex('engine_events')
        .where({ event_type: 'comment-added' })
        .whereNotNull('processed')
        .select('payload', 'outcome');
      return rows.find(
        (row: { payload: { change?: number; account?: string } }) =>
          row.payload.change === change.number && row.payload.account === 'core',
      ) as { outcome: string } | undefined;
    };
    let outcome: { outcome: string } | undefined;
    await eventually('the event judged', async () => (outcome = await judged()) !== undefined);
    expect(outcome?.outcome).toMatch(/^entered 0; refused by gate: .*Code-Review/);
    expect(change.status).toBe('NEW');
  });

  it('votes Verified -2 on a failing approved change and does not submit it', async () => {
    const { gerrit } = env;
    const bad = gerrit.change(2);
    gerrit.review(bad.number, 'core', { 'Code-Review': 2, Approved: 1 });
    await until('Verified -2', () => lastVote(bad, 'Verified') === -2);
    expect(bad.status).toBe('NEW');
    expect(gerrit.submitted).not.toContain('2,1');
  });

  it('connects again after the stream drops, and stores a line sent twice once', async () => {
    const { gerrit, server } = env;
    const opened = gerrit.ssh.opened;
    gerrit.ssh.drop();
    await until('the stream opened again', () => gerrit.ssh.opened > opened);
    const change = await gerrit.upload('org/app', { subject: 'After the drop', files: { 'd.txt': 'd\n' } });
    await until('Verified +1 after the reconnect', () => lastVote(change, 'Verified') === 1);
    const line = gerrit.events.find(
      (e) => e.includes('"patchset-created"') && e.includes(`"number":${change.number},`),
    );
    const comments = async () =>
      (await server.database.knex('connection_events').where({ event_type: 'comment-added' }).select('id')).length;
    const before = await comments();
    gerrit.ssh.send(line as string);
    gerrit.review(change.number, 'core', { 'Code-Review': 1 });
    // Lines are stored in the order they arrive: once the comment is stored, the line before it was handled.
    await eventually('the comment stored', async () => (await comments()) > before);
    await server.app.roles?.connectionEvents.idle();
    const rows = await server.database
      .knex('connection_events')
      .where({ connection: 'gerrit', event_type: 'patchset-created' })
      .select('id');
    // One row per patch set uploaded in this file: the line sent again was not stored twice.
    expect(rows).toHaveLength(gerrit.events.filter((e) => e.includes('"patchset-created"')).length);
  });

  it('lists the connection in /api/connections with the reference keys of each shape', async () => {
    const { gerrit, server } = env;
    const listed = async (shape: string) =>
      (await fetch(`${server.url}/api/connections`, { headers: { 'X-Sluice-Api-Shape': shape } })).json();
    const entry = {
      name: 'gerrit',
      driver: 'gerrit',
      baseurl: gerrit.url,
      canonical_hostname: 'review.example.com',
      server: 'gerrit.invalid',
      port: gerrit.ssh.port,
    };
    expect(await listed('current')).toEqual([{ ...entry, ssh_server: '127.0.0.1' }]);
    // The 2019 entry had no ssh_server.
    expect(await listed('earlier')).toEqual([entry]);
  });

  it('catches up after a restart on what happened while no stream listened', async () => {
    const { gerrit } = env;
    const waiting = await gerrit.upload('org/app', { subject: 'Approved while down', files: { 'w.txt': 'w\n' } });
    await until('the check of the waiting change', () => lastVote(waiting, 'Verified') === 1);
    let uploaded: FakeChange | undefined;
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      gerrit.review(waiting.number, 'core', { 'Code-Review': 2, Approved: 1 });
      uploaded = await gerrit.upload('org/app', { subject: 'Uploaded while down', files: { 'u2.txt': 'u\n' } });
    });
    const down = uploaded as FakeChange;
    await until('the change uploaded while down checked', () => lastVote(down, 'Verified') === 1);
    await until('the change approved while down submitted', () => waiting.status === 'MERGED');
    expect(lastVote(waiting, 'Verified')).toBe(2);
    // Each missed event was stored once, not once per catch-up.
    const stored = await env.server.database
      .knex('connection_events')
      .where({ connection: 'gerrit', event_type: 'patchset-created' })
      .select('id');
    expect(stored).toHaveLength(gerrit.events.filter((e) => e.includes('"patchset-created"')).length);
  });

  it('posts a review again after a 503, and once only when just its answer was lost', async () => {
    const { gerrit, server } = env;
    const reportsDone = async () =>
      (await server.database.knex('engine_work').where({ kind: 'report' }).whereNot({ state: 'completed' })).length ===
      0;
    // A retry waits the first delay on the drivers' timers, then tries again.
    const [delay] = REVIEW_RETRY_DELAYS_MS;
    const retryWaits = () => timers.pending.filter((ms) => ms === delay).length;
    const waitsBefore = retryWaits();
    gerrit.reviewFaults.push('refuse');
    const refused = await gerrit.upload('org/app', { subject: 'Review refused once', files: { 'r1.txt': 'r\n' } });
    await until('the retry waiting', () => retryWaits() > waitsBefore);
    expect(refused.reviews).toHaveLength(0);
    await timers.advance(delay);
    await until('Verified +1 after the retry', () => lastVote(refused, 'Verified') === 1);
    expect(refused.reviews).toHaveLength(1);
    gerrit.reviewFaults.push('lose-answer');
    const lost = await gerrit.upload('org/app', { subject: 'Answer lost', files: { 'r2.txt': 'r\n' } });
    await until('Verified +1 applied', () => lastVote(lost, 'Verified') === 1);
    await until('the retry waiting', () => retryWaits() > waitsBefore);
    await timers.advance(delay);
    await eventually('the report done', reportsDone);
    // The retry read the change's messages, found its review there and did not post it again.
    expect(lost.reviews).toHaveLength(1);
    expect(gerrit.requests.some((r) => r.method === 'GET' && r.path.includes(`~${lost.number}?o=MESSAGES`))).toBe(true);
  });
});
