/**
 * Tags in branch matching (docs/project-configuration.md#jobs): a branch matcher matches a tag's
 * full ref or a branch containing the tagged commit; an implied matcher only a containing branch
 * equal to its own.
 */
import { freezeJobGraph, type FreezeResult } from '../../../src/config/freeze';
import { matchesBranch, type BranchMatcher } from '../../../src/config/regex';
import { memoryLayout } from '../../helpers/memory-layout';

const explicit = (...patterns: string[]): BranchMatcher => ({
  kind: 'explicit',
  regexes: patterns.map((pattern) => ({ pattern, negate: false })),
});
const implied = (branch: string): BranchMatcher => ({ kind: 'implied', regexes: [{ pattern: branch, negate: false }] });
const tag = (...containingBranches: string[]) => ({ ref: 'refs/tags/1.0', containingBranches });

describe('matchesBranch with a tag', () => {
  it('matches a containing branch by regex, as a prefix (the reference: test_containing_branch_partial_match)', () => {
    expect(matchesBranch(explicit('^release-'), tag('release-1.0', 'master'))).toBe(true);
    expect(matchesBranch(explicit('^release-'), tag('master'))).toBe(false);
  });

  it('matches the full ref', () => {
    expect(matchesBranch(explicit('^refs/tags/1\\.'), tag())).toBe(true);
    expect(matchesBranch(explicit('^refs/tags/2\\.'), tag('master'))).toBe(false);
  });

  it('matches an implied matcher only on a containing branch equal to its branch', () => {
    expect(matchesBranch(implied('stable'), tag('master', 'stable'))).toBe(true);
    expect(matchesBranch(implied('stable'), tag('stable/1', 'master'))).toBe(false);
    expect(matchesBranch(implied('master'), tag())).toBe(false);
  });

  it('matches every tag without a matcher, and a negated regex on the ref it does not match', () => {
    expect(matchesBranch(undefined, tag())).toBe(true);
    expect(matchesBranch({ kind: 'explicit', regexes: [{ pattern: 'master', negate: true }] }, tag())).toBe(true);
  });
});

const CONFIG = `
- pipeline: {name: tag, manager: independent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
- job: {name: central, run: central.sh}
- project: {name: org/project, tag: {jobs: [central]}}
`;

const layout = memoryLayout([
  { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': CONFIG } } },
  {
    name: 'org/project',
    branches: {
      master: {
        'zuul.yaml':
          '- job: {name: test2-job, run: m.sh}\n- job: {name: lib, run: lib-master.sh}\n- project: {tag: {jobs: [test2-job]}}\n',
      },
      'stable/pike': {
        'zuul.yaml':
          '- job: {name: test-job, run: s.sh}\n- job: {name: lib, run: lib-stable.sh}\n- project: {tag: {jobs: [test-job, {lib: {override-checkout: master}}]}}\n',
      },
    },
  },
]);

function names(result: FreezeResult): string[] {
  if (result.status !== 'ok') {
    throw new Error(`freeze failed: ${JSON.stringify(result)}`);
  }
  return result.jobs.map((job) => job.name);
}

describe('freezing a tag in a project with two branches (the reference: TestBranchTag)', () => {
  const freeze = (containingBranches: string[]) =>
    freezeJobGraph(layout, {
      pipeline: 'tag',
      project: 'org/project',
      branch: 'master',
      ref: { ref: 'refs/tags/foo', containingBranches },
    });

  it('runs the stanzas and job variants of the branches containing the tagged commit', () => {
    expect(names(freeze(['stable/pike']))).toEqual(['central', 'test-job', 'lib']);
    expect(names(freeze(['master']))).toEqual(['central', 'test2-job']);
    expect(names(freeze(['master', 'stable/pike']))).toEqual(['central', 'test2-job', 'test-job', 'lib']);
  });

  it('runs no implied-branch stanza or job for a commit on no branch', () => {
    expect(names(freeze([]))).toEqual(['central']);
  });

  it('matches another ref on its full ref only (the reference: a Ref has no branch)', () => {
    const result = freezeJobGraph(layout, {
      pipeline: 'tag',
      project: 'org/project',
      branch: 'master',
      ref: { ref: 'refs/notes/commits', containingBranches: [] },
    });
    expect(names(result)).toEqual(['central']);
    // A bare branch name as the ref (an admin enqueue of `master`) matches the implied matcher of
    // that branch, read as a regex, as in the reference.
    expect(
      names(
        freezeJobGraph(layout, {
          pipeline: 'tag',
          project: 'org/project',
          branch: 'master',
          ref: { ref: 'master', containingBranches: [] },
        }),
      ),
    ).toEqual(['central', 'test2-job']);
  });

  it('selects variants of an override checkout by that branch', () => {
    const result = freeze(['stable/pike']);
    const lib = result.status === 'ok' ? result.jobs.find((job) => job.name === 'lib') : undefined;
    expect(lib?.run.map((playbook) => playbook.path)).toEqual(['lib-master.sh']);
  });
});
