/**
 * The GraphQL context: what every resolver may use. It is built per request (and per
 * subscription event) by `createContext`; the long-lived parts live in `Services`.
 */
import type { Knex } from 'knex';
import type { Layout } from '../src/config/layout';
import type { ConsoleSource } from './console-log';
import type { ServiceConfig } from '../src/config/service';
import type { Principal } from '../src/auth/principal';
import type { Engine } from '../src/engine/engine';
import type { LiveFeeds } from './live-feeds';

/**
 * Which tenants exist and their current layouts. The LayoutManager implements it; tests that
 * only need tenant names may pass a catalog whose `layout()` returns undefined.
 */
export interface TenantCatalog {
  tenantNames(): readonly string[];
  /** The tenant's current layout; undefined for unknown tenants and for name-only catalogs. */
  layout(tenant: string): Layout | undefined;
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
  /** Verifies a bearer token (HTTP `Authorization`, or graphql-ws `connectionParams`); null = anonymous. */
  authenticate: Authenticate | null;
  /** Build output for `consoleLog`; null when this process runs no executor. */
  console: ConsoleSource | null;
}

/** Turns a bearer token into a principal, or null when it is not valid. */
export type Authenticate = (token: string) => Promise<Principal | null>;

/** Who is calling: a verified token's subject, claims and authenticator (see src/auth/principal.ts). */
export type { Principal } from '../src/auth/principal';

export interface GraphQLContext {
  services: Services;
  principal: Principal | null;
  requestId: string;
}

export function createContext(services: Services, requestId: string, principal: Principal | null = null): GraphQLContext {
  return { services, principal, requestId };
}
