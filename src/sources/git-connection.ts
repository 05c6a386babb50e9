/**
 * Reading project configuration through a `git` connection: branches, branch tips and the
 * configuration files at a branch tip. `baseurl` is either a directory holding `<project>.git`
 * (bare) or `<project>` (non-bare) repositories, or a URL prefix; URL repositories are mirrored
 * into a cache directory first. Polling, change refs and merging live in other modules.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { git, gitWithInput } from './git-cli';

export interface GitConnectionSettings {
  driver: 'git';
  baseurl: string;
  pollInterval: number;
  canonicalHostname?: string;
  /**
   * The URL of a project's repository, asked before each clone or fetch (a GitHub connection's
   * URL carries a token that changes, docs/github.md#repositories); default `<baseurl>/<project>`.
   */
  repositoryUrl?: (project: string) => Promise<string>;
  /** The environment git runs with to reach the repositories (a Gerrit connection's SSH key, docs/gerrit.md#repositories). */
  gitEnv?: Record<string, string>;
  /**
   * The protected branches of a project, for connections of code-review systems that have them
   * (tenant option `exclude-unprotected-branches`, docs/github.md#changes).
   */
  protectedBranches?: (project: string) => Promise<string[]>;
  /**
   * The locked (read-only) branches of a project, for connections of code-review systems that can
   * lock one (tenant option `exclude-locked-branches`, docs/github.md#changes).
   */
  lockedBranches?: (project: string) => Promise<string[]>;
}

export interface BranchTip {
  name: string;
  sha: string;
}

export interface ProjectRefs {
  defaultBranch: string;
  branches: BranchTip[];
}

/** A configuration file read at a branch tip. */
export interface RepositoryFile {
  path: string;
  text: string;
}

/** The configuration files of one commit and the default locations ignored there. */
export interface ConfigSnapshot {
  files: RepositoryFile[];
  ignoredLocations: string[];
}

/** Where configuration is looked for, in load order (docs/project-configuration.md#configuration-files). */
export const CONFIG_LOCATIONS = ['zuul.yaml', 'zuul.d/', '.zuul.yaml', '.zuul.d/'] as const;

export class RepositoryNotFoundError extends Error {
  constructor(readonly project: string) {
    super(`Project ${project} not found`);
    this.name = 'RepositoryNotFoundError';
  }
}

const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Read-only access to the repositories of one git connection. */
export class GitConnection {
  private readonly mirrored = new Map<string, Promise<string>>();

  /**
   * @param name connection name (used in canonical names when no canonicalHostname is set)
   * @param settings the connection's service configuration
   * @param cacheDir where URL repositories are mirrored (required for URL base URLs)
   */
  constructor(
    readonly name: string,
    readonly settings: GitConnectionSettings,
    private readonly cacheDir?: string,
  ) {}

  /** `<canonicalHostname or connection name>/<project>`. */
  canonicalName(project: string): string {
    return `${this.settings.canonicalHostname ?? this.name}/${project}`;
  }

  get canonicalHostname(): string {
    return this.settings.canonicalHostname ?? this.name;
  }

  /** The local repository directory of a project (mirroring it first for URL connections). */
  async repositoryPath(project: string): Promise<string> {
    if (URL_PATTERN.test(this.settings.baseurl)) {
      return this.mirror(project, false);
    }
    const bare = path.join(this.settings.baseurl, `${project}.git`);
    if (existsSync(bare)) {
      return bare;
    }
    const plain = path.join(this.settings.baseurl, project);
    if (existsSync(path.join(plain, '.git')) || existsSync(path.join(plain, 'HEAD'))) {
      return plain;
    }
    throw new RepositoryNotFoundError(project);
  }

  /** The project's protected branches, or undefined when the connection has no branch protection. */
  async protectedBranches(project: string): Promise<string[] | undefined> {
    return this.settings.protectedBranches?.(project);
  }

  /** The project's locked branches, or undefined when the connection cannot lock branches. */
  async lockedBranches(project: string): Promise<string[] | undefined> {
    return this.settings.lockedBranches?.(project);
  }

  /** Refresh a URL mirror (no-op for local repositories). */
  async refresh(project: string): Promise<void> {
    if (URL_PATTERN.test(this.settings.baseurl)) {
      await this.mirror(project, true);
    }
  }

