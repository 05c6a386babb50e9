/**
 * The service configuration: one YAML file parsed once at start into a typed, validated object.
 * Every key is documented in docs/configuration.md. Relative paths are resolved against the
 * directory of the configuration file, so a deployment directory can be moved as a whole.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import type { ConnectionPublicInfo, ConnectionSettings } from '../drivers/driver';
import { driverOf } from '../drivers/registry';
import { componentsSection, executorSection, metricsSection, rolesKey } from './operations-sections';
import { filesNamedBy, fileProblem } from './service-files';
import { authSection, connection, graphqlSection, oidcSection, webSite, type AuthConfig } from './service-sections';

export type { AuthConfig, AuthenticatorConfig, GraphQLHardeningConfig } from './service-sections';

export const serviceConfigSchema = z
  .object({
    listen: z
      .object({
        host: z.string().min(1).default('0.0.0.0'),
        port: z.number().int().min(0).max(65535).default(9000),
      })
      .strict()
      .default({ host: '0.0.0.0', port: 9000 }),
    database: z
      .object({
        /** PostgreSQL URL; when absent the embedded PGlite store in `dataDir` is used. */
        url: z.string().min(1).optional(),
        /** `application_name` of this process's sessions (docs/operations.md#database-links). */
        applicationName: z
          .string()
          .regex(/^[\x20-\x7e]{1,40}$/, 'printable ASCII, at most 40 characters')
          .default('sluice'),
      })
      .strict()
      .default({ applicationName: 'sluice' }),
    dataDir: z.string().min(1).default('data'),
    tenantConfig: z.string().min(1).optional(),
    connections: z
      .record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'connection names use letters, digits, _ . -'), connection)
      .default({}),
    api: z
      .object({
        restShape: z.enum(['current', 'earlier']).default('current'),
        /** Public base URL of this service, used in links the API hands out. */
        publicUrl: z.string().url().optional(),
      })
      .strict()
      .default({ restShape: 'current' }),
    logs: z
      .object({
        /** Directory that receives one log directory per build. */
        dir: z.string().min(1).optional(),
        /** Public URL prefix of `dir`; when it points at this service, Sluice serves the logs itself. */
        url: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
    web: z
      .object({
        /** Serve the built-in dashboard (web/) at `/`. */
        dashboard: z.boolean().default(true),
        sites: z
          .array(webSite)
          .refine(
            (sites) => new Set(sites.map((site) => site.path.replace(/\/$/, ''))).size === sites.length,
            'two sites have the same path',
          )
          .default([]),
      })
      .strict()
      .default({ dashboard: true, sites: [] }),
    shutdownTimeout: z.number().positive().default(10),
    components: componentsSection,
    metrics: metricsSection,
    scheduler: z
      .object({
        /** Seconds a tenant's leadership lease lasts without renewal (docs/operations.md#leadership-model). */
        leaseTimeout: z.number().min(1).max(3600).default(15),
        /**
         * Seconds between a leading scheduler's looks for new events when nothing woke it: the
         * fallback for a lost wake-up (docs/operations.md#wake-ups).
         */
        pollInterval: z.number().min(0.05).max(60).default(1),
        /**
         * Seconds a pass takes new events before it commits and leaves the rest to the next
         * pass (docs/operations.md#takeovers-under-repeated-kills).
         */
        passBudget: z.number().min(0.1).max(600).default(2),
      })
      .strict()
      .default({ leaseTimeout: 15, pollInterval: 1, passBudget: 2 }),
    auth: authSection.default({ authenticators: [] }),
    graphql: graphqlSection.default(graphqlSection.parse({})),
    executor: executorSection,
    oidc: oidcSection,
    roles: rolesKey,
    redis: z
      .object({
        /** Redis URL; when set, the event bus fans out through Redis pub/sub. */
        url: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
        /** Prefix of the pub/sub channels: deployments sharing one Redis server need different ones. */
        channelPrefix: z
          .string()
          .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits, _ . : - (at most 64)')
          .default('sluice:'),
      })
      .strict()
      .optional(),
  })
  .strict();

export type ServiceConfig = z.infer<typeof serviceConfigSchema> & {
  /** Absolute path of the file the configuration came from (undefined for built-in defaults). */
  source?: string;
};

/** A configuration problem; `message` names the file and the key. */
export class ServiceConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ServiceConfigError';
  }
}

