/**
 * The executor's cache of repositories: one bare mirror per (connection, project), cloned the
 * first time a build needs it and brought up to date with `git fetch` afterwards, never cloned
 * again per build. Workspaces are cloned from these mirrors (local clones share objects through
 * hard links, so they are cheap).
 */
import { canonicalHostnameOf, type ServiceConfig } from '../config/service';
import { GitMirrors } from '../sources/git-mirror';
import type { RepositoryAccess } from '../sources/git-projects';

/** What the executor needs to know about a git connection. */
export type GitConnectionInfo = RepositoryAccess;

/**
 * The git connections of a service configuration. The canonical host name defaults to the
 * host of a URL `baseurl`, else to the connection name.
 */
export function gitConnectionsFromConfig(
  config: Pick<ServiceConfig, 'connections'>,
): Record<string, GitConnectionInfo> {
  const result: Record<string, GitConnectionInfo> = {};
  for (const [name, connection] of Object.entries(config.connections)) {
    if (connection.driver !== 'git') {
      continue;
    }
    result[name] = { baseurl: connection.baseurl, canonicalHostname: canonicalHostnameOf(name, connection) };
  }
  return result;
}

export class UnknownConnectionError extends Error {
  constructor(readonly connection: string) {
    super(`unknown git connection "${connection}"`);
    this.name = 'UnknownConnectionError';
  }
}

export class RepoCache {
  readonly mirrors: GitMirrors;

  constructor(
    readonly root: string,
    private readonly connections: Record<string, GitConnectionInfo>,
  ) {
    this.mirrors = new GitMirrors(
      root,
      (name, project) => {
        const baseurl = this.connection(name).baseurl;
        return typeof baseurl === 'string' ? baseurl : baseurl(project);
      },
      (name) => this.connection(name).gitEnv ?? {},
    );
  }

  connection(name: string): GitConnectionInfo {
    const info = this.connections[name];
    if (!info) {
      throw new UnknownConnectionError(name);
    }
    return info;
  }

  /** Fetch the latest refs of a project into its mirror (cloning it the first time). */
  async update(connection: string, project: string): Promise<string> {
    await this.connection(connection).prepare?.(project);
    return this.mirrors.update(connection, project);
  }

  /** Location of the project's origin repository (where gate merges are pushed). */
  origin(connection: string, project: string): string {
    return this.mirrors.originOf(connection, project);
  }
}
