/**
 * Local bare mirrors of the repositories of git connections. The poller and the executor's
 * repository cache each keep their own mirrors and update them with `git fetch`; a mirror is
 * cloned once and never again. Mirrors carry branches, tags and change refs.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { git } from './git-cli';
import { KeyedMutex } from './keyed-mutex';
import { localGitDir, localRefsDigest } from './local-refs';
import { hasControlCharacter } from '../model/value-checks';

/** The refs a mirror copies from its origin (forced, pruned). */
export const MIRROR_REFSPECS = [
  '+refs/heads/*:refs/heads/*',
  '+refs/tags/*:refs/tags/*',
  '+refs/changes/*:refs/changes/*',
  // GitHub pull request heads (docs/github.md#repositories).
  '+refs/pull/*:refs/pull/*',
  // GitLab merge request heads (docs/gitlab.md#repositories).
  '+refs/merge-requests/*:refs/merge-requests/*',
];

/** How many answers `readRefs` keeps per mirror until its next fetch. */
const READINGS_PER_MIRROR = 64;

/** How many fetches of a mirror share one automatic maintenance check (src/sources/git-mirror.ts). */
export const MAINTENANCE_EVERY = 16;

/** True when a connection's `baseurl` is a URL prefix rather than a local directory. */
export function isRemoteBaseUrl(baseurl: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(baseurl) || /^[^/]+@[^/]+:/.test(baseurl);
}

/**
 * Refuse project names that could escape a directory when used as a path: absolute names,
 * empty segments, `.` and `..` segments, backslashes and control characters.
 */
export function assertSafeProjectName(project: string): void {
  const segments = project.split('/');
  const bad =
    project === '' ||
    project.startsWith('/') ||
    project.includes('\\') ||
    hasControlCharacter(project) ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) {
    throw new Error(`invalid project name "${project}"`);
  }
}

/**
 * Where git finds a project of a connection: for a local directory `<baseurl>/<project>.git`
 * (bare) when it exists, else `<baseurl>/<project>` (non-bare) when it exists, else the bare
 * form; for a URL prefix `<baseurl>/<project>`.
 */
export function repositoryLocation(baseurl: string, project: string): string {
  assertSafeProjectName(project);
  if (isRemoteBaseUrl(baseurl)) {
    return `${baseurl.replace(/\/+$/, '')}/${project}`;
  }
  const bare = path.join(baseurl, `${project}.git`);
  if (existsSync(bare)) {
    return bare;
  }
  const plain = path.join(baseurl, project);
  return existsSync(plain) ? plain : bare;
}

