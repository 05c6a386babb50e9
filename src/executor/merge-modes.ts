/**
 * Applying one change commit on top of a speculative branch head with a merge mode
 * (docs/executor.md#merge-modes-and-workspace-schemes). The repository's HEAD must be detached at the head; on success
 * HEAD is the new head. What each mode runs (see docs/executor.md):
 * - `merge`, `merge-ort`: `git merge --no-ff` (git's default strategy, ort);
 * - `merge-resolve`: `git merge --no-ff -s resolve` (the conservative strategy closest to Gerrit);
 * - `merge-recursive`: `git merge --no-ff -s recursive`;
 * - `cherry-pick`: `git cherry-pick` of the change's commit (`-m 1` for a merge commit);
 * - `squash-merge`: `git merge --squash`, committed with the change's message and author;
 * - `rebase`: the change's commits not yet in the head are rebased onto it (fast-forward result).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MergeMode } from '../model/merge-modes';
import { git as gitIn, GitError, gitWithInput, NO_AUTO_MAINTENANCE } from '../sources/git-cli';

/** Every repository merged in is a throwaway clone (src/executor/workspace-git.ts). */
const git = (repo: string, args: string[]) => gitIn(repo, args, NO_AUTO_MAINTENANCE);

export class MergeConflictError extends Error {
  constructor(
    message: string,
    readonly files: string[],
  ) {
    super(message);
    this.name = 'MergeConflictError';
  }
}

const STRATEGY: Partial<Record<MergeMode, string>> = {
  merge: 'ort',
  'merge-ort': 'ort',
  'merge-resolve': 'resolve',
  'merge-recursive': 'recursive',
};

/** Apply `commit` onto the detached HEAD of `repo` with `mode`; resolves with the new HEAD. */
export async function applyWithMode(repo: string, commit: string, mode: MergeMode, message: string): Promise<string> {
  try {
    await runMode(repo, commit, mode, message);
  } catch (err) {
    if (!(err instanceof GitError)) {
      throw err;
    }
    const files = await conflictingFiles(repo);
    await abortEverything(repo);
    throw new MergeConflictError(summarize(err), files);
  }
  return detachedHead(repo) ?? revParse(repo, 'HEAD');
}

/** The commit a clone's detached HEAD is at, from its HEAD file (one git process fewer); null otherwise. */
function detachedHead(repo: string): string | null {
  try {
    return /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/.exec(readFileSync(path.join(repo, '.git', 'HEAD'), 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

async function runMode(repo: string, commit: string, mode: MergeMode, message: string): Promise<void> {
  const strategy = STRATEGY[mode];
  if (strategy !== undefined) {
    await git(repo, ['merge', '--quiet', '--no-ff', '--no-edit', '-s', strategy, '-m', message, commit]);
    return;
  }
  switch (mode) {
    case 'cherry-pick': {
      if ((await isAncestor(repo, commit, 'HEAD')) || (await alreadyPicked(repo, commit))) {
        return;
      }
      const parents =
        (await git(repo, ['rev-list', '--parents', '-n', '1', commit])).stdout.trim().split(' ').length - 1;
      await git(repo, [
        'cherry-pick',
        '--allow-empty',
        '--keep-redundant-commits',
        ...(parents > 1 ? ['-m', '1'] : []),
        commit,
      ]);
      return;
    }
    case 'squash-merge': {
      await git(repo, ['merge', '--quiet', '--squash', commit]);
      const staged = await git(repo, ['diff', '--cached', '--name-only']);
      if (staged.stdout.trim() === '') {
        return; // nothing new: the change is already contained in the head
      }
      await git(repo, ['commit', '--quiet', '--no-verify', '-C', commit]);
      return;
    }
    case 'rebase': {
      const head = await revParse(repo, 'HEAD');
      const base = (await git(repo, ['merge-base', head, commit])).stdout.trim();
      await git(repo, ['rebase', '--quiet', '--onto', head, base, commit]);
      return;
    }
    default:
      throw new Error(`unsupported merge mode ${mode}`);
  }
}

/** Author, author time and message of a commit, which `git cherry-pick` keeps. */
const IDENTITY = '%an%x1f%ae%x1f%at%x1f%B';

/**
 * Whether HEAD already holds a cherry-pick of `commit`: a commit made after it was authored with
 * the same author, author time and message and the same patch (`git patch-id --stable`). A gate
 * merge repeated by the next scheduler after the one that pushed it died before its pass
 * committed must not pick the change a second time (docs/executor.md#merge-modes-and-workspace-schemes).
 * A different change that only shares the identity (an amended copy) is still picked.
 */
async function alreadyPicked(repo: string, commit: string): Promise<boolean> {
  const own = (await git(repo, ['show', '-s', `--format=${IDENTITY}`, commit])).stdout.trim();
  const authored = own.split('\x1f')[2] ?? '0';
  const { stdout } = await git(repo, [
    'log',
    `--since=${authored}`,
    `--format=%H%x1f${IDENTITY}%x1e`,
    `${commit}..HEAD`,
  ]);
  const twins = stdout
    .split('\x1e')
    .map((entry) => entry.trim())
    .filter((entry) => entry.slice(entry.indexOf('\x1f') + 1) === own)
    .map((entry) => entry.slice(0, entry.indexOf('\x1f')));
  if (twins.length === 0) {
    return false;
  }
  const wanted = await patchId(repo, commit);
  for (const twin of twins) {
    if ((await patchId(repo, twin)) === wanted) {
      return true;
    }
  }
  return false;
}

/**
 * The stable patch id of a commit's changed lines against its first parent, without context lines
 * (they differ when the branch moved in between); '' for an empty change.
 */
async function patchId(repo: string, commit: string): Promise<string> {
  const diff = (await git(repo, ['diff', '--no-color', '--no-ext-diff', '--unified=0', `${commit}^1`, commit])).stdout;
  const id = await gitWithInput(repo, ['patch-id', '--stable'], diff);
  return id.toString('utf8').split(' ')[0] ?? '';
}

/** Files git reports as unmerged in the index. */
async function conflictingFiles(repo: string): Promise<string[]> {
  try {
    const { stdout } = await git(repo, ['diff', '--name-only', '--diff-filter=U']);
    return stdout.split('\n').filter((f) => f !== '');
  } catch {
    return [];
  }
}

async function abortEverything(repo: string): Promise<void> {
  for (const args of [
    ['merge', '--abort'],
    ['cherry-pick', '--abort'],
    ['rebase', '--abort'],
  ]) {
    await git(repo, args).catch(() => undefined);
  }
  await git(repo, ['reset', '--quiet', '--hard']).catch(() => undefined);
}

function summarize(err: GitError): string {
  const lines = err.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('hint:'));
  return lines.slice(0, 5).join('; ') || err.message;
}

export async function revParse(repo: string, rev: string): Promise<string> {
  return (await git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).stdout.trim();
}

export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await git(repo, ['merge-base', '--is-ancestor', ancestor, descendant]);
    return true;
  } catch {
    return false;
  }
}
