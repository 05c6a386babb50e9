/**
 * The git steps of the merger's clones (src/executor/merger.ts), with as few git processes as
 * the result allows: starting one costs milliseconds of CPU, and a change's speculative merge,
 * each build's workspace and the gate merge each clone a mirror (docs/executor.md#workspace).
 * A clone's refs are read from the mirror, at the state the clone copies, by one
 * `git for-each-ref`, instead of a `git fetch` of each change ref and a `git rev-parse` of each
 * branch from the clone; the clone's own commands never start git's automatic maintenance (the
 * clones are thrown away or handed to a build).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { git, gitWithInput, NO_AUTO_MAINTENANCE } from '../sources/git-cli';
import { isRemoteBaseUrl } from '../sources/git-mirror';
import { isAncestor, revParse } from './merge-modes';
import type { RepoCache } from './repo-cache';

/** The mirror's branches and the wanted refs when it was cloned. */
export interface MirrorSnapshot {
  /** Branch name -> commit (what the clone has as `refs/remotes/origin/<branch>`). */
  branches: Map<string, string>;
  /** Each branch and wanted ref the mirror has -> its commit, or null when it names no commit. */
  refs: Map<string, string | null>;
  /** The refs asked for (a full name not in `refs` is not in the mirror). */
  asked: Set<string>;
}

/**
 * Clone the mirror of a project into `dir` (no checkout) and read its branches and `refs` at the
 * state the clone copied: the mirror is held meanwhile, so no fetch moves it in between. A local
 * clone links every object of the mirror, so each commit the snapshot names is in the clone; a
 * `shared` one (a speculative merge's, removed when it is done) borrows them instead and keeps
 * only the objects made in it (src/executor/prepared-merges.ts).
 */
export function cloneMirror(
  cache: RepoCache,
  connection: string,
  project: string,
  dir: string,
  refs: readonly string[],
  shared = false,
): Promise<MirrorSnapshot> {
  return cache.mirrors.withMirror(connection, project, async (mirror) => {
    const asked = new Set(refs.filter((ref) => ref.startsWith('refs/') && !ref.startsWith('refs/heads/')));
    // The same refs of the same mirror state (a change's speculative merge and its builds) are read once.
    const { stdout } = await cache.mirrors.readRefs(connection, project, `snapshot ${[...asked].join(' ')}`, () =>
      git(mirror, ['for-each-ref', '--format=%(objecttype) %(objectname) %(refname)', 'refs/heads/', ...asked]),
    );
    await git(path.dirname(dir), ['clone', '--quiet', '--no-checkout', ...(shared ? ['--shared'] : []), mirror, dir]);
    const snapshot: MirrorSnapshot = { branches: new Map(), refs: new Map(), asked };
    for (const line of stdout.split('\n')) {
      const [type, sha, ref] = line.split(' ');
      if (ref === undefined) {
        continue;
      }
      if (ref.startsWith('refs/heads/')) {
        snapshot.branches.set(ref.slice('refs/heads/'.length), sha);
      }
      snapshot.refs.set(ref, type === 'commit' ? sha : null);
    }
    return snapshot;
  });
}

/**
 * The commit of a ref of the clone's origin; null when it does not exist. A branch or an asked
 * ref is answered by the snapshot; any other name, or a ref to a tag object, is fetched from the
 * origin.
 */
export async function refCommit(dir: string, snapshot: MirrorSnapshot, ref: string): Promise<string | null> {
  const known = snapshot.refs.get(ref);
  if (known) {
    return known;
  }
  if (known === undefined && (snapshot.asked.has(ref) || ref.startsWith('refs/heads/'))) {
    return null;
  }
  return fetchCommit(dir, ref);
}

/** Fetch a ref from the clone's origin (the cache mirror); null when it does not exist. */
export async function fetchCommit(dir: string, ref: string): Promise<string | null> {
  try {
    await git(dir, ['fetch', '--quiet', '--no-tags', 'origin', ref], NO_AUTO_MAINTENANCE);
    return await revParse(dir, 'FETCH_HEAD');
  } catch {
    return null;
  }
}

export async function hasCommit(dir: string, rev: string): Promise<boolean> {
  try {
    await git(dir, ['cat-file', '-e', `${rev}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

export async function diffNames(dir: string, from: string, to: string): Promise<string[]> {
  if (from === to || (await isAncestor(dir, to, from))) {
    return [];
  }
  return nameList(dir, [from, to]);
}

/**
 * The files `commit` changes since it forked from `head` (`git diff head...commit`: against their
 * merge base, nothing when `commit` is already in `head`), in one process.
 */
export function filesSinceFork(dir: string, head: string, commit: string): Promise<string[]> {
  return nameList(dir, [`${head}...${commit}`]);
}

async function nameList(dir: string, revs: string[]): Promise<string[]> {
  const { stdout } = await git(dir, ['diff', '--name-only', '--no-renames', ...revs]);
  return stdout.split('\n').filter((f) => f !== '');
}

export async function defaultBranchOf(dir: string): Promise<string> {
  const origin = await git(dir, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']).catch(() => null);
  if (origin) {
    return origin.stdout.trim().replace(/^refs\/remotes\/origin\//, '');
  }
  const head = await git(dir, ['symbolic-ref', '--quiet', 'HEAD']).catch(() => null);
  return head ? head.stdout.trim().replace(/^refs\/heads\//, '') : '';
}

/**
 * Make every branch a local branch at its commit and check `checkout` out (a branch of
 * `branches`, else a commit), in two processes: one `git update-ref --stdin` for the other
 * branches, and `git checkout -B` (which sets the branch checked out).
 */
export async function checkoutBranches(dir: string, branches: Map<string, string>, checkout: string): Promise<void> {
  const updates = [...branches]
    .filter(([branch]) => branch !== checkout)
    .map(([branch, sha]) => `update refs/heads/${branch} ${sha}\n`)
    .join('');
  if (updates !== '') {
    await gitWithInput(dir, ['update-ref', '--stdin'], updates);
  }
  const sha = branches.get(checkout);
  await git(dir, ['checkout', '--quiet', '--force', ...(sha !== undefined ? ['-B', checkout, sha] : [checkout])]);
}

/** Pushing to a local non-bare origin updates its checked-out branch and working tree when clean. */
export function receivePackFor(origin: string): string[] {
  if (isRemoteBaseUrl(origin) || !existsSync(path.join(origin, '.git'))) {
    return [];
  }
  return ['--receive-pack=git -c receive.denyCurrentBranch=updateInstead receive-pack'];
}
