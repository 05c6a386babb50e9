/**
 * Tenant access decisions for resolvers that check outside scope-auth (per-event checks of
 * subscriptions, filtered tenant lists). They use the request's `RequestAuth` (src/auth/gate.ts).
 */
import { GraphQLError } from 'graphql';
import { controlRateLimitKey, rateLimitedError } from '../../src/auth/rate-limit';
import { ROOT_SCOPE } from '../../src/auth/rules';
import { isTenantName, tenantNameProblem } from '../../src/model/value-checks';
import { InvalidInputError, NotFoundError } from './error-classes';
import type { GraphQLContext } from './context';
import type { AccessRecheck } from './live-iterator';

/** Whether the caller may read the tenant (status, history, live feeds); false for unknown tenants. */
export function canReadTenant(ctx: GraphQLContext, tenant: string): boolean {
  return (
    ctx.services.tenants.tenantNames().includes(tenant) &&
    ctx.auth.knowsTenant(tenant) &&
    ctx.auth.check('public', tenant).allowed
  );
}

/** Per-event authorization of subscriptions: access may have been revoked since they started. */
export function assertStillReadable(ctx: GraphQLContext, tenant: string): void {
  if (!canReadTenant(ctx, tenant)) {
    throw new GraphQLError(`Not authorized to read tenant ${tenant}`, { extensions: { code: 'FORBIDDEN' } });
  }
}

/**
 * Re-checks read access of a subscription whenever a reconfiguration reloads the rules, so a
 * subscriber that lost access is ended with an error even if no event arrives.
 */
export function readAccessRecheck(ctx: GraphQLContext, tenant: string): AccessRecheck | undefined {
  const changes = ctx.services.auth.policyChanges;
  return changes === undefined
    ? undefined
    : { changed: () => changes.next(), check: () => assertStillReadable(ctx, tenant) };
}

/** Whether `tenant` names a tenant this service serves (never `*`, the root's scope). */
function isServedTenant(ctx: GraphQLContext, tenant: string): boolean {
  return isTenantName(tenant) && ctx.services.tenants.tenantNames().includes(tenant);
}

/**
 * The scope of a control operation on `tenant`: admin of a served tenant; other names pass so
 * that the resolver answers InvalidInput or NotFound first (docs/security.md#who-may-do-what-rules: 404 before
 * 401/403), through `beginControl`.
 */
export function adminScope(ctx: GraphQLContext, tenant: string): { tenantAdmin: string } | { public: true } {
  return isServedTenant(ctx, tenant) && ctx.auth.knowsTenant(tenant) ? { tenantAdmin: tenant } : { public: true };
}

/**
 * The start of every control operation, before anything is written (docs/graphql.md#input-rules): the tenant
 * must be a valid name (else InvalidInputError) of a served tenant (else NotFoundError), and the
 * caller must have a control operation left (else RATE_LIMITED).
 */
export function beginControl(ctx: GraphQLContext, tenant: string): void {
  const problem = tenantNameProblem(tenant);
  if (problem !== null) {
    throw new InvalidInputError(problem, 'tenant');
  }
  if (!isServedTenant(ctx, tenant)) {
    throw new NotFoundError('Tenant', tenant, 'Tenant not found');
  }
  takeControlToken(ctx, tenant);
}

/** Spend one control operation of the caller on the tenant, or refuse with RATE_LIMITED (HTTP 429). */
function takeControlToken(ctx: GraphQLContext, tenant: string): void {
  if (ctx.principal === null) {
    return; // scope-auth admitted no anonymous caller; nothing to key the bucket on
  }
  const decision = ctx.services.auth.controlLimiter.take(controlRateLimitKey(ctx.principal, tenant));
  if (!decision.allowed) {
    throw rateLimitedError(decision.retryAfterSeconds);
  }
}

/**
 * Rows of a node loader that the caller may see: global ids are guessable (base64 of a
 * database id), so `node(id)`/`nodes(ids)` must not bypass tenant read rules. Hidden rows
 * load as missing (null), which does not reveal that they exist. Rows without a tenant
 * (instance-level system events) follow the api-root access rules.
 */
export function readableRows<Row>(ctx: GraphQLContext, rows: Row[], tenantOf: (row: Row) => string | null): Row[] {
  const verdicts = new Map<string | null, boolean>();
  const readable = (tenant: string | null): boolean => {
    let verdict = verdicts.get(tenant);
    if (verdict === undefined) {
      verdict = tenant === null ? ctx.auth.check('public', ROOT_SCOPE).allowed : canReadTenant(ctx, tenant);
      verdicts.set(tenant, verdict);
    }
    return verdict;
  };
  return rows.filter((row) => readable(tenantOf(row)));
}
