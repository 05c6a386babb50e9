/**
 * Where projects live, as every driver and the shared git merger see them: a project's
 * connection, its repository name there and its default branch; and how the executor reaches a
 * connection's repositories.
 */

/** Where a project lives: its connection, the repository name there and its default branch. */
export interface GitProjectLocation {
  connection: string;
  name: string;
  defaultBranch: string;
}

export interface GitProjects {
  /** Location of a project by canonical name (null when unknown). */
  locate(canonicalName: string): GitProjectLocation | null;
  /** Canonical name of a repository of a connection. */
  canonicalName(connection: string, name: string): string;
}

/** How the executor reaches the repositories of a connection. */
export interface RepositoryAccess {
  /** A URL prefix or directory, or per project (a GitHub connection's URL carries its current token, docs/github.md#repositories). */
  baseurl: string | ((project: string) => string);
  /** Host part of workspace paths (`golang`/`unique` schemes). */
  canonicalHostname: string;
  /**
   * Run before each fetch of a project: a GitHub connection makes sure its installation token
   * for the repository is current, so `baseurl` carries it in any process, an executor-only one
   * included (docs/github.md#repositories).
   */
  prepare?: (project: string) => Promise<void>;
  /** The environment git runs with to reach them (a Gerrit connection's SSH key, docs/gerrit.md#repositories). */
  gitEnv?: Record<string, string>;
}
