/**
 * The security core wired into the running server (docs/security.md): every control operation
 * and the rule types over GraphQL HTTP and graphql-ws, against a real engine. Token cases:
 * anonymous, expired, bad signature, `alg: none`, wrong audience, another tenant's admin,
 * this tenant's admin (by override claim and by admin rule).
 */
import { createHmac } from 'node:crypto';
import type { Client } from 'graphql-ws';
import { tenantFilePolicies } from '../../../src/auth/gate';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  adminToken,
  liveTestConfig,
  startLiveServer,
  Subscription,
  wsClient,
  type LiveServer,
} from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const TENANT_B = 'tenant-b';
const RESTRICTED = 'restricted';

const layoutSpec = () => ({
  tenant: nextTenant(),
  pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
  projects: [{ name: 'org/project', queue: 'integrated' }],
  jobs: { 'org/project': { gate: [job('unit')] } },
});

/** Every control mutation with an input for `tenant`. */
const CONTROL: Array<{ name: string; query: string; input: (tenant: string) => Record<string, unknown> }> = [
  {
    name: 'enqueue',
    query: 'mutation ($input: EnqueueInput!) { enqueue(input: $input) { __typename } }',
    input: (tenant) => ({ tenant, pipeline: 'gate', project: 'org/project', change: '1,1' }),
  },
  {
    name: 'dequeue',
    query: 'mutation ($input: DequeueInput!) { dequeue(input: $input) { __typename } }',
    input: (tenant) => ({ tenant, pipeline: 'gate', project: 'org/project', change: '1,1' }),
  },
  {
    name: 'promote',
    query: 'mutation ($input: PromoteInput!) { promote(input: $input) { __typename } }',
    input: (tenant) => ({ tenant, pipeline: 'gate', changes: ['1,1'] }),
  },
  {
    name: 'autoholdCreate',
    query: 'mutation ($input: AutoholdCreateInput!) { autoholdCreate(input: $input) { __typename } }',
    input: (tenant) => ({ tenant, project: 'org/project', job: 'unit', count: 1, reason: 'debug' }),
  },
  {
    name: 'autoholdDelete',
    query: 'mutation ($input: AutoholdDeleteInput!) { autoholdDelete(input: $input) { __typename } }',
    input: (tenant) => ({ tenant, id: '0000000001' }),
  },
  {
    name: 'tenantStateSet',
    query: 'mutation ($input: TenantStateSetInput!) { tenantStateSet(input: $input) { __typename } }',
    input: (tenant) => ({ tenant, triggerQueuePaused: false }),
  },
];

