import { isConfigPath, parseProposedRef } from '../../../src/config/proposed-layout';

describe('freeze-pipeline refs', () => {
  it.each([
    ['master', { kind: 'branch', branch: 'master' }],
    ['refs/heads/stable/2.0', { kind: 'branch', branch: 'stable/2.0' }],
    ['feature/x', { kind: 'branch', branch: 'feature/x' }],
    ['refs/changes/01/1/2', { kind: 'change', id: { number: 1, patchset: 2 } }],
    ['refs/changes/34/1234/1', { kind: 'change', id: { number: 1234, patchset: 1 } }],
    ['refs/tags/v1', { kind: 'tag' }],
  ])('%s is accepted', (ref, parsed) => {
    expect(parseProposedRef(ref)).toEqual(parsed);
  });

  it.each([
    '',
    'refs/heads/',
    'refs/tags/',
    'refs/tags/a b',
    'refs/changes/1/1/1',
    'refs/changes/02/1/1',
    'refs/changes/01/1',
    'a b',
    'x~1',
    'HEAD^',
    'a:b',
    'bad\u0001name',
  ])('%j is invalid', (ref) => {
    expect(parseProposedRef(ref)).toEqual({ kind: 'invalid' });
  });

  it('recognizes configuration locations and extra config paths', () => {
    for (const file of [
      'zuul.yaml',
      '.zuul.yaml',
      'zuul.d/jobs.yaml',
      '.zuul.d/a/b.yaml',
      'ci/extra.yaml',
      'more/x.yaml',
    ]) {
      expect(isConfigPath(file, ['ci/extra.yaml', 'more/'])).toBe(true);
    }
    for (const file of ['src/zuul.yaml', 'zuul.yaml.orig', 'zuul.dx/a.yaml', 'ci/extra.yaml.bak', 'moreover.yaml']) {
      expect(isConfigPath(file, ['ci/extra.yaml', 'more/'])).toBe(false);
    }
  });
});
