/**
 * The authentication cases of compat.md §8.1 over REST, against real servers that load a tenant
 * file (rules, realms, api-root) over real git repositories and run their own engine: realms in
 * info (#9), read-protected api-root and tenant (#10, #54, #66), admin endpoints and their token
 * failures (#47, #48, #50), preflights (#53), authorizations (#54, #55), rule-based admins (#55)
 * and token age limits (#56). Token texts and the 401 layout: docs/security.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { REST_ROUTES } from '../../rest-compat';
import type { HttpMethod } from '../../rest-compat/route';
import { signJwt } from '../../src/auth/jwt';
import { buildLogDir, JOB_OUTPUT_FILE } from '../../src/executor/log-paths';
import { BuildRequestRepository } from '../../src/store/repositories/build-requests';
import { buildParams } from '../helpers/build-params';
import { defaultServiceConfig, type ServiceConfig } from '../../src/config/service';
import { createGitFixture, type GitFixture } from '../helpers/git-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

type Json = Record<string, unknown>;
type Authenticator = ServiceConfig['auth']['authenticators'][number];
type Hs256Authenticator = Extract<Authenticator, { driver: 'HS256' }>;
type OidcAuthenticator = Extract<Authenticator, { driver: 'OpenIDConnect' }>;

const COMMON_CONFIG = `
- pipeline:
    name: check
    manager: independent
    trigger: {}

- job:
    name: base
    parent: null
    run: base.sh

- job:
    name: project-test2
    run: test2.sh
`;

const hs256 = (
  name: string,
  issuer: string,
  secret: string,
  extra: Partial<Omit<Hs256Authenticator, 'driver'>> = {},
): Hs256Authenticator => ({
  name,
  driver: 'HS256',
  realm: name,
  issuer,
  clientId: name,
  secret,
  uidClaim: 'sub',
  clockSkew: 0,
  allowAuthzOverride: false,
  default: false,
  ...extra,
});

const oidc = (
  name: string,
  issuer: string,
  extra: Partial<Omit<OidcAuthenticator, 'driver'>> = {},
): OidcAuthenticator => ({
  name,
  driver: 'OpenIDConnect',
  realm: name,
  issuer,
  clientId: 'zuul',
  uidClaim: 'sub',
  clockSkew: 0,
  allowAuthzOverride: false,
  default: false,
  scope: 'openid profile',
  loadUserInfo: true,
  keysCacheTtl: 600,
  ...extra,
});

/** compat.md §6.5: the test suite's HS256 operator authenticator, which allows `zuul.admin`. */
const OPERATOR = hs256('zuul.example.com', 'zuul_operator', 'NoDanaOnlyZuul', { allowAuthzOverride: true });
/** The rules fixture's authenticator: no override, admins come from rules. */
const RULES = hs256('rules.example.com', 'rules_operator', 'rules-secret');
/** `max_validity_time=5` (#56). */
const MAX_AGE = hs256('mvt.example.com', 'mvt_operator', 'mvt-secret', { allowAuthzOverride: true, maxTokenAge: 5 });

const nowSeconds = () => Math.floor(Date.now() / 1000);

function token(authenticator: Hs256Authenticator, claims: Json = {}, secret?: string): string {
  const key = secret ?? authenticator.secret ?? '';
  const base = {
    iss: authenticator.issuer,
    aud: authenticator.clientId,
    sub: 'testuser',
    iat: nowSeconds(),
    exp: nowSeconds() + 3600,
  };
  const payload = Object.fromEntries(
    Object.entries({ ...base, ...claims }).filter(([, value]) => value !== undefined),
  ) as Json;
  return signJwt(payload as never, 'HS256', { kind: 'secret', secret: Buffer.from(key) });
}

const operatorToken = (tenants: string[], claims: Json = {}) =>
  token(OPERATOR, { zuul: { admin: tenants }, ...claims });

interface Setup {
  git: GitFixture;
  server: TestServer;
  tenantFile: string;
}

