/**
 * Tenant access decisions for resolvers that check outside scope-auth (per-event checks of
 * subscriptions, filtered tenant lists). They use the request's `RequestAuth` (src/auth/gate.ts).
 */
import { controlRateLimitKey, rateLimitedError } from '../src/auth/rate-limit';
import type { GraphQLContext } from './context';

/** Whether the caller may read the tenant (status, history, live feeds); false for unknown tenants. */
export function canReadTenant(ctx: GraphQLContext, tenant: string): boolean {
  return ctx.services.tenants.tenantNames().includes(tenant) && ctx.auth.knowsTenant(tenant) && ctx.auth.check('public', tenant).allowed;
}

/**
 * The scope of a control operation on `tenant`: admin of a known tenant; unknown tenants pass
 * so that the resolver answers NotFound first (compat.md §6.3: 404 before 401/403).
 */
export function adminScope(ctx: GraphQLContext, tenant: string): { tenantAdmin: string } | { public: true } {
  return ctx.auth.knowsTenant(tenant) ? { tenantAdmin: tenant } : { public: true };
}

/** Spend one control operation of the caller on the tenant, or refuse with RATE_LIMITED (HTTP 429). */
export function takeControlToken(ctx: GraphQLContext, tenant: string): void {
  if (ctx.principal === null) {
    return; // scope-auth admitted no anonymous caller; nothing to key the bucket on
  }
  const decision = ctx.services.auth.controlLimiter.take(controlRateLimitKey(ctx.principal, tenant));
  if (!decision.allowed) {
    throw rateLimitedError(decision.retryAfterSeconds);
  }
}
