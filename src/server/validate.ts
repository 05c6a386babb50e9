/**
 * `sluice validate-config`: the service configuration has already been parsed; this loads the
 * tenant file and every tenant's project configuration reachable through the connections and
 * reports each problem with its severity, error name and location. With `--decrypt-secrets`
 * every secret must also decrypt with its project's key, read from the database without
 * creating keys or the key-encryption secret (docs/security.md#secrets).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../config/service';
import type { ConfigError } from '../config/config-error';
import { connectionsFromConfig, loadTenantLayout, readTenantFile } from '../config/load-tenants';
import type { ConnectionSet } from '../config/tenant-loader';
import { seedRepositories } from '../drivers/git/seed';
import type { SecretsKeySource } from '../secrets/secret-data';
import type { Database } from '../store/database';
import { KeyRepository } from '../store/repositories/keys';
import { migrateLatest } from '../store/migrate';
import { KeyEncryptor, readKeyEncryptionSecret } from '../auth/keys/key-encryption';
import { KeyManager } from '../auth/keys/key-manager';

export interface ValidationReport {
  lines: string[];
  errors: number;
  warnings: number;
}

export interface ValidateOptions {
  /**
   * No network: tenants with projects on remote connections (GitHub, git over a URL) are not
   * loaded, and the report says which (docs/project-configuration.md#validating-offline).
   */
  offline?: boolean;
  /** Check that every secret decrypts with its project's key (the keys are read from `openDatabase`). */
  decryptSecrets?: boolean;
  openDatabase?: (config: ServiceConfig) => Database;
  /**
   * What is missing when the database does not exist: validation then names it instead of
   * creating it (src/server/app-services.ts, missingDatabase).
   */
  missingDatabase?: (config: ServiceConfig) => Promise<string | undefined>;
}

/** Connections whose repositories are reached over the network. */
function remoteConnections(config: ServiceConfig): Set<string> {
  return new Set(
    Object.entries(config.connections)
      .filter(
        ([, conn]) =>
          conn.driver === 'github' ||
          (conn.driver === 'git' &&
            /^[a-z][a-z0-9+.-]*:\/\//i.test(conn.baseurl) &&
            !conn.baseurl.startsWith('file://')),
      )
      .map(([name]) => name),
  );
}

export async function validateDeployment(
  config: ServiceConfig,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const report: ValidationReport = {
    lines: [`service configuration ${config.source ?? '(defaults)'}: ok`],
    errors: 0,
    warnings: 0,
  };
  if (config.tenantConfig === undefined) {
    report.lines.push('warning: no tenantConfig is set; the service will have no tenants');
    report.warnings++;
    return report;
  }
  let text: string;
  try {
    text = readFileSync(config.tenantConfig, 'utf8');
  } catch (err) {
    report.lines.push(
      `error: ${config.tenantConfig}: cannot read the tenant file (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
    report.errors++;
    return report;
  }
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-validate-'));
  try {
    const connections = connectionsFromConfig({
      ...config,
      connections: await withSeededRepositories(config, scratch),
    });
    const keys = options.decryptSecrets ? await storedKeySource(config, options) : undefined;
    try {
      const skipped = options.offline ? remoteConnections(config) : new Set<string>();
      await validateTenants(config, text, connections, report, { skipped, secretKeys: keys?.source });
    } finally {
      await keys?.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return report;
}

/**
 * Connections whose `seedFrom` projects have no repository yet are pointed at a scratch
 * directory holding links to the existing repositories plus freshly seeded ones, so validation
 * sees what `serve` would see without creating anything under `baseurl`.
 */
async function withSeededRepositories(config: ServiceConfig, scratch: string): Promise<ServiceConfig['connections']> {
  const out: ServiceConfig['connections'] = {};
  for (const [name, conn] of Object.entries(config.connections)) {
    if (conn.driver !== 'git' || conn.seedFrom === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(conn.baseurl)) {
      out[name] = conn;
      continue;
    }
    const base = path.join(scratch, name);
    mkdirSync(base, { recursive: true });
    linkRepositories(conn.baseurl, base, 2);
    await seedRepositories(conn.seedFrom, base);
    out[name] = { ...conn, baseurl: base };
  }
  return out;
}

/** Link every repository under `from` (projects may have one organisation level) into `to`. */
function linkRepositories(from: string, to: string, depth: number): void {
  if (!existsSync(from)) {
    return;
  }
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const isRepository =
      entry.name.endsWith('.git') || existsSync(path.join(source, '.git')) || existsSync(path.join(source, 'HEAD'));
    if (isRepository) {
      symlinkSync(source, path.join(to, entry.name));
    } else if (entry.isDirectory() && depth > 1) {
      mkdirSync(path.join(to, entry.name), { recursive: true });
      linkRepositories(source, path.join(to, entry.name), depth - 1);
    }
  }
}

/** A source of keys that has none: every encrypted secret fails to decrypt for `reason`. */
function noKeys(reason: string): SecretsKeySource {
  return {
    secretsKey: () => Promise.reject(new Error(reason)),
  };
}

/**
 * The projects' stored secrets keys, read-only: without a key-encryption secret or without the
 * database (which validation does not create), or for a project without a stored key, each
 * encrypted secret is an error saying which.
 */
async function storedKeySource(
  config: ServiceConfig,
  options: ValidateOptions,
): Promise<{ source: SecretsKeySource; close(): Promise<void> }> {
  const none = async () => undefined;
  const secret = await readKeyEncryptionSecret(config.auth, config.dataDir);
  if (secret === undefined || options.openDatabase === undefined) {
    return { source: noKeys('no key-encryption secret is configured or stored in the data directory'), close: none };
  }
  const missing = await options.missingDatabase?.(config);
  if (missing !== undefined) {
    return {
      source: noKeys(`${missing}, so it stores no key; sluice migrate creates it, sluice encrypt a project's key`),
      close: none,
    };
  }
  const database = options.openDatabase(config);
  try {
    await migrateLatest(database.knex);
  } catch (err) {
    await database.close();
    throw err;
  }
  const keys = new KeyManager({
    repository: new KeyRepository(database.knex),
    encryptor: await KeyEncryptor.fromSecret(secret),
  });
  return {
    source: {
      secretsKey: async (project) => {
        const key = await keys.storedSecretsKey(project);
        if (key === undefined) {
          throw new Error(`no secrets key is stored for ${project}`);
        }
        return key;
      },
    },
    close: () => database.close(),
  };
}

