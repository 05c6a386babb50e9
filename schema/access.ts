/**
 * Tenant access decisions used by the scope-auth scopes, through the Security issue's
 * `decideAccess`. No tenant policy source is wired into the services yet, so every known tenant
 * is treated as having no access or admin rules: anyone may read, and a caller is tenant admin
 * through the `zuul.admin` claim override (compat.md §6.3) of an authenticator that allows it.
 */
import { decideAccess } from '../src/auth/rules';
import type { GraphQLContext } from './context';

function decision(ctx: GraphQLContext, tenant: string): { canRead: boolean; isAdmin: boolean } {
  if (!ctx.services.tenants.tenantNames().includes(tenant)) {
    return { canRead: false, isAdmin: false };
  }
  return decideAccess({ tenant, principal: ctx.principal, rules: [], accessRules: [], adminRules: [] });
}

/** Whether the caller may administer (enqueue, dequeue, pause...) the tenant. */
export function isTenantAdmin(ctx: GraphQLContext, tenant: string): boolean {
  return decision(ctx, tenant).isAdmin;
}

/** Whether the caller may read the tenant (status, history, live feeds). */
export function canReadTenant(ctx: GraphQLContext, tenant: string): boolean {
  return decision(ctx, tenant).canRead;
}
