/**
 * Catching up after a stream outage (docs/gerrit.md#events-missed-while-no-stream-listened),
 * through the real server and the fake Gerrit: while no server ran, a commit was pushed straight
 * to `master`, an abandoned change restored, a change set work in progress, and a vote cast on a
 * change that held another vote already. After the restart each is stored as the event Gerrit
 * sent meanwhile (`ref-updated` with the branch's old and new revisions, `change-restored`,
 * `wip-state-changed`, `comment-added` with `oldValue` on the changed vote only), each once, and
 * they act: `post` runs for the push, `check` takes the restored change, and `gate` does not take
 * an `Approved +1` that did not change. A catch-up under way when the server stops is waited for
 * and stores nothing after the stop.
 */
import { branchHead } from '../../helpers/fake-gerrit/repos';
import { BASE_JOB, until } from '../../helpers/github-tenant';
import {
  checkPipeline,
  checksPassed as checks,
  eventually,
  judgedAll as judged,
  startGerritGateTenant,
  stopOnceGerritAnswered,
  storedEvents,
  type GerritTenant,
} from '../../helpers/gerrit-tenant';

jest.setTimeout(300_000);

const PIPELINES = `${checkPipeline('- event: [patchset-created, change-restored]')}
- pipeline:
    name: gate
    manager: dependent
    require:
      gerrit:
        approval:
          - Code-Review: 2
    trigger:
      gerrit:
        - event: comment-added
          approval:
            - Approved: 1
    success:
      gerrit:
        Verified: 2
        submit: true
- pipeline:
    name: post
    manager: supercedent
    trigger:
      gerrit:
        - event: ref-updated
          ref: ^refs/heads/.*$
${BASE_JOB}`;

const APP = {
  '.zuul.yaml': `
- job:
    name: unit
    run: unit.sh
- project:
    check:
      jobs: [unit]
    gate:
      jobs: [unit]
    post:
      jobs: [unit]
`,
  'unit.sh': '#!/bin/sh\necho ok\n',
};

interface Stored {
  type: string;
  change?: { number?: number; wip?: boolean };
  refUpdate?: { refName?: string; oldRev?: string; newRev?: string };
  approvals?: Array<{ type: string; value: string; oldValue?: string }>;
  author?: { username?: string };
}

