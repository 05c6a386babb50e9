/**
 * Per-request enforcement (docs/security.md#who-may-do-what-rules, docs/rest.md#who-may-call-an-endpoint): given how
 * the request authenticated and the tenant's rules, may it read, must it present a token, is it admin. One
 * `RequestAuth` per request serves GraphQL scopes, REST routes and WebSocket subscriptions alike.
 */
import { authFailureBody, wwwAuthenticateHeader, type AuthFailure, type AuthFailureBody } from './errors';
import type { AuthOutcome, TokenAuthenticator } from './authenticator';
import type { Principal } from './principal';
import { decideAccess, ROOT_SCOPE, type AccessDecision, type AuthorizationRule } from './rules';

/**
 * What an operation needs: `public` (read; a token only if the tenant restricts reading),
 * `token` (a valid token, plus read access; the `authorizations` endpoints) or `admin`.
 */
export type Gate = 'public' | 'token' | 'admin';

/** A tenant's (or the api-root's) authorization settings, from the tenant file. */
export interface AccessPolicy {
  accessRules: readonly string[];
  adminRules: readonly string[];
  /** Reading needs a matching access rule (or admin) even when `accessRules` is empty. */
  readRestricted?: boolean;
  /** The realm dashboards should log in with (`authentication-realm`), when set. */
  authenticationRealm?: string;
}

/** Whether reading needs a token: access rules, or anonymous reads turned off. */
export function isReadRestricted(policy: AccessPolicy): boolean {
  return policy.accessRules.length > 0 || policy.readRestricted === true;
}

/** Where policies come from; implemented over the loaded tenant configuration. */
export interface AccessPolicySource {
  /** Every `authorization-rule` of the tenant file, by name. */
  rules(): ReadonlyMap<string, AuthorizationRule>;
  /** The tenant's policy; undefined for an unknown tenant (callers answer 404 first). */
  tenantPolicy(tenant: string): AccessPolicy | undefined;
  /** The api-root's policy (no access rules when there is no `api-root`). */
  rootPolicy(): AccessPolicy;
  /**
   * Changes (by identity) whenever the policies are reloaded; decisions cached for a request
   * or a WebSocket connection are dropped then. Absent for fixed policies.
   */
  version?(): unknown;
}

/** The result of a gate check. */
export type GateResult =
  | { allowed: true; principal: Principal | null; decision: AccessDecision }
  | { allowed: false; status: 401; failure: AuthFailure }
  | { allowed: false; status: 403 };

/** The request's authentication and lazily computed per-tenant decisions. */
export class RequestAuth {
  private readonly decisions = new Map<string, AccessDecision>();
  /** The policies' version the cached decisions were made with. */
  private decidedWith: unknown;

  /**
   * @param outcome how the request authenticated; a `MissingAuthError` outcome is an anonymous request
   */
  constructor(
    readonly outcome: AuthOutcome,
    private readonly policies: AccessPolicySource,
    private readonly onUnknownRule?: (name: string) => void,
  ) {}

  /** The verified caller, or null (anonymous, or a token that failed). */
  get principal(): Principal | null {
    return this.outcome.ok ? this.outcome.principal : null;
  }

  /** True for the root (`*`) and for tenants the policy source knows. */
  knowsTenant(tenant: string): boolean {
    return tenant === ROOT_SCOPE || this.policies.tenantPolicy(tenant) !== undefined;
  }

  /** Read and admin rights for a tenant (`*` for the root) as the caller. */
  decision(tenant: string): AccessDecision {
    const version = this.policies.version?.();
    if (version !== this.decidedWith) {
      // Rules were reloaded: a long-lived connection must not keep yesterday's rights.
      this.decisions.clear();
      this.decidedWith = version;
    }
    const cached = this.decisions.get(tenant);
    if (cached !== undefined) {
      return cached;
    }
    const policy = this.policyOf(tenant);
    const decision = decideAccess({
      tenant,
      principal: this.principal,
      rules: this.policies.rules(),
      accessRules: policy.accessRules,
      readRestricted: policy.readRestricted,
      adminRules: tenant === ROOT_SCOPE ? [] : policy.adminRules,
      onUnknownRule: this.onUnknownRule,
    });
    this.decisions.set(tenant, decision);
    return decision;
  }

