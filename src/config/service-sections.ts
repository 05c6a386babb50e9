/**
 * The sections of the service configuration (docs/configuration.md#keys) that have their own
 * schemas: connections, token authenticators and key encryption (`auth`), the GraphQL endpoint's
 * limits (`graphql`) and the static sites of `web.sites`. src/config/service.ts assembles them
 * into the whole file's schema and reads the file.
 */
import { z } from 'zod';
import { DRIVER_CONNECTIONS } from '../drivers/registry';

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

export const authSection = z
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
export const graphqlSection = z
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
      /**
       * Bytes a WebSocket (GraphQL or console stream) may hold unsent for a client that does not
       * read; over it the socket is closed with 4008 (docs/live.md#slow-consumers).
       */
      maxSocketBufferBytes: z
        .number()
        .int()
        .positive()
        .default(4 * 1024 * 1024),
      /** Introspection queries executed at once; others wait their turn (docs/live.md#introspection). */
      introspectionConcurrency: z.number().int().positive().default(1),
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
export const RESERVED_WEB_PATHS = ['/api', '/graphql', '/graphiql', '/health', '/logs', '/oidc'];

/** A static single-page build served from `dir` under `path` (docs/configuration.md#keys, `web.sites`). */
export const webSite = z
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

/** Launcher connections (docs/launcher.md): providers' nodes, not drivers of src/drivers/. */
const LAUNCHER_CONNECTIONS = [localConnection, staticConnection] as const;
const CONNECTION_DRIVERS = [...DRIVER_CONNECTIONS, ...LAUNCHER_CONNECTIONS].map((schema) => schema.shape.driver.value);

export const connection = z.discriminatedUnion('driver', [...DRIVER_CONNECTIONS, ...LAUNCHER_CONNECTIONS], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `unknown connection driver (supported: ${CONNECTION_DRIVERS.join(', ')})`
      : undefined,
});

/** Sluice as an OIDC issuer of workload-identity tokens (docs/configuration.md#keys, `oidc`). */
export const oidcSection = z
  .object({
    /** Algorithms whose signing keys are kept and published (only RS256 exists). */
    supportedSigningAlgorithms: z
      .array(z.enum(['RS256']))
      .min(1)
      .default(['RS256']),
    /** The algorithm of an `oidc` secret that names none. */
    defaultSigningAlgorithm: z.enum(['RS256']).default('RS256'),
    /** Seconds between rotations of the signing keys (one week by default). */
    signingKeyRotationInterval: z.number().int().min(60).default(604_800),
  })
  .strict()
  .refine((oidc) => oidc.supportedSigningAlgorithms.includes(oidc.defaultSigningAlgorithm), {
    message: 'defaultSigningAlgorithm must be one of supportedSigningAlgorithms',
  })
  .default({
    supportedSigningAlgorithms: ['RS256'],
    defaultSigningAlgorithm: 'RS256',
    signingKeyRotationInterval: 604_800,
  });
