/**
 * GitLab triggers and reports through the real server and the fake GitLab (docs/gitlab.md): a
 * merge request that passes `check` is approved by Sluice and one that fails has the approval
 * taken back; a `recheck` note runs `check` again; a label runs `triage`, which swaps it for
 * another; a note GitLab stored but answered 502 for is not posted twice; a rate limit
 * (`429` with `Retry-After`) and a `502` on a read are waited out; new commits replace the old
 * patchset in `check`; a label taken off triggers, a rejected label keeps a merge request out,
 * and a merge done in GitLab triggers `promote`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { eventually, itemsIn } from '../../helpers/gerrit-tenant';
import { BASE_JOB, until } from '../../helpers/github-tenant';
import { GITLAB_TENANT, gitlabCheck, startGitLabTenant, unitIn, type GitLabTenant } from '../../helpers/gitlab-tenant';

jest.setTimeout(240_000);

/** `check` on opened merge requests and `recheck` notes, approving on success; `triage` on the label `triage`. */
const PIPELINES = `
${gitlabCheck(
  [
    '  - event: gl_merge_request',
    '    action: changed',
    '  - event: gl_merge_request',
    '    action: comment',
    '    comment: (?i)^\\s*recheck\\s*$',
  ],
  ['success:', '  gitlab:', '    approval: true', 'failure:', '  gitlab:', '    approval: false'],
)}
- pipeline:
    name: triage
    manager: independent
    reject:
      gitlab:
        labels: [blocked]
    trigger:
      gitlab:
        - event: gl_merge_request
          action: labeled
          labels: [triage]
        - event: gl_merge_request
          action: unlabeled
          unlabels: [hold]
    success:
      gitlab:
        comment: false
        label: [triaged]
        unlabel: [triage]
- pipeline:
    name: promote
    manager: supercedent
    require:
      gitlab:
        merged: true
    trigger:
      gitlab:
        - event: gl_merge_request
          action: merged
        - event: gl_merge_request
          action: comment
          comment: ^promote$
    success:
      gitlab:
        comment: false
${BASE_JOB}`;

const APP = unitIn('check', 'triage', 'promote');

