/**
 * The repository state a speculative merge prepared is pinned (docs/gating.md#engine-work): the
 * merger reports the branch heads it merged onto, and a workspace prepared with that state merges
 * onto those heads even after the branch moved, so a build tests exactly what was prepared.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MergerItem } from '../../../src/model/build-request';
import { Merger } from '../../../src/executor/merger';
import { RepoCache } from '../../../src/executor/repo-cache';
import { git } from '../../../src/sources/git-cli';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';
import { expectOk } from '../../helpers/merger-outcome';

const item: MergerItem = {
  connection: 'local',
  project: 'org/a',
  branch: 'master',
  ref: 'refs/changes/01/1/1',
  change: 1,
  patchset: '1',
  oldrev: null,
  newrev: null,
  mergeMode: 'merge-resolve',
};

describe('Merger: pinned repository state', () => {
  let fixture: GitFixture;
  let merger: Merger;
  let workRoot: string;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/a', { 'a.txt': 'a\n' });
    await fixture.pushChange('org/a', 1, 1, { parent: 'master', files: { 'one.txt': '1\n' } });
    workRoot = mkdtempSync(path.join(os.tmpdir(), 'sluice-merger-state-'));
    const cache = new RepoCache(path.join(workRoot, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: 'git.example.com' },
    });
    merger = new Merger(cache, path.join(workRoot, 'scratch'));
  });

  afterAll(() => {
    fixture.cleanup();
    rmSync(workRoot, { recursive: true, force: true });
  });

  const prepare = (repoState: Record<string, Record<string, string>> | null, name: string) =>
    merger.prepareWorkspace(
      { items: [item], projects: [], scheme: 'golang', item, overrideCheckout: null, repoState },
      path.join(workRoot, name),
    );

  it('merges onto the heads the speculative merge used, not the moved branch', async () => {
    const base = await fixture.revParse('org/a', 'master');
    const speculated = expectOk(await merger.speculate([item]));
    expect(speculated.repoState).toEqual({ 'local/org/a': { master: base } });

    // The branch moves on after the item was prepared.
    const moved = await fixture.commit('org/a', {
      parent: 'master',
      files: { 'later.txt': 'later\n' },
      ref: 'refs/heads/master',
    });

    const pinned = expectOk(await prepare(speculated.repoState, 'pinned'));
    const pinnedDir = path.join(workRoot, 'pinned', 'git.example.com/org/a');
    expect(existsSync(path.join(pinnedDir, 'one.txt'))).toBe(true);
    expect(existsSync(path.join(pinnedDir, 'later.txt'))).toBe(false);
    expect((await git(pinnedDir, ['rev-parse', 'HEAD^1'])).stdout.trim()).toBe(base);
    expect(pinned.repoState).toEqual({ 'local/org/a': { master: base } });

    // Without a pinned state the current tip is used.
    const current = expectOk(await prepare(null, 'current'));
    expect(existsSync(path.join(workRoot, 'current', 'git.example.com/org/a', 'later.txt'))).toBe(true);
    expect(current.repoState).toEqual({ 'local/org/a': { master: moved } });
  });

  it('fails the build with ERROR when a pinned commit is unknown', async () => {
    const outcome = await prepare({ 'local/org/a': { master: '0123456789abcdef0123456789abcdef01234567' } }, 'unknown');
    expect(outcome).toMatchObject({ ok: false, result: 'ERROR' });
  });
});
