/**
 * GitLab webhook payloads as trigger events (docs/gitlab.md#trigger-events), `Depends-On` merge
 * request URLs (docs/gitlab.md#changes) and the requirements (docs/gitlab.md#requirements).
 */
import { changesNamedByUrls } from '../../../src/drivers/depends-on';
import { GitLabChangeSource, mergeRequestOfUrl } from '../../../src/drivers/gitlab/change-source';
import type { GitLabConnection } from '../../../src/drivers/gitlab/connection';
import { payloadProblem, triggersOf } from '../../../src/drivers/gitlab/events';
import { gitlabRequirementCheck } from '../../../src/drivers/gitlab/rules';
import type { ChangeInfo } from '../../../src/model/changes';
import type { GitProjects } from '../../../src/sources/git-projects';

const AT = '2026-01-01T00:00:00.000Z';
const project = { path_with_namespace: 'org/app' };

function mrHook(action: string, extra: Record<string, unknown> = {}, changes: Record<string, unknown> = {}) {
  return {
    object_kind: 'merge_request',
    project,
    user: { username: 'dev' },
    object_attributes: { iid: 4, target_branch: 'main', last_commit: { id: 'abc' }, action, ...extra },
    changes,
  };
}

describe('GitLab trigger events', () => {
  it('maps merge request actions to the reference names', () => {
    expect(triggersOf(mrHook('open'), AT)).toEqual([
      expect.objectContaining({
        type: 'gl_merge_request',
        action: 'opened',
        project: 'org/app',
        change: 4,
        patchset: 'abc',
        branch: 'main',
        ref: 'refs/merge-requests/4/head',
        account: 'dev',
      }),
    ]);
    expect(triggersOf(mrHook('merge'), AT)[0].action).toBe('merged');
    expect(triggersOf(mrHook('approved'), AT)[0].action).toBe('approved');
    expect(triggersOf(mrHook('unapproved'), AT)[0].action).toBe('unapproved');
    expect(triggersOf(mrHook('update', { oldrev: 'old' }), AT)[0].action).toBe('changed');
    expect(triggersOf(mrHook('update'), AT)).toEqual([]);
    expect(triggersOf(mrHook('close'), AT)[0].action).toBe('closed');
    // A description edit is `changed`, as in the reference; a title edit and the per-user
    // `approval` / `unapproval` actions make nothing there either.
    const described = triggersOf(mrHook('update', {}, { description: { previous: 'a', current: 'b' } }), AT);
    expect(described.map((e) => e.action)).toEqual(['changed']);
    expect(triggersOf(mrHook('update', {}, { title: { previous: 'a', current: 'b' } }), AT)).toEqual([]);
    expect(triggersOf(mrHook('approval'), AT)).toEqual([]);
    expect(triggersOf(mrHook('unapproval'), AT)).toEqual([]);
  });

  it('turns label changes into labeled and unlabeled events, one per label', () => {
    const hook = mrHook(
      'update',
      {},
      {
        labels: { previous: [{ title: 'a' }, { title: 'b' }], current: [{ title: 'b' }, { title: 'c' }] },
      },
    );
    expect(triggersOf(hook, AT).map((e) => [e.action, e.label])).toEqual([
      ['labeled', 'c'],
      ['unlabeled', 'a'],
    ]);
  });

  it('makes notes on merge requests comments and pushes gl_push', () => {
    const note = {
      object_kind: 'note',
      project,
      user: { username: 'rev' },
      object_attributes: { note: 'recheck', noteable_type: 'MergeRequest' },
      merge_request: { iid: 4, target_branch: 'main' },
    };
    expect(triggersOf(note, AT)[0]).toMatchObject({ action: 'comment', comment: 'recheck', change: 4 });
    const push = {
      object_kind: 'push',
      project,
      ref: 'refs/heads/main',
      before: '0'.repeat(40),
      after: 'f'.repeat(40),
    };
    expect(triggersOf(push, AT)[0]).toMatchObject({
      type: 'gl_push',
      branch: 'main',
      oldrev: null,
      newrev: 'f'.repeat(40),
    });
  });

  it('says which field a payload lacks', () => {
    expect(payloadProblem({ object_kind: 'push', project, ref: 'refs/heads/main' })).toMatch(/push payload's before/);
    expect(payloadProblem({ object_kind: 'pipeline' })).toBeNull();
  });
});

describe('GitLab Depends-On and requirements', () => {
  it('reads merge request URLs, with and without the /-/ segment', () => {
    const text =
      'Fix\n\nDepends-On: https://gitlab.example.com/group/sub/lib/-/merge_requests/12\nDepends-On: https://gl.other.org/a/b/merge_requests/3\n';
    // No connection owns these: the URL's host is the canonical host.
    expect(changesNamedByUrls(text, () => null, mergeRequestOfUrl)).toEqual([
      { project: 'gitlab.example.com/group/sub/lib', number: 12 },
      { project: 'gl.other.org/a/b', number: 3 },
    ]);
  });

  it('requires open, approved and labels; rejects on labels', () => {
    const change = (labels: string[], approved: boolean) =>
      ({
        merged: false,
        review: {
          state: 'open',
          draft: false,
          title: 't',
          labels,
          reviews: approved ? [{ username: 'r', type: 'approved', permission: 'write', submittedAt: '' }] : [],
          statuses: [],
          checks: [],
        },
      }) as unknown as ChangeInfo;
    const require = gitlabRequirementCheck({ open: true, approved: true, labels: ['gate'] }, 'require');
    expect(require(change(['gate'], true))).toBeNull();
    expect(require(change(['gate'], false))).toBe('approved is false (require approved: true)');
    expect(require(change([], true))).toBe('labels gate missing (require labels)');
    const reject = gitlabRequirementCheck({ labels: ['wip'] }, 'reject');
    expect(reject(change(['wip'], true))).toBe('labels wip present (reject labels)');
  });
});

describe('GitLab merge requests as changes', () => {
  const read = async (fields: Record<string, unknown>) => {
    const mr = {
      iid: 7,
      state: 'opened',
      title: 'Plain title',
      description: '',
      web_url: 'https://gitlab.example.com/org/app/-/merge_requests/7',
      author: { username: 'dev' },
      target_branch: 'main',
      source_branch: 'topic',
      sha: 'abc',
      labels: [],
      ...fields,
    };
    const connection = {
      mergeRequest: async () => mr,
      approvals: async () => ({ approved_by: [] }),
    } as unknown as GitLabConnection;
    const projects = {
      locate: () => ({ connection: 'gitlab', name: 'org/app' }),
    } as unknown as GitProjects;
    const source = new GitLabChangeSource(new Map([['gitlab', connection]]), projects, () => null);
    return (await source.getChange('gitlab.example.com/org/app', 7))?.review?.draft;
  };

  it("takes draft status from GitLab's draft field, its older work_in_progress, else the title", async () => {
    expect(await read({ draft: true })).toBe(true);
    expect(await read({ draft: false, title: 'Draft: looks like one' })).toBe(false);
    expect(await read({ work_in_progress: true })).toBe(true);
    expect(await read({ title: 'Draft: old GitLab' })).toBe(true);
    expect(await read({})).toBe(false);
  });
});
