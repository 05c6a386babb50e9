import { authorizationsBody, decideAccess, ruleMatches, type AuthorizationRule } from '../../../src/auth/rules';
import { deniedResponse, RequestAuth, tenantFilePolicies, type AccessPolicySource } from '../../../src/auth/gate';
import { AuthFailure } from '../../../src/auth/errors';
import type { Principal } from '../../../src/auth/principal';

const ctx = { tenantName: 'tenant-one', uidClaim: 'sub' };
const rule = (...conditions: Array<Record<string, unknown>>): AuthorizationRule => ({ name: 'r', conditions });

describe('ruleMatches: dotted (scalar) form', () => {
  it('matches a string claim by equality and a list claim by membership', () => {
    expect(ruleMatches(rule({ sub: 'venkman' }), { sub: 'venkman' }, ctx)).toBe(true);
    expect(ruleMatches(rule({ sub: 'venkman' }), { sub: 'vigo' }, ctx)).toBe(false);
    expect(ruleMatches(rule({ groups: 'ghostbusters' }), { groups: ['ghostbusters', 'secretary'] }, ctx)).toBe(true);
    expect(ruleMatches(rule({ groups: 'ghostbusters' }), { groups: ['secretary'] }, ctx)).toBe(false);
  });

  it('follows dotted paths into nested claims', () => {
    const claims = { vehicle: { car: 'ecto-1' }, resources_access: { account: { roles: ['affiliate', 'admin'] } } };
    expect(ruleMatches(rule({ 'vehicle.car': 'ecto-1' }), claims, ctx)).toBe(true);
    expect(ruleMatches(rule({ 'resources_access.account.roles': 'admin' }), claims, ctx)).toBe(true);
    expect(ruleMatches(rule({ 'resources_access.account.roles': 'owner' }), claims, ctx)).toBe(false);
    expect(ruleMatches(rule({ 'vehicle.boat': 'ecto-1' }), claims, ctx)).toBe(false);
  });

  it('uses a claim whose name contains dots as is when present', () => {
    expect(
      ruleMatches(rule({ 'https://example.com/groups': 'ci' }), { 'https://example.com/groups': ['ci'] }, ctx),
    ).toBe(true);
  });

  it('never matches a missing claim or a claim of another type', () => {
    expect(ruleMatches(rule({ admin: 'true' }), { admin: true }, ctx)).toBe(false);
    expect(ruleMatches(rule({ level: 5 }), { level: 5 }, ctx)).toBe(false);
    expect(ruleMatches(rule({ sub: 'x' }), {}, ctx)).toBe(false);
  });

  it('treats an expected list as "claim contained in it" or "claim list is a non-empty subset"', () => {
    const allowed = rule({ groups: ['ops', 'dev'] });
    expect(ruleMatches(allowed, { groups: 'ops' }, ctx)).toBe(true);
    expect(ruleMatches(allowed, { groups: ['ops'] }, ctx)).toBe(true);
    expect(ruleMatches(allowed, { groups: ['ops', 'dev'] }, ctx)).toBe(true);
    expect(ruleMatches(allowed, { groups: ['ops', 'qa'] }, ctx)).toBe(false);
    expect(ruleMatches(allowed, { groups: [] }, ctx)).toBe(false);
    expect(ruleMatches(allowed, { groups: 'qa' }, ctx)).toBe(false);
  });
});

describe('ruleMatches: nested (mapping) form', () => {
  const nested = rule({ resources_access: { account: { roles: 'affiliate' } } });

  it('compares key by key and requires exact equality at scalar leaves', () => {
    expect(ruleMatches(nested, { resources_access: { account: { roles: 'affiliate' } } }, ctx)).toBe(true);
    // Unlike the dotted form, a scalar leaf does not match a list claim.
    expect(ruleMatches(nested, { resources_access: { account: { roles: ['affiliate'] } } }, ctx)).toBe(false);
    expect(ruleMatches(nested, { resources_access: { account: 'affiliate' } }, ctx)).toBe(false);
    expect(ruleMatches(nested, {}, ctx)).toBe(false);
  });

  it('uses list semantics at list leaves', () => {
    const listed = rule({ realm_access: { roles: ['admin', 'ci'] } });
    expect(ruleMatches(listed, { realm_access: { roles: ['ci'] } }, ctx)).toBe(true);
    expect(ruleMatches(listed, { realm_access: { roles: 'admin' } }, ctx)).toBe(true);
    expect(ruleMatches(listed, { realm_access: { roles: ['ci', 'root'] } }, ctx)).toBe(false);
    expect(ruleMatches(listed, { realm_access: { roles: [] } }, ctx)).toBe(false);
    expect(ruleMatches(rule({ realm_access: { roles: [] } }), { realm_access: { roles: [] } }, ctx)).toBe(true);
  });

  it('matches an empty expected mapping only against an empty mapping', () => {
    expect(ruleMatches(rule({ extra: {} }), { extra: {} }, ctx)).toBe(true);
    expect(ruleMatches(rule({ extra: {} }), { extra: { a: 1 } }, ctx)).toBe(false);
  });
});

