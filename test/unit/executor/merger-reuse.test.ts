/**
 * A build's workspace and the gate merge take the speculative merge's commits instead of merging
 * again (docs/executor.md#reused-merges), and still see exactly the speculative state: the items
 * ahead and nothing else. After a gate reset (another head under the item) and in another process
 * (its own cache, no commits of this one) the merge is made again, with the same tree.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MergerItem } from '../../../src/model/build-request';
import { Merger, type PrepareRequest } from '../../../src/executor/merger';
import { RepoCache } from '../../../src/executor/repo-cache';
import { git } from '../../../src/sources/git-cli';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';
import { expectOk } from '../../helpers/merger-outcome';

const item = (number: number): MergerItem => ({
  connection: 'local',
  project: 'org/a',
  branch: 'master',
  ref: `refs/changes/0${number}/${number}/1`,
  change: number,
  patchset: '1',
  oldrev: null,
  newrev: null,
  mergeMode: 'merge-resolve',
});

const rev = async (dir: string, name: string): Promise<string> => (await git(dir, ['rev-parse', name])).stdout.trim();

describe('Merger: reused speculative merges', () => {
  let fixture: GitFixture;
  let workRoot: string;
  let counter = 0;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/a', { 'a.txt': 'a\n' });
    for (const number of [1, 2, 3]) {
      await fixture.pushChange('org/a', number, 1, { parent: 'master', files: { [`${number}.txt`]: `${number}\n` } });
    }
    workRoot = mkdtempSync(path.join(os.tmpdir(), 'sluice-merger-reuse-'));
  });

  afterAll(() => {
    fixture.cleanup();
    rmSync(workRoot, { recursive: true, force: true });
  });

  /** A merger with its own cache: another process. */
  function newMerger(): Merger {
    const root = path.join(workRoot, `merger-${counter++}`);
    const cache = new RepoCache(path.join(root, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: 'git.example.com' },
    });
    return new Merger(cache, path.join(root, 'scratch'));
  }

  /** Prepare the workspace of the last of `items` with `repoState`; resolves with its checkout. */
  async function workspace(merger: Merger, items: MergerItem[], repoState: PrepareRequest['repoState']) {
    const src = path.join(workRoot, `ws-${counter++}`, 'src');
    const request = {
      items,
      projects: [],
      scheme: 'golang' as const,
      item: items[items.length - 1],
      overrideCheckout: null,
    };
    const outcome = expectOk(await merger.prepareWorkspace({ ...request, repoState }, src));
    return { outcome, dir: path.join(src, 'git.example.com/org/a') };
  }

  it('checks out the commit the speculative merge made, with the items ahead and nothing else', async () => {
    const merger = newMerger();
    const speculated = expectOk(await merger.speculate([item(1), item(3)]));
    const head = speculated.projects[0].speculativeBranches.master;

    const build = await workspace(merger, [item(1), item(3)], speculated.repoState);
    expect(merger.merges.reused).toBe(2);
    expect(await rev(build.dir, 'HEAD')).toBe(head);
    expect(await rev(build.dir, 'master')).toBe(head);
    expect(build.outcome.itemFiles).toEqual([['1.txt'], ['3.txt']]);
    expect(build.outcome.repoState).toEqual(speculated.repoState);
    expect(['1.txt', '2.txt', '3.txt'].map((file) => existsSync(path.join(build.dir, file)))).toEqual([
      true,
      false,
      true,
    ]);
    expect((await git(build.dir, ['status', '--porcelain'])).stdout).toBe('');

    // Another process has none of these commits: it merges again, onto the same pinned head,
    // and gets the same tree and files.
    const other = newMerger();
    const remerged = await workspace(other, [item(1), item(3)], speculated.repoState);
    expect(other.merges.reused).toBe(0);
    expect(await rev(remerged.dir, 'HEAD^{tree}')).toBe(await rev(build.dir, 'HEAD^{tree}'));
    expect(remerged.outcome.itemFiles).toEqual(build.outcome.itemFiles);
  });

  it('merges again after a gate reset: the item that left is not in the workspace', async () => {
    const merger = newMerger();
    const ahead = expectOk(await merger.speculate([item(1), item(2)]));
    // Item 1 failed and left: item 2 is prepared on the branch alone.
    const build = await workspace(merger, [item(2)], ahead.repoState);
    expect(merger.merges.reused).toBe(0);
    expect(existsSync(path.join(build.dir, '1.txt'))).toBe(false);
    expect(existsSync(path.join(build.dir, '2.txt'))).toBe(true);
    expect(await rev(build.dir, 'HEAD^1')).toBe(ahead.repoState['local/org/a'].master);
  });

  it('merges again when the commit is no longer in the mirror', async () => {
    const merger = newMerger();
    const speculated = expectOk(await merger.speculate([item(3)]));
    const head = speculated.projects[0].speculativeBranches.master;
    const mirror = merger.cache.mirrors.mirrorPath('local', 'org/a');
    rmSync(path.join(mirror, 'objects', head.slice(0, 2), head.slice(2)));
    const build = await workspace(merger, [item(3)], speculated.repoState);
    expect(merger.merges.reused).toBe(0);
    expect(existsSync(path.join(build.dir, '3.txt'))).toBe(true);
    expect(await rev(build.dir, 'HEAD^1')).toBe(speculated.repoState['local/org/a'].master);
  });

  it('pushes the tested commit at the gate merge, and merges anew once the branch moved', async () => {
    const merger = newMerger();
    const base = await fixture.revParse('org/a', 'master');
    const first = expectOk(await merger.speculate([item(1)]));
    const second = expectOk(await merger.speculate([item(1), item(2)]));
    expect(merger.merges.reused).toBe(1); // item 1 under item 2
    const request = {
      connection: 'local',
      project: 'org/a',
      targetBranch: 'master',
      mergeMode: 'merge-resolve' as const,
    };
    const merged = await merger.mergeToBranch({ ...request, ref: item(1).ref });
    expect(merged).toEqual({ ok: true, oldrev: base, newrev: first.projects[0].speculativeBranches.master });
    const next = await merger.mergeToBranch({ ...request, ref: item(2).ref });
    expect(next).toEqual({
      ok: true,
      oldrev: merged.ok ? merged.newrev : '',
      newrev: second.projects[0].speculativeBranches.master,
    });

    // The branch moves under item 3's speculative state: its gate merge is made on the new tip.
    const third = expectOk(await merger.speculate([item(3)]));
    const moved = await fixture.commit('org/a', {
      parent: 'master',
      files: { 'later.txt': 'x\n' },
      ref: 'refs/heads/master',
    });
    const last = await merger.mergeToBranch({ ...request, ref: item(3).ref });
    expect(last.ok && last.oldrev).toBe(moved);
    expect(last.ok && last.newrev).not.toBe(third.projects[0].speculativeBranches.master);
    expect(await fixture.showFile('org/a', 'master', 'later.txt')).toBe('x\n');
    expect(await fixture.showFile('org/a', 'master', '3.txt')).toBe('3\n');
  });
});
