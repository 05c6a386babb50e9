import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MergerItem } from '../../../src/model/build-request';
import type { MergeMode } from '../../../src/model/merge-modes';
import { exportBranch } from '../../../src/executor/branch-tree';
import { Merger } from '../../../src/executor/merger';
import { RepoCache } from '../../../src/executor/repo-cache';
import { workspacePath } from '../../../src/executor/workspace-scheme';
import { git } from '../../../src/sources/git-cli';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';
import { expectOk } from '../../helpers/merger-outcome';

function change(
  project: string,
  number: number,
  mergeMode: MergeMode = 'merge-resolve',
  branch = 'master',
): MergerItem {
  return {
    connection: 'local',
    project,
    branch,
    ref: `refs/changes/${String(number % 100).padStart(2, '0')}/${number}/1`,
    change: number,
    patchset: '1',
    oldrev: null,
    newrev: null,
    mergeMode,
  };
}

async function log(dir: string, args: string[]): Promise<string> {
  return (await git(dir, args)).stdout.trim();
}

describe('Merger', () => {
  let fixture: GitFixture;
  let cache: RepoCache;
  let merger: Merger;
  let workRoot: string;
  let counter = 0;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/a', { 'a.txt': 'line 1\nline 2\n', 'shared.txt': 'base\n' });
    await fixture.createProject('org/b', { 'b.txt': 'b\n' });
    await fixture.createProject('org/tools', { 'tool.sh': 'echo tool\n' });
    await fixture.commit('org/tools', {
      parent: 'master',
      files: { 'tool.sh': 'echo stable tool\n' },
      ref: 'refs/heads/stable',
    });
    // Three stacked items across two projects, plus changes for conflicts and modes.
    await fixture.pushChange('org/a', 1, 1, { parent: 'master', files: { 'one.txt': '1\n' }, message: 'Change one' });
    await fixture.pushChange('org/b', 2, 1, {
      parent: 'master',
      files: { 'two.txt': '2\n', 'docs/readme.md': 'doc\n' },
    });
    await fixture.pushChange('org/a', 3, 1, { parent: 'master', files: { 'three.txt': '3\n', 'src/x.c': 'x\n' } });
    await fixture.pushChange('org/a', 4, 1, { parent: 'master', files: { 'shared.txt': 'mine\n' } });
    await fixture.pushChange('org/a', 5, 1, { parent: 'master', files: { 'shared.txt': 'theirs\n' } });
    workRoot = mkdtempSync(path.join(os.tmpdir(), 'sluice-merger-'));
    cache = new RepoCache(path.join(workRoot, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: 'git.example.com' },
    });
    merger = new Merger(cache, path.join(workRoot, 'scratch'));
  });

  afterAll(() => {
    fixture.cleanup();
    rmSync(workRoot, { recursive: true, force: true });
  });

  function newSrc(): string {
    return path.join(workRoot, `ws-${counter++}`, 'src');
  }

  it('merges three stacked items across two projects onto their branches', async () => {
    const src = newSrc();
    const items = [change('org/a', 1), change('org/b', 2), change('org/a', 3)];
    const outcome = expectOk(
      await merger.prepareWorkspace(
        {
          items,
          projects: [{ connection: 'local', project: 'org/tools', overrideCheckout: null }],
          scheme: 'golang',
          item: items[2],
          overrideCheckout: null,
        },
        src,
      ),
    );
    const a = path.join(src, 'git.example.com/org/a');
    const b = path.join(src, 'git.example.com/org/b');
    for (const file of ['a.txt', 'one.txt', 'three.txt', 'src/x.c']) {
      expect(existsSync(path.join(a, file))).toBe(true);
    }
    expect(existsSync(path.join(b, 'two.txt'))).toBe(true);
    expect(existsSync(path.join(a, 'two.txt'))).toBe(false);
    expect(readFileSync(path.join(src, 'git.example.com/org/tools/tool.sh'), 'utf8')).toBe('echo tool\n');
    expect(outcome.projects.map((p) => [p.project, p.relativePath, p.checkout])).toEqual([
      ['org/a', 'git.example.com/org/a', 'master'],
      ['org/b', 'git.example.com/org/b', 'master'],
      ['org/tools', 'git.example.com/org/tools', 'master'],
    ]);
    // The local master branch is the speculative head: two merge commits on top of origin master.
    const origin = await fixture.revParse('org/a', 'master');
    expect(await log(a, ['rev-list', '--count', `${origin}..master`])).toBe('4');
    expect(await log(a, ['rev-list', '--merges', '--count', `${origin}..master`])).toBe('2');
    expect(outcome.projects[0].speculativeBranches.master).toBe(await log(a, ['rev-parse', 'HEAD']));
    // The workspace no longer points at the executor's cache.
    expect(await log(a, ['remote'])).toBe('');
    expect(outcome.itemFiles).toEqual([['one.txt'], ['docs/readme.md', 'two.txt'], ['src/x.c', 'three.txt']]);
    expect(outcome.changedFiles).toEqual(['src/x.c', 'three.txt']);
  });

  it('exports a branch as merged from the mirror, whatever the speculative state holds', async () => {
    const src = newSrc();
    const items = [change('org/a', 1)];
    expectOk(
      await merger.prepareWorkspace(
        { items, projects: [], scheme: 'golang', item: items[0], overrideCheckout: null },
        src,
      ),
    );
    // The workspace holds the change; the branch as merged does not.
    expect(existsSync(path.join(src, 'git.example.com/org/a/one.txt'))).toBe(true);
    const target = path.join(workRoot, `tree-${counter++}`);
    const commit = await exportBranch(cache, 'local', 'org/a', 'master', target);
    expect(commit).toBe(await fixture.revParse('org/a', 'master'));
    expect(readFileSync(path.join(target, 'a.txt'), 'utf8')).toBe('line 1\nline 2\n');
    expect(existsSync(path.join(target, 'one.txt'))).toBe(false);
    expect(existsSync(path.join(target, '.git'))).toBe(false);
    await expect(exportBranch(cache, 'local', 'org/a', 'no-such-branch', `${target}-x`)).rejects.toThrow();
  });

  it('reports a merge conflict naming the change and the files', async () => {
    const outcome = await merger.prepareWorkspace(
      {
        items: [change('org/a', 4), change('org/a', 5)],
        projects: [],
        scheme: 'golang',
        item: null,
        overrideCheckout: null,
      },
      newSrc(),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) {
      return;
    }
    expect(outcome.result).toBe('MERGE_CONFLICT');
    expect(outcome.detail).toContain('Merge conflict in org/a: 5,1 does not apply to master');
    expect(outcome.detail).toContain('conflicting files: shared.txt');
  });

  it('speculates without keeping a workspace and reports the item files', async () => {
    const outcome = expectOk(await merger.speculate([change('org/a', 1), change('org/a', 3)]));
    expect(outcome.changedFiles).toEqual(['src/x.c', 'three.txt']);
    expect(outcome.projects[0].path.startsWith(path.join(workRoot, 'scratch'))).toBe(true);
    expect(existsSync(outcome.projects[0].path)).toBe(false);
  });

  it('fails when a change ref or a branch does not exist', async () => {
    const missing = await merger.speculate([change('org/a', 99)]);
    expect(missing).toMatchObject({
      ok: false,
      result: 'MERGE_CONFLICT',
      detail: 'Change ref refs/changes/99/99/1 not found in org/a',
    });
    const noBranch = await merger.speculate([change('org/a', 1, 'merge', 'nope')]);
    expect(noBranch).toMatchObject({ ok: false, result: 'MERGE_CONFLICT' });
    expect(noBranch.ok ? '' : noBranch.detail).toContain('Branch nope does not exist in org/a');
  });

  it('checks required projects out at the override-checkout or the item branch', async () => {
    const src = newSrc();
    const outcome = expectOk(
      await merger.prepareWorkspace(
        {
          items: [change('org/a', 1)],
          projects: [{ connection: 'local', project: 'org/tools', overrideCheckout: 'stable' }],
          scheme: 'flat',
          item: change('org/a', 1),
          overrideCheckout: null,
        },
        src,
      ),
    );
    expect(outcome.projects.map((p) => p.relativePath)).toEqual(['a', 'tools']);
    expect(readFileSync(path.join(src, 'tools/tool.sh'), 'utf8')).toBe('echo stable tool\n');
  });

  it('keeps one clone per project in the cache and only fetches afterwards', async () => {
    const clonesBefore = cache.mirrors.cloneCount;
    await merger.speculate([change('org/a', 1)]);
    await merger.speculate([change('org/a', 3)]);
    expect(cache.mirrors.cloneCount).toBe(clonesBefore);
  });

  describe('merge modes', () => {
    let master: string;

    beforeAll(async () => {
      // A two-commit change (6) based on the initial commit, while master has moved on since.
      const initial = await fixture.revParse('org/b', 'master');
      const first = await fixture.commit('org/b', {
        parent: initial,
        files: { 'm1.txt': 'm1\n' },
        ref: 'refs/heads/tmp-6',
        message: 'First part',
      });
      await fixture.pushChange('org/b', 6, 1, { parent: first, files: { 'm2.txt': 'm2\n' }, message: 'Second part' });
      master = await fixture.commit('org/b', {
        parent: 'master',
        files: { 'later.txt': 'later\n' },
        ref: 'refs/heads/master',
        message: 'Later on master',
      });
    });

    async function prepareMode(mode: MergeMode): Promise<{ dir: string; head: string }> {
      const src = newSrc();
      expectOk(
        await merger.prepareWorkspace(
          { items: [change('org/b', 6, mode)], projects: [], scheme: 'flat', item: null, overrideCheckout: null },
          src,
        ),
      );
      const dir = path.join(src, 'b');
      for (const file of ['m1.txt', 'm2.txt', 'later.txt']) {
        expect(existsSync(path.join(dir, file))).toBe(true);
      }
      return { dir, head: await log(dir, ['rev-parse', 'HEAD']) };
    }

    it.each(['merge', 'merge-resolve', 'merge-recursive', 'merge-ort'] as MergeMode[])(
      '%s makes a merge commit on the branch tip',
      async (mode) => {
        const { dir } = await prepareMode(mode);
        const parents = (await log(dir, ['rev-list', '--parents', '-n', '1', 'HEAD'])).split(' ');
        expect(parents).toHaveLength(3);
        expect(parents[1]).toBe(master);
        expect(await log(dir, ['log', '-1', '--format=%s'])).toBe('Merge change 6,1 into master');
      },
    );

    it('cherry-pick applies only the change commit itself', async () => {
      const src = newSrc();
      expectOk(
        await merger.prepareWorkspace(
          {
            items: [change('org/b', 6, 'cherry-pick')],
            projects: [],
            scheme: 'flat',
            item: null,
            overrideCheckout: null,
          },
          src,
        ),
      );
      const dir = path.join(src, 'b');
      expect(existsSync(path.join(dir, 'm2.txt'))).toBe(true);
      expect(existsSync(path.join(dir, 'm1.txt'))).toBe(false);
      expect(await log(dir, ['rev-parse', 'HEAD^'])).toBe(master);
      expect(await log(dir, ['log', '-1', '--format=%s'])).toBe('Second part');
    });

    it('squash-merge makes one commit with the change message and author', async () => {
      const { dir } = await prepareMode('squash-merge');
      expect(await log(dir, ['rev-parse', 'HEAD^'])).toBe(master);
      expect(await log(dir, ['log', '-1', '--format=%s|%an'])).toBe('Second part|Test Author');
    });

    it('rebase replays the change commits linearly on the tip', async () => {
      const { dir } = await prepareMode('rebase');
      expect(await log(dir, ['rev-list', '--merges', '--count', `${master}..HEAD`])).toBe('0');
      expect(await log(dir, ['log', '--format=%s', `${master}..HEAD`])).toBe('Second part\nFirst part');
      expect(await log(dir, ['rev-parse', 'HEAD~2'])).toBe(master);
    });
  });

  describe('mergeToBranch', () => {
    it('merges a change into the origin branch and returns the new commit', async () => {
      await fixture.pushChange('org/a', 20, 1, { parent: 'master', files: { 'gated.txt': 'gated\n' } });
      const before = await fixture.revParse('org/a', 'master');
      const outcome = await merger.mergeToBranch({
        connection: 'local',
        project: 'org/a',
        ref: 'refs/changes/20/20/1',
        targetBranch: 'master',
        mergeMode: 'merge-resolve',
      });
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) {
        return;
      }
      expect(outcome.oldrev).toBe(before);
      expect(await fixture.revParse('org/a', 'master')).toBe(outcome.newrev);
      expect(await fixture.showFile('org/a', 'master', 'gated.txt')).toBe('gated\n');
      // Merging again is a no-op.
      const again = await merger.mergeToBranch({
        connection: 'local',
        project: 'org/a',
        ref: 'refs/changes/20/20/1',
        targetBranch: 'master',
        mergeMode: 'merge-resolve',
      });
      expect(again).toEqual({ ok: true, oldrev: outcome.newrev, newrev: outcome.newrev });
    });

    // A scheduler killed after the push but before its pass committed leaves the change merged
    // while the store says it is not; the next leader merges it again (docs/operations.md#chaos-runs).
    it.each(['merge', 'merge-resolve', 'cherry-pick', 'squash-merge', 'rebase'] as MergeMode[])(
      'merging a change again after it was merged in %s mode changes nothing',
      async (mode) => {
        const number = 30 + ['merge', 'merge-resolve', 'cherry-pick', 'squash-merge', 'rebase'].indexOf(mode);
        const ref = `refs/changes/${number}/${number}/1`;
        await fixture.pushChange('org/a', number, 1, { parent: 'master', files: { [`again-${number}.txt`]: 'x\n' } });
        const request = { connection: 'local', project: 'org/a', ref, targetBranch: 'master', mergeMode: mode };
        const first = await merger.mergeToBranch(request);
        expect(first.ok).toBe(true);
        const tip = await fixture.revParse('org/a', 'master');
        // Another change merged in between, as the next leader may merge items ahead first.
        await fixture.pushChange('org/a', number + 10, 1, {
          parent: 'master',
          files: { [`between-${number}.txt`]: 'y\n' },
        });
        const between = await merger.mergeToBranch({ ...request, ref: `refs/changes/${number + 10}/${number + 10}/1` });
        expect(between.ok && between.oldrev).toBe(tip);
        const head = await fixture.revParse('org/a', 'master');
        expect(await merger.mergeToBranch(request)).toEqual({ ok: true, oldrev: head, newrev: head });
        expect(await fixture.revParse('org/a', 'master')).toBe(head);
      },
    );

    it('cherry-pick does not pick a change again after the lines around it changed on the branch', async () => {
      await fixture.commit('org/a', {
        parent: 'master',
        files: { 'lines.txt': '1\n2\n3\n4\n5\n6\n7\n' },
        ref: 'refs/heads/master',
      });
      await fixture.pushChange('org/a', 60, 1, {
        parent: 'master',
        files: { 'lines.txt': '1\n2\n3\n4\n5\n6\nseven\n' },
      });
      await fixture.pushChange('org/a', 61, 1, {
        parent: 'master',
        files: { 'lines.txt': '1\n2\n3\n4\nfive\n6\n7\n' },
      });
      const request = {
        connection: 'local',
        project: 'org/a',
        targetBranch: 'master',
        mergeMode: 'cherry-pick' as const,
      };
      expect((await merger.mergeToBranch({ ...request, ref: 'refs/changes/60/60/1' })).ok).toBe(true);
      expect((await merger.mergeToBranch({ ...request, ref: 'refs/changes/61/61/1' })).ok).toBe(true);
      const head = await fixture.revParse('org/a', 'master');
      expect(await merger.mergeToBranch({ ...request, ref: 'refs/changes/60/60/1' })).toEqual({
        ok: true,
        oldrev: head,
        newrev: head,
      });
      expect(await fixture.showFile('org/a', 'master', 'lines.txt')).toBe('1\n2\n3\n4\nfive\n6\nseven\n');
    });

    it('cherry-pick still picks a different change with the same author, author time and message', async () => {
      const same = { message: 'Same message', authorDate: '@1700000000 +0000' };
      await fixture.pushChange('org/a', 50, 1, { parent: 'master', files: { 'twin-a.txt': 'a\n' }, ...same });
      await fixture.pushChange('org/a', 51, 1, { parent: 'master', files: { 'twin-b.txt': 'b\n' }, ...same });
      const request = {
        connection: 'local',
        project: 'org/a',
        targetBranch: 'master',
        mergeMode: 'cherry-pick' as const,
      };
      expect((await merger.mergeToBranch({ ...request, ref: 'refs/changes/50/50/1' })).ok).toBe(true);
      const tip = await fixture.revParse('org/a', 'master');
      const second = await merger.mergeToBranch({ ...request, ref: 'refs/changes/51/51/1' });
      expect(second.ok && second.oldrev).toBe(tip);
      expect(second.ok && second.newrev).not.toBe(tip);
      expect(await fixture.showFile('org/a', 'master', 'twin-b.txt')).toBe('b\n');
    });

    it('reports a conflict without touching the branch', async () => {
      await fixture.pushChange('org/a', 21, 1, { parent: 'master', files: { 'shared.txt': 'one side\n' } });
      await fixture.pushChange('org/a', 22, 1, { parent: 'master', files: { 'shared.txt': 'other side\n' } });
      const first = await merger.mergeToBranch({
        connection: 'local',
        project: 'org/a',
        ref: 'refs/changes/21/21/1',
        targetBranch: 'master',
        mergeMode: 'merge-resolve',
      });
      expect(first.ok).toBe(true);
      const tip = await fixture.revParse('org/a', 'master');
      const second = await merger.mergeToBranch({
        connection: 'local',
        project: 'org/a',
        ref: 'refs/changes/22/22/1',
        targetBranch: 'master',
        mergeMode: 'cherry-pick',
      });
      expect(second.ok).toBe(false);
      expect(second.ok ? '' : second.detail).toContain('conflicting files: shared.txt');
      expect(await fixture.revParse('org/a', 'master')).toBe(tip);
    });
  });
});