async function startServer(tenantFileText: string, authenticators: Authenticator[]): Promise<Setup> {
  const git = createGitFixture();
  await git.createProject('common-config', { 'zuul.yaml': COMMON_CONFIG });
  const master = await git.createProject('org/project', { README: 'hello\n' });
  await git.pushChange('org/project', 1, 1, { parent: master, files: { README: 'change one\n' } });
  const tenantFile = path.join(git.root, 'main.yaml');
  writeFileSync(tenantFile, tenantFileText);
  const defaults = defaultServiceConfig(process.cwd());
  const server = await startTestServer({
    config: {
      tenantConfig: tenantFile,
      connections: {
        gerrit: { driver: 'git', baseurl: git.baseDir, pollInterval: 3600, canonicalHostname: 'review.example.com' },
      },
      auth: { ...defaults.auth, authenticators },
      logs: { dir: path.join(git.root, 'logs') },
    },
  });
  return { git, server, tenantFile };
}

const SOURCE = `
    source:
      gerrit:
        config-projects:
          - common-config
        untrusted-projects:
          - org/project`;

const RULES_TENANT_FILE = `
- authorization-rule:
    name: venkman-rule
    conditions:
      - zuul_uid: venkman
- authorization-rule:
    name: car-rule
    conditions:
      - vehicle.car: ecto-1
- authorization-rule:
    name: ghostbusters-rule
    conditions:
      - groups: ghostbusters
- authorization-rule:
    name: columbia-rule
    conditions:
      - iss: columbia.edu
        zuul_uid: stantz
- tenant:
    name: tenant-one
    admin-rules:
      - venkman-rule
      - car-rule
      - ghostbusters-rule
      - columbia-rule${SOURCE}
- tenant:
    name: tenant-two
    authentication-realm: myOIDC2${SOURCE}
`;

