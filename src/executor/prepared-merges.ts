/**
 * The merges this process already made (docs/executor.md#reused-merges): applying a change commit
 * onto a head with a merge mode and a message gives the same tree, parents and message whenever
 * it is done again, so a build's workspace or a gate merge that applies the same commit onto the
 * same head as the change's speculative merge takes that merge's commit instead of merging again.
 * The speculative merge's new objects are linked into the cache mirror it was cloned from
 * (`publishMerges`), so every later clone of that mirror has them; a clone that lacks the commit
 * (the executor in another process, with its own cache; a clone made before the merge) merges as
 * before.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RepoCache } from './repo-cache';

/** What applying `commit` onto `head` gave. */
export interface PreparedMerge {
  merged: string;
  /** The files `commit` changes since it forked from `head`. */
  files: string[];
}

/** One merge made in a clone: the inputs and the result. */
export interface MergeStep extends PreparedMerge {
  head: string;
  commit: string;
  mode: string;
  message: string;
}

/** How many merges are remembered, and for how long (a build queued longer merges again). */
const LIMIT = 2048;
const MAX_AGE_MS = 60 * 60 * 1000;

export class PreparedMerges {
  private readonly entries = new Map<string, PreparedMerge & { at: number }>();
  /** Merges taken from here instead of made again (for tests and timing). */
  reused = 0;

  /** The remembered result of a merge whose commit is in one of the object `stores`; null otherwise. */
  lookup(stores: readonly string[], head: string, commit: string, mode: string, message: string): PreparedMerge | null {
    const key = keyOf(head, commit, mode, message);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return null;
    }
    if (Date.now() - entry.at > MAX_AGE_MS) {
      this.entries.delete(key);
      return null;
    }
    // A loose object (a local clone links the mirror's); a packed one is not looked for, and the
    // merge is made again.
    if (!stores.some((objects) => existsSync(looseObject(objects, entry.merged)))) {
      return null;
    }
    this.reused += 1;
    return { merged: entry.merged, files: [...entry.files] };
  }

  remember(step: MergeStep): void {
    const key = keyOf(step.head, step.commit, step.mode, step.message);
    this.entries.delete(key);
    this.entries.set(key, { merged: step.merged, files: step.files, at: Date.now() });
    while (this.entries.size > LIMIT) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) {
        break;
      }
      this.entries.delete(oldest);
    }
  }
}

/**
 * Link the objects the merges of a speculative clone made into the mirror's object store, then
 * remember the `steps`: git names an object by its content, so adding one is safe at any time, and
 * the mirror's automatic maintenance keeps unreferenced loose objects for two weeks. The clone
 * borrows the mirror's objects (`git clone --shared`), so every object in its own store is new;
 * nothing is remembered when one cannot be linked.
 */
export function publishMerges(memo: PreparedMerges, dir: string, mirror: string, steps: readonly MergeStep[]): void {
  if (steps.length === 0) {
    return;
  }
  try {
    linkObjects(path.join(dir, '.git', 'objects'), path.join(mirror, 'objects'));
  } catch {
    return; // another file system, no permission: the builds merge again
  }
  steps.forEach((step) => memo.remember(step));
}

/** Link each loose object of `from` into `to` (one already there is kept). */
function linkObjects(from: string, to: string): void {
  for (const fanout of readdirSync(from)) {
    if (!/^[0-9a-f]{2}$/.test(fanout)) {
      continue; // info/, pack/
    }
    mkdirSync(path.join(to, fanout), { recursive: true });
    for (const name of readdirSync(path.join(from, fanout))) {
      if (!/^([0-9a-f]{38}|[0-9a-f]{62})$/.test(name)) {
        continue; // a temporary file of a write that did not finish
      }
      try {
        linkSync(path.join(from, fanout, name), path.join(to, fanout, name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw err;
        }
      }
    }
  }
}

/** The object store of the clone at `dir` and those it borrows from (`objects/info/alternates`). */
export function cloneObjectStores(dir: string): string[] {
  const own = path.join(dir, '.git', 'objects');
  try {
    const alternates = readFileSync(path.join(own, 'info', 'alternates'), 'utf8').split('\n');
    return [own, ...alternates.filter((line) => line !== '' && !line.startsWith('#'))];
  } catch {
    return [own];
  }
}

/**
 * The gate merge of a change whose speculative merge was made on the branch's current tip in the
 * mirror: the branch's tip, the merge's commit (to push from the mirror) and the mirror; null
 * otherwise. The mirror's refs are read from its files while no fetch moves them.
 */
export function preparedOnMirror(
  memo: PreparedMerges,
  cache: RepoCache,
  request: { connection: string; project: string; ref: string; targetBranch: string; mergeMode: string },
  message: string,
): Promise<{ oldrev: string; newrev: string; mirror: string } | null> {
  return cache.mirrors.withMirror(request.connection, request.project, async (mirror) => {
    const oldrev = readRef(mirror, `refs/heads/${request.targetBranch}`);
    const commit = readRef(mirror, request.ref);
    if (oldrev === null || commit === null) {
      return null;
    }
    const prepared = memo.lookup([path.join(mirror, 'objects')], oldrev, commit, request.mergeMode, message);
    return prepared === null ? null : { oldrev, newrev: prepared.merged, mirror };
  });
}

/** The object a ref of a bare repository names, from its loose file or `packed-refs`; null otherwise. */
function readRef(gitDir: string, ref: string): string | null {
  const sha = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
  try {
    return sha.exec(readFileSync(path.join(gitDir, ref), 'utf8').trim())?.[1] ?? null;
  } catch {
    // not loose
  }
  try {
    for (const line of readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').split('\n')) {
      const [value, name] = line.split(' ');
      if (name === ref) {
        return sha.exec(value)?.[1] ?? null;
      }
    }
  } catch {
    // no packed refs
  }
  return null;
}

function looseObject(objects: string, sha: string): string {
  return path.join(objects, sha.slice(0, 2), sha.slice(2));
}

const keyOf = (head: string, commit: string, mode: string, message: string): string =>
  `${head} ${commit} ${mode} ${message}`;
