/**
 * The files of a branch as merged, from the executor's mirror of the project: what trusted
 * playbooks and their roles run when the build's speculative state changes their project
 * (docs/executor.md#untrusted-playbooks). A proposed change to a config project never runs its
 * own playbooks unsandboxed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../sources/git-cli';
import type { RepoCache } from './repo-cache';

/** Write the tree of `branch` of the project's mirror into `target` (no `.git`); resolves with its commit. */
export async function exportBranch(
  cache: RepoCache,
  connection: string,
  project: string,
  branch: string,
  target: string,
): Promise<string> {
  return cache.mirrors.withMirror(connection, project, async (mirror) => {
    const { stdout } = await git(mirror, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
    const commit = stdout.trim();
    mkdirSync(target, { recursive: true });
    // A private index: the mirror's own state is not touched.
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-branch-tree-'));
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    try {
      await git(mirror, ['--work-tree', target, 'read-tree', commit], env);
      await git(mirror, ['--work-tree', target, 'checkout-index', '--all', '--force'], env);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return commit;
  });
}
