/**
 * The GraphQL context: what every resolver may use. It is built per request (and per
 * subscription event) by `createContext`; the long-lived parts live in `Services`.
 */
import type { Knex } from 'knex';
import type { ServiceConfig } from '../src/config/service';
import type { Principal } from '../src/auth/principal';

/** Which tenants exist; implemented by the layout manager once configuration is loaded. */
export interface TenantCatalog {
  tenantNames(): readonly string[];
}

/** Long-lived dependencies shared by every request. */
export interface Services {
  config: ServiceConfig;
  knex: Knex;
  tenants: TenantCatalog;
  version: string;
  /** Injected clock so tests can control time. */
  now(): Date;
}

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