function call(
  server: TestServer,
  route: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) {
    headers.Authorization = `Bearer ${options.token}`;
  }
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  return fetch(`${server.url}/api/${route}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function json<T = unknown>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  // The body is part of the comparison so that a wrong status shows what the server said.
  expect({ status: res.status, text }).toEqual({ status, text: res.status === status ? text : '(a body)' });
  return JSON.parse(text) as T;
}

/** A 401 with the reference body and WWW-Authenticate naming the same error. */
async function expect401(res: Response, error: string, description?: string): Promise<void> {
  const body = (await res.json()) as { error: string; description: string; realm: unknown };
  expect({ status: res.status, error: body.error }).toEqual({ status: 401, error });
  if (description !== undefined) {
    expect(body.description).toBe(description);
  }
  expect(Object.keys(body).sort()).toEqual(['description', 'error', 'realm']);
  expect(res.headers.get('www-authenticate')).toContain(`error="${error}"`);
}

async function expect403(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  expect(await res.text()).toBe('');
}

describe('REST auth contract (reference cases): rules, realms and admin endpoints', () => {
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

describe('REST auth contract (reference cases): read-protected api-root and tenant', () => {
  let setup: Setup;
  let server: TestServer;
  const READER = { groups: ['users'] };

  beforeAll(async () => {
    setup = await startServer(
      `
- authorization-rule:
    name: users-rule
    conditions:
      - groups: users
- api-root:
    access-rules:
      - users-rule
- tenant:
    name: tenant-one
    access-rules:
      - users-rule${SOURCE}
- tenant:
    name: tenant-two
    access-rules:
      - users-rule
`,
      [OPERATOR],
    );
    server = setup.server;
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    setup.git.cleanup();
  });

  const concrete = (pattern: string): string =>
    pattern.replace(
      /\{([a-z_]+)(?::\.\*)?\}/g,
      (_all, name: string) =>
        ({
          tenant_name: 'tenant-one',
          project_name: 'org/project',
          branch_name: 'master',
          pipeline_name: 'check',
          job_name: 'base',
          change: '1,1',
        })[name] ?? '1',
    );

  const endpoints = REST_ROUTES.flatMap((route) =>
    (Object.entries(route.endpoints) as Array<[HttpMethod, { auth: string }]>).map(([method, endpoint]) => ({
      route,
      method,
      auth: endpoint.auth,
    })),
  );

  it('#10: only info, tenant info and the OpenAPI document are never protected', () => {
    expect(
      endpoints
        .filter((e) => e.auth === 'none')
        .map((e) => e.route.name)
        .sort(),
    ).toEqual(['info', 'openapi', 'tenant_info']);
  });

  it.each(
    endpoints
      .filter((e) => e.auth !== 'none')
      .map((e): [string, HttpMethod, string] => [e.route.name, e.method, e.route.pattern]),
  )('#10: anonymous %s %s -> 401', async (_name, method, pattern) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    await expect401(await call(server, concrete(pattern), { method, body }), 'MissingAuthError');
  });

  it('#10: info and tenant info answer with read_protected true; a reader reads', async () => {
    for (const route of ['info', 'tenant/tenant-one/info']) {
      const info = await json<{ info: { capabilities: { auth: { read_protected: boolean } } } }>(
        await call(server, route),
      );
      expect(info.info.capabilities.auth.read_protected).toBe(true);
    }
    const reader = token(OPERATOR, READER);
    expect(await json(await call(server, 'tenants', { token: reader }))).toEqual([
      { name: 'tenant-one' },
      { name: 'tenant-two' },
    ]);
    expect(await json(await call(server, 'tenant/tenant-one/builds', { token: reader }))).toEqual([]);
    await expect403(await call(server, 'tenant/tenant-one/builds', { token: token(OPERATOR) }));
  });

  it('#54: T/authorizations answers 403 to a valid token that may not read the tenant', async () => {
    await expect403(
      await call(server, 'tenant/tenant-one/authorizations', { token: operatorToken(['tenant-whatever']) }),
    );
    expect(
      await json(await call(server, 'tenant/tenant-one/authorizations', { token: operatorToken(['tenant-one']) })),
    ).toEqual({ zuul: { admin: true, scope: ['tenant-one'] } });
  });

  it('#66: the console stream checks the token of its first message on a read-protected tenant', async () => {
    const consoleClose = (message: Json): Promise<{ code: number; reason: string }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tenant/tenant-one/console-stream`);
        ws.on('open', () => ws.send(JSON.stringify(message)));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
        ws.on('error', reject);
      });
    const build = { uuid: 'ca000000000000000000000000000001', logfile: 'console.log' };
    expect(await consoleClose(build)).toEqual({ code: 4000, reason: 'MissingAuthError' });
    expect(await consoleClose({ ...build, token: 'garbage' })).toEqual({
      code: 4000,
      reason: 'AuthTokenUndecodedException',
    });
    expect(await consoleClose({ ...build, token: token(OPERATOR) })).toEqual({
      code: 4000,
      reason: 'Authorization error',
    });
    // Allowed to read: the build lookup answers (this build does not exist).
    expect(await consoleClose({ ...build, token: token(OPERATOR, READER) })).toEqual({
      code: 4011,
      reason: 'Build not found',
    });
  });

  it("#66: a valid token streams the whole log of a finished build; on another tenant's path the build is not found", async () => {
    const uuid = 'ca000000000000000000000000000066';
    const log = 'first line\nsecond line: héllo\nlast line\n';
    const { knex } = server.app.services;
    // Recorded as completed in one transaction, so no executor of this server claims it.
    await knex.transaction(async (trx) => {
      await new BuildRequestRepository(knex).create(
        buildParams({ params: { tenant: 'tenant-one', buildUuid: uuid } }),
        {},
        trx,
      );
      await trx('build_requests').where({ build_uuid: uuid }).update({ state: 'completed', result: 'SUCCESS' });
    });
    const dir = buildLogDir(server.app.services.config.logs.dir as string, 'tenant-one', uuid);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, JOB_OUTPUT_FILE), log);

    const stream = (tenant: string): Promise<{ text: string; code: number; reason: string }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tenant/${tenant}/console-stream`);
        const received: string[] = [];
        ws.on('open', () => ws.send(JSON.stringify({ uuid, logfile: 'console.log', token: token(OPERATOR, READER) })));
        ws.on('message', (data) => received.push(data.toString()));
        ws.on('close', (code, reason) => resolve({ text: received.join(''), code, reason: reason.toString() }));
        ws.on('error', reject);
      });
    expect(await stream('tenant-one')).toEqual({ text: log, code: 1000, reason: 'No more data' });
    expect(await stream('tenant-two')).toEqual({ text: '', code: 4011, reason: 'Build not found' });
  });
});
