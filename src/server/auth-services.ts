/**
 * Start-up assembly of the security services (docs/security.md): the token authenticator, the
 * access policies of the tenant file, the control rate limiter and the key manager.
 */
import type { Knex } from 'knex';
import type { AuthServices, TenantCatalog } from '../../schema/infra/context';
import { createTokenAuthenticator, type TokenAuthenticator } from '../auth/authenticator';
import { ensureLocalAdminSecret } from '../auth/local-admin';
import { tenantFilePolicies, type AccessPolicy, type AccessPolicySource } from '../auth/gate';
import { KeyEncryptor, resolveKeyEncryptionSecret } from '../auth/keys/key-encryption';
import { KeyManager, type KeySizes } from '../auth/keys/key-manager';
import { TokenBucketLimiter } from '../auth/rate-limit';
import type { ChangeSignal } from '../auth/change-signal';
import type { ServiceConfig } from '../config/service';
import type { Abide } from '../config/tenant-file';
import { OidcSigningKeyRepository } from '../store/repositories/oidc-signing-keys';
import { KeyRepository } from '../store/repositories/keys';
import type { Logger } from './logger';

export interface AuthServicesOptions {
  config: ServiceConfig;
  knex: Knex;
  tenants: TenantCatalog;
  logger: Logger;
  now: () => Date;
  /** Replaces the authenticators of `config.auth` (tests). */
  authenticator?: TokenAuthenticator;
  /** The tenant file as last loaded (the layout manager's `abide()`); policies follow it. */
  abide?: () => Abide | undefined;
  /** Replaces the policies of the tenant file (tests). */
  policies?: () => AccessPolicySource;
  /** The process's key manager (shared with the layout manager and the executor); default: `lazyKeyManager`. */
  keys?: () => Promise<KeyManager>;
  /** Fired by the layout manager after each reconfiguration. */
  policyChanges?: ChangeSignal;
}

/** The assembled services and a promise that settles once the authenticators are ready. */
export interface AssembledAuth {
  services: AuthServices;
  /** Rejects when an authenticator's key or secret file cannot be read: the start must fail. */
  ready: Promise<void>;
}

/** Build the security services of one process. */
export function assembleAuthServices(options: AuthServicesOptions): AssembledAuth {
  const { config, knex, logger, now } = options;
  const authenticator = options.authenticator
    ? Promise.resolve(options.authenticator)
    : ensureLocalAdminSecret(config).then(() => createTokenAuthenticator(config.auth, { now: () => now(), logger }));
  const ready = authenticator.then(() => undefined);
  ready.catch(() => undefined); // reported by start(); requests fail on their own
  const policies = options.policies ?? abidePolicySource(options.abide ?? (() => undefined), options.tenants);
  return {
    ready,
    services: {
      authenticator: () => authenticator,
      policies,
      controlLimiter: new TokenBucketLimiter({ ...config.graphql.controlRateLimit, now }),
      keys: options.keys ?? lazyKeyManager(config, knex, logger),
      policyChanges: options.policyChanges,
    },
  };
}

/**
 * The key manager of a process, opened on first use (opening may create the key-encryption
 * secret file); a failed open is retried on the next use (a transient file or database error).
 */
export function lazyKeyManager(
  config: ServiceConfig,
  knex: Knex,
  logger: Logger,
  sizes?: Partial<KeySizes>,
): () => Promise<KeyManager> {
  let keys: Promise<KeyManager> | undefined;
  return () => {
    if (keys === undefined) {
      const opening = openKeyManager(config, knex, logger, sizes);
      keys = opening;
      opening.catch(() => {
        if (keys === opening) {
          keys = undefined;
        }
      });
    }
    return keys;
  };
}

async function openKeyManager(
  config: ServiceConfig,
  knex: Knex,
  logger: Logger,
  sizes: Partial<KeySizes> | undefined,
): Promise<KeyManager> {
  const secret = await resolveKeyEncryptionSecret(config.auth, config.dataDir);
  logger.info({ source: secret.source, file: secret.file }, 'key-encryption secret loaded');
  return new KeyManager({
    repository: new KeyRepository(knex),
    encryptor: await KeyEncryptor.fromSecret(secret.secret),
    sizes,
    oidcRepository: new OidcSigningKeyRepository(knex),
  });
}

const OPEN: AccessPolicy = { accessRules: [], adminRules: [] };

/**
 * Policies from the tenant file's `authorization-rule`, `api-root`, `access-rules` and
 * `admin-rules`, rebuilt whenever a reconfiguration loads a new tenant file. Tenants come from
 * the catalog (a catalog tenant missing from the file, as in tests, is open).
 */
export function abidePolicySource(abide: () => Abide | undefined, tenants: TenantCatalog): () => AccessPolicySource {
  let built: { from: Abide | undefined; policies: AccessPolicySource } | undefined;
  const current = (): AccessPolicySource => {
    const loaded = abide();
    if (built === undefined || built.from !== loaded) {
      built = { from: loaded, policies: policiesOfAbide(loaded) };
    }
    return built.policies;
  };
  const source: AccessPolicySource = {
    rules: () => current().rules(),
    rootPolicy: () => current().rootPolicy(),
    version: () => abide(),
    tenantPolicy: (tenant) =>
      tenants.tenantNames().includes(tenant) ? (current().tenantPolicy(tenant) ?? OPEN) : undefined,
  };
  return () => source;
}

/** The access policies of a parsed tenant file (none loaded: no rules, nothing restricted). */
export function policiesOfAbide(abide: Abide | undefined): AccessPolicySource {
  return tenantFilePolicies({
    rules: abide?.authorizationRules ?? [],
    tenants: (abide?.tenants ?? []).map((t) => ({
      name: t.name,
      accessRules: t.accessRules,
      adminRules: t.adminRules,
      readRestricted: t.readRestricted,
    })),
    apiRoot: abide?.apiRoot ?? null,
  });
}
