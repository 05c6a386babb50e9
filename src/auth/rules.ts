/**
 * Authorization rules (docs/security.md#who-may-do-what-rules): does a token's claims satisfy a rule,
 * may the caller read a tenant, is the caller its admin, and the `authorizations` wire shape.
 */
import type { Principal } from './principal';
import { isPlainObject } from '../model/value-checks';

/** An `authorization-rule` object of the tenant file: conditions OR'ed, each map AND'ed. */
export interface AuthorizationRule {
  name: string;
  conditions: Array<Record<string, unknown>>;
}

/** What the pseudo tenant name of the root (api-root) is in templating and overrides. */
export const ROOT_SCOPE = '*';

const TENANT_PLACEHOLDER = '{tenant.name}';

export interface RuleContext {
  /** The tenant being checked (`*` for the root); replaces `{tenant.name}` in expected values. */
  tenantName: string;
  /** The authenticator's uid claim; `zuul_uid` refers to it. */
  uidClaim: string;
}

/** True when any condition of the rule matches the claims. */
export function ruleMatches(rule: AuthorizationRule, claims: Record<string, unknown>, context: RuleContext): boolean {
  const withUid = { ...claims, zuul_uid: claims[context.uidClaim] };
  return rule.conditions.some((condition) => conditionMatches(condition, withUid, context.tenantName));
}

function conditionMatches(
  condition: Record<string, unknown>,
  claims: Record<string, unknown>,
  tenantName: string,
): boolean {
  return Object.entries(condition).every(([claim, expected]) => {
    const templated = substituteTenant(expected, tenantName);
    if (isPlainObject(templated)) {
      // Nested form: compared key by key from the top-level claim.
      return compareNested(templated, claims[claim]);
    }
    return compareAtPath(templated, lookupPath(claims, claim));
  });
}

/**
 * Dotted form (`resources_access.account.roles: admin`): a list claim must contain the expected
 * value, a string claim must equal it; any other claim type (or a missing claim) never
 * matches. An expected list matches a string claim it contains, or a non-empty list claim
 * that is a subset of it (docs/security.md#who-may-do-what-rules).
 */
function compareAtPath(expected: unknown, claim: unknown): boolean {
  if (Array.isArray(expected)) {
    return compareLeafList(expected, claim);
  }
  if (Array.isArray(claim)) {
    return claim.some((item) => deepEqual(item, expected));
  }
  return typeof claim === 'string' && claim === expected;
}

/**
 * Nested form: an expected mapping requires a mapping claim with every expected key matching
 * (an empty expected mapping matches only an empty mapping; a missing key compares as `{}`);
 * an expected list uses list semantics; a scalar must equal the claim exactly (so it does not
 * match a list claim, unlike the dotted form).
 */
function compareNested(expected: unknown, claim: unknown): boolean {
  if (Array.isArray(expected)) {
    return compareLeafList(expected, claim);
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(claim)) {
      return false;
    }
    const keys = Object.keys(expected);
    if (keys.length === 0) {
      return Object.keys(claim).length === 0;
    }
    return keys.every((key) => compareNested(expected[key], key in claim ? claim[key] : {}));
  }
  return deepEqual(expected, claim);
}

function compareLeafList(expected: unknown[], claim: unknown): boolean {
  if (Array.isArray(claim)) {
    if (claim.length === 0) {
      return expected.length === 0;
    }
    return claim.every((item) => expected.some((candidate) => deepEqual(candidate, item)));
  }
  return expected.some((candidate) => deepEqual(candidate, claim));
}

/**
 * Look a claim up by name. A claim whose name contains dots is used as is when the token has
 * it (URL-style claim names); otherwise the dots are a path through nested objects.
 */
function lookupPath(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) {
    return claims[name];
  }
  let current: unknown = claims;
  for (const segment of name.split('.')) {
    if (!isPlainObject(current) || !(segment in current)) {
      return undefined;
    }
    current = current[segment];
  }
  return current;
}

