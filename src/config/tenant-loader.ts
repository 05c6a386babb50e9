/**
 * Reads what a tenant needs from its connections: for each project of the tenant file, its
 * branches and the configuration files on each loaded branch. Unreadable repositories become
 * config errors; they never stop the other projects from loading.
 */
import { buildRepositoryError, type ConfigError } from './config-error';
import type { LoadedProject } from './layout-builder';
import type { TenantConfig } from './tenant-file';
import { branchesToLoad, dynamicBranches, type TenantProjectConfig } from './tenant-sources';
import {
  mapConcurrent,
  RepositoryNotFoundError,
  type ConfigSnapshot,
  type GitConnection,
  type RepositoryFile,
} from '../sources/git-connection';

/** The connections configuration is read through. */
export interface ConnectionSet {
  /** Connection name -> driver, for trigger/reporter validation. */
  drivers: Readonly<Record<string, string>>;
  git: ReadonlyMap<string, GitConnection>;
}

/** Files read at one commit, reused while the branch tip does not move. */
export type FileSnapshot = ConfigSnapshot;

/** Where snapshots are kept between loads (a Map works; the LayoutManager uses a generational cache). */
export interface FileCache {
  get(key: string): FileSnapshot | undefined;
  set(key: string, snapshot: FileSnapshot): unknown;
}

/**
 * Two generations of snapshots: lookups fall back to the previous generation and promote what
 * they find; `rotate()` (after a full reload) drops everything the last generation did not use.
 */
export class GenerationalFileCache implements FileCache {
  private previous = new Map<string, FileSnapshot>();
  private current = new Map<string, FileSnapshot>();

  get(key: string): FileSnapshot | undefined {
    const hit = this.current.get(key);
    if (hit !== undefined) {
      return hit;
    }
    const old = this.previous.get(key);
    if (old !== undefined) {
      this.current.set(key, old);
    }
    return old;
  }

  set(key: string, snapshot: FileSnapshot): void {
    this.current.set(key, snapshot);
  }

  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  get size(): number {
    return new Set([...this.previous.keys(), ...this.current.keys()]).size;
  }
}

export interface TenantProjects {
  projects: LoadedProject[];
  errors: ConfigError[];
}

const PROJECT_CONCURRENCY = 8;

/** Read every project of `tenant`; `cache` (keyed by connection, project, sha, extra paths) avoids re-reading unchanged branches. */
export async function readTenantProjects(
  tenant: TenantConfig,
  connections: ConnectionSet,
  cache?: FileCache,
): Promise<TenantProjects> {
  const results = await mapConcurrent(tenant.projects, PROJECT_CONCURRENCY, (tpc) =>
    readProject(tpc, connections, cache, tenant),
  );
  const projects: LoadedProject[] = [];
  const errors: ConfigError[] = [];
  for (const r of results) {
    if (r.project) {
      projects.push(r.project);
    }
    if (r.error) {
      errors.push(r.error);
    }
  }
  return { projects, errors };
}

