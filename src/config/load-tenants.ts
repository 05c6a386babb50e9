/**
 * Loading layouts: the tenant file and each tenant's projects, through the configured
 * connections. Used by the LayoutManager and by `sluice validate-config`.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { buildConfigError, ErrorName, type ConfigError } from './config-error';
import type { Layout } from './layout';
import { buildLayout, type BuildLayoutInput } from './layout-builder';
import type { ServiceConfig } from './service';
import { parseTenantFile, type Abide, type TenantConfig, type TenantFileProblem } from './tenant-file';
import { readTenantProjects, type ConnectionSet, type FileCache } from './tenant-loader';
import { driverOf } from '../drivers/registry';
import type { GitConnection } from '../sources/git-connection';
import type { SecretsKeySource } from '../secrets/secret-data';
import { loadSecretKeys } from './secret-check';

/** Build the connection set of a service configuration: each connection's repositories, as its driver reads them. */
export function connectionsFromConfig(config: Pick<ServiceConfig, 'connections' | 'dataDir'>): ConnectionSet {
  const drivers: Record<string, string> = {};
  const gitConnections = new Map<string, GitConnection>();
  for (const [name, conn] of Object.entries(config.connections)) {
    drivers[name] = conn.driver;
    const repositories = driverOf(conn)?.connection?.configRepositories?.(
      name,
      conn,
      path.join(config.dataDir, 'git-cache'),
    );
    if (repositories !== undefined) {
      gitConnections.set(name, repositories);
    }
  }
  return { drivers, git: gitConnections };
}

/** Tenant-file problems that belong to a tenant become its config errors (no source context). */
export function tenantProblemErrors(tenant: string, problems: readonly TenantFileProblem[]): ConfigError[] {
  return problems
    .filter((p) => p.tenant === tenant)
    .map((p) =>
      buildConfigError({
        shortError: p.line !== undefined ? `${p.message} (tenant file line ${p.line})` : p.message,
        name: ErrorName.syntax,
        severity: 'error',
        location: {},
      }),
    );
}

export interface LoadTenantOptions {
  uuid?: () => string;
  now?: () => Date;
  cache?: FileCache;
  /** Projects' secrets keys; with it encrypted secrets are decrypted (and checked) at load. */
  secretKeys?: () => Promise<SecretsKeySource>;
}

/** Read what one tenant's layout is built from (its projects' files, errors found on the way). */
export async function readTenantLayoutInput(
  tenant: TenantConfig,
  abide: Pick<Abide, 'globalSemaphores'>,
  problems: readonly TenantFileProblem[],
  connections: ConnectionSet,
  options: LoadTenantOptions = {},
): Promise<BuildLayoutInput> {
  const read = await readTenantProjects(tenant, connections, options.cache);
  const secretKeys =
    options.secretKeys === undefined ? undefined : await loadSecretKeys(read.projects, lazySource(options.secretKeys));
  return {
    uuid: (options.uuid ?? randomUUID)(),
    now: (options.now ?? (() => new Date()))(),
    tenant,
    abide,
    connections: connections.drivers,
    projects: read.projects,
    initialErrors: [...tenantProblemErrors(tenant.name, problems), ...read.errors],
    secretKeys,
  };
}

/** Load one tenant's layout. */
export async function loadTenantLayout(
  tenant: TenantConfig,
  abide: Pick<Abide, 'globalSemaphores'>,
  problems: readonly TenantFileProblem[],
  connections: ConnectionSet,
  options: LoadTenantOptions = {},
): Promise<Layout> {
  return await buildLayout(await readTenantLayoutInput(tenant, abide, problems, connections, options));
}

/** Opens the key source only when a project has encrypted values (it may create files or keys). */
export function lazySource(open: () => Promise<SecretsKeySource>): SecretsKeySource {
  return { secretsKey: async (project) => (await open()).secretsKey(project) };
}

/** Parse a tenant file text against the configured connections. */
export function readTenantFile(text: string, connections: ConnectionSet): ReturnType<typeof parseTenantFile> {
  const drivers = Object.fromEntries(Object.entries(connections.drivers).map(([k, v]) => [k, { driver: v }]));
  return parseTenantFile(text, drivers);
}
