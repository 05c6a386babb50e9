import {
  describeChange,
  formatChangeRef,
  listChanges,
  parseChangeRef,
  parseDependsOn,
} from '../../../src/sources/git-changes';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';

describe('change refs', () => {
  it('formats the shard as the last two digits, zero-padded', () => {
    expect(formatChangeRef(7, 1)).toBe('refs/changes/07/7/1');
    expect(formatChangeRef(1234, 3)).toBe('refs/changes/34/1234/3');
    expect(formatChangeRef(100, 2)).toBe('refs/changes/00/100/2');
  });

  it('refuses non-positive numbers', () => {
    expect(() => formatChangeRef(0, 1)).toThrow(RangeError);
    expect(() => formatChangeRef(3, 0)).toThrow(RangeError);
  });

  it('parses well-formed refs and rejects a wrong shard or other refs', () => {
    expect(parseChangeRef('refs/changes/34/1234/3')).toEqual({ number: 1234, patchset: 3 });
    expect(parseChangeRef('refs/changes/35/1234/3')).toBeNull();
    expect(parseChangeRef('refs/changes/4/1234/3')).toBeNull();
    expect(parseChangeRef('refs/heads/master')).toBeNull();
    expect(parseChangeRef('refs/changes/01/1/0')).toBeNull();
  });

  it('parses Depends-On values', () => {
    expect(parseDependsOn('refs/changes/05/5/2')).toEqual({
      kind: 'ref',
      ref: 'refs/changes/05/5/2',
      number: 5,
      patchset: 2,
    });
    expect(parseDependsOn(' org/other:42 ')).toEqual({ kind: 'change', project: 'org/other', number: 42 });
    expect(parseDependsOn('https://review.example.com/42')).toBeNull();
    expect(parseDependsOn('../etc:4')).toBeNull();
  });
});

describe('changes in a repository', () => {
  let fixture: GitFixture;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/app', { README: 'app\n' });
    await fixture.commit('org/app', { parent: 'master', files: { x: '1\n' }, ref: 'refs/heads/stable' });
    await fixture.pushChange('org/app', 12, 1, {
      parent: 'master',
      files: { 'a.txt': 'a\n' },
      message:
        'Add a\n\nMore text.\n\nTarget-Branch: stable\nDepends-On: refs/changes/05/5/1\nDepends-On: org/lib:3\nDepends-On: nonsense value\n',
      author: 'Alice Example <alice@example.com>',
    });
    await fixture.pushChange('org/app', 12, 2, {
      parent: 'master',
      files: { 'a.txt': 'a2\n' },
      message: 'Add a again',
    });
    await fixture.pushChange('org/app', 3, 1, { parent: 'master', files: { 'b.txt': 'b\n' } });
  });

  afterAll(() => fixture.cleanup());

  it('lists change refs ordered by number and patchset', async () => {
    const changes = await listChanges(`${fixture.baseDir}/org/app.git`);
    expect(changes.map((c) => [c.ref, c.number, c.patchset])).toEqual([
      ['refs/changes/03/3/1', 3, 1],
      ['refs/changes/12/12/1', 12, 1],
      ['refs/changes/12/12/2', 12, 2],
    ]);
    expect(changes[0].sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('reads target branch, owner and dependencies from the commit', async () => {
    const details = await describeChange(`${fixture.baseDir}/org/app.git`, 'org/app', 'refs/changes/12/12/1', 'master');
    expect(details).toMatchObject({
      number: 12,
      patchset: 1,
      targetBranch: 'stable',
      owner: { name: 'Alice Example', email: 'alice@example.com' },
      subject: 'Add a',
      dependsOn: [
        { kind: 'ref', ref: 'refs/changes/05/5/1', number: 5, patchset: 1 },
        { kind: 'change', project: 'org/lib', number: 3 },
      ],
      unparsedDependsOn: ['nonsense value'],
    });
  });

  it('falls back to the default branch without a Target-Branch trailer', async () => {
    const details = await describeChange(`${fixture.baseDir}/org/app.git`, 'org/app', 'refs/changes/12/12/2', 'master');
    expect(details.targetBranch).toBe('master');
    expect(details.dependsOn).toEqual([]);
  });
});