describe('Gerrit catch-up after an outage', () => {
  let env: GerritTenant;

  beforeAll(async () => {
    env = await startGerritGateTenant({ pipelines: PIPELINES, app: APP });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const stored = () => storedEvents<Stored>(env.server);
  const judgedAll = () => judged(env.server);

  it('stores and acts on what Gerrit did while no stream listened, once', async () => {
    const { gerrit } = env;
    const restored = await gerrit.upload('org/app', { subject: 'Restored', files: { 'r.txt': 'r\n' } });
    const wip = await gerrit.upload('org/app', { subject: 'Goes WIP', files: { 'w.txt': 'w\n' } });
    const voted = await gerrit.upload('org/app', { subject: 'Voted', files: { 'v.txt': 'v\n' } });
    await until('the checks', () => [restored, wip, voted].every((c) => checks(c) === 1));
    gerrit.abandon(restored.number);
    gerrit.review(voted.number, 'core', { Approved: 1 });
    // The branch heads are known once a stream opened (stored at its catch-up).
    await eventually('the heads stored', async () => (await stored()).some((e) => e.type === 'sluice-branch-heads'));
    // The first vote comes over the stream: judged by the engine before the outage, so that it is
    // not judged after the Code-Review +2 below (which would rightly let it gate the change).
    await eventually('the first vote judged', async () => {
      const judged: Array<{ payload: unknown }> = await env.server.database
        .knex('engine_events')
        .where({ event_type: 'comment-added' })
        .whereNotNull('processed')
        .select('payload');
      return judged.some((row) => {
        const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
          change?: number;
          approvals?: Array<{ type: string }>;
        };
        return payload.change === voted.number && (payload.approvals ?? []).some((a) => a.type === 'Approved');
      });
    });
    await eventually('every event judged', judgedAll);
    expect(voted.status).toBe('NEW');
    let pushed = '';
    let oldHead = '';
    let emitted: Stored | undefined;
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      oldHead = await branchHead(gerrit.root, 'org/app', 'master');
      pushed = await gerrit.push('org/app', 'master', { 'direct.txt': 'd\n' });
      gerrit.restore(restored.number);
      gerrit.setWip(wip.number, true);
      gerrit.review(voted.number, 'core', { 'Code-Review': 2, Approved: 1 });
      emitted = JSON.parse(gerrit.events.at(-1) as string) as Stored;
    });
    await until('the restored change checked again', () => checks(restored) === 2);
    await eventually('post ran for the push', async () => {
      const answer = await fetch(`${env.server.url}/api/tenant/acme/buildsets?pipeline=post`);
      const sets = (await answer.json()) as Array<{ result: string; refs?: Array<{ newrev?: string }> }>;
      return sets.some((set) => set.result === 'SUCCESS');
    });
    await eventually('every event judged', judgedAll);
    const events = await stored();
    const updates = events.filter((e) => e.type === 'ref-updated');
    expect(updates).toEqual([
      expect.objectContaining({
        refUpdate: { project: 'org/app', refName: 'refs/heads/master', oldRev: oldHead, newRev: pushed },
      }),
    ]);
    expect(events.filter((e) => e.type === 'change-restored').map((e) => e.change?.number)).toEqual([restored.number]);
    const wipEvents = events.filter((e) => e.type === 'wip-state-changed');
    expect(wipEvents.map((e) => [e.change?.number, e.change?.wip])).toEqual([[wip.number, true]]);
    // The vote caught up carries what the stream would have sent: oldValue on the changed vote only.
    const comments = events.filter((e) => e.type === 'comment-added' && e.change?.number === voted.number);
    const caught = comments.at(-1) as Stored;
    const votes = (list: Stored['approvals']) =>
      (list ?? []).map((a) => ({ type: a.type, value: String(a.value), oldValue: a.oldValue }));
    expect(votes(caught.approvals)).toEqual(votes(emitted?.approvals));
    expect(votes(caught.approvals)).toEqual([
      { type: 'Code-Review', value: '2', oldValue: '0' },
      { type: 'Approved', value: '1', oldValue: undefined },
    ]);
    // The unchanged Approved +1 does not gate the change.
    expect(voted.status).toBe('NEW');
    expect(gerrit.submitted).toEqual([]);
    // A second catch-up (the stream dropped and opened again) stores nothing twice.
    const count = events.filter((e) => e.type !== 'sluice-branch-heads').length;
    const listings = () => gerrit.requests.filter((r) => r.path.endsWith('/branches/')).length;
    const listed = listings();
    gerrit.ssh.drop();
    await until('the branches listed again', () => listings() > listed);
    await eventually('the events processed', async () => {
      const pending = await env.server.database.knex('connection_events').whereNull('processed_at').count('* as n');
      return Number(pending[0].n) === 0;
    });
    expect((await stored()).filter((e) => e.type !== 'sluice-branch-heads')).toHaveLength(count);
  });

  // Last: it stops the server. After the test above (with no event stored, a catch-up reads no changes).
  it('stops a catch-up under way with the server, which stores nothing after it stopped', async () => {
    const { gerrit } = env;
    const release = gerrit.holdChangeRequests();
    gerrit.ssh.drop();
    const missed = await gerrit.upload('org/app', { subject: 'Missed', files: { 'm.txt': 'm\n' } });
    await until('the catch-up waiting on Gerrit', () => gerrit.heldPaths.length > 0);
    // The stop waits for the catch-up (which waits on Gerrit) instead of leaving it to run after.
    await stopOnceGerritAnswered(env, release);
    const events = await stored();
    expect(events.filter((e) => e.type === 'patchset-created' && e.change?.number === missed.number)).toEqual([]);
  });
});
