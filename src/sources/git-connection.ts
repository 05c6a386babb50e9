/**
 * Reading project configuration through a `git` connection: branches, branch tips and the
 * configuration files at a branch tip. `baseurl` is either a directory holding `<project>.git`
 * (bare) or `<project>` (non-bare) repositories, or a URL prefix; URL repositories are mirrored
 * into a cache directory first. Polling, change refs and merging live in other modules.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { git, gitWithInput } from './git-cli';

export interface GitConnectionSettings {
  driver: 'git';
  baseurl: string;
  pollInterval: number;
  canonicalHostname?: string;
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

/** Where configuration is looked for, in load order (engine.md §1.1). */
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

  /** Refresh a URL mirror (no-op for local repositories). */
  async refresh(project: string): Promise<void> {
    if (URL_PATTERN.test(this.settings.baseurl)) {
      await this.mirror(project, true);
    }
  }

  /** Branches with their tip SHAs, and the default branch (the repository HEAD). */
  async refs(project: string): Promise<ProjectRefs> {
    const repo = await this.repositoryPath(project);
    const [refs, head] = await Promise.all([
      git(repo, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']),
      git(repo, ['symbolic-ref', '--quiet', 'HEAD']).catch(() => ({ stdout: 'refs/heads/master\n', stderr: '' })),
    ]);
    const branches: BranchTip[] = [];
    for (const line of refs.stdout.split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) {
        branches.push({ sha: line.slice(0, space), name: line.slice(space + 1).replace(/^refs\/heads\//, '') });
      }
    }
    branches.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const defaultBranch = head.stdout.trim().replace(/^refs\/heads\//, '') || 'master';
    return { defaultBranch, branches };
  }

  /**
   * The configuration files of a project at a commit, in load order: the first existing default
   * location (the others are returned in `ignoredLocations`), then `extraConfigPaths`.
   * Directories are walked recursively (`.yaml` files, sorted); a directory containing
   * `.zuul.ignore` is pruned.
   */
  async readConfigFiles(project: string, sha: string, extraConfigPaths: readonly string[] = []): Promise<{ files: RepositoryFile[]; ignoredLocations: string[] }> {
    const repo = await this.repositoryPath(project);
    const roots = [...CONFIG_LOCATIONS.map((l) => l.replace(/\/$/, '')), ...extraConfigPaths.map((p) => p.replace(/\/$/, ''))];
    const listing = await git(repo, ['ls-tree', '-r', '--name-only', '-z', sha, '--', ...roots]);
    const all = listing.stdout.split('\0').filter((p) => p.length > 0);
    const ignoredDirs = all.filter((p) => path.posix.basename(p) === '.zuul.ignore').map((p) => `${path.posix.dirname(p)}/`);
    const visible = all.filter((p) => !ignoredDirs.some((d) => p.startsWith(d)));
    const present = (location: string): string[] => {
      if (location.endsWith('/')) {
        return visible.filter((p) => p.startsWith(location) && p.endsWith('.yaml')).sort();
      }
      return visible.includes(location) ? [location] : [];
    };
    const ordered: string[] = [];
    const ignoredLocations: string[] = [];
    for (const location of CONFIG_LOCATIONS) {
      const files = present(location);
      if (files.length === 0) {
        continue;
      }
      if (ordered.length === 0) {
        ordered.push(...files);
      } else {
        ignoredLocations.push(location);
      }
    }
    const extras = extraConfigPaths.filter((p) => !p.endsWith('/'));
    const extraDirs = extraConfigPaths.filter((p) => p.endsWith('/'));
    for (const p of extras) {
      ordered.push(...present(p));
    }
    for (const d of extraDirs) {
      ordered.push(...present(d));
    }
    const unique = [...new Set(ordered)];
    if (unique.length === 0) {
      return { files: [], ignoredLocations };
    }
    const texts = await this.catFiles(repo, unique.map((p) => `${sha}:${p}`));
    return { files: unique.map((p, i) => ({ path: p, text: texts[i] })), ignoredLocations };
  }

  /** Read many blobs with one `git cat-file --batch`. */
  private async catFiles(repo: string, specs: string[]): Promise<string[]> {
    const output = await gitWithInput(repo, ['cat-file', '--batch'], `${specs.join('\n')}\n`);
    const texts: string[] = [];
    let offset = 0;
    for (const spec of specs) {
      const newline = output.indexOf(0x0a, offset);
      const header = output.subarray(offset, newline).toString('utf8');
      if (header.endsWith(' missing')) {
        throw new Error(`cannot read ${spec}`);
      }
      const size = Number(header.split(' ')[2]);
      const start = newline + 1;
      texts.push(output.subarray(start, start + size).toString('utf8'));
      offset = start + size + 1;
    }
    return texts;
  }

  private mirror(project: string, refresh: boolean): Promise<string> {
    const existing = this.mirrored.get(project);
    if (existing && !refresh) {
      return existing;
    }
    const work = (async () => {
      if (this.cacheDir === undefined) {
        throw new Error(`connection ${this.name}: a cache directory is needed to read repositories from ${this.settings.baseurl}`);
      }
      const target = path.join(this.cacheDir, this.name, `${project}.git`);
      const url = `${this.settings.baseurl.replace(/\/$/, '')}/${project}`;
      if (!existsSync(target)) {
        mkdirSync(path.dirname(target), { recursive: true });
        try {
          await git(this.cacheDir, ['clone', '--quiet', '--mirror', url, target]);
        } catch {
          throw new RepositoryNotFoundError(project);
        }
      } else if (refresh || existing === undefined) {
        await git(target, ['fetch', '--quiet', '--prune', 'origin']);
      }
      return target;
    })();
    this.mirrored.set(project, work);
    return work;
  }
}

/** Run `task` over `items` with at most `limit` at a time, keeping result order. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
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