async function validateTenants(
  config: ServiceConfig,
  text: string,
  connections: ConnectionSet,
  report: ValidationReport,
  options: { skipped: ReadonlySet<string>; secretKeys: SecretsKeySource | undefined },
): Promise<void> {
  const { abide, problems } = readTenantFile(text, connections);
  for (const p of problems.filter((x) => x.tenant === undefined)) {
    report.lines.push(`error: ${config.tenantConfig}${p.line !== undefined ? `:${p.line}` : ''}: ${p.message}`);
    report.errors++;
  }
  if (problems.length === 0) {
    report.lines.push(`tenant file ${config.tenantConfig}: ok`);
  }
  for (const tenant of abide.tenants) {
    const remote = tenant.projects.filter((project) => options.skipped.has(project.connectionName));
    if (remote.length > 0) {
      // A layout without some of its projects would report errors that are not there.
      const over = [...new Set(remote.map((project) => project.connectionName))].join(', ');
      report.lines.push(
        `tenant ${tenant.name}: not loaded (--offline): ${remote.length} of its ${tenant.projects.length} project(s) are on remote connection(s) ${over}`,
      );
      continue;
    }
    const secretKeys = options.secretKeys;
    const layout = await loadTenantLayout(
      tenant,
      abide,
      problems,
      connections,
      secretKeys === undefined ? {} : { secretKeys: async () => secretKeys },
    );
    const errors = layout.errors.filter((e) => e.severity === 'error').length;
    report.lines.push(
      `tenant ${tenant.name}: ${layout.projects.size} project(s), ${layout.pipelines.size} pipeline(s), ${layout.jobs.size} job(s), ${errors} error(s), ${layout.errors.length - errors} warning(s)`,
    );
    for (const e of layout.errors) {
      report.lines.push(describeError(tenant.name, e));
      if (e.severity === 'error') {
        report.errors++;
      } else {
        report.warnings++;
      }
    }
  }
}

function describeError(tenant: string, e: ConfigError): string {
  const c = e.sourceContext;
  const where =
    c === undefined
      ? `tenant ${tenant}`
      : `${c.projectName}${c.branch !== undefined ? `@${c.branch}` : ''}${c.path !== undefined ? ` ${c.path}` : ''}${e.line !== undefined ? `:${e.line}` : ''}`;
  return `${e.severity}: [${e.name}] ${where}: ${e.shortError}`;
}