describe('workspacePath', () => {
  it('follows the three schemes', () => {
    expect(workspacePath('golang', 'git.example.com', 'org/app')).toBe('git.example.com/org/app');
    expect(workspacePath('flat', 'git.example.com', 'org/app')).toBe('app');
    expect(workspacePath('unique', 'git.example.com', 'org/app')).toBe('git.example.com/org/org%2Fapp');
    expect(workspacePath('unique', 'git.example.com', 'app')).toBe('git.example.com/app');
  });

  it('refuses project names that escape the workspace', () => {
    expect(() => workspacePath('golang', 'h', '../etc')).toThrow('invalid project name');
    expect(() => workspacePath('golang', 'h', '/abs')).toThrow('invalid project name');
  });
});

describe('Merger errors', () => {
  it('gives ERROR for an unknown connection and for projects sharing a flat path', async () => {
    const fixture = createGitFixture();
    const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-merger-errors-'));
    try {
      await fixture.createProject('one/app', { a: '1\n' });
      await fixture.createProject('two/app', { b: '1\n' });
      const merger = new Merger(
        new RepoCache(path.join(root, 'cache'), { local: { baseurl: fixture.baseDir, canonicalHostname: 'h' } }),
        path.join(root, 'scratch'),
      );
      const unknown = await merger.prepareWorkspace(
        {
          items: [],
          projects: [{ connection: 'nope', project: 'one/app', overrideCheckout: null }],
          scheme: 'golang',
          item: null,
          overrideCheckout: null,
        },
        path.join(root, 'ws1'),
      );
      expect(unknown).toEqual({ ok: false, result: 'ERROR', detail: 'unknown git connection "nope"' });
      const clash = await merger.prepareWorkspace(
        {
          items: [],
          projects: ['one/app', 'two/app'].map((project) => ({ connection: 'local', project, overrideCheckout: null })),
          scheme: 'flat',
          item: null,
          overrideCheckout: null,
        },
        path.join(root, 'ws2'),
      );
      expect(clash).toEqual({
        ok: false,
        result: 'ERROR',
        detail: 'Projects one/app and two/app share the workspace path app (workspace scheme flat)',
      });
    } finally {
      fixture.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