function substituteTenant(value: unknown, tenantName: string): unknown {
  if (typeof value === 'string') {
    return value.split(TENANT_PLACEHOLDER).join(tenantName);
  }
  if (Array.isArray(value)) {
    return value.map((item) => substituteTenant(item, tenantName));
  }
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteTenant(item, tenantName)]));
  }
  return value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]));
  }
  return false;
}

/** Rules by name, as the tenant file defines them. */
export type RuleSet = ReadonlyMap<string, AuthorizationRule> | readonly AuthorizationRule[];

export interface AccessQuery {
  /** Tenant name, or `*` for the root (api-root). */
  tenant: string;
  /** The caller; null for anonymous requests. */
  principal: Principal | null;
  rules: RuleSet;
  /** Rule names from `access-rules`; empty means anyone may read unless `readRestricted`. */
  accessRules: readonly string[];
  /** Reading needs a matching access rule (or admin) even when `accessRules` is empty (`anonymous-read-access: false`). */
  readRestricted?: boolean;
  /** Rule names from `admin-rules` (the root has none). */
  adminRules?: readonly string[];
  /**
   * Whether the token's `zuul.admin` list is honoured; defaults to the accepting
   * authenticator's `allowAuthzOverride`.
   */
  adminOverride?: boolean;
  /** Called for rule names the tenant lists but no rule defines (they are skipped). */
  onUnknownRule?: (name: string) => void;
}

/** What a caller may do with a tenant. */
export interface AccessDecision {
  canRead: boolean;
  isAdmin: boolean;
}

/**
 * Decide read and admin rights (docs/security.md#who-may-do-what-rules): a `zuul.admin` override naming the tenant
 * grants both; otherwise admin comes from `admin-rules`, and read from `access-rules` (none =
 * everyone) or from being admin.
 */
export function decideAccess(query: AccessQuery): AccessDecision {
  const { principal, tenant } = query;
  const restricted = query.accessRules.length > 0 || query.readRestricted === true;
  if (principal === null) {
    return { canRead: !restricted, isAdmin: false };
  }
  const override = query.adminOverride ?? principal.authenticator.allowAuthzOverride;
  if (override && overrideTenants(principal.claims).includes(tenant)) {
    return { canRead: true, isAdmin: true };
  }
  const byName = ruleIndex(query.rules);
  const context: RuleContext = { tenantName: tenant, uidClaim: principal.authenticator.uidClaim };
  const anyMatches = (names: readonly string[]): boolean =>
    names.some((name) => {
      const rule = byName.get(name);
      if (rule === undefined) {
        query.onUnknownRule?.(name);
        return false;
      }
      return ruleMatches(rule, principal.claims, context);
    });
  const isAdmin = anyMatches(query.adminRules ?? []);
  const canRead = isAdmin || !restricted || anyMatches(query.accessRules);
  return { canRead, isAdmin };
}

/** The tenants a token's `zuul.admin` claim names (empty when absent or malformed). */
export function overrideTenants(claims: Record<string, unknown>): string[] {
  const zuul = claims.zuul;
  if (!isPlainObject(zuul) || !Array.isArray(zuul.admin)) {
    return [];
  }
  return zuul.admin.filter((item): item is string => typeof item === 'string');
}

function ruleIndex(rules: RuleSet): ReadonlyMap<string, AuthorizationRule> {
  if (rules instanceof Map) {
    return rules;
  }
  return new Map((rules as readonly AuthorizationRule[]).map((rule) => [rule.name, rule]));
}

/** Body of `/api/authorizations` (scope `*`) and `T/authorizations` (docs/security.md#who-may-do-what-rules). */
export interface AuthorizationsBody {
  zuul: { admin: boolean; scope: string[] };
}

/** The `authorizations` wire shape for a tenant (or `*` for the root). */
export function authorizationsBody(tenant: string, decision: AccessDecision): AuthorizationsBody {
  return { zuul: { admin: decision.isAdmin, scope: [tenant] } };
}
