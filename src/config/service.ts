/**
 * The service configuration: one YAML file parsed once at start into a typed, validated object.
 * Every key is documented in docs/configuration.md. Relative paths are resolved against the
 * directory of the configuration file, so a deployment directory can be moved as a whole.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { githubConnection } from './github-connection-schema';
import { componentsSection, metricsSection } from './operations-sections';
import { refUrlTemplateProblem } from './ref-urls';

const reservedSection = (name: string) =>
  z.object({}, { error: () => `the "${name}" section must be a mapping` }).strict();

/** A ref URL template (docs/configuration.md#ref-url-templates): known placeholders only. */
const refUrlTemplate = z
  .string()
  .min(1)
  .superRefine((template, ctx) => {
    const problem = refUrlTemplateProblem(template);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
    }
  });

const gitConnection = z
  .object({
    driver: z.literal('git'),
    /** A directory holding one bare or non-bare repository per project, or a URL prefix git can clone. */
    baseurl: z.string().min(1),
    /** Seconds between polls for branch and change updates. */
    pollInterval: z.number().positive().default(60),
    /** Host name used in canonical project names (`<canonicalHostname>/<project>`). */
    canonicalHostname: z.string().min(1).optional(),
    /**
     * A directory of plain project directories; at start, each one that has no repository under
     * `baseurl` yet becomes a git repository there (used by the quickstart).
     */
    seedFrom: z.string().min(1).optional(),
    /** Web links of changes, branch heads and commits (docs/configuration.md#ref-url-templates). */
    changeUrlTemplate: refUrlTemplate.optional(),
    branchUrlTemplate: refUrlTemplate.optional(),
    gitwebUrlTemplate: refUrlTemplate.optional(),
  })
  .strict();

/**
 * One token authenticator (docs/security.md#authenticators). Tokens are routed to the authenticator whose
 * `issuer` equals the token's `iss` claim.
 */
const authenticatorBase = {
  /** Unique name; `sluice token create --authenticator NAME` refers to it. */
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'authenticator names use letters, digits, _ . -'),
  /** Realm named in WWW-Authenticate and in `/api/info`; defaults to the name. */
  realm: z.string().min(1).optional(),
  /** Expected `iss` claim. */
  issuer: z.string().min(1),
  /** OAuth client id the dashboard uses; the expected audience unless `audience` is given. */
  clientId: z.string().min(1),
  /** Expected `aud` claim (string, or one of a list in the token); defaults to `clientId`. */
  audience: z.string().min(1).optional(),
  /** Shown to dashboards as the OIDC authority; defaults to `issuer`. */
  authority: z.string().min(1).optional(),
  /** Claim holding the user id; rules may refer to it as `zuul_uid`. */
  uidClaim: z.string().min(1).default('sub'),
  /** Seconds of clock difference tolerated for `exp`, `nbf` and `iat`. */
  clockSkew: z.number().int().min(0).default(0),
  /** Reject tokens whose `iat` is older than this many seconds (requires `iat`). */
  maxTokenAge: z.number().int().positive().optional(),
  /** Trust the token's `zuul.admin` tenant list (tokens minted by `sluice token create`). */
  allowAuthzOverride: z.boolean().default(false),
  /** Marks the default realm offered to dashboards (at most one authenticator). */
  default: z.boolean().default(false),
};

const hs256Authenticator = z
  .object({
    ...authenticatorBase,
    driver: z.literal('HS256'),
    /** Shared secret (UTF-8); give either `secret` or `secretFile`. */
    secret: z.string().min(1).optional(),
    secretFile: z.string().min(1).optional(),
  })
  .strict()
  .refine((a) => (a.secret === undefined) !== (a.secretFile === undefined), {
    message: 'give exactly one of "secret" and "secretFile"',
    path: ['secret'],
  });

const publicKeyAuthenticator = (driver: 'RS256' | 'ES256') =>
  z
    .object({
      ...authenticatorBase,
      driver: z.literal(driver),
      /** PEM public key (SubjectPublicKeyInfo or PKCS#1 for RS256). */
      publicKeyFile: z.string().min(1).optional(),
      /** A JWKS document on disk; the key is chosen by the token's `kid`. */
      jwksFile: z.string().min(1).optional(),
    })
    .strict()
    .refine((a) => (a.publicKeyFile === undefined) !== (a.jwksFile === undefined), {
      message: 'give exactly one of "publicKeyFile" and "jwksFile"',
      path: ['publicKeyFile'],
    });

