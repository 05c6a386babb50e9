/**
 * The GitHub driver's pipeline requirements and trigger filters (docs/github.md#requirements,
 * docs/github.md#trigger-filters), judged on pull requests built here.
 */
import { compileGitHubTrigger, githubRequirementCheck } from '../../../src/drivers/github/rules';
import { validateRequirement } from '../../../src/config/drivers';
import type { ChangeInfo, CodeReviewState } from '../../../src/model/changes';
import type { TriggerEvent } from '../../../src/model/engine-events';

function pull(review: Partial<CodeReviewState> = {}, change: Partial<ChangeInfo> = {}): ChangeInfo {
  return {
    kind: 'change',
    project: 'github.com/org/app',
    ref: 'refs/pull/7/head',
    branch: 'main',
    number: 7,
    patchset: 'a'.repeat(40),
    oldrev: null,
    newrev: 'a'.repeat(40),
    url: 'https://github.com/org/app/pull/7',
    owner: 'dev',
    dependsOn: [],
    merged: false,
    currentPatchset: true,
    review: { state: 'open', draft: false, title: 'T', labels: [], reviews: [], statuses: [], checks: [], ...review },
    ...change,
  };
}

const NOW = new Date('2026-01-02T00:00:00Z');
const approved = { username: 'alice', type: 'approved', permission: 'write', submittedAt: '2026-01-01T00:00:00Z' };

describe('GitHub requirements', () => {
  it('require: open, current-patchset, draft hold on an open pull request at its head', () => {
    const check = githubRequirementCheck({ open: true, 'current-patchset': true, draft: false }, 'require');
    expect(check(pull(), NOW)).toBeNull();
    expect(check(pull({ state: 'closed' }), NOW)).toBe('open is false (require open: true)');
    expect(check(pull({}, { currentPatchset: false }), NOW)).toBe(
      'current-patchset is false (require current-patchset: true)',
    );
    expect(check(pull({ draft: true }), NOW)).toBe('draft is true (require draft: false)');
  });

  it('reject: a flag that holds refuses the change', () => {
    const check = githubRequirementCheck({ draft: true, merged: true }, 'reject');
    expect(check(pull(), NOW)).toBeNull();
    expect(check(pull({ draft: true }), NOW)).toBe('draft is true (reject draft: true)');
    expect(check(pull({}, { merged: true }), NOW)).toBe('merged is true (reject merged: true)');
  });

  it('reviews, labels and statuses by full-match regexes', () => {
    const check = githubRequirementCheck(
      {
        review: [{ type: 'approved', permission: 'write|admin' }],
        label: 'gate',
        status: 'sluice.*:acme/check:success',
      },
      'require',
    );
    const ready = pull({ reviews: [approved], labels: ['gate'], statuses: ['sluice[bot]:acme/check:success'] });
    expect(check(ready, NOW)).toBeNull();
    expect(check(pull({ labels: ['gate'], statuses: ready.review?.statuses }), NOW)).toMatch(
      /^it lacks a review matching/,
    );
    expect(check(pull({ reviews: [{ ...approved, permission: 'read' }], labels: ['gate'] }), NOW)).toMatch(
      /lacks a review/,
    );
    expect(check(pull({ reviews: [approved], statuses: ready.review?.statuses }), NOW)).toBe(
      'it lacks the label gate (require label)',
    );
    expect(check(pull({ reviews: [approved], labels: ['gate'], statuses: ['x:acme/check:failure'] }), NOW)).toMatch(
      /lacks a status matching/,
    );
    const reject = githubRequirementCheck({ review: [{ type: 'changes_requested' }] }, 'reject');
    expect(reject(pull({ reviews: [approved] }), NOW)).toBeNull();
    expect(reject(pull({ reviews: [{ ...approved, type: 'changes_requested' }] }), NOW)).toMatch(/^it has a review/);
  });

  it('review newer-than and older-than judge the age of the review at the pass time', () => {
    // approved was submitted one day before NOW.
    const fresh = githubRequirementCheck({ review: [{ type: 'approved', 'newer-than': '2d' }] }, 'require');
    expect(fresh(pull({ reviews: [approved] }), NOW)).toBeNull();
    expect(fresh(pull({ reviews: [approved] }), new Date('2026-01-04T00:00:00Z'))).toMatch(/^it lacks a review/);
    const settled = githubRequirementCheck({ review: [{ type: 'approved', 'older-than': '12h' }] }, 'require');
    expect(settled(pull({ reviews: [approved] }), NOW)).toBeNull();
    expect(settled(pull({ reviews: [approved] }), new Date('2026-01-01T06:00:00Z'))).toMatch(/^it lacks a review/);
    expect(settled(pull({ reviews: [{ ...approved, submittedAt: '' }] }), NOW)).toMatch(/^it lacks a review/);
    const stale = githubRequirementCheck({ review: [{ type: 'approved', 'older-than': '1w' }] }, 'reject');
    expect(stale(pull({ reviews: [approved] }), NOW)).toBeNull();
    expect(stale(pull({ reviews: [approved] }), new Date('2026-01-09T00:00:00Z'))).toMatch(/^it has a review/);
  });

  it('review newer-than and older-than must be a number with s, m, h, d or w', () => {
    expect(() =>
      validateRequirement('github', { review: [{ 'newer-than': '30m', 'older-than': '5s' }] }, 'require', []),
    ).not.toThrow();
    expect(() => validateRequirement('github', { review: [{ 'newer-than': 'soon' }] }, 'require', [])).toThrow(
      'Unable to parse time value: soon',
    );
  });

  it('a ref update is not a pull request', () => {
    const check = githubRequirementCheck({ open: true }, 'require');
    expect(check({ ...pull(), kind: 'branch', review: undefined }, NOW)).toBe('it is not a pull request (require)');
  });
});

