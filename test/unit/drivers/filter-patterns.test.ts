/**
 * Regex attributes of GitHub, Gerrit and GitLab trigger filters take `{regex, negate}` as the
 * reference does (src/drivers/filter-patterns.ts): such pipelines load without error, a negated
 * entry matches what its regex does not, and malformed entries are refused with the reference's
 * wording.
 */
import { compileGerritTrigger } from '../../../src/drivers/gerrit/rules';
import { gitTriggers } from '../../../src/drivers/git/rules';
import { compileGitHubTrigger } from '../../../src/drivers/github/rules';
import { gitlabTriggers } from '../../../src/drivers/gitlab/rules';
import type { TriggerEvent } from '../../../src/model/engine-events';
import { memoryLayout } from '../../helpers/memory-layout';

const NOW = new Date('2026-01-02T00:00:00Z');
const event = (fields: Record<string, unknown>) => fields as unknown as TriggerEvent;

function load(driver: string, filter: string) {
  const config = `
- job: {name: base, parent: null, run: base.sh}
- pipeline:
    name: check
    manager: independent
    trigger:
      remote:
        - ${filter}
`;
  return memoryLayout(
    [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': config } } }],
    '',
    undefined,
    { remote: driver },
  );
}

describe('{regex, negate} in trigger filters', () => {
  it.each([
    ['github', '{event: pull_request, branch: [{regex: "stable/.*", negate: true}, main]}'],
    ['github', '{event: push, ref: {regex: "refs/tags/.*"}}'],
    ['github', '{event: pull_request, action: comment, comment: {regex: "(?i)recheck"}}'],
    ['gerrit', '{event: patchset-created, branch: {regex: "stable/.*", negate: true}}'],
    ['gerrit', '{event: comment-added, comment: [{regex: recheck}], username: {regex: bot, negate: true}}'],
    ['gerrit', '{event: hashtags-changed, added: {regex: ci}}'],
    ['gitlab', '{event: gl_merge_request, branch: {regex: "stable/.*", negate: true}}'],
    ['git', '{event: ref-updated, ref: [{regex: "refs/tags/.*", negate: true}, "refs/tags/v1"]}'],
    // docs/gitlab.md's example: Python's inline (?i) flag.
    ['gitlab', '{event: gl_merge_request, action: comment, comment: "(?i)^\\\\s*recheck\\\\s*$"}'],
  ])('load on %s: %s', (driver, filter) => {
    const layout = load(driver, filter);
    expect(layout.errors).toEqual([]);
    expect(layout.pipelines.has('check')).toBe(true);
  });

  it.each([
    [
      'gerrit',
      '{event: patchset-created, branch: {regex: "x", negated: true}}',
      "extra keys not allowed @ data['branch']['negated']",
    ],
    [
      'gerrit',
      '{event: patchset-created, branch: {regex: 5}}',
      "expected str for dictionary value @ data['branch']['regex']",
    ],
    [
      'github',
      '{event: push, ref: {regex: "x", negate: sometimes}}',
      "expected bool for dictionary value @ data['ref']['negate']",
    ],
    ['gitlab', '{event: gl_push, ref: {regex: "("}}', 'Invalid regular expression "("'],
    [
      'git',
      '{event: ref-updated, ref: {regex: "x", negated: true}}',
      "extra keys not allowed @ data['ref']['negated']",
    ],
    [
      'git',
      '{event: ref-updated, ref: {regex: "x", negate: 1}}',
      "expected bool for dictionary value @ data['ref']['negate']",
    ],
    [
      'github',
      '{event: push, ref: [[x]]}',
      "expected a regex string or {regex, negate} for dictionary value @ data['ref']",
    ],
  ])('refuse on %s: %s', (driver, filter, message) => {
    const layout = load(driver, filter);
    expect(layout.errors.map((e) => e.shortError).join('\n')).toContain(message);
    expect(layout.pipelines.has('check')).toBe(false);
  });

  it('warn for a negated pattern RE2 lacks, as for a plain one', () => {
    const layout = load('gerrit', '{event: patchset-created, branch: {regex: "(?!wip)", negate: true}}');
    expect(layout.errors.map((e) => [e.severity, e.name])).toEqual([['warning', 'Regex Deprecation']]);
  });

  it('GitHub: a negated branch matches the other branches, any entry may match', () => {
    const matches = compileGitHubTrigger({
      event: 'pull_request',
      branch: [{ regex: 'stable/.*', negate: true }, 'stable/2'],
    });
    const on = (branch: string) => matches(event({ type: 'pull_request', branch }), undefined, NOW);
    expect(on('main')).toBe(true);
    expect(on('stable/1')).toBe(false);
    expect(on('stable/2')).toBe(true);
    const comment = compileGitHubTrigger({ event: 'pull_request', comment: { regex: 'recheck', negate: true } });
    expect(comment(event({ type: 'pull_request', comment: 'please recheck' }), undefined, NOW)).toBe(false);
    expect(comment(event({ type: 'pull_request', comment: 'looks good' }), undefined, NOW)).toBe(true);
  });

  it('Gerrit: negated branch, username and added hashtags', () => {
    const matches = compileGerritTrigger({
      event: 'hashtags-changed',
      branch: { regex: 'stable/', negate: true },
      username: { regex: 'bot', negate: true },
      added: { regex: 'ci' },
    });
    const on = (fields: Record<string, unknown>) =>
      matches(
        { type: 'hashtags-changed', branch: 'master', account: 'alice', added: ['ci'], ...fields },
        undefined,
        NOW,
      );
    expect(on({})).toBe(true);
    expect(on({ branch: 'stable/1' })).toBe(false);
    expect(on({ account: 'bot-1' })).toBe(false);
    expect(on({ added: ['docs'] })).toBe(false);
  });

  it('GitLab: a negated branch', () => {
    const trigger = gitlabTriggers.compile(
      { event: 'gl_merge_request', branch: { regex: 'stable/.*', negate: true } },
      'remote',
    );
    const on = (branch: string) =>
      trigger.matches({
        event: event({ type: 'gl_merge_request', branch }),
        pipeline: 'check',
        connection: 'remote',
        ref: undefined,
        branch,
        change: undefined,
        now: NOW,
      });
    expect(on('main')).toBe(true);
    expect(on('stable/1')).toBe(false);
    const comment = gitlabTriggers.compile({ event: 'gl_merge_request', comment: '(?i)^\\s*recheck\\s*$' }, 'remote');
    const said = (text: string) =>
      comment.matches({
        event: event({ type: 'gl_merge_request', comment: text }),
        pipeline: 'check',
        connection: 'remote',
        ref: undefined,
        branch: 'main',
        change: undefined,
        now: NOW,
      });
    expect(said(' RECHECK ')).toBe(true);
    expect(said('recheck please')).toBe(false);
  });

  it('git: the ref entries are ORed, a negated one matching what its regex does not; deletions ignored by default', () => {
    const trigger = (options: Record<string, unknown>) =>
      gitTriggers.compile({ event: 'ref-updated', ...options }, 'remote');
    const on = (compiled: ReturnType<typeof trigger>, ref: string, newrev = 'a'.repeat(40)) =>
      compiled.matches({
        event: event({ type: 'ref-updated', ref, newrev }),
        pipeline: 'post',
        connection: 'remote',
        ref,
        branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null,
        change: undefined,
        now: NOW,
      });
    const refs = trigger({ ref: [{ regex: 'refs/heads/stable/.*', negate: true }, 'refs/heads/stable/2'] });
    expect(on(refs, 'refs/heads/main')).toBe(true);
    expect(on(refs, 'refs/heads/stable/1')).toBe(false);
    expect(on(refs, 'refs/heads/stable/2')).toBe(true);
    expect(on(refs, 'refs/heads/main', '0'.repeat(40))).toBe(false);
    const deletes = trigger({ ref: 'refs/heads/.*', 'ignore-deletes': false });
    expect(on(deletes, 'refs/heads/main', '0'.repeat(40))).toBe(true);
    expect(on(deletes, 'refs/tags/v1')).toBe(false);
  });
});