/** A set of mirrors under one directory, keyed by connection and project. */
export class GitMirrors {
  private readonly mutex = new KeyedMutex();
  /** Number of clones made so far (a mirror is cloned once, then only fetched). */
  cloneCount = 0;
  fetchCount = 0;
  /** Fetches skipped because the local origin's refs had not changed since the last one. */
  skippedFetchCount = 0;
  private readonly fetches = new Map<string, number>();
  /** Per mirror, how many fetches into it ended (its refs are as they were while this is the same). */
  private readonly generations = new Map<string, number>();
  /** Per mirror, what was read from its refs at a generation (`readRefs`). */
  private readonly readings = new Map<string, { generation: number; values: Map<string, unknown> }>();
  /** Per mirror of a local origin, the origin's refs when its last successful fetch started. */
  private readonly fetchedRefs = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly baseUrls: (connection: string, project: string) => string,
    /** The environment git reaches a connection's origins with (docs/gerrit.md#repositories). */
    private readonly envOf: (connection: string) => Record<string, string> = () => ({}),
  ) {}

  /** Path of the mirror of `project` of `connection` (it may not exist yet). */
  mirrorPath(connection: string, project: string): string {
    assertSafeProjectName(project);
    if (!/^[A-Za-z0-9_.-]+$/.test(connection) || connection === '.' || connection === '..') {
      throw new Error(`invalid connection name "${connection}"`);
    }
    return path.join(this.root, connection, `${project}.git`);
  }

  /** Origin location of a project. */
  originOf(connection: string, project: string): string {
    return repositoryLocation(this.baseUrls(connection, project), project);
  }

  /** Create the mirror when missing, then fetch; resolves with the mirror path. */
  update(connection: string, project: string): Promise<string> {
    const mirror = this.mirrorPath(connection, project);
    return this.mutex.run(mirror, async () => {
      const origin = this.originOf(connection, project);
      const env = this.envOf(connection);
      if (!existsSync(path.join(mirror, 'HEAD'))) {
        mkdirSync(mirror, { recursive: true });
        await git(mirror, ['init', '--quiet', '--bare']);
        this.cloneCount += 1;
        this.fetchedRefs.delete(mirror);
      }
      // A local origin whose refs (and HEAD) are as they were when the last fetch started has
      // nothing to bring: the fetch is skipped (read before fetching, so a push during it counts).
      const refs = isRemoteBaseUrl(origin) ? null : localRefsDigest(localGitDir(origin));
      if (refs !== null && this.fetchedRefs.get(mirror) === refs) {
        this.skippedFetchCount += 1;
        return mirror;
      }
      this.fetchedRefs.delete(mirror);
      // `git maintenance run --auto` (a process that packs when enough loose objects piled up)
      // after the first fetch of a mirror and every MAINTENANCE_EVERY-th after it, not after each.
      const fetches = this.fetches.get(mirror) ?? 0;
      this.fetches.set(mirror, fetches + 1);
      const maintenance = fetches % MAINTENANCE_EVERY === 0 ? [] : ['-c', 'maintenance.auto=false'];
      try {
        await git(
          mirror,
          [...maintenance, 'fetch', '--quiet', '--prune', '--no-tags', origin, ...MIRROR_REFSPECS],
          env,
        );
      } finally {
        this.generations.set(mirror, (this.generations.get(mirror) ?? 0) + 1);
      }
      this.fetchCount += 1;
      await syncHead(mirror, origin, env);
      if (refs !== null) {
        this.fetchedRefs.set(mirror, refs);
      }
      return mirror;
    });
  }

  /**
   * What `read` reads from the mirror's refs under `key`, read once per fetch into the mirror:
   * only `update` writes a mirror's refs, so an answer holds until the next fetch ends. An answer
   * read while a fetch ended is not kept.
   */
  async readRefs<T>(connection: string, project: string, key: string, read: () => Promise<T>): Promise<T> {
    const mirror = this.mirrorPath(connection, project);
    const generation = this.generations.get(mirror) ?? 0;
    let reading = this.readings.get(mirror);
    if (reading?.generation === generation && reading.values.has(key)) {
      return reading.values.get(key) as T;
    }
    const value = await read();
    if ((this.generations.get(mirror) ?? 0) === generation) {
      if (reading?.generation !== generation) {
        reading = { generation, values: new Map() };
        this.readings.set(mirror, reading);
      }
      if (reading.values.size < READINGS_PER_MIRROR) {
        reading.values.set(key, value);
      }
    }
    return value;
  }

  /** Run `task` while no other operation touches the mirror. */
  withMirror<T>(connection: string, project: string, task: (mirror: string) => Promise<T>): Promise<T> {
    const mirror = this.mirrorPath(connection, project);
    return this.mutex.run(mirror, () => task(mirror));
  }
}

/**
 * Point the mirror's HEAD at the origin's default branch so "default branch" means the same. A local
 * origin's HEAD is read from its file (what `git ls-remote --symref` answers, without two
 * processes: a branch the fetch did not bring, an unborn one, is no answer either); the mirror's
 * HEAD is rewritten only when it changed.
 */
async function syncHead(mirror: string, origin: string, env: Record<string, string>): Promise<void> {
  const local = localSymbolicHead(origin);
  const target =
    local !== null
      ? hasLooseOrPackedRef(mirror, local)
        ? local
        : null
      : await remoteSymbolicHead(mirror, origin, env);
  if (target !== null && localSymbolicHead(mirror) !== target) {
    await git(mirror, ['symbolic-ref', 'HEAD', target]);
  }
}

async function remoteSymbolicHead(mirror: string, origin: string, env: Record<string, string>): Promise<string | null> {
  const { stdout } = await git(mirror, ['ls-remote', '--symref', origin, 'HEAD'], env);
  return /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(stdout)?.[1] ?? null;
}

/**
 * The branch HEAD names in a local repository (bare, or non-bare with a `.git` directory), from
 * its HEAD file; null for a remote origin, a detached HEAD or anything else (then git is asked).
 */
export function localSymbolicHead(repository: string): string | null {
  if (isRemoteBaseUrl(repository)) {
    return null;
  }
  const gitDir = localGitDir(repository);
  let text: string;
  try {
    text = readFileSync(path.join(gitDir, 'HEAD'), 'utf8');
  } catch {
    return null;
  }
  return /^ref: (refs\/heads\/\S+)\n?$/.exec(text)?.[1] ?? null;
}

/** Whether a repository of the files ref store has `ref` (a loose ref file or a line of packed-refs). */
function hasLooseOrPackedRef(gitDir: string, ref: string): boolean {
  try {
    if (statSync(path.join(gitDir, ref)).isFile()) {
      return true;
    }
  } catch {
    // not loose
  }
  try {
    return readFileSync(path.join(gitDir, 'packed-refs'), 'utf8')
      .split('\n')
      .some((line) => line.endsWith(` ${ref}`));
  } catch {
    return false;
  }
}
