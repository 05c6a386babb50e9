/**
 * The fake GitHub's repositories and pull requests: real bare git repositories on disk (one
 * directory per `owner/name` under the fake's root) and the review state GitHub keeps beside
 * them in memory (pull requests, reviews, labels, statuses, check runs, comments).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../fixture-git';

export type MergeMethod = 'merge' | 'squash' | 'rebase';

export interface FakeReview {
  id: number;
  user: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
  commitId: string;
  submittedAt: string;
  body: string;
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  user: string;
  base: string;
  headRef: string;
  headSha: string;
  /** Repository the head branch lives in (a fork or the base repository). */
  headRepo: string;
  state: 'open' | 'closed';
  merged: boolean;
  mergedBy: string | null;
  draft: boolean;
  labels: string[];
  reviews: FakeReview[];
  comments: Array<{ id: number; user: string; body: string }>;
  /** Set by a test: the next merge attempt is refused with this message (HTTP 405). */
  refuseMerge: string | null;
  mergeMethods: MergeMethod[];
}

export interface FakeStatus {
  id: number;
  state: string;
  context: string;
  description: string | null;
  targetUrl: string | null;
  creator: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  detailsUrl: string | null;
  externalId: string | null;
  output: { title?: string; summary?: string; text?: string } | null;
  app: string;
}

export interface FakeRepo {
  fullName: string;
  dir: string;
  defaultBranch: string;
  pulls: Map<number, FakePull>;
  statuses: Map<string, FakeStatus[]>;
  checkRuns: FakeCheckRun[];
  /** Branch protection: branch -> required status contexts, and whether the branch is locked (read-only). */
  protected: Map<string, { requiredContexts: string[]; locked?: boolean }>;
  permissions: Map<string, string>;
  installationId: number;
}

export type FileMap = Record<string, string>;

let scratchCounter = 0;

/** Commit `files` on top of `parent` (null: a root commit) in a scratch clone and push to `ref`. */
export async function commitFiles(
  repo: Pick<FakeRepo, 'dir' | 'defaultBranch'>,
  scratchRoot: string,
  options: { parent: string | null; files: FileMap; message: string; ref: string; author?: string },
): Promise<string> {
  const work = mkdtempSync(path.join(scratchRoot, `work-${scratchCounter++}-`));
  if (options.parent === null) {
    await git(work, ['init', '--quiet', `--initial-branch=${repo.defaultBranch}`]);
  } else {
    await git(work, ['init', '--quiet']);
    await git(work, ['fetch', '--quiet', repo.dir, options.parent]);
    await git(work, ['checkout', '--quiet', '--detach', 'FETCH_HEAD']);
  }
  for (const [file, content] of Object.entries(options.files)) {
    const full = path.join(work, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content, { mode: file.endsWith('.sh') ? 0o755 : 0o644 });
  }
  await git(work, ['add', '--all']);
  const author = options.author ?? 'Dev Eloper <dev@example.com>';
  const match = /^(.*) <(.*)>$/.exec(author);
  await git(work, ['commit', '--quiet', '--allow-empty', '-m', options.message], {
    GIT_AUTHOR_NAME: match?.[1] ?? author,
    GIT_AUTHOR_EMAIL: match?.[2] ?? 'dev@example.com',
  });
  const sha = (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
  await git(work, ['push', '--quiet', '--force', repo.dir, `HEAD:${options.ref}`]);
  return sha;
}

export async function revParse(repo: Pick<FakeRepo, 'dir'>, rev: string): Promise<string | null> {
  try {
    return (await git(repo.dir, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).stdout.trim() || null;
  } catch {
    return null;
  }
}

export async function createBareRepo(root: string, fullName: string): Promise<string> {
  const dir = path.join(root, ...fullName.split('/'));
  mkdirSync(dir, { recursive: true });
  await git(dir, ['init', '--quiet', '--bare', '--initial-branch=main']);
  await git(dir, ['config', 'http.receivepack', 'false']);
  return dir;
}

/**
 * Merge a pull request into its base branch the way the merge API does: a merge commit
 * (`merge`), one squashed commit (`squash`) or the head commits replayed (`rebase`). Resolves
 * with the new base sha, or an error message when git cannot merge.
 */
export async function mergePull(
  repo: Pick<FakeRepo, 'dir'>,
  pull: Pick<FakePull, 'base' | 'headSha'>,
  method: MergeMethod,
  scratchRoot: string,
  title: string,
): Promise<{ sha: string; before: string } | { error: string }> {
  const work = mkdtempSync(path.join(scratchRoot, `merge-${scratchCounter++}-`));
  await git(work, ['init', '--quiet']);
  await git(work, ['fetch', '--quiet', repo.dir, `refs/heads/${pull.base}:base`, `${pull.headSha}:head`]);
  const before = (await git(work, ['rev-parse', 'base'])).stdout.trim();
  await git(work, ['checkout', '--quiet', 'base']);
  const env = { GIT_COMMITTER_NAME: 'GitHub', GIT_COMMITTER_EMAIL: 'noreply@github.com' };
  try {
    if (method === 'merge') {
      await git(work, ['merge', '--quiet', '--no-ff', '-m', title, 'head'], env);
    } else if (method === 'squash') {
      await git(work, ['merge', '--quiet', '--squash', 'head'], env);
      await git(work, ['commit', '--quiet', '-m', title], env);
    } else {
      await git(work, ['checkout', '--quiet', 'head']);
      await git(work, ['rebase', '--quiet', 'base'], env);
    }
  } catch (err) {
    return { error: `Merge conflict: ${(err as Error).message.split('\n')[0]}` };
  }
  const sha = (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
  await git(work, ['push', '--quiet', repo.dir, `HEAD:refs/heads/${pull.base}`]);
  return { sha, before };
}
