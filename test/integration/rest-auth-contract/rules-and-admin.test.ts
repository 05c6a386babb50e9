/**
 * The authentication cases of compat.md §8.1 over REST against a real server that loads a tenant file
 * with authorization rules over real git repositories and runs its own engine: realms in info (#9),
 * admin endpoints and their token failures (#47, #48, #50), preflights (#53), authorizations (#54,
 * #55), rule-based admins (#55) and token age limits (#56). Token texts and the 401 layout:
 * docs/security.md.
 */
import { writeFileSync } from 'node:fs';
import type { HttpMethod } from '../../../rest-compat/route';
import type { TestServer } from '../../helpers/server';
import {
  type Json,
  oidc,
  OPERATOR,
  RULES,
  MAX_AGE,
  nowSeconds,
  token,
  operatorToken,
  type Setup,
  startServer,
  RULES_TENANT_FILE,
  call,
  json,
  expect401,
  expect403,
} from '../../helpers/rest-auth';

describe('REST auth contract (compat.md §8.1): rules, realms and admin endpoints', () => {
  let setup: Setup;
  let server: TestServer;

  beforeAll(async () => {
    setup = await startServer(RULES_TENANT_FILE, [
      OPERATOR,
      RULES,
      MAX_AGE,
      oidc('myOIDC1', 'http://oidc1', { authority: 'http://oidc1', default: true }),
      oidc('myOIDC2', 'http://oidc2', { authority: 'http://oidc2', scope: 'openid profile email special-scope' }),
    ]);
    server = setup.server;
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    setup.git.cleanup();
  });

  const enqueue = (tokenValue: string | undefined, body: Json = { pipeline: 'check', change: '1,1' }) =>
    call(server, 'tenant/tenant-one/project/org/project/enqueue', { method: 'POST', token: tokenValue, body });
  const autohold = (tokenValue: string | undefined, body: Json = {}) =>
    call(server, 'tenant/tenant-one/project/org/project/autohold', {
      method: 'POST',
      token: tokenValue,
      body: {
        reason: 'reason text',
        count: 1,
        job: 'project-test2',
        change: null,
        ref: null,
        node_hold_expiration: null,
        ...body,
      },
    });

  it('#9: info lists every realm; the default realm, a tenant realm and no leak into other tenants', async () => {
    const info = await json<{ info: { capabilities: { auth: Json } } }>(await call(server, 'info'));
    expect(info.info.capabilities.auth).toEqual({
      realms: {
        'zuul.example.com': { authority: 'zuul_operator', client_id: 'zuul.example.com', type: 'JWT', driver: 'HS256' },
        'rules.example.com': {
          authority: 'rules_operator',
          client_id: 'rules.example.com',
          type: 'JWT',
          driver: 'HS256',
        },
        'mvt.example.com': { authority: 'mvt_operator', client_id: 'mvt.example.com', type: 'JWT', driver: 'HS256' },
        myOIDC1: {
          authority: 'http://oidc1',
          client_id: 'zuul',
          type: 'JWT',
          driver: 'OpenIDConnect',
          scope: 'openid profile',
          load_user_info: true,
        },
        myOIDC2: {
          authority: 'http://oidc2',
          client_id: 'zuul',
          type: 'JWT',
          driver: 'OpenIDConnect',
          scope: 'openid profile email special-scope',
          load_user_info: true,
        },
      },
      default_realm: 'myOIDC1',
      read_protected: false,
      auth_log_file_requests: false,
    });
    const realmOf = async (tenant: string) =>
      (
        await json<{ info: { capabilities: { auth: { default_realm: string } } } }>(
          await call(server, `tenant/${tenant}/info`),
        )
      ).info.capabilities.auth.default_realm;
    expect(await realmOf('tenant-one')).toBe('myOIDC1');
    expect(await realmOf('tenant-two')).toBe('myOIDC2');
  });

  it("#48: admin endpoints refuse missing, forged, garbage and expired tokens (401) and other tenants' admins (403)", async () => {
    const refBody = { pipeline: 'check', ref: 'refs/heads/master', oldrev: '0'.repeat(40), newrev: '1'.repeat(40) };
    for (const send of [(t?: string) => enqueue(t), (t?: string) => enqueue(t, refBody), (t?: string) => autohold(t)]) {
      await expect401(await send(undefined), 'MissingAuthError', 'Missing "Authorization" header');
      await expect401(
        await send(operatorToken(['tenant-one']).replace(/.{8}$/, 'AAAAAAAA')),
        'AuthTokenInvalidSignatureException',
      );
      await expect401(
        await send(token(OPERATOR, { zuul: { admin: ['tenant-one'] } }, 'OnlyZuulNoDana')),
        'AuthTokenInvalidSignatureException',
        'Invalid signature',
      );
      await expect401(await send('garbage'), 'AuthTokenUndecodedException', 'Auth Token could not be decoded');
      await expect401(
        await send(operatorToken(['tenant-one'], { iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 })),
        'TokenExpiredError',
        'Token has expired',
      );
      await expect403(await send(operatorToken(['tenant-two', 'tenant-three'])));
    }
    const bearerless = await call(server, 'tenant/tenant-one/project/org/project/enqueue', {
      method: 'POST',
      body: { pipeline: 'check', change: '1,1' },
      headers: { Authorization: 'Basic abc' },
    });
    await expect401(bearerless, 'InvalidAuthFormat');
  });

  it("#49, #50: an admin creates an autohold; other tenants do not see it; delete needs the tenant's admin", async () => {
    expect(await json(await autohold(operatorToken(['tenant-one'])))).toBe(true);
    const list = await json<
      Array<{
        id: string;
        tenant: string;
        project: string;
        job: string;
        ref_filter: string;
        max_count: number;
        current_count: number;
        reason: string;
        nodes: unknown[];
      }>
    >(await call(server, 'tenant/tenant-one/autohold'));
    expect(list).toHaveLength(1);
    const [hold] = list;
    expect(hold).toMatchObject({
      tenant: 'tenant-one',
      project: 'review.example.com/org/project',
      job: 'project-test2',
      ref_filter: '.*',
      max_count: 1,
      current_count: 0,
      reason: 'reason text',
      nodes: [],
    });
    expect(await json(await call(server, 'tenant/tenant-one/autohold?project=org/project2'))).toEqual([]);
    const elsewhere = await call(server, `tenant/tenant-two/autohold/${hold.id}`);
    expect(elsewhere.status).toBe(404);
    expect(await call(server, 'tenant/tenant-one/autohold/12345').then((res) => res.status)).toBe(404);
    await expect401(await call(server, 'tenant/tenant-one/autohold/12345', { method: 'DELETE' }), 'MissingAuthError');
    await expect403(
      await call(server, `tenant/tenant-one/autohold/${hold.id}`, {
        method: 'DELETE',
        token: operatorToken(['tenant-two']),
      }),
    );
    expect(
      (
        await call(server, 'tenant/tenant-one/autohold/invalidid', {
          method: 'DELETE',
          token: operatorToken(['tenant-one']),
        })
      ).status,
    ).toBe(404);
    const deleted = await call(server, `tenant/tenant-one/autohold/${hold.id}`, {
      method: 'DELETE',
      token: operatorToken(['tenant-one']),
    });
    expect(deleted.status).toBe(204);
    expect(await json(await call(server, 'tenant/tenant-one/autohold'))).toEqual([]);
  });

  it('#51: an admin enqueues a change and a ref update (200 true)', async () => {
    const admin = operatorToken(['tenant-one']);
    expect(await json(await enqueue(admin, { pipeline: 'check', change: '1,1', trigger: 'gerrit' }))).toBe(true);
    const newrev = await setup.git.revParse('org/project', 'master');
    expect(await json(await enqueue(admin, { pipeline: 'check', ref: 'master', oldrev: '0'.repeat(40), newrev }))).toBe(
      true,
    );
  });

  it.each<[string, HttpMethod[]]>([
    ['tenant/my-tenant/promote', ['POST', 'GET']],
    ['tenant/my-tenant/project/my-project/enqueue', ['POST', 'GET']],
    ['tenant/my-tenant/project/my-project/autohold', ['GET', 'POST']],
    ['tenant/my-tenant/autohold/123', ['GET', 'DELETE']],
    ['tenant/my-tenant/project/my-project/dequeue', ['POST', 'GET']],
    ['tenant/my-tenant/authorizations', ['GET']],
  ])('#53: OPTIONS %s -> 204 preflight', async (route, methods) => {
    const res = await call(server, route, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/^Authorization, Content-Type/);
    const allowed = (res.headers.get('access-control-allow-methods') ?? '').split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['OPTIONS', ...methods]));
  });

  it('#54: T/authorizations from the zuul.admin override: admin of its tenants only', async () => {
    const admin = operatorToken(['tenant-one']);
    expect(await json(await call(server, 'tenant/tenant-one/authorizations', { token: admin }))).toEqual({
      zuul: { admin: true, scope: ['tenant-one'] },
    });
    expect(
      await json(await call(server, 'tenant/tenant-one/authorizations', { token: operatorToken(['tenant-whatever']) })),
    ).toEqual({ zuul: { admin: false, scope: ['tenant-one'] } });
    expect(await json(await call(server, 'authorizations', { token: operatorToken(['*']) }))).toEqual({
      zuul: { admin: true, scope: ['*'] },
    });
    expect(await json(await call(server, 'authorizations', { token: admin }))).toEqual({
      zuul: { admin: false, scope: ['*'] },
    });
  });

  it('#55: admin rules by uid, nested claim and group may enqueue; others may not; override claims and unknown issuers are refused', async () => {
    const rulesToken = (sub: string, claims: Json = {}) => token(RULES, { sub, ...claims });
    const admins = [
      rulesToken('venkman'),
      rulesToken('zeddemore', { vehicle: { car: 'ecto-1' } }),
      rulesToken('melnitz', { groups: ['ghostbusters', 'secretary'] }),
    ];
    for (const admin of admins) {
      expect(await json(await enqueue(admin))).toBe(true);
      expect(await json(await call(server, 'tenant/tenant-one/authorizations', { token: admin }))).toEqual({
        zuul: { admin: true, scope: ['tenant-one'] },
      });
    }
    const vigo = rulesToken('vigo');
    await expect403(await enqueue(vigo));
    expect(await json(await call(server, 'tenant/tenant-one/authorizations', { token: vigo }))).toEqual({
      zuul: { admin: false, scope: ['tenant-one'] },
    });
    // stantz is admin only with issuer columbia.edu, which no authenticator accepts.
    expect(await json(await call(server, 'tenant/tenant-one/authorizations', { token: rulesToken('stantz') }))).toEqual(
      { zuul: { admin: false, scope: ['tenant-one'] } },
    );
    await expect401(
      await enqueue(rulesToken('stantz', { iss: 'columbia.edu' })),
      'IssuerUnknownError',
      'Issuer unknown',
    );
    await expect401(
      await enqueue(rulesToken('venkman', { zuul: { admin: ['tenant-one'] } })),
      'UnauthorizedZuulAdminClaimError',
      'Issuer is not allowed to set "zuul.admin" claim',
    );
    await expect401(await call(server, 'tenant/tenant-one/authorizations'), 'MissingAuthError');
    expect((await call(server, 'tenant/unknown/authorizations', { token: admins[0] })).status).toBe(404);
  });

  it('#56: maxTokenAge (max_validity_time=5) needs iat, refuses future and old tokens, accepts fresh ones', async () => {
    const aged = (claims: Json) => token(MAX_AGE, { zuul: { admin: ['tenant-one'] }, ...claims });
    await expect401(await autohold(aged({ iat: undefined })), 'MissingClaimError', 'Missing "iat" claim');
    await expect401(
      await autohold(aged({ iat: nowSeconds() + 3600 })),
      'AuthTokenUnauthorizedException',
      '"iat" claim set in the future',
    );
    await expect401(
      await autohold(aged({ iat: nowSeconds() - 10 })),
      'TokenExpiredError',
      'Token was issued too long ago',
    );
    expect(await json(await autohold(aged({})))).toBe(true);
  });

  it('#9: an api-root realm becomes the root default without leaking into tenants without their own', async () => {
    writeFileSync(setup.tenantFile, `- api-root:\n    authentication-realm: myOIDC2\n${RULES_TENANT_FILE}`);
    await server.app.layoutManager?.reconfigure();
    const defaultRealm = async (route: string) =>
      (await json<{ info: { capabilities: { auth: { default_realm: string } } } }>(await call(server, route))).info
        .capabilities.auth.default_realm;
    expect(await defaultRealm('info')).toBe('myOIDC2');
    expect(await defaultRealm('tenant/tenant-one/info')).toBe('myOIDC1');
  });
});
