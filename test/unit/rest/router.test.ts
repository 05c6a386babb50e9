/**
 * The generic REST handling on a small synthetic route table: auth order and 401 bodies,
 * GraphQL error mapping, JSON bodies (415/400), success statuses with null/empty bodies,
 * text responses, query specs, greedy segments and %2F. The GraphQL runner is a stub that
 * knows one tenant, so these tests need no database.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { ExecutionResult } from 'graphql';
import { restRouter } from '../../../rest-compat/router';
import type { OperationRunner } from '../../../rest-compat/operation-runner';
import type { RestRoute } from '../../../rest-compat/route';

const seen: Record<string, unknown>[] = [];

const routes: RestRoute[] = [
  {
    name: 'control',
    pattern: 'tenant/{tenant_name}/project/{project_name:.*}/control',
    endpoints: {
      POST: {
        summary: 'admin write with a body',
        auth: 'admin',
        operations: [],
        body: { schema: { type: 'object', required: ['pipeline'] }, required: true },
        responses: { current: { status: 200, description: 'true' } },
        errors: {},
        handler: async (req) => {
          seen.push({ params: req.params, body: req.body });
          if (req.body.pipeline === 'forbidden') {
            // What the schema reports for an authenticated caller without the right.
            return req.run({ kind: 'Document', definitions: [] } as never, { code: 'FORBIDDEN' });
          }
          if (req.body.pipeline === 'expired') {
            return req.run({ kind: 'Document', definitions: [] } as never, { code: 'UNAUTHENTICATED' });
          }
          return { body: true };
        },
      },
    },
  },
  {
    name: 'things',
    pattern: 'tenant/{tenant_name}/things/{id}',
    endpoints: {
      PUT: {
        summary: 'created',
        auth: 'public',
        operations: [],
        body: { schema: { type: 'object' }, required: false },
        responses: { current: { status: 201, description: 'null' } },
        errors: {},
        handler: async () => ({ body: null }),
      },
      DELETE: {
        summary: 'deleted',
        auth: 'public',
        operations: [],
        responses: { current: { status: 204, description: 'no body' } },
        errors: {},
        handler: async () => ({ body: null }),
      },
    },
  },
  {
    name: 'key',
    pattern: 'tenant/{tenant_name}/key/{project_name:.*}.pub',
    endpoints: {
      GET: {
        summary: 'text',
        auth: 'public',
        operations: [],
        query: { current: { n: { type: 'integer', default: 5, maximum: 10, description: 'n' } } },
        responses: { current: { status: 200, contentType: 'text/plain', description: 'key' } },
        errors: {},
        handler: async (req) => ({ body: `${req.params.project_name} ${req.query.integer('n')}\n` }),
      },
    },
  },
];

/** Knows tenant `t1`; an operation called with `{code}` fails with that GraphQL error code. */
const run: OperationRunner = async (_document, variables) => {
  const code = (variables as { code?: string }).code;
  if (code !== undefined) {
    const extensions =
      code === 'UNAUTHENTICATED' ? { code, authError: 'TokenExpiredError', realm: 'sluice' } : { code };
    return {
      errors: [{ message: code === 'FORBIDDEN' ? 'Permission denied' : 'Token has expired', extensions }],
    } as unknown as ExecutionResult<never>;
  }
  const tenant = (variables as { tenant?: string }).tenant;
  const data = {
    tenant:
      tenant === 't1' ? { __typename: 'Tenant' } : { __typename: 'NotFoundError', errorMessage: 'Tenant not found' },
  };
  return { data } as unknown as ExecutionResult<never>;
};

describe('REST router', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const koa = new Koa();
    koa.use(
      restRouter({ routes, run, defaultShape: 'current', serverContext: () => ({}), defaultRealm: () => 'sluice' }),
    );
    server = http.createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (path: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${base}/${path}`, {
      method: 'POST',
      body,
      headers: { authorization: 'Bearer x', 'content-type': 'application/json', ...headers },
    });

  it('resolves the tenant before auth: unknown tenant is 404 even without a token', async () => {
    const res = await fetch(`${base}/tenant/nobody/project/org/p/control`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'NotFound', description: 'Tenant not found' });
  });

  it('answers a missing header with the reference 401 body and WWW-Authenticate', async () => {
    const res = await fetch(`${base}/tenant/t1/project/org/p/control`, { method: 'POST', body: '{' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      description: 'Missing "Authorization" header',
      error: 'MissingAuthError',
      realm: 'sluice',
    });
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="sluice" error="MissingAuthError" error_description="Missing \\"Authorization\\" header"',
    );
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('rejects a non-bearer header with InvalidAuthFormat', async () => {
    const res = await post('tenant/t1/project/org/p/control', '{}', { authorization: 'Basic abc' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('InvalidAuthFormat');
  });

  it('checks the body after auth: 415, invalid JSON, missing key', async () => {
    const wrongType = await post('tenant/t1/project/org/p/control', 'pipeline=gate', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toEqual({
      error: 'UnsupportedMediaType',
      description: 'Expected an entity of content type application/json, text/javascript',
    });
    const malformed = await post('tenant/t1/project/org/p/control', '{"pipeline":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: 'BadRequest', description: 'Invalid JSON document' });
    const empty = await post('tenant/t1/project/org/p/control', '');
    expect(await empty.json()).toEqual({ error: 'BadRequest', description: 'Invalid JSON document' });
    const array = await post('tenant/t1/project/org/p/control', '[]');
    expect(array.status).toBe(400);
    const missing = await post('tenant/t1/project/org/p/control', '{"change": "1,1"}');
    expect(await missing.json()).toEqual({
      error: 'BadRequest',
      description: 'Invalid request body: missing pipeline',
    });
  });

  it('passes greedy path parameters and the body to the handler; 200 true', async () => {
    seen.length = 0;
    const res = await post('tenant/t1//project/org/sub/p/control', '{"pipeline": "gate"}');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('true');
    expect(seen).toEqual([{ params: { tenant_name: 't1', project_name: 'org/sub/p' }, body: { pipeline: 'gate' } }]);
  });

  it('maps typed auth failures of the schema to 401 (name kept) and 403 (JSON error body)', async () => {
    const expired = await post('tenant/t1/project/org/p/control', '{"pipeline": "expired"}');
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      description: 'Token has expired',
      error: 'TokenExpiredError',
      realm: 'sluice',
    });
    const forbidden = await post('tenant/t1/project/org/p/control', '{"pipeline": "forbidden"}');
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ error: 'Forbidden', description: 'Permission denied' });
  });

  it('answers 201 with null and 204 with no body; preflight lists the methods', async () => {
    const created = await fetch(`${base}/tenant/t1/things/7`, { method: 'PUT' });
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('null');
    const deleted = await fetch(`${base}/tenant/t1/things/7`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const preflight = await fetch(`${base}/tenant/any/things/7`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('PUT, DELETE, OPTIONS');
    const wrong = await fetch(`${base}/tenant/t1/things/7`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
  });

  it('serves text/plain, .pub suffix after a greedy name, integer default and clamp, %2F kept', async () => {
    const res = await fetch(`${base}/tenant/t1/key/org/project.pub`);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('org/project 5\n');
    expect(await (await fetch(`${base}/tenant/t1/key/org%2Fproject.pub?n=99`)).text()).toBe('org%2Fproject 10\n');
    expect(await (await fetch(`${base}/tenant/t1/key/a%40b.pub`)).text()).toBe('a@b 5\n');
  });
});