export interface ConfigEnvironment {
  PORT?: string;
  DATABASE_URL?: string;
}

/** Parse the YAML text of a service configuration file; `file` is used in messages and for relative paths. */
export function parseServiceConfig(text: string, file: string, env: ConfigEnvironment = {}): ServiceConfig {
  return parseLocated(text, file, env).config;
}

/** The parsed configuration and `at(keyPath)`: `<file>:<line>: <key>` for messages about a key. */
function parseLocated(
  text: string,
  file: string,
  env: ConfigEnvironment,
): { config: ServiceConfig; at: (keyPath: Array<string | number>) => string } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    throw new ServiceConfigError(
      doc.errors.map((e) => `${file}: YAML error: ${(e.message.split('\n')[0] ?? '').replace(/:$/, '')}`),
    );
  }
  const raw: unknown = doc.toJS() ?? {};
  const result = serviceConfigSchema.safeParse(raw);
  if (!result.success) {
    throw new ServiceConfigError(
      result.error.issues.map((issue) => describeIssue(file, issue, (p) => lineOf(doc, lineCounter, p))),
    );
  }
  const config: ServiceConfig = { ...result.data, source: path.resolve(file) };
  applyEnvironment(config, env);
  resolvePaths(config, path.dirname(path.resolve(file)));
  const at = (keyPath: Array<string | number>): string =>
    `${file}${locate(lineOf(doc, lineCounter, keyPath))}: ${keyPath.join('.')}`;
  const unbuilt = config.web.sites.flatMap((site, index) =>
    existsSync(path.join(site.dir, 'index.html'))
      ? []
      : [`${at(['web', 'sites', index, 'dir'])}: ${site.dir} has no index.html`],
  );
  if (unbuilt.length > 0) {
    throw new ServiceConfigError(unbuilt);
  }
  return { config, at };
}

/**
 * Read and parse a configuration file, and check the files it names
 * (docs/configuration.md#files-the-configuration-names).
 */
