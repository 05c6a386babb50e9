/**
 * The wiring pattern for the schema: Pothos scope-auth with `scopeLoaders`, errors from
 * `denialForFailure`, served by yoga — proving 401 (with WWW-Authenticate) and 403 reach HTTP.
 */
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { createTokenAuthenticator, type TokenAuthenticator } from '../../../src/auth/authenticator';
import { requestAuthFromHeader, type AccessPolicySource, type RequestAuth } from '../../../src/auth/gate';
import { signJwt } from '../../helpers/sign-jwt';
import { denialForFailure, scopeLoaders } from '../../../src/auth/scopes';
import { authorizationsBody } from '../../../src/auth/rules';

interface Context {
  auth: RequestAuth;
}

const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: {
    public: boolean;
    authenticated: boolean;
    rootRead: boolean;
    tenantRead: string;
    tenantToken: string;
    tenantAdmin: string;
  };
}>({
  plugins: [ScopeAuthPlugin],
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => scopeLoaders(ctx.auth),
    unauthorizedError: (_parent, ctx, _info, result) => {
      const denied = denialForFailure(ctx.auth, result.failure);
      return new GraphQLError(denied.message, { extensions: denied.extensions });
    },
  },
});

builder.queryType({
  fields: (t) => ({
    status: t.string({
      args: { tenant: t.arg.string({ required: true }) },
      authScopes: (_parent, args) => ({ tenantRead: args.tenant }),
      resolve: (_parent, args) => `status of ${args.tenant}`,
    }),
    authorizations: t.field({
      type: 'String',
      args: { tenant: t.arg.string({ required: true }) },
      authScopes: (_parent, args) => ({ tenantToken: args.tenant }),
      resolve: (_parent, args, ctx) => JSON.stringify(authorizationsBody(args.tenant, ctx.auth.decision(args.tenant))),
    }),
  }),
});

builder.mutationType({
  fields: (t) => ({
    enqueue: t.boolean({
      args: { tenant: t.arg.string({ required: true }) },
      authScopes: (_parent, args) => ({ tenantAdmin: args.tenant }),
      resolve: () => true,
    }),
  }),
});

const policies: AccessPolicySource = {
  rules: () => new Map([['readers', { name: 'readers', conditions: [{ groups: 'readers' }] }]]),
  tenantPolicy: (tenant) =>
    tenant === 'open'
      ? { accessRules: [], adminRules: [] }
      : tenant === 'closed'
        ? { accessRules: ['readers'], adminRules: [] }
        : undefined,
  rootPolicy: () => ({ accessRules: [], adminRules: [] }),
};

const NOW = Math.floor(Date.now() / 1000);
const token = (claims: Record<string, unknown>) =>
  signJwt({ iss: 'ops', aud: 'sluice', sub: 'u', exp: NOW + 600, ...claims }, 'HS256', {
    kind: 'secret',
    secret: Buffer.from('s3cret'),
  });

let authenticator: TokenAuthenticator;
const yoga = createYoga<Record<string, unknown>, Context>({
  schema: builder.toSchema(),
  logging: false,
  context: async ({ request }) => ({
    auth: await requestAuthFromHeader(authenticator, request.headers.get('authorization'), policies),
  }),
});

beforeAll(async () => {
  authenticator = await createTokenAuthenticator({
    authenticators: [
      {
        name: 'ops',
        driver: 'HS256',
        realm: 'sluice',
        issuer: 'ops',
        clientId: 'sluice',
        secret: 's3cret',
        uidClaim: 'sub',
        clockSkew: 0,
        allowAuthzOverride: true,
        default: true,
      },
    ],
  });
});

async function run(query: string, bearer?: string) {
  const response = await yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  };
  return { status: response.status, wwwAuthenticate: response.headers.get('www-authenticate'), body };
}

describe('scope-auth wiring', () => {
  it('lets anyone read an open tenant, ignoring a bad token', async () => {
    expect((await run('{ status(tenant: "open") }')).body.data).toEqual({ status: 'status of open' });
    expect((await run('{ status(tenant: "open") }', 'garbage')).body.data).toEqual({ status: 'status of open' });
  });

  it('answers 401 with WWW-Authenticate for an anonymous read of a restricted tenant, 403 for a non-reader', async () => {
    const anonymous = await run('{ status(tenant: "closed") }');
    expect(anonymous.status).toBe(401);
    expect(anonymous.wwwAuthenticate).toBe(
      'Bearer realm="sluice"       error="MissingAuthError"       error_description="Missing \\"Authorization\\" header"',
    );
    expect(anonymous.body.errors?.[0]).toMatchObject({
      message: 'Missing "Authorization" header',
      extensions: {
        code: 'UNAUTHENTICATED',
        auth: { error: 'MissingAuthError', description: 'Missing "Authorization" header', realm: 'sluice' },
      },
    });
    const outsider = await run('{ status(tenant: "closed") }', token({}));
    expect(outsider.status).toBe(403);
    expect(outsider.body.errors?.[0]).toMatchObject({
      message: 'Permission denied',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await run('{ status(tenant: "closed") }', token({ groups: ['readers'] }))).body.data).toEqual({
      status: 'status of closed',
    });
  });

  it('requires admin for control: 401 expired, 403 wrong tenant, allowed for its admin', async () => {
    const expired = await run(
      'mutation { enqueue(tenant: "open") }',
      token({ exp: NOW - 10, zuul: { admin: ['open'] } }),
    );
    expect(expired.status).toBe(401);
    expect(expired.body.errors?.[0]).toMatchObject({
      message: 'Token has expired',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const otherTenant = await run('mutation { enqueue(tenant: "open") }', token({ zuul: { admin: ['closed'] } }));
    expect(otherTenant.status).toBe(403);
    const admin = await run('mutation { enqueue(tenant: "open") }', token({ zuul: { admin: ['open'] } }));
    expect(admin.body).toEqual({ data: { enqueue: true } });
    const unknown = await run('mutation { enqueue(tenant: "nope") }', token({ zuul: { admin: ['nope'] } }));
    expect(unknown.status).toBe(403);
  });

  it('serves authorizations to token holders only', async () => {
    expect((await run('{ authorizations(tenant: "open") }')).status).toBe(401);
    const body = (await run('{ authorizations(tenant: "open") }', token({ zuul: { admin: ['open'] } }))).body;
    expect(JSON.parse(String(body.data?.authorizations))).toEqual({ zuul: { admin: true, scope: ['open'] } });
  });
});