  /**
   * Check a gate for a tenant (`*` for root-level operations). The tenant must exist; resolve
   * unknown tenants to 404 before calling this.
   */
  check(gate: Gate, tenant: string): GateResult {
    const needsToken = gate !== 'public' || isReadRestricted(this.policyOf(tenant));
    if (!this.outcome.ok && needsToken) {
      return { allowed: false, status: 401, failure: this.outcome.failure };
    }
    const decision = this.decision(tenant);
    if (gate === 'admin' ? !decision.isAdmin : !decision.canRead) {
      return { allowed: false, status: 403 };
    }
    return { allowed: true, principal: this.principal, decision };
  }

  private policyOf(tenant: string): AccessPolicy {
    const policy = tenant === ROOT_SCOPE ? this.policies.rootPolicy() : this.policies.tenantPolicy(tenant);
    if (policy === undefined) {
      throw new Error(`unknown tenant "${tenant}": resolve it (404) before checking access`);
    }
    return policy;
  }
}

/** How a refused gate is reported: GraphQL `extensions` and the REST status, headers and body. */
export interface DeniedResponse {
  status: 401 | 403;
  message: string;
  /** `extensions` of the GraphQL error (`code` is what rest-compat maps to a status). */
  extensions: {
    code: 'UNAUTHENTICATED' | 'FORBIDDEN';
    http: { status: number; headers: Record<string, string> };
    auth?: AuthFailureBody;
  };
  /** REST headers: `WWW-Authenticate` on 401. */
  headers: Record<string, string>;
  /** REST body: the reference's JSON on 401; null on 403 (rest-compat answers its JSON error body). */
  body: AuthFailureBody | null;
}

/** Describe a refused gate for GraphQL and REST. */
export function deniedResponse(result: Extract<GateResult, { allowed: false }>): DeniedResponse {
  if (result.status === 403) {
    return {
      status: 403,
      message: 'Permission denied',
      extensions: { code: 'FORBIDDEN', http: { status: 403, headers: {} } },
      headers: {},
      body: null,
    };
  }
  const headers = { 'WWW-Authenticate': wwwAuthenticateHeader(result.failure) };
  const body = authFailureBody(result.failure);
  return {
    status: 401,
    message: result.failure.description,
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers }, auth: body },
    headers,
    body,
  };
}

/** A policy source with no rules and no restrictions (no tenant file loaded). */
export function openPolicies(tenantNames: () => readonly string[]): AccessPolicySource {
  const open: AccessPolicy = { accessRules: [], adminRules: [] };
  return {
    rules: () => new Map(),
    tenantPolicy: (tenant) => (tenantNames().includes(tenant) ? open : undefined),
    rootPolicy: () => open,
  };
}

/** A `RequestAuth` for an HTTP request, from its `Authorization` header. */
export async function requestAuthFromHeader(
  authenticator: TokenAuthenticator,
  header: string | string[] | null | undefined,
  policies: AccessPolicySource,
  onUnknownRule?: (name: string) => void,
): Promise<RequestAuth> {
  return new RequestAuth(await authenticator.authenticateHeader(header), policies, onUnknownRule);
}

/** A `RequestAuth` for a graphql-ws connection, from its `connectionParams`. */
export async function requestAuthFromConnectionParams(
  authenticator: TokenAuthenticator,
  params: Readonly<Record<string, unknown>> | null | undefined,
  policies: AccessPolicySource,
  onUnknownRule?: (name: string) => void,
): Promise<RequestAuth> {
  return new RequestAuth(await authenticator.authenticateConnectionParams(params), policies, onUnknownRule);
}

/** A tenant's authorization options as the tenant file gives them. */
export interface TenantAccessSettings {
  name: string;
  accessRules?: readonly string[];
  adminRules?: readonly string[];
  readRestricted?: boolean;
}

/**
 * A policy source over one loaded tenant file (rebuild it on reconfiguration): its
 * `authorization-rule` objects, tenants and optional `api-root`.
 */
export function tenantFilePolicies(input: {
  rules: readonly AuthorizationRule[];
  tenants: readonly TenantAccessSettings[];
  apiRoot?: { accessRules?: readonly string[]; authenticationRealm?: string } | null;
}): AccessPolicySource {
  const rules = new Map(input.rules.map((rule) => [rule.name, rule]));
  const tenants = new Map(
    input.tenants.map((t): [string, AccessPolicy] => [
      t.name,
      { accessRules: t.accessRules ?? [], adminRules: t.adminRules ?? [], readRestricted: t.readRestricted },
    ]),
  );
  const root: AccessPolicy = {
    accessRules: input.apiRoot?.accessRules ?? [],
    adminRules: [],
    authenticationRealm: input.apiRoot?.authenticationRealm,
  };
  return { rules: () => rules, tenantPolicy: (name) => tenants.get(name), rootPolicy: () => root };
}