describe('ruleMatches: conditions, templating and zuul_uid', () => {
  it('ORs the conditions of a list and ANDs the checks of one map', () => {
    const r = rule({ sub: 'venkman' }, { groups: 'ghostbusters', iss: 'columbia.edu' });
    expect(ruleMatches(r, { sub: 'venkman' }, ctx)).toBe(true);
    expect(ruleMatches(r, { sub: 'stantz', groups: ['ghostbusters'], iss: 'columbia.edu' }, ctx)).toBe(true);
    expect(ruleMatches(r, { sub: 'stantz', groups: ['ghostbusters'], iss: 'zuul_operator' }, ctx)).toBe(false);
  });

  it('substitutes {tenant.name} in expected values, also inside lists and maps', () => {
    const r = rule({ groups: '{tenant.name}-admins' });
    expect(ruleMatches(r, { groups: ['tenant-one-admins'] }, ctx)).toBe(true);
    expect(ruleMatches(r, { groups: ['tenant-one-admins'] }, { ...ctx, tenantName: 'tenant-two' })).toBe(false);
    expect(ruleMatches(rule({ groups: ['{tenant.name}-ops'] }), { groups: 'tenant-one-ops' }, ctx)).toBe(true);
    expect(ruleMatches(rule({ org: { team: '{tenant.name}' } }), { org: { team: 'tenant-one' } }, ctx)).toBe(true);
  });

  it('maps zuul_uid to the configured uid claim', () => {
    const r = rule({ zuul_uid: 'alice@example.com' });
    expect(ruleMatches(r, { sub: '123', email: 'alice@example.com' }, { ...ctx, uidClaim: 'email' })).toBe(true);
    expect(ruleMatches(r, { sub: 'alice@example.com', email: 'x' }, { ...ctx, uidClaim: 'email' })).toBe(false);
    expect(ruleMatches(r, { sub: 'alice@example.com' }, ctx)).toBe(true);
  });
});

// The reference's rules fixture (docs/security.md#who-may-do-what-rules).
const RULES: AuthorizationRule[] = [
  { name: 'venkman_rule', conditions: [{ zuul_uid: 'venkman' }] },
  { name: 'car_rule', conditions: [{ 'vehicle.car': 'ecto-1' }] },
  { name: 'group_rule', conditions: [{ groups: 'ghostbusters', iss: 'zuul_operator' }] },
  { name: 'columbia_rule', conditions: [{ iss: 'columbia.edu', sub: 'stantz' }] },
  { name: 'readers', conditions: [{ groups: 'readers' }] },
];

function principal(claims: Record<string, unknown>, allowAuthzOverride = false): Principal {
  return {
    subject: String(claims.sub),
    claims,
    authenticator: { name: 'a', realm: 'zuul.example.com', uidClaim: 'sub', allowAuthzOverride },
  };
}