const SECRET = 'live-test-secret-of-some-length';
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const claimsFor = (tenant: string, extra: Record<string, unknown> = {}) => ({
  iss: 'sluice-test',
  aud: 'sluice',
  sub: 'someone',
  iat: nowSeconds(),
  exp: nowSeconds() + 600,
  zuul: { admin: [tenant] },
  ...extra,
});
function hs256(payload: object, secret: string): string {
  const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/** The refused token cases, with the expected HTTP status and `extensions.auth.error`. */
function refusedTokens(
  tenant: string,
): Array<{ name: string; token: string | undefined; status: number; error?: string }> {
  return [
    { name: 'anonymous', token: undefined, status: 401, error: 'MissingAuthError' },
    {
      name: 'expired token',
      token: adminToken(tenant, { iat: nowSeconds() - 1200, exp: nowSeconds() - 600 }),
      status: 401,
      error: 'TokenExpiredError',
    },
    {
      name: 'bad signature',
      token: hs256(claimsFor(tenant), 'not-the-secret'),
      status: 401,
      error: 'AuthTokenInvalidSignatureException',
    },
    {
      name: 'alg none',
      token: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claimsFor(tenant))}.`,
      status: 401,
      error: 'AuthTokenUnauthorizedException',
    },
    {
      name: 'wrong audience',
      token: hs256(claimsFor(tenant, { aud: 'someone-else' }), SECRET),
      status: 401,
      error: 'IncorrectAudienceError',
    },
    { name: "another tenant's admin", token: adminToken(TENANT_B), status: 403 },
  ];
}

interface HttpResult {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, { __typename?: string } | null> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  };
}

describe('security wiring over GraphQL (HTTP and WebSocket)', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  const clients: Client[] = [];

  async function post(query: string, variables: Record<string, unknown>, token?: string): Promise<HttpResult> {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as HttpResult['body'] };
  }

  function client(token?: string): Client {
    const created = wsClient(server, token);
    clients.push(created);
    return created;
  }

  async function overWebSocket(query: string, variables: Record<string, unknown>, token?: string) {
    const sub = new Subscription<Record<string, { __typename?: string }>>(client(token), query, variables);
    const [result] = await sub.waitFor(1);
    return result;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(db, makeLayout(layoutSpec()));
    await h.start();
    const policies = tenantFilePolicies({
      rules: [
        { name: 'ops-admins', conditions: [{ groups: '{tenant.name}-admins' }] },
        { name: 'readers', conditions: [{ resources_access: { sluice: { roles: 'reader' } } }] },
        { name: 'root-readers', conditions: [{ 'realm.level': 'staff' }] },
      ],
      tenants: [
        { name: h.tenant, adminRules: ['ops-admins', 'undefined-rule'] },
        { name: TENANT_B },
        { name: RESTRICTED, accessRules: ['readers'] },
      ],
    });
    server = await startLiveServer(db, {
      harness: h,
      config: {
        ...liveTestConfig(),
        graphql: { ...liveTestConfig().graphql, controlRateLimit: { burst: 100, perMinute: 60 } },
      },
      tenants: { tenantNames: () => [h.tenant, TENANT_B, RESTRICTED], layout: () => undefined },
      policies: () => policies,
    });
  });

  afterAll(async () => {
    for (const created of clients.splice(0)) {
      await created.dispose();
    }
    await server.stop();
    await h.stop();
    await db.destroy();
  });

  describe.each(CONTROL)('$name', ({ query, input }) => {
    it("refuses anonymous, expired, forged, alg:none, wrong-audience tokens (401) and other tenants' admins (403) over HTTP", async () => {
      for (const refused of refusedTokens(h.tenant)) {
        const result = await post(query, { input: input(h.tenant) }, refused.token);
        expect({ name: refused.name, status: result.status }).toEqual({ name: refused.name, status: refused.status });
        const error = result.body.errors?.[0];
        if (refused.status === 401) {
          expect(error?.extensions).toMatchObject({
            code: 'UNAUTHENTICATED',
            auth: { error: refused.error, realm: 'sluice' },
          });
          expect(result.headers.get('www-authenticate')).toContain(`error="${refused.error}"`);
        } else {
          expect(error).toMatchObject({ message: 'Permission denied', extensions: { code: 'FORBIDDEN' } });
        }
      }
    });

    it('refuses the same over WebSocket', async () => {
      for (const refused of refusedTokens(h.tenant)) {
        const result = await overWebSocket(query, { input: input(h.tenant) }, refused.token);
        expect({ name: refused.name, code: result?.errors?.[0]?.extensions?.code }).toEqual({
          name: refused.name,
          code: refused.status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN',
        });
      }
    });

    it("lets the tenant's admin through (override claim and admin rule), over HTTP and WebSocket, and isolates tenants", async () => {
      const byClaim = await post(query, { input: input(h.tenant) }, adminToken(h.tenant));
      expect(byClaim.body.errors).toBeUndefined();
      expect(Object.values(byClaim.body.data ?? {})[0]?.__typename).toEqual(expect.any(String));
      const byRule = await post(
        query,
        { input: input(h.tenant) },
        adminToken('nowhere', { groups: [`${h.tenant}-admins`] }),
      );
      expect(byRule.body.errors).toBeUndefined();
      const overWs = await overWebSocket(query, { input: input(h.tenant) }, adminToken(h.tenant));
      expect(overWs?.errors).toBeUndefined();
      // An admin of this tenant can do nothing on tenant B.
      const onB = await post(query, { input: input(TENANT_B) }, adminToken(h.tenant));
      expect(onB.status).toBe(403);
    });
  });

  it('hides a tenant with access rules from anonymous listings and refuses its reads (401 anonymous, 403 non-reader)', async () => {
    const list = '{ tenants { name } }';
    const anonymous = await post(list, {});
    expect(anonymous.body.data?.tenants).toEqual(expect.not.arrayContaining([{ name: RESTRICTED }]));
    expect(anonymous.body.data?.tenants).toEqual(expect.arrayContaining([{ name: h.tenant }, { name: TENANT_B }]));
    const reader = await post(list, {}, adminToken('nowhere', { resources_access: { sluice: { roles: 'reader' } } }));
    expect(reader.body.data?.tenants).toEqual(expect.arrayContaining([{ name: RESTRICTED }]));

    const read = `{ tenant(name: "${RESTRICTED}") { ... on Tenant { name } } }`;
    const refusedAnonymously = await post(read, {});
    expect(refusedAnonymously.status).toBe(401);
    expect((await post(read, {}, adminToken(TENANT_B))).status).toBe(403);
    expect(
      (await post(read, {}, adminToken('nowhere', { resources_access: { sluice: { roles: 'reader' } } }))).body.data,
    ).toEqual({ tenant: { name: RESTRICTED } });
    // A tenant's admin may read it even without matching access rules.
    expect((await post(read, {}, adminToken(RESTRICTED))).body.data).toEqual({ tenant: { name: RESTRICTED } });
    expect((await post(`{ tenant(name: "${TENANT_B}") { ... on Tenant { name } } }`, {})).body.data).toEqual({
      tenant: { name: TENANT_B },
    });
  });

  it("refuses a restricted tenant's subscriptions over WebSocket unless the token may read it", async () => {
    const query = 'subscription ($t: String!) { tenantStatus(tenant: $t) { tenant } }';
    expect((await overWebSocket(query, { t: RESTRICTED }))?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await overWebSocket(query, { t: RESTRICTED }, adminToken(TENANT_B)))?.errors?.[0]?.extensions?.code).toBe(
      'FORBIDDEN',
    );
  });

  it('answers authorizations to token holders: admin flag per tenant and at the root', async () => {
    const query = 'query ($t: String) { authorizations(tenant: $t) { ... on Authorizations { admin scope } } }';
    expect((await post(query, { t: h.tenant })).status).toBe(401);
    expect((await post(query, { t: h.tenant }, adminToken(h.tenant))).body.data).toEqual({
      authorizations: { admin: true, scope: [h.tenant] },
    });
    expect((await post(query, { t: TENANT_B }, adminToken(h.tenant))).body.data).toEqual({
      authorizations: { admin: false, scope: [TENANT_B] },
    });
    expect((await post(query, { t: RESTRICTED }, adminToken(h.tenant))).status).toBe(403);
    expect((await post(query, {}, adminToken('*'))).body.data).toEqual({
      authorizations: { admin: true, scope: ['*'] },
    });
    expect((await post(query, {}, adminToken(h.tenant))).body.data).toEqual({
      authorizations: { admin: false, scope: ['*'] },
    });
    const unknown = await post('{ authorizations(tenant: "no-such") { __typename } }', {}, adminToken(h.tenant));
    expect(unknown.body.data).toEqual({ authorizations: { __typename: 'NotFoundError' } });
  });

  it('reports the configured realm in info', async () => {
    const result = await post(
      '{ info { capabilities { auth { realms { name driver clientId authority } defaultRealm readProtected } } } }',
      {},
    );
    expect(result.body.data).toEqual({
      info: {
        capabilities: {
          auth: {
            realms: [{ name: 'sluice', driver: 'HS256', clientId: 'sluice', authority: 'sluice-test' }],
            defaultRealm: 'sluice',
            readProtected: false,
          },
        },
      },
    });
  });
});

describe('control rate limit', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(db, makeLayout(layoutSpec()));
    await h.start();
    const config = liveTestConfig();
    server = await startLiveServer(db, {
      harness: h,
      config: { ...config, graphql: { ...config.graphql, controlRateLimit: { burst: 2, perMinute: 1 } } },
    });
  });

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
  });

  it('answers 429 with Retry-After and RATE_LIMITED once the burst is spent, per caller and tenant', async () => {
    const query = 'mutation ($input: TenantStateSetInput!) { tenantStateSet(input: $input) { __typename } }';
    const send = (token: string) =>
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables: { input: { tenant: h.tenant } } }),
      });
    const token = adminToken(h.tenant);
    expect((await send(token)).status).toBe(200);
    expect((await send(token)).status).toBe(200);
    const limited = await send(token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      ((await limited.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code,
    ).toBe('RATE_LIMITED');
    // Another caller has its own bucket.
    expect((await send(adminToken(h.tenant, { sub: 'another-admin' }))).status).toBe(200);
  });
});