const oidcAuthenticator = z
  .object({
    ...authenticatorBase,
    driver: z.literal('OpenIDConnect'),
    /** JWKS URL; discovered from `<issuer>/.well-known/openid-configuration` when absent. */
    keysUrl: z.string().url().optional(),
    /** A JWKS document on disk instead of a URL (offline deployments, tests). */
    jwksFile: z.string().min(1).optional(),
    /** Scope the dashboard requests. */
    scope: z.string().min(1).default('openid profile'),
    /** Whether the dashboard loads the user-info document. */
    loadUserInfo: z.boolean().default(true),
    /** Seconds a fetched JWKS is reused before it is fetched again. */
    keysCacheTtl: z.number().int().positive().default(600),
  })
  .strict()
  .refine((a) => a.keysUrl === undefined || a.jwksFile === undefined, {
    message: 'give at most one of "keysUrl" and "jwksFile"',
    path: ['keysUrl'],
  });

const authenticator = z.discriminatedUnion(
  'driver',
  [hs256Authenticator, publicKeyAuthenticator('RS256'), publicKeyAuthenticator('ES256'), oidcAuthenticator],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'unknown authenticator driver (supported: HS256, RS256, ES256, OpenIDConnect)'
        : undefined,
  },
);

const authSection = z
  .object(
    {
      authenticators: z.array(authenticator).default([]),
      /**
       * Secret protecting private keys at rest (AES-256-GCM); any long random string. Give this,
       * or `keyEncryptionKeyFile`; without either, one is generated in `dataDir` on first start.
       */
      keyEncryptionKey: z.string().min(16, 'must be at least 16 characters').optional(),
      keyEncryptionKeyFile: z.string().min(1).optional(),
      /**
       * A per-install admin secret in `<dataDir>/local-admin.secret` (created on first use) and
       * the HS256 authenticator `local` that trusts it, so `sluice token create` works without
       * configuring a secret. For a machine you control only (docs/security.md#local-admin-tokens-authlocaladmin).
       */
      localAdmin: z.boolean().optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'the "auth" section must be a mapping' : undefined) },
  )
  .strict()
  .superRefine((auth, ctx) => {
    if (auth.keyEncryptionKey !== undefined && auth.keyEncryptionKeyFile !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'give at most one of "keyEncryptionKey" and "keyEncryptionKeyFile"',
        path: ['keyEncryptionKey'],
      });
    }
    const names = new Set<string>();
    auth.authenticators.forEach((a, i) => {
      if (names.has(a.name)) {
        ctx.addIssue({
          code: 'custom',
          message: `duplicate authenticator name "${a.name}"`,
          path: ['authenticators', i, 'name'],
        });
      }
      names.add(a.name);
    });
    const defaults = auth.authenticators.filter((a) => a.default);
    if (defaults.length > 1) {
      ctx.addIssue({
        code: 'custom',
        message: 'at most one authenticator may set "default: true"',
        path: ['authenticators'],
      });
    }
  });

export type AuthConfig = z.infer<typeof authSection>;

/** Limits of the GraphQL endpoint (HTTP and WebSocket); docs/security.md explains each. */
const graphqlSection = z
  .object(
    {
      /** Schema introspection (GraphiQL, codegen); operators may switch it off. */
      introspection: z.boolean().default(true),
      /** Deepest selection nesting (fragments do not count as a level). */
      maxDepth: z.number().int().positive().default(12),
      /**
       * Estimated cost: 2 per object, 1 per scalar, growing 1.5x with depth, times page sizes. The
       * default admits a dashboard's 50 builds with every REST field (about 39,000).
       */
      maxCost: z.number().int().positive().default(50_000),
      maxAliases: z.number().int().min(0).default(15),
      maxDirectives: z.number().int().min(0).default(50),
      /** Lexical tokens in one document. */
      maxTokens: z.number().int().positive().default(2000),
      /** Deepest nesting of brackets, braces and parentheses in one document, checked before parsing. */
      maxNesting: z.number().int().positive().default(64),
      /** Bytes of a request body (HTTP) or of one WebSocket message. */
      maxBodyBytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      /** Refuse "simple" browser requests (GET or form posts without a preflight-forcing header). */
      csrfPrevention: z.boolean().default(true),
      /** Control operations (enqueue, dequeue, ...) per token and tenant: a token bucket. */
      controlRateLimit: z
        .object({
          /** Operations allowed at once. */
          burst: z.number().int().positive().default(30),
          /** Sustained rate. */
          perMinute: z.number().positive().default(60),
        })
        .strict()
        .default({ burst: 30, perMinute: 60 }),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'the "graphql" section must be a mapping' : undefined) },
  )
  .strict();

export type GraphQLHardeningConfig = z.infer<typeof graphqlSection>;
export type AuthenticatorConfig = AuthConfig['authenticators'][number];

const timerConnection = z.object({ driver: z.literal('timer') }).strict();

/** Launcher connection whose nodes are workspace directories on the executor host (docs/launcher.md). */
const localConnection = z
  .object({
    driver: z.literal('local'),
    /** Directory holding node workspaces and uploaded images; default `<dataDir>/launcher/<connection>`. */
    root: z.string().min(1).optional(),
  })
  .strict();