describe('decideAccess', () => {
  const tenant = {
    tenant: 'tenant-one',
    rules: RULES,
    accessRules: [],
    adminRules: ['venkman_rule', 'car_rule', 'group_rule'],
  };

  it('grants admin to users matched by admin rules (venkman, zeddemore, melnitz) but not to vigo or stantz', () => {
    const admin = (claims: Record<string, unknown>) =>
      decideAccess({ ...tenant, principal: principal({ iss: 'zuul_operator', ...claims }) }).isAdmin;
    expect(admin({ sub: 'venkman' })).toBe(true);
    expect(admin({ sub: 'zeddemore', vehicle: { car: 'ecto-1' } })).toBe(true);
    expect(admin({ sub: 'melnitz', groups: ['secretary', 'ghostbusters'] })).toBe(true);
    expect(admin({ sub: 'vigo' })).toBe(false);
    expect(admin({ sub: 'stantz' })).toBe(false);
  });

  it('lets anyone read a tenant without access rules, and nobody anonymous read a restricted one', () => {
    expect(decideAccess({ ...tenant, principal: null })).toEqual({ canRead: true, isAdmin: false });
    expect(decideAccess({ ...tenant, principal: null, accessRules: ['readers'] })).toEqual({
      canRead: false,
      isAdmin: false,
    });
    expect(
      decideAccess({ ...tenant, principal: principal({ sub: 'x', groups: ['readers'] }), accessRules: ['readers'] }),
    ).toEqual({ canRead: true, isAdmin: false });
    // Admin rules also grant read access.
    expect(decideAccess({ ...tenant, principal: principal({ sub: 'venkman' }), accessRules: ['readers'] })).toEqual({
      canRead: true,
      isAdmin: true,
    });
  });

  it('restricts reading without access rules when anonymous read access is off', () => {
    const closed = { ...tenant, readRestricted: true };
    expect(decideAccess({ ...closed, principal: null })).toEqual({ canRead: false, isAdmin: false });
    expect(decideAccess({ ...closed, principal: principal({ sub: 'x', groups: ['readers'] }) })).toEqual({
      canRead: false,
      isAdmin: false,
    });
    expect(
      decideAccess({ ...closed, principal: principal({ sub: 'x', groups: ['readers'] }), accessRules: ['readers'] }),
    ).toEqual({ canRead: true, isAdmin: false });
    expect(decideAccess({ ...closed, principal: principal({ sub: 'venkman' }) })).toEqual({
      canRead: true,
      isAdmin: true,
    });
    const policies = tenantFilePolicies({ rules: RULES, tenants: [{ name: 'private', readRestricted: true }] });
    const anonymous = new RequestAuth({ ok: false, failure: new AuthFailure('MissingAuthError', null) }, policies);
    expect(anonymous.check('public', 'private')).toMatchObject({ allowed: false, status: 401 });
  });

  it('honours a zuul.admin override only for its tenants and only when allowed', () => {
    const token = (tenants: string[], allowed = true) =>
      principal({ sub: 'testuser', zuul: { admin: tenants } }, allowed);
    expect(decideAccess({ ...tenant, principal: token(['tenant-one']) })).toEqual({ canRead: true, isAdmin: true });
    expect(decideAccess({ ...tenant, principal: token(['tenant-whatever']) })).toEqual({
      canRead: true,
      isAdmin: false,
    });
    expect(decideAccess({ ...tenant, principal: token(['tenant-whatever']), accessRules: ['readers'] })).toEqual({
      canRead: false,
      isAdmin: false,
    });
    expect(decideAccess({ ...tenant, principal: token(['tenant-one'], false) }).isAdmin).toBe(false);
    expect(decideAccess({ ...tenant, principal: token(['tenant-one'], false), adminOverride: true }).isAdmin).toBe(
      true,
    );
    expect(decideAccess({ tenant: '*', rules: RULES, accessRules: [], principal: token(['*']) }).isAdmin).toBe(true);
  });

  it('skips and reports undefined rule names', () => {
    const unknown: string[] = [];
    const decision = decideAccess({
      ...tenant,
      adminRules: ['missing', 'venkman_rule'],
      principal: principal({ sub: 'venkman' }),
      onUnknownRule: (n) => unknown.push(n),
    });
    expect(decision.isAdmin).toBe(true);
    expect(unknown).toEqual(['missing']);
  });

  it('builds the authorizations wire shape', () => {
    expect(authorizationsBody('tenant-one', { canRead: true, isAdmin: true })).toEqual({
      zuul: { admin: true, scope: ['tenant-one'] },
    });
    expect(authorizationsBody('*', { canRead: true, isAdmin: false })).toEqual({
      zuul: { admin: false, scope: ['*'] },
    });
  });
});

