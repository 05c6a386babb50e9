/**
 * The fake Gerrit's repositories: real bare git repositories under its root (one directory per
 * project, `org/app`), patch sets pushed to `refs/changes/NN/N/P`, and Gerrit's submit (a
 * fast-forward when the branch has not moved, else a merge commit; a conflict refuses it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../fixture-git';

export type FileMap = Record<string, string>;

const AUTHOR = {
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Gerrit',
  GIT_COMMITTER_EMAIL: 'gerrit@example.com',
};

async function withWork<T>(bare: string, fn: (work: string) => Promise<T>): Promise<T> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'fake-gerrit-work-'));
  try {
    await git(work, ['clone', '--quiet', bare, '.']);
    return await fn(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function writeFiles(work: string, files: FileMap): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    writeFileSync(path.join(work, file), text, { mode: file.endsWith('.sh') ? 0o755 : 0o644 });
  }
}

export async function createProject(root: string, name: string, files: FileMap): Promise<string> {
  const bare = path.join(root, name);
  mkdirSync(bare, { recursive: true });
  await git(bare, ['init', '--quiet', '--bare', '--initial-branch=master']);
  return withWork(bare, async (work) => {
    await git(work, ['checkout', '--quiet', '-b', 'master']);
    writeFiles(work, files);
    await git(work, ['add', '--all']);
    await git(work, ['commit', '--quiet', '-m', `${name}: first commit`], AUTHOR);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:refs/heads/master']);
    return (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
  });
}

/** A patch set: a commit with the files on top of `parent` (a revision) pushed to its change ref. */
export async function pushPatchset(
  root: string,
  project: string,
  parent: string,
  ref: string,
  files: FileMap,
  message: string,
): Promise<string> {
  return withWork(path.join(root, project), async (work) => {
    await git(work, ['fetch', '--quiet', 'origin', parent]);
    await git(work, ['checkout', '--quiet', '--detach', parent]);
    writeFiles(work, files);
    await git(work, ['add', '--all']);
    await git(work, ['commit', '--quiet', '--allow-empty', '-m', message], AUTHOR);
    await git(work, ['push', '--quiet', 'origin', `HEAD:${ref}`]);
    return (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
  });
}

/** The files a revision changes against its first parent (Gerrit's files of a patch set, less `/COMMIT_MSG`). */
export async function changedFiles(root: string, project: string, revision: string): Promise<string[]> {
  const out = await git(path.join(root, project), ['diff-tree', '--no-commit-id', '--name-only', '-r', revision]);
  return out.stdout.split('\n').filter((line) => line !== '');
}

export async function branchHead(root: string, project: string, branch: string): Promise<string> {
  return (await git(path.join(root, project), ['rev-parse', `refs/heads/${branch}`])).stdout.trim();
}

/** Merge a revision into a branch as Gerrit's "merge if necessary"; the branch's old and new revisions. */
export async function submitRevision(
  root: string,
  project: string,
  branch: string,
  revision: string,
): Promise<{ oldrev: string; newrev: string }> {
  const oldrev = await branchHead(root, project, branch);
  return withWork(path.join(root, project), async (work) => {
    await git(work, ['fetch', '--quiet', 'origin', revision]);
    await git(work, ['checkout', '--quiet', '-B', branch, `origin/${branch}`]);
    await git(work, ['merge', '--quiet', '--no-edit', revision], AUTHOR);
    await git(work, ['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
    return { oldrev, newrev: (await git(work, ['rev-parse', 'HEAD'])).stdout.trim() };
  });
}

/** A direct push of a commit with the files onto a branch (no change); the branch's old and new revisions. */
export async function pushToBranch(
  root: string,
  project: string,
  branch: string,
  files: FileMap,
  message: string,
): Promise<{ oldrev: string; newrev: string }> {
  const oldrev = await branchHead(root, project, branch);
  return withWork(path.join(root, project), async (work) => {
    await git(work, ['checkout', '--quiet', '-B', branch, `origin/${branch}`]);
    writeFiles(work, files);
    await git(work, ['add', '--all']);
    await git(work, ['commit', '--quiet', '-m', message], AUTHOR);
    await git(work, ['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
    return { oldrev, newrev: (await git(work, ['rev-parse', 'HEAD'])).stdout.trim() };
  });
}

/** Every branch of a project with its revision, as `GET /projects/<p>/branches/` lists them. */
export async function listBranches(root: string, project: string): Promise<Array<{ ref: string; revision: string }>> {
  const { stdout } = await git(path.join(root, project), [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    'refs/heads',
  ]);
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [ref, revision] = line.split(' ');
      return { ref, revision };
    });
}