export function loadServiceConfig(file: string, env: ConfigEnvironment = {}): ServiceConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ServiceConfigError([
      `${file}: cannot read the configuration file (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    ]);
  }
  const { config, at } = parseLocated(text, file, env);
  const generated = (name: string): boolean => name === LOCAL_ADMIN.name && config.auth.localAdmin === true;
  const problems = filesNamedBy(config, generated).flatMap((named) => {
    const problem = fileProblem(named);
    return problem === undefined ? [] : [`${at(named.keyPath)}: ${problem}`];
  });
  if (problems.length > 0) {
    throw new ServiceConfigError(problems);
  }
  return config;
}

/** The configuration used when no file is given: everything at its default, paths relative to `cwd`. */
export function defaultServiceConfig(cwd: string, env: ConfigEnvironment = {}): ServiceConfig {
  const config: ServiceConfig = serviceConfigSchema.parse({});
  applyEnvironment(config, env);
  resolvePaths(config, cwd);
  return config;
}

function applyEnvironment(config: ServiceConfig, env: ConfigEnvironment): void {
  if (env.PORT !== undefined && env.PORT !== '') {
    const port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new ServiceConfigError([`environment: PORT must be an integer between 0 and 65535, got "${env.PORT}"`]);
    }
    config.listen.port = port;
  }
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    config.database.url = env.DATABASE_URL;
  }
}

function resolvePaths(config: ServiceConfig, base: string): void {
  config.dataDir = path.resolve(base, config.dataDir);
  if (config.tenantConfig !== undefined) {
    config.tenantConfig = path.resolve(base, config.tenantConfig);
  }
  config.logs.dir = path.resolve(base, config.logs.dir ?? path.join(config.dataDir, 'logs'));
  if (config.executor.workRoot !== undefined) {
    // Unset stays unset: the executor places workspaces under whatever `dataDir` is at start.
    config.executor.workRoot = path.resolve(base, config.executor.workRoot);
  }
  resolveAuthPaths(config.auth, base);
  for (const site of config.web.sites) {
    site.dir = path.resolve(base, site.dir);
  }
  addLocalAdminAuthenticator(config);
  for (const conn of Object.values(config.connections)) {
    driverOf(conn)?.connection?.resolvePaths?.(conn, (file) => path.resolve(base, file));
    if (conn.driver === 'local' && conn.root !== undefined) {
      conn.root = path.resolve(base, conn.root);
    }
    if (conn.driver === 'static' && conn.sshKeyFile !== undefined) {
      conn.sshKeyFile = path.resolve(base, conn.sshKeyFile);
    }
  }
}

function resolveAuthPaths(auth: AuthConfig, base: string): void {
  if (auth.keyEncryptionKeyFile !== undefined) {
    auth.keyEncryptionKeyFile = path.resolve(base, auth.keyEncryptionKeyFile);
  }
  for (const a of auth.authenticators) {
    if (a.driver === 'HS256' && a.secretFile !== undefined) {
      a.secretFile = path.resolve(base, a.secretFile);
    }
    if ((a.driver === 'RS256' || a.driver === 'ES256') && a.publicKeyFile !== undefined) {
      a.publicKeyFile = path.resolve(base, a.publicKeyFile);
    }
    if (a.driver !== 'HS256' && a.jwksFile !== undefined) {
      a.jwksFile = path.resolve(base, a.jwksFile);
    }
  }
}

/** Name, issuer and file of the authenticator `auth.localAdmin` adds. */
export const LOCAL_ADMIN = { name: 'local', issuer: 'sluice-local', clientId: 'sluice', file: 'local-admin.secret' };

function addLocalAdminAuthenticator(config: ServiceConfig): void {
  if (config.auth.localAdmin !== true) {
    return;
  }
  if (config.auth.authenticators.some((a) => a.name === LOCAL_ADMIN.name)) {
    throw new ServiceConfigError([
      `${config.source ?? '(defaults)'}: auth.localAdmin adds an authenticator named "${LOCAL_ADMIN.name}": rename the configured one`,
    ]);
  }
  config.auth.authenticators.push({
    name: LOCAL_ADMIN.name,
    driver: 'HS256',
    secretFile: path.join(config.dataDir, LOCAL_ADMIN.file),
    issuer: LOCAL_ADMIN.issuer,
    clientId: LOCAL_ADMIN.clientId,
    uidClaim: 'sub',
    clockSkew: 0,
    allowAuthzOverride: true,
    default: false,
  });
}

function describeIssue(file: string, issue: z.core.$ZodIssue, line: (p: PropertyKey[]) => number | undefined): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (where === '(top level)' ? k : `${where}.${k}`));
    const at = locate(line([...issue.path, issue.keys[0]]));
    return `${file}${at}: unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`;
  }
  const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  const message = inner ?? (issue.message.endsWith('received undefined') ? 'is required' : issue.message);
  return `${file}${locate(line(issue.path))}: ${where}: ${message}`;
}

function locate(line: number | undefined): string {
  return line === undefined ? '' : `:${line}`;
}

/** The 1-based line of the key at `keyPath`, or of its closest existing parent. */
function lineOf(doc: Document, counter: LineCounter, keyPath: PropertyKey[]): number | undefined {
  for (let n = keyPath.length; n > 0; n--) {
    const parent = n === 1 ? doc.contents : doc.getIn(keyPath.slice(0, n - 1), true);
    if (isMap(parent)) {
      const pair = parent.items.find(
        (item) => String((item.key as { value?: unknown })?.value ?? item.key) === String(keyPath[n - 1]),
      );
      const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
      if (range) {
        return counter.linePos(range[0]).line;
      }
    }
  }
  return undefined;
}

/**
 * What the connection listings say of a connection, as its driver says
 * (docs/rest.md#components-and-connections); undefined for a connection without a source.
 */
export function connectionPublicInfo(
  connectionName: string,
  settings: ConnectionSettings,
): (ConnectionPublicInfo & { name: string; driver: string }) | undefined {
  const info = driverOf(settings)?.connection?.publicInfo?.(connectionName, settings);
  return info === undefined ? undefined : { name: connectionName, driver: settings.driver, ...info };
}

/**
 * Host part of canonical project names (`<host>/<project>`) of a connection, as its driver says
 * (a git connection's `canonicalHostname`, else its name). Every component derives names through this.
 */
export function canonicalHostnameOf(connectionName: string, settings: ConnectionSettings | undefined): string {
  const spec = settings === undefined ? undefined : driverOf(settings)?.connection;
  return settings === undefined || spec === undefined
    ? connectionName
    : spec.canonicalHostname(connectionName, settings);
}