describe('RequestAuth gates', () => {
  const policies: AccessPolicySource = {
    rules: () => new Map(RULES.map((r) => [r.name, r])),
    tenantPolicy: (name) =>
      name === 'open'
        ? { accessRules: [], adminRules: ['venkman_rule'] }
        : name === 'closed'
          ? { accessRules: ['readers'], adminRules: ['venkman_rule'] }
          : undefined,
    rootPolicy: () => ({ accessRules: [], adminRules: [] }),
  };
  const anonymous = new RequestAuth({ ok: false, failure: new AuthFailure('MissingAuthError', 'realm') }, policies);
  const invalid = new RequestAuth({ ok: false, failure: new AuthFailure('TokenExpiredError', 'realm') }, policies);
  const reader = new RequestAuth({ ok: true, principal: principal({ sub: 'x', groups: ['readers'] }) }, policies);
  const venkman = new RequestAuth({ ok: true, principal: principal({ sub: 'venkman' }) }, policies);
  const otherAdmin = new RequestAuth(
    { ok: true, principal: principal({ sub: 'y', zuul: { admin: ['elsewhere'] } }, true) },
    policies,
  );

  it('lets anonymous and invalid tokens read open tenants, but not restricted ones', () => {
    expect(anonymous.check('public', 'open').allowed).toBe(true);
    expect(invalid.check('public', 'open')).toMatchObject({ allowed: true, principal: null });
    expect(anonymous.check('public', 'closed')).toMatchObject({ allowed: false, status: 401 });
    expect(reader.check('public', 'closed').allowed).toBe(true);
    expect(venkman.check('public', 'closed').allowed).toBe(true);
    expect(otherAdmin.check('public', 'closed')).toEqual({ allowed: false, status: 403 });
  });

  it('requires a token for the token gate and admin for the admin gate', () => {
    expect(anonymous.check('token', 'open')).toMatchObject({ allowed: false, status: 401 });
    expect(reader.check('token', 'open').allowed).toBe(true);
    expect(invalid.check('admin', 'open')).toMatchObject({ allowed: false, status: 401 });
    expect(reader.check('admin', 'open')).toEqual({ allowed: false, status: 403 });
    expect(otherAdmin.check('admin', 'open')).toEqual({ allowed: false, status: 403 });
    expect(venkman.check('admin', 'open')).toMatchObject({ allowed: true, decision: { isAdmin: true } });
    expect(() => venkman.check('admin', 'nope')).toThrow('unknown tenant');
  });

  it('describes refusals for GraphQL and REST', () => {
    const unauthenticated = invalid.check('admin', 'open');
    if (unauthenticated.allowed) {
      throw new Error('expected refusal');
    }
    expect(deniedResponse(unauthenticated)).toEqual({
      status: 401,
      message: 'Token has expired',
      headers: {
        'WWW-Authenticate':
          'Bearer realm="realm"       error="TokenExpiredError"       error_description="Token has expired"',
      },
      body: { description: 'Token has expired', error: 'TokenExpiredError', realm: 'realm' },
      extensions: {
        code: 'UNAUTHENTICATED',
        http: {
          status: 401,
          headers: {
            'WWW-Authenticate':
              'Bearer realm="realm"       error="TokenExpiredError"       error_description="Token has expired"',
          },
        },
        auth: { description: 'Token has expired', error: 'TokenExpiredError', realm: 'realm' },
      },
    });
    const forbidden = reader.check('admin', 'open');
    if (forbidden.allowed) {
      throw new Error('expected refusal');
    }
    expect(deniedResponse(forbidden)).toMatchObject({ status: 403, body: null, extensions: { code: 'FORBIDDEN' } });
  });
});

describe('tenantFilePolicies', () => {
  const policies = tenantFilePolicies({
    rules: RULES,
    tenants: [
      { name: 'tenant-one', adminRules: ['venkman_rule'] },
      { name: 'private', accessRules: ['readers'] },
    ],
    apiRoot: { accessRules: ['readers'] },
  });

  it('serves the tenant file rules, tenant options and api-root access rules', () => {
    expect(policies.tenantPolicy('tenant-one')).toEqual({ accessRules: [], adminRules: ['venkman_rule'] });
    expect(policies.tenantPolicy('unknown')).toBeUndefined();
    expect(policies.rootPolicy()).toEqual({ accessRules: ['readers'], adminRules: [] });
    const venkman = new RequestAuth({ ok: true, principal: principal({ sub: 'venkman' }) }, policies);
    expect(venkman.check('admin', 'tenant-one').allowed).toBe(true);
    expect(venkman.check('public', 'private')).toEqual({ allowed: false, status: 403 });
    expect(venkman.check('public', '*')).toEqual({ allowed: false, status: 403 });
    const anonymous = new RequestAuth({ ok: false, failure: new AuthFailure('MissingAuthError', null) }, policies);
    expect(anonymous.check('public', '*')).toMatchObject({ allowed: false, status: 401 });
    expect(anonymous.check('public', 'tenant-one').allowed).toBe(true);
  });
});
