/**
 * Tenant access decisions used by the scope-auth scopes. Until the Security issue's rule
 * engine is merged: every known tenant is readable by anyone, and a caller is tenant admin
 * when its verified token's `zuul.admin` claim names the tenant (compat.md §6.3 override).
 */
import type { GraphQLContext, Principal } from './context';

/** Tenant names a principal's `zuul.admin` claim lists (empty when absent or malformed). */
export function adminTenantsOf(principal: Principal): string[] {
  const zuul = principal.claims.zuul;
  if (typeof zuul !== 'object' || zuul === null || Array.isArray(zuul)) {
    return [];
  }
  const admin: unknown = (zuul as Record<string, unknown>).admin;
  return Array.isArray(admin) ? admin.filter((item): item is string => typeof item === 'string') : [];
}

/** Whether the caller may administer (enqueue, dequeue, pause...) the tenant. */
export function isTenantAdmin(ctx: GraphQLContext, tenant: string): boolean {
  return ctx.principal !== null && ctx.services.tenants.tenantNames().includes(tenant) && adminTenantsOf(ctx.principal).includes(tenant);
}

/** Whether the caller may read the tenant (status, history, live feeds). */
export function canReadTenant(ctx: GraphQLContext, tenant: string): boolean {
  return ctx.services.tenants.tenantNames().includes(tenant);
}
