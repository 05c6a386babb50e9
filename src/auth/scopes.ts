/**
 * Scope loaders for Pothos scope-auth and the error for a failed scope, built on a request's
 * `RequestAuth`. Kept free of Pothos types: the schema passes `scopeLoaders(ctx.auth)` as
 * `authScopes` and `denialForFailure(ctx.auth, result.failure)` from `unauthorizedError`.
 */
import { deniedResponse, type DeniedResponse, type Gate, type RequestAuth } from './gate';
import { ROOT_SCOPE } from './rules';

/** Scopes keyed by tenant name, and the gate each one checks. */
export const TENANT_SCOPE_GATES = {
  /** Read a tenant (public unless it has access rules). */
  tenantRead: 'public',
  /** A valid token with read access (the `authorizations` query). */
  tenantToken: 'token',
  /** Control a tenant. */
  tenantAdmin: 'admin',
} as const satisfies Record<string, Gate>;

export type TenantScope = keyof typeof TENANT_SCOPE_GATES;

/** The scope loaders: booleans and per-tenant functions (unknown tenants are refused). */
export interface ScopeLoaders {
  public: true;
  /** A valid token was presented. */
  authenticated: boolean;
  /** Root-level reads (api-root access rules). */
  rootRead: boolean;
  tenantRead: (tenant: string) => boolean;
  tenantToken: (tenant: string) => boolean;
  tenantAdmin: (tenant: string) => boolean;
}

/** Scope loaders for one request. */
export function scopeLoaders(auth: RequestAuth): ScopeLoaders {
  const tenantCheck = (gate: Gate) => (tenant: string) => auth.knowsTenant(tenant) && auth.check(gate, tenant).allowed;
  return {
    public: true,
    authenticated: auth.outcome.ok,
    rootRead: auth.check('public', ROOT_SCOPE).allowed,
    tenantRead: tenantCheck(TENANT_SCOPE_GATES.tenantRead),
    tenantToken: tenantCheck(TENANT_SCOPE_GATES.tenantToken),
    tenantAdmin: tenantCheck(TENANT_SCOPE_GATES.tenantAdmin),
  };
}

/** The parts of a scope-auth failure this module reads (structurally, Pothos' `AuthFailure`). */
export interface ScopeFailure {
  kind: string;
  scope?: string;
  parameter?: unknown;
  failures?: readonly ScopeFailure[];
}

/**
 * Why a scope check failed, as a 401 (no or bad token where one is needed) or 403. Nested
 * `$any`/`$all` failures report their first scope failure; 401 wins over 403 so a client
 * without a token is told to authenticate.
 */
export function denialForFailure(auth: RequestAuth, failure: ScopeFailure): DeniedResponse {
  const denials = scopeFailures(failure).map((f) => denialForScope(auth, f.scope, f.parameter));
  return denials.find((d) => d.status === 401) ?? denials[0] ?? deniedResponse({ allowed: false, status: 403 });
}

function scopeFailures(failure: ScopeFailure): Array<{ scope: string; parameter: unknown }> {
  if (failure.failures !== undefined) {
    return failure.failures.flatMap(scopeFailures);
  }
  return failure.scope === undefined ? [] : [{ scope: failure.scope, parameter: failure.parameter }];
}

function denialForScope(auth: RequestAuth, scope: string, parameter: unknown): DeniedResponse {
  if (scope === 'authenticated') {
    return auth.outcome.ok
      ? deniedResponse({ allowed: false, status: 403 })
      : deniedResponse({ allowed: false, status: 401, failure: auth.outcome.failure });
  }
  const gate: Gate | undefined =
    scope === 'rootRead' ? 'public' : isTenantScope(scope) ? TENANT_SCOPE_GATES[scope] : undefined;
  const tenant = scope === 'rootRead' ? ROOT_SCOPE : parameter;
  if (gate === undefined || typeof tenant !== 'string' || !auth.knowsTenant(tenant)) {
    return deniedResponse({ allowed: false, status: 403 });
  }
  const result = auth.check(gate, tenant);
  return result.allowed ? deniedResponse({ allowed: false, status: 403 }) : deniedResponse(result);
}

function isTenantScope(scope: string): scope is TenantScope {
  return Object.hasOwn(TENANT_SCOPE_GATES, scope);
}
