/**
 * The git processes a change costs the merger (docs/operations.md#git-work-per-change): each
 * one costs milliseconds of CPU to start, and a change's speculative merge, each of its builds'
 * workspaces and its gate merge each prepare a clone. Every git process the merger starts (git on
 * PATH, counted by a wrapper) and every process git starts in turn (GIT_TRACE `run_command`) is
 * counted for one change once the mirror exists.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MergerItem } from '../../../src/model/build-request';
import { Merger, type PrepareOutcome } from '../../../src/executor/merger';
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

describe('Merger: git processes per change', () => {
  let fixture: GitFixture;
  let merger: Merger;
  let cache: RepoCache;
  let workRoot: string;
  let calls: string;
  let trace: string;
  const originalPath = process.env.PATH;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/a', { 'a.txt': 'a\n' });
    await fixture.pushChange('org/a', 1, 1, { parent: 'master', files: { '1.txt': 'x\n' } });
    workRoot = mkdtempSync(path.join(os.tmpdir(), 'sluice-merger-processes-'));
    cache = new RepoCache(path.join(workRoot, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: 'git.example.com' },
    });
    merger = new Merger(cache, path.join(workRoot, 'scratch'));
    await cache.update('local', 'org/a');
    // A change pushed after the mirror's last fetch: the next update fetches it.
    await fixture.pushChange('org/a', 2, 1, { parent: 'master', files: { '2.txt': 'x\n' } });
    const bin = path.join(workRoot, 'bin');
    mkdirSync(bin);
    calls = path.join(workRoot, 'calls.log');
    trace = path.join(workRoot, 'trace.log');
    const real = (originalPath ?? '').split(':').find((dir) => dir !== '' && existsSync(path.join(dir, 'git')));
    writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\necho "$*" >> '${calls}'\nGIT_TRACE='${trace}' exec '${real ?? '/usr/bin'}/git' "$@"\n`,
    );
    chmodSync(path.join(bin, 'git'), 0o755);
    process.env.PATH = `${bin}:${originalPath ?? ''}`;
  });

  afterAll(() => {
    process.env.PATH = originalPath;
    fixture.cleanup();
    rmSync(workRoot, { recursive: true, force: true });
  });

  /** The git commands `task` ran and the processes git started for them. */
  async function processes(task: () => Promise<unknown>): Promise<{ commands: string[]; children: string[] }> {
    writeFileSync(calls, '');
    writeFileSync(trace, '');
    await task();
    const lines = (file: string) => readFileSync(file, 'utf8').split('\n');
    return {
      // The command's name, after any `-c name=value` options.
      commands: lines(calls)
        .filter((line) => line !== '')
        .map((line) => line.replace(/^(-c \S+ )+/, '').split(' ')[0]),
      children: lines(trace).filter((line) => line.includes('run_command:')),
    };
  }

  it('speculates, prepares a pinned workspace and merges with few git processes', async () => {
    let speculated: Extract<PrepareOutcome, { ok: true }> | undefined;
    const speculation = await processes(async () => {
      speculated = expectOk(await merger.speculate([item(2)]));
    });
    // fetch, for-each-ref, clone, diff, checkout, merge (it was 18 commands with the mirror's).
    expect(speculation.commands).toEqual(['fetch', 'for-each-ref', 'clone', 'diff', 'checkout', 'merge']);
    // The fetch's upload-pack, pack-objects, unpack-objects and connectivity check, the clone's
    // upload-pack; no automatic maintenance after the merge or the fetch.
    expect(speculation.children.filter((line) => line.includes('maintenance'))).toEqual([]);
    expect(speculation.children.length).toBeLessThanOrEqual(5);

    const src = path.join(workRoot, 'build', 'src');
    const workspace = await processes(async () => {
      const request = {
        items: [item(2)],
        projects: [],
        scheme: 'golang' as const,
        item: item(2),
        overrideCheckout: null,
      };
      expectOk(await merger.prepareWorkspace({ ...request, repoState: speculated?.repoState }, src));
    });
    // No fetch: the origin's refs are as they were at the last one, and so no `for-each-ref`
    // either: the speculative merge read the same refs of the same mirror state. No diff, checkout
    // and merge: the speculative merge's commit is checked out (docs/executor.md#reused-merges).
    // Then the workspace's branch and origin removal (it was 18 commands, then 7).
    expect(workspace.commands).toEqual(['clone', 'checkout', 'remote']);
    expect(workspace.children.filter((line) => line.includes('maintenance'))).toEqual([]);
    const dir = path.join(src, 'git.example.com/org/a');
    const head = speculated?.projects[0].speculativeBranches.master;
    expect((await git(dir, ['rev-parse', 'HEAD'])).stdout.trim()).toBe(head);
    expect((await git(dir, ['rev-parse', 'HEAD^1'])).stdout.trim()).toBe(speculated?.repoState['local/org/a'].master);
    expect((await git(dir, ['symbolic-ref', 'HEAD'])).stdout.trim()).toBe('refs/heads/master');

    const gateMerge = (number: number) =>
      processes(async () => {
        const outcome = await merger.mergeToBranch({
          connection: 'local',
          project: 'org/a',
          ref: item(number).ref,
          targetBranch: 'master',
          mergeMode: 'merge-resolve',
        });
        expect(outcome.ok).toBe(true);
      });
    // The speculative merge's commit is pushed from the mirror, no clone; the push moves the
    // origin's branch, the mirror fetches it (it was 14 commands, then 6).
    expect((await gateMerge(2)).commands).toEqual(['push', 'fetch']);
    expect(await fixture.revParse('org/a', 'master')).toBe(head);
    // A change without a speculative merge on this head is merged in the clone.
    expect((await gateMerge(1)).commands).toEqual(['for-each-ref', 'clone', 'checkout', 'merge', 'push', 'fetch']);
    const mirror = await cache.update('local', 'org/a');
    expect((await git(mirror, ['rev-parse', 'master'])).stdout.trim()).toBe(await fixture.revParse('org/a', 'master'));
  });
});