describe('GitHub trigger filters', () => {
  const event = (fields: Partial<TriggerEvent>): TriggerEvent =>
    ({ type: 'pull_request', project: 'github.com/org/app', ...fields }) as TriggerEvent;

  it('event, action and label', () => {
    const matches = compileGitHubTrigger({ event: 'pull_request', action: 'labeled', label: 'gate' });
    expect(matches(event({ action: 'labeled', label: 'gate' }), undefined, NOW)).toBe(true);
    expect(matches(event({ action: 'labeled', label: 'other' }), undefined, NOW)).toBe(false);
    expect(matches(event({ action: 'opened' }), undefined, NOW)).toBe(false);
    expect(matches(event({ type: 'push', action: 'labeled', label: 'gate' }), undefined, NOW)).toBe(false);
  });

  it('review state, comment and branch regexes, and the change once read', () => {
    const review = compileGitHubTrigger({ event: 'pull_request_review', action: 'submitted', state: 'approved' });
    expect(review(event({ type: 'pull_request_review', action: 'submitted', state: 'approved' }), undefined, NOW)).toBe(
      true,
    );
    expect(
      review(event({ type: 'pull_request_review', action: 'submitted', state: 'commented' }), undefined, NOW),
    ).toBe(false);
    const comment = compileGitHubTrigger({
      event: 'pull_request',
      action: 'comment',
      comment: '(?i)^\\s*recheck\\s*$',
    });
    expect(comment(event({ action: 'comment', comment: 'recheck' }), undefined, NOW)).toBe(true);
    expect(comment(event({ action: 'comment', comment: 'please recheck' }), undefined, NOW)).toBe(false);
    expect(comment(event({ action: 'comment', comment: 'Looks fine.\nRECHECK' }), undefined, NOW)).toBe(false);
    const search = compileGitHubTrigger({ event: 'pull_request', comment: 'recheck' });
    expect(search(event({ action: 'comment', comment: 'please recheck this' }), undefined, NOW)).toBe(true);
    const branch = compileGitHubTrigger({ event: 'pull_request', branch: 'stable/.*', require: { label: 'ok' } });
    expect(branch(event({ branch: 'stable/1' }), undefined, NOW)).toBe(true);
    expect(branch(event({ branch: 'main' }), undefined, NOW)).toBe(false);
    expect(branch(event({}), pull({ labels: ['ok'] }, { branch: 'stable/2' }), NOW)).toBe(true);
    expect(branch(event({}), pull({ labels: [] }, { branch: 'stable/2' }), NOW)).toBe(false);
  });

  it('require-status: every listed status must match a commit status or check run; ignored beside require', () => {
    const matches = compileGitHubTrigger({
      event: 'pull_request',
      'require-status': ['sluice\\[bot\\]:acme/check:success', '.*:lint:(success|neutral)'],
    });
    const both = pull({ statuses: ['sluice[bot]:acme/check:success'], checks: ['ci-app:lint:neutral'] });
    expect(matches(event({}), both, NOW)).toBe(true);
    expect(matches(event({}), pull({ statuses: ['sluice[bot]:acme/check:success'] }), NOW)).toBe(false);
    expect(
      matches(event({}), pull({ statuses: ['sluice[bot]:acme/check:failure'], checks: ['x:lint:success'] }), NOW),
    ).toBe(false);
    // Judged on the change: the event alone passes until the change is read.
    expect(matches(event({}), undefined, NOW)).toBe(true);
    const withRequire = compileGitHubTrigger({
      event: 'pull_request',
      require: { label: 'ok' },
      'require-status': 'nobody:never:success',
    });
    expect(withRequire(event({}), pull({ labels: ['ok'] }), NOW)).toBe(true);
    expect(withRequire(event({}), pull({ labels: [] }), NOW)).toBe(false);
  });

  it('a status requirement matches check runs as well as commit statuses', () => {
    const check = githubRequirementCheck({ status: 'ci-app:build:success' }, 'require');
    expect(check(pull({ checks: ['ci-app:build:success'] }), NOW)).toBeNull();
    expect(check(pull({ checks: ['ci-app:build:failure'] }), NOW)).toMatch(/lacks a status matching/);
  });
});