/** Launcher connection whose nodes are hosts listed in the provider configuration, reached over SSH. */
const staticConnection = z
  .object({
    driver: z.literal('static'),
    /** Private key (file, mode 0600) the executor logs in to this connection's hosts with. */
    sshKeyFile: z.string().min(1).optional(),
  })
  .strict();

/** URL paths the service answers itself; a static site may not be mounted on or below them. */
export const RESERVED_WEB_PATHS = ['/api', '/graphql', '/graphiql', '/health', '/logs'];

/** A static single-page build served from `dir` under `path` (docs/configuration.md#keys, `web.sites`). */
const webSite = z
  .object({
    /** URL path prefix, e.g. `/zuul`; `/` replaces the built-in dashboard. */
    path: z
      .string()
      .regex(
        /^(\/|(\/[A-Za-z0-9][A-Za-z0-9._~-]*)+\/?)$/,
        'must be a URL path such as "/" or "/legacy" (segments of letters, digits, . _ ~ -)',
      )
      .refine(
        (value) => !RESERVED_WEB_PATHS.some((r) => value === r || value.startsWith(`${r}/`)),
        `must not be one of the service's own paths (${RESERVED_WEB_PATHS.join(', ')})`,
      ),
    /** Directory holding the build; its `index.html` answers every path that names no file. */
    dir: z.string().min(1),
  })
  .strict();

const connection = z.discriminatedUnion(
  'driver',
  [gitConnection, githubConnection, timerConnection, localConnection, staticConnection],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'unknown connection driver (supported: git, github, timer, local, static)'
        : undefined,
  },
);

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
      })
      .strict()
      .default({ leaseTimeout: 15 }),
    auth: authSection.default({ authenticators: [] }),
    graphql: graphqlSection.default(graphqlSection.parse({})),
    executor: reservedSection('executor').optional(),
    redis: z
      .object({
        /** Redis URL; when set, the event bus fans out through Redis pub/sub. */
        url: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    throw new ServiceConfigError(doc.errors.map((e) => `${file}: YAML error: ${e.message.split('\n')[0]}`));
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
  const unbuilt = config.web.sites.flatMap((site, index) =>
    existsSync(path.join(site.dir, 'index.html'))
      ? []
      : [
          `${file}${locate(lineOf(doc, lineCounter, ['web', 'sites', index, 'dir']))}: web.sites.${index}.dir: ${site.dir} has no index.html`,
        ],
  );
  if (unbuilt.length > 0) {
    throw new ServiceConfigError(unbuilt);
  }
  return config;
}

/** Read and parse a configuration file. */
export function loadServiceConfig(file: string, env: ConfigEnvironment = {}): ServiceConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ServiceConfigError([
      `${file}: cannot read the configuration file (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    ]);
  }
  return parseServiceConfig(text, file, env);
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
  resolveAuthPaths(config.auth, base);
  for (const site of config.web.sites) {
    site.dir = path.resolve(base, site.dir);
  }
  addLocalAdminAuthenticator(config);
  for (const conn of Object.values(config.connections)) {
    if (conn.driver === 'git' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(conn.baseurl)) {
      conn.baseurl = path.resolve(base, conn.baseurl);
    }
    if (conn.driver === 'git' && conn.seedFrom !== undefined) {
      conn.seedFrom = path.resolve(base, conn.seedFrom);
    }
    if (conn.driver === 'github') {
      for (const key of ['appKeyFile', 'apiTokenFile', 'webhookTokenFile'] as const) {
        const file = conn[key];
        if (file !== undefined) {
          conn[key] = path.resolve(base, file);
        }
      }
    }
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
      `auth.localAdmin adds an authenticator named "${LOCAL_ADMIN.name}": rename the configured one`,
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

const RESERVED_SECTIONS = new Set(['executor']);

function describeIssue(file: string, issue: z.core.$ZodIssue, line: (p: PropertyKey[]) => number | undefined): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (where === '(top level)' ? k : `${where}.${k}`));
    const at = locate(line([...issue.path, issue.keys[0]]));
    if (issue.path.length === 1 && RESERVED_SECTIONS.has(String(issue.path[0]))) {
      return `${file}${at}: ${where}: the section is reserved for a later release and accepts no keys yet (found ${keys.map((k) => `"${k}"`).join(', ')})`;
    }
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
 * Host part of canonical project names (`<host>/<project>`) for a git connection: its
 * `canonicalHostname`, else the connection's name. Every component derives names through this.
 */
export function canonicalHostnameOf(
  connectionName: string,
  connection: { canonicalHostname?: string } | undefined,
): string {
  return connection?.canonicalHostname ?? connectionName;
}