async function readProject(
  tpc: TenantProjectConfig,
  connections: ConnectionSet,
  cache: FileCache | undefined,
  tenant: BranchProtectionDefaults,
): Promise<{ project?: LoadedProject; error?: ConfigError }> {
  const connection = connections.git.get(tpc.connectionName);
  const fallback = {
    canonicalName: `${tpc.connectionName}/${tpc.name}`,
    name: tpc.name,
    connectionName: tpc.connectionName,
  };
  if (connection === undefined) {
    return {
      error: buildRepositoryError(
        fallback,
        `The connection "${tpc.connectionName}" (driver ${connections.drivers[tpc.connectionName] ?? 'unknown'}) can not serve projects.`,
      ),
    };
  }
  // A tenant-file name is the project's name within its connection, used as written: the
  // canonical name is the connection's hostname and that name (docs/project-configuration.md#the-tenant-file).
  const name = tpc.name;
  const identity = { canonicalName: connection.canonicalName(name), name, connectionName: tpc.connectionName };
  try {
    const refs = await connection.refs(name);
    const eligible = await eligibleBranches(
      connection,
      tpc,
      tenant,
      refs.branches.map((b) => b.name),
    );
    refs.branches = refs.branches.filter((b) => eligible.names.includes(b.name));
    const shas = Object.fromEntries(refs.branches.map((b) => [b.name, b.sha]));
    let branches = branchesToLoad(
      tpc,
      refs.branches.map((b) => b.name),
    );
    if (!tpc.trusted) {
      branches = [
        ...branches.filter((b) => b === refs.defaultBranch),
        ...branches.filter((b) => b !== refs.defaultBranch),
      ];
    }
    const files = new Map<string, RepositoryFile[]>();
    const ignored = new Map<string, string[]>();
    if (tpc.include.size > 0) {
      const keyOf = (branch: string) => JSON.stringify([tpc.connectionName, name, shas[branch], tpc.extraConfigPaths]);
      const missing = [...new Set(branches.filter((b) => cache?.get(keyOf(b)) === undefined).map((b) => shas[b]))];
      const read = await connection.readConfigFilesAt(name, missing, tpc.extraConfigPaths);
      const fresh = new Map(missing.map((sha, i) => [sha, read[i]]));
      for (const branch of branches) {
        const snapshot = cache?.get(keyOf(branch)) ?? fresh.get(shas[branch]);
        if (snapshot === undefined) {
          continue;
        }
        cache?.set(keyOf(branch), snapshot);
        files.set(branch, snapshot.files);
        ignored.set(branch, snapshot.ignoredLocations);
      }
    }
    return {
      project: {
        tpc,
        ...identity,
        trusted: tpc.trusted,
        defaultBranch: refs.defaultBranch,
        branches,
        branchShas: Object.fromEntries(branches.map((b) => [b, shas[b]])),
        dynamicBranches: dynamicBranches(
          tpc,
          refs.branches.map((b) => b.name),
        ),
        ...(eligible.protectedBranches !== undefined ? { protectedBranches: eligible.protectedBranches } : {}),
        files,
        ignoredLocations: ignored,
      },
    };
  } catch (err) {
    const text =
      err instanceof RepositoryNotFoundError
        ? `Project ${name} not found in connection ${tpc.connectionName}`
        : err instanceof Error
          ? err.message
          : String(err);
    return { error: buildRepositoryError(identity, text) };
  }
}

/** The tenant-wide defaults of the branch protection options (a project's own setting wins). */
export type BranchProtectionDefaults = Pick<TenantConfig, 'excludeUnprotectedBranches' | 'excludeLockedBranches'>;

/**
 * The branches of a project that exist for the tenant, before `include-branches` /
 * `exclude-branches` / `always-dynamic-branches`, as the reference lists them: without the
 * unprotected ones under `exclude-unprotected-branches` and without the locked ones under
 * `exclude-locked-branches`, on connections that have protection or locks (GitHub); elsewhere
 * every branch (docs/project-configuration.md#the-tenant-file). `protectedBranches` is the
 * project's protected branches when unprotected ones are excluded.
 */
export async function eligibleBranches(
  connection: GitConnection,
  tpc: Pick<TenantProjectConfig, 'name' | 'excludeUnprotectedBranches' | 'excludeLockedBranches'>,
  tenant: BranchProtectionDefaults,
  names: readonly string[],
): Promise<{ names: string[]; protectedBranches?: string[] }> {
  const excludeUnprotected = tpc.excludeUnprotectedBranches ?? tenant.excludeUnprotectedBranches;
  const excludeLocked = tpc.excludeLockedBranches ?? tenant.excludeLockedBranches;
  const protectedBranches = excludeUnprotected ? await connection.protectedBranches(tpc.name) : undefined;
  const locked = excludeLocked ? await connection.lockedBranches(tpc.name) : undefined;
  return {
    names: names.filter(
      (b) => (protectedBranches === undefined || protectedBranches.includes(b)) && !(locked ?? []).includes(b),
    ),
    ...(protectedBranches !== undefined ? { protectedBranches: [...protectedBranches].sort() } : {}),
  };
}
