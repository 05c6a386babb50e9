/**
 * The GraphQL context: what every resolver may use. It is built per request (and per
 * subscription event) by `createContext`; the long-lived parts live in `Services`.
 */
import type { Knex } from 'knex';
import type { Layout, LayoutProject } from '../../src/config/layout';
import type { ProposedLayout } from '../../src/config/proposed-layout';
import type { ConsoleSource } from '../console-log';
import type { ServiceConfig } from '../../src/config/service';
import type { Engine } from '../../src/engine/engine';
import type { TokenAuthenticator } from '../../src/auth/authenticator';
import type { AccessPolicySource, RequestAuth } from '../../src/auth/gate';
import type { KeyManager } from '../../src/auth/keys/key-manager';
import type { ChangeSignal } from '../../src/auth/change-signal';
import type { Principal } from '../../src/auth/principal';
import type { TokenBucketLimiter } from '../../src/auth/rate-limit';
import type { LiveFeeds } from './live-feeds';
import type { Redactor } from '../../src/secrets/redact';

/**
 * Which tenants exist and their current layouts. The LayoutManager implements it; tests that
 * only need tenant names may pass a catalog whose `layout()` returns undefined.
 */
export interface TenantCatalog {
  tenantNames(): readonly string[];
  /** The tenant's current layout; undefined for unknown tenants and for name-only catalogs. */
  layout(tenant: string): Layout | undefined;
  /**
   * The layout a branch or change ref of `project` would run with, the ref's proposed
   * configuration applied (`Tenant.freezePipeline`); absent in catalogs that read no repositories.
   */
  proposedLayout?(layout: Layout, project: LayoutProject, ref: string): Promise<ProposedLayout>;
}

/** Authentication and authorization services (docs/security.md). */
export interface AuthServices {
  /** Verifies bearer tokens; built once at start-up from `config.auth`. */
  authenticator(): Promise<TokenAuthenticator>;
  /** The current tenants' access and admin rules (replaced on reconfiguration). */
  policies(): AccessPolicySource;
  /** Control operations per caller and tenant (`config.graphql.controlRateLimit`). */
  controlLimiter: TokenBucketLimiter;
  /** Project and tenant keys (opened on first use: it may create the key-encryption secret). */
  keys(): Promise<KeyManager>;
  /** Fires when reconfiguration reloads the policies: open subscriptions re-check read access. */
  policyChanges?: ChangeSignal;
}

/** Long-lived dependencies shared by every request. */
export interface Services {
  config: ServiceConfig;
  knex: Knex;
  tenants: TenantCatalog;
  version: string;
  /** Injected clock so tests can control time. */
  now(): Date;
  /** The gating engine's API (status, control operations); null when this process has none. */
  engine: Engine | null;
  /** Live feeds for subscriptions; null when subscriptions are not served. */
  live: LiveFeeds | null;
  auth: AuthServices;
  /** Build output for `consoleLog`; null when this process runs no executor. */
  console: ConsoleSource | null;
  /** Masks the decrypted values of the loaded secrets in every result (absent: nothing to mask). */
  secretRedactor?: () => Redactor;
}

/** Who is calling: a verified token's subject, claims and authenticator (see src/auth/principal.ts). */
export type { Principal } from '../../src/auth/principal';

export interface GraphQLContext {
  services: Services;
  /** How this request (or WebSocket connection) authenticated, and its per-tenant decisions. */
  auth: RequestAuth;
  /** The verified caller, or null (anonymous, or a token that failed). */
  principal: Principal | null;
  requestId: string;
  /**
   * Reads that many callers make at once (the status) may be served from a value computed once
   * per change (REST, docs/live.md#status-computation); GraphQL reads always load afresh.
   */
  sharedReads?: boolean;
}

/** The context of one request (or one graphql-ws operation). */
export function createContext(
  services: Services,
  requestId: string,
  auth: RequestAuth,
  sharedReads = false,
): GraphQLContext {
  return { services, auth, principal: auth.principal, requestId, sharedReads };
}

/**
 * A getter of a value built once per set of services and shared by every request over them (for
 * repositories, which hold no per-request state).
 */
export function perServices<T>(create: (knex: Knex) => T): (ctx: GraphQLContext) => T {
  const made = new WeakMap<Services, T>();
  return (ctx) => {
    let value = made.get(ctx.services);
    if (value === undefined) {
      value = create(ctx.services.knex);
      made.set(ctx.services, value);
    }
    return value;
  };
}