  /** Branches with their tip SHAs, and the default branch (the repository HEAD). */
  async refs(project: string): Promise<ProjectRefs> {
    const repo = await this.repositoryPath(project);
    const [branches, head] = await Promise.all([readBranches(repo), readHead(repo)]);
    branches.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const defaultBranch = head.replace(/^refs\/heads\//, '') || 'master';
    return { defaultBranch, branches };
  }

  /**
   * The configuration files of a project at a commit, in load order: the first existing default
   * location (the others are returned in `ignoredLocations`), then `extraConfigPaths`.
   * Directories are walked recursively (`.yaml` files, sorted); a directory containing
   * `.zuul.ignore` is pruned.
   */
  async readConfigFiles(
    project: string,
    sha: string,
    extraConfigPaths: readonly string[] = [],
  ): Promise<ConfigSnapshot> {
    const [snapshot] = await this.readConfigFilesAt(project, [sha], extraConfigPaths);
    return snapshot;
  }

  /** `readConfigFiles` for several commits at once (see `readConfigSnapshots`). */
  async readConfigFilesAt(
    project: string,
    shas: readonly string[],
    extraConfigPaths: readonly string[] = [],
  ): Promise<ConfigSnapshot[]> {
    if (shas.length === 0) {
      return [];
    }
    return readConfigSnapshots(await this.repositoryPath(project), shas, extraConfigPaths);
  }

  private mirror(project: string, refresh: boolean): Promise<string> {
    const existing = this.mirrored.get(project);
    if (existing && !refresh) {
      return existing;
    }
    const work = (async () => {
      if (this.cacheDir === undefined) {
        throw new Error(
          `connection ${this.name}: a cache directory is needed to read repositories from ${this.settings.baseurl}`,
        );
      }
      const target = path.join(this.cacheDir, this.name, `${project}.git`);
      const url =
        (await this.settings.repositoryUrl?.(project)) ?? `${this.settings.baseurl.replace(/\/$/, '')}/${project}`;
      if (!existsSync(target)) {
        mkdirSync(path.dirname(target), { recursive: true });
        try {
          await git(this.cacheDir, ['clone', '--quiet', '--mirror', url, target], this.settings.gitEnv);
        } catch {
          throw new RepositoryNotFoundError(project);
        }
      } else if (refresh || existing === undefined) {
        await git(target, ['fetch', '--quiet', '--prune', url, '+refs/*:refs/*'], this.settings.gitEnv);
      }
      return target;
    })();
    this.mirrored.set(project, work);
    return work;
  }
}

/**
 * The configuration files of commits (or trees) of the repository `repo`, with a fixed number of
 * git processes: one `cat-file --batch` for every location of every commit, one `ls-tree` per
 * distinct configuration directory, one `cat-file --batch` for every distinct file. `env` is
 * passed to git (e.g. a scratch object directory holding a speculative merge).
 */
export async function readConfigSnapshots(
  repo: string,
  shas: readonly string[],
  extraConfigPaths: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<ConfigSnapshot[]> {
  const roots = [
    ...new Set([
      ...CONFIG_LOCATIONS.map((l) => l.replace(/\/$/, '')),
      ...extraConfigPaths.map((p) => p.replace(/\/$/, '')),
    ]),
  ];
  const specs = shas.flatMap((sha) => roots.map((root) => `${sha}:${root}`));
  // One pass returns every root file's content directly and tells which roots are directories.
  const objects = new Map<string, { oid: string; type: string }>();
  const texts = new Map<string, string>();
  for (const entry of await catObjects(repo, specs, env)) {
    if (entry.type === 'blob' || entry.type === 'tree') {
      objects.set(entry.spec, { oid: entry.oid, type: entry.type });
    }
    if (entry.type === 'blob') {
      texts.set(entry.spec, entry.content.toString('utf8'));
    }
  }
  const treeListings = new Map<string, string[]>();
  for (const { oid, type } of objects.values()) {
    if (type === 'tree' && !treeListings.has(oid)) {
      const listing = await git(repo, ['ls-tree', '-r', '--name-only', '-z', oid], env);
      treeListings.set(
        oid,
        listing.stdout.split('\0').filter((p) => p.length > 0),
      );
    }
  }
  const plans = shas.map((sha) => planSnapshot(sha, objects, treeListings, extraConfigPaths));
  const unread = [...new Set(plans.flatMap((plan) => plan.files.map((f) => f.spec)))].filter(
    (spec) => !texts.has(spec),
  );
  for (const entry of unread.length > 0 ? await catObjects(repo, unread, env) : []) {
    if (entry.type !== 'blob') {
      throw new Error(`cannot read ${entry.spec}`);
    }
    texts.set(entry.spec, entry.content.toString('utf8'));
  }
  return plans.map((plan) => ({
    files: plan.files.map((f) => ({ path: f.path, text: texts.get(f.spec) ?? '' })),
    ignoredLocations: plan.ignoredLocations,
  }));
}

/** `git cat-file --batch` over `specs`: type, oid and content of each (type `missing` when absent). */
async function catObjects(
  repo: string,
  specs: readonly string[],
  env: Record<string, string>,
): Promise<Array<{ spec: string; oid: string; type: string; content: Buffer }>> {
  const output = await gitWithInput(repo, ['cat-file', '--batch'], `${specs.join('\n')}\n`, env);
  const out: Array<{ spec: string; oid: string; type: string; content: Buffer }> = [];
  let offset = 0;
  for (const spec of specs) {
    const newline = output.indexOf(0x0a, offset);
    const header = output.subarray(offset, newline).toString('utf8');
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      out.push({ spec, oid: '', type: 'missing', content: Buffer.alloc(0) });
      offset = newline + 1;
      continue;
    }
    const [oid, type, sizeText] = header.split(' ');
    const size = Number(sizeText);
    const start = newline + 1;
    out.push({ spec, oid, type, content: output.subarray(start, start + size) });
    offset = start + size + 1;
  }
  return out;
}

/** Decide which files of one commit are loaded, in load order. */
function planSnapshot(
  sha: string,
  objects: ReadonlyMap<string, { oid: string; type: string }>,
  treeListings: ReadonlyMap<string, string[]>,
  extraConfigPaths: readonly string[],
): { files: Array<{ path: string; spec: string }>; ignoredLocations: string[] } {
  const present = (location: string): Array<{ path: string; spec: string }> => {
    const root = location.replace(/\/$/, '');
    const object = objects.get(`${sha}:${root}`);
    if (object === undefined) {
      return [];
    }
    if (!location.endsWith('/')) {
      return object.type === 'blob' ? [{ path: root, spec: `${sha}:${root}` }] : [];
    }
    if (object.type !== 'tree') {
      return [];
    }
    const entries = treeListings.get(object.oid) ?? [];
    const ignoredDirs = entries
      .filter((p) => path.posix.basename(p) === '.zuul.ignore')
      .map((p) => `${path.posix.dirname(p)}/`);
    return entries
      .filter((p) => p.endsWith('.yaml') && !ignoredDirs.some((d) => d === './' || p.startsWith(d)))
      .sort()
      .map((p) => ({ path: `${root}/${p}`, spec: `${sha}:${root}/${p}` }));
  };
  const files: Array<{ path: string; spec: string }> = [];
  const ignoredLocations: string[] = [];
  for (const location of CONFIG_LOCATIONS) {
    const found = present(location);
    if (found.length === 0) {
      continue;
    }
    if (files.length === 0) {
      files.push(...found);
    } else {
      ignoredLocations.push(location);
    }
  }
  for (const p of extraConfigPaths.filter((x) => !x.endsWith('/'))) {
    files.push(...present(p));
  }
  for (const d of extraConfigPaths.filter((x) => x.endsWith('/'))) {
    files.push(...present(d));
  }
  const seen = new Set<string>();
  return { files: files.filter((f) => (seen.has(f.path) ? false : (seen.add(f.path), true))), ignoredLocations };
}

/**
 * Branch tips. For plain files-backend repositories they are read from `packed-refs` and the
 * loose refs (a loose ref wins), which saves a git process per project; anything else
 * (reftable, symbolic branch refs) goes through `git for-each-ref`.
 */
async function readBranches(repo: string): Promise<BranchTip[]> {
  const gitDir = existsSync(path.join(repo, '.git')) ? path.join(repo, '.git') : repo;
  const fromFiles = await readBranchFiles(gitDir).catch(() => undefined);
  if (fromFiles !== undefined) {
    return fromFiles;
  }
  const refs = await git(repo, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']);
  const branches: BranchTip[] = [];
  for (const line of refs.stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) {
      branches.push({ sha: line.slice(0, space), name: line.slice(space + 1).replace(/^refs\/heads\//, '') });
    }
  }
  return branches;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

async function readBranchFiles(gitDir: string): Promise<BranchTip[] | undefined> {
  if (existsSync(path.join(gitDir, 'reftable'))) {
    return undefined;
  }
  const tips = new Map<string, string>();
  const packed = await readFile(path.join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const match = /^([0-9a-f]{40,64}) refs\/heads\/(.+)$/.exec(line);
    if (match) {
      tips.set(match[2], match[1]);
    }
  }
  const walk = async (dir: string, prefix: string): Promise<boolean> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (!(await walk(path.join(dir, entry.name), `${name}/`))) {
          return false;
        }
        continue;
      }
      const text = (await readFile(path.join(dir, entry.name), 'utf8')).trim();
      if (!SHA.test(text)) {
        return false;
      }
      tips.set(name, text);
    }
    return true;
  };
  if (!(await walk(path.join(gitDir, 'refs', 'heads'), ''))) {
    return undefined;
  }
  return [...tips].map(([name, sha]) => ({ name, sha }));
}

/** The branch HEAD points to, read from the HEAD file (saves a git process per project). */
async function readHead(repo: string): Promise<string> {
  for (const file of [path.join(repo, 'HEAD'), path.join(repo, '.git', 'HEAD')]) {
    try {
      const text = (await readFile(file, 'utf8')).trim();
      if (text.startsWith('ref: ')) {
        return text.slice(5);
      }
    } catch {
      // not this layout; try the next
    }
  }
  const result = await git(repo, ['symbolic-ref', '--quiet', 'HEAD']).catch(() => ({ stdout: 'refs/heads/master' }));
  return result.stdout.trim();
}

/** Run `task` over `items` with at most `limit` at a time, keeping result order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