describe('GitLab triggers and reports', () => {
  let env: GitLabTenant;
  let scratch: string;
  // The drivers' timers: a request's retry waits and a rate limit's wait pass when the test moves this clock on.
  const timers = new FakeTimerClock();
  /** Waits until `done`, moving the clock on past the retry waits (at most 5 s) as they come; the waits. */
  const movingOn = async (what: string, done: () => boolean): Promise<number[]> => {
    const waits: number[] = [];
    await timers.movingOn(what, done, 5000, (pending) => waits.push(...pending));
    return waits;
  };

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-gitlab-reports-'));
    env = await startGitLabTenant({
      projects: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': APP },
      tenantFile: GITLAB_TENANT,
      timers,
    });
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const builds = async (pipeline: string, result: string) =>
    Number(Object.values((await env.server.database.knex('buildsets').where({ pipeline, result }).count())[0])[0]);
  /** The outcomes of the judged events of the action whose `label` or `comment` is `value`, oldest first. */
  const outcomes = async (action: string, value: string) => {
    const rows: Array<{ payload: { action?: string; label?: string; comment?: string }; outcome: string | null }> =
      await env.server.database
        .knex('engine_events')
        .where({ event_type: 'gl_merge_request' })
        .whereNotNull('processed')
        .orderBy('id')
        .select('payload', 'outcome');
    return rows
      .filter((r) => r.payload.action === action && (r.payload.label ?? r.payload.comment) === value)
      .map((r) => r.outcome);
  };
  const calls = (method: string, suffix: string) =>
    env.lab.requests.filter((r) => r.method === method && r.path.endsWith(suffix)).length;

  it('approves a merge request that passes check, takes the approval back when it fails, and rechecks on a note', async () => {
    const { lab } = env;
    const mr = await lab.openMergeRequest('org/app', { title: 'Good', files: { 'good.txt': 'g\n' } });
    await until('the approval', () => mr.approvedBy.includes(lab.apiUser));
    expect(mr.notes.filter((n) => n.startsWith('Build succeeded'))).toHaveLength(1);
    expect(lab.requests.find((r) => r.method === 'POST' && r.path.endsWith('/merge_requests/1/approve'))?.body).toEqual(
      { sha: mr.headSha },
    );

    const bad = await lab.openMergeRequest('org/app', { title: 'Bad', files: { FAIL: 'yes\n' } });
    bad.approvedBy.push(lab.apiUser);
    await until('the approval taken back', () => calls('POST', `/merge_requests/${bad.iid}/unapprove`) > 0);
    expect(bad.approvedBy).not.toContain(lab.apiUser);

    await lab.comment('org/app', mr.iid, 'reviewer', 'not a recheck');
    await lab.comment('org/app', mr.iid, 'reviewer', '  Recheck ');
    await until('the second success note', () => mr.notes.filter((n) => n.startsWith('Build succeeded')).length === 2);
    expect(await builds('check', 'SUCCESS')).toBe(2);
  });

  it('runs triage on a label and swaps the label for another', async () => {
    const { lab } = env;
    const mr = lab.mr('org/app', 1);
    await lab.label('org/app', 1, 'unrelated');
    await lab.label('org/app', 1, 'triage');
    await until('the triaged label', () => mr.labels.includes('triaged'));
    expect(mr.labels).toEqual(['unrelated', 'triaged']);
    expect(await builds('triage', 'SUCCESS')).toBe(1);
  });

  it('does not post a note twice when GitLab stored it but answered 502', async () => {
    const { lab } = env;
    const mr = lab.mr('org/app', 1);
    const notes = mr.notes.length;
    const approvals = calls('POST', '/merge_requests/1/approve');
    lab.faults.push({ method: 'POST', path: '/merge_requests/1/notes', status: 502, afterWork: true });
    await lab.comment('org/app', 1, 'reviewer', 'recheck');
    // The note comes before the approval in the report: once the approval is asked, the note is done.
    const waits = await movingOn('the report', () => calls('POST', '/merge_requests/1/approve') > approvals);
    expect(lab.faults).toHaveLength(0);
    // One retry, after the first retry wait.
    expect(waits).toEqual([500]);
    const added = mr.notes.slice(notes).filter((_, i) => mr.noteAuthors[notes + i] === lab.apiUser);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^Build succeeded/);
    // The retry looked for the note first.
    expect(calls('GET', '/merge_requests/1/notes')).toBe(1);
  });

  it('waits out a rate limit and retries a read GitLab answered 502', async () => {
    const { lab } = env;
    lab.faults.push(
      { method: 'GET', path: '/merge_requests/3/approvals', status: 429, retryAfter: 1 },
      { method: 'GET', path: '/merge_requests/3', status: 502 },
    );
    const mr = await lab.openMergeRequest('org/app', { title: 'Limited', files: { 'l.txt': 'l\n' } });
    expect(mr.iid).toBe(3);
    const waits = await movingOn('the approval', () => mr.approvedBy.includes(lab.apiUser));
    expect(lab.faults).toHaveLength(0);
    expect(calls('GET', '/merge_requests/3/approvals')).toBeGreaterThan(1);
    // The rate limit's `Retry-After` (1 s) and the first retry wait after the 502 (0.5 s) were waited out.
    expect([...waits].sort((a, b) => a - b)).toEqual([500, 1000]);
  });

  it('takes the old patchset out of check when commits are pushed, and checks the new one', async () => {
    const { lab, server } = env;
    const held = path.join(scratch, 'pushed');
    writeFileSync(held, '');
    const mr = await lab.openMergeRequest('org/app', { title: 'Pushed to', files: { HOLD: held } });
    const first = mr.headSha;
    await eventually('the first patchset in check', async () =>
      (await itemsIn(server, 'check')).includes(`${mr.iid},${first}`),
    );
    await lab.pushToMergeRequest('org/app', mr.iid, { 'more.txt': 'more\n' });
    expect(mr.headSha).not.toBe(first);
    await eventually('only the new patchset in check', async () => {
      const items = await itemsIn(server, 'check');
      return items.length === 1 && items[0] === `${mr.iid},${mr.headSha}`;
    });
    rmSync(held);
    await until('the new patchset approved', () => mr.approvedBy.includes(lab.apiUser));
  });

  it('runs triage when a label is taken off, not while a rejected label is on, and promote on a merge', async () => {
    const { lab } = env;
    await lab.label('org/app', 1, 'hold');
    await lab.label('org/app', 1, 'hold', true);
    await eventually('triage run again', async () => (await builds('triage', 'SUCCESS')) === 2);
    await lab.label('org/app', 1, 'blocked');
    await lab.label('org/app', 1, 'triage');
    await eventually('the triage label judged', async () => (await outcomes('labeled', 'triage')).length === 2);
    expect((await outcomes('labeled', 'triage')).at(-1)).toMatch(/reject|blocked/i);
    // promote requires `merged`: asked on the open merge request it does not run; merged, it does.
    await lab.comment('org/app', 1, 'reviewer', 'promote');
    await eventually('the promote note judged', async () => (await outcomes('comment', 'promote')).length === 1);
    expect((await outcomes('comment', 'promote'))[0]).toMatch(
      /^entered 0; .*merged is false \(require merged: true\)$/,
    );
    await lab.mergeByUser('org/app', 1);
    await eventually('promote run', async () => (await builds('promote', 'SUCCESS')) === 1);
    expect(await builds('triage', 'SUCCESS')).toBe(2);
  });
});
