/**
 * REST contract of the routes over the live engine (compat.md §2.9–§2.12, §2.42–§2.47, §5, A3,
 * A4): every path x method x shape answers with the declared status and headers and a body that
 * validates against the served OpenAPI document; then the §8 cases for status, enqueue,
 * dequeue, promote and autohold, and the error paths. The engine runs with a scripted executor
 * (builds stay running until a test finishes them); tokens `admin:<tenant>` are tenant admins.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { REST_ROUTES } from '../../rest-compat';
import { openApiPath } from '../../rest-compat/openapi';
import type { HttpMethod } from '../../rest-compat/route';
import type { RestShape } from '../../rest-compat/shape';
import { EngineHarness, nextTenant } from '../engine/harness';
import { job, makeLayout, pipeline } from '../engine/scripted';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { startLiveServer, type LiveServer } from '../helpers/live';
import { ENGINE_ROUTES } from '../helpers/rest-engine-routes';

type Json = Record<string, unknown>;

const SHAPES: RestShape[] = ['current', 'earlier'];

interface Call {
  path: string;
  init?: RequestInit;
}

describe('REST contract over the engine', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  let admin: string;
  let nextChange = 10;
  const documents = new Map<RestShape, Json>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: { 'org/project': { gate: [job('unit'), job('integration', { dependencies: [{ name: 'unit', soft: false }] })] } },
      }),
    );
    await h.start();
    admin = `admin:${h.tenant}`;
    server = await startLiveServer(db, { harness: h });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    for (const shape of SHAPES) {
      const res = await fetch(`${server.url}/api/openapi.json?shape=${shape}`);
      documents.set(shape, (await res.json()) as Json);
    }
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  const T = (): string => `/api/tenant/${h.tenant}`;

  function request(path: string, shape: RestShape = 'current', init: RequestInit = {}, token?: string): Promise<Response> {
    const headers: Record<string, string> = { 'X-Sluice-Api-Shape': shape, ...(init.headers as Record<string, string>) };
    if (token) {
      headers.Authorization = `Bearer ${token}`;
    }
    return fetch(`${server.url}${path}`, { ...init, headers });
  }

  const post = (path: string, body: unknown, token: string | undefined = admin, shape: RestShape = 'current'): Promise<Response> =>
    request(path, shape, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }, token);

  async function json<T = unknown>(res: Response, status = 200): Promise<T> {
    const body = (await res.json()) as T;
    expect({ status: res.status, body }).toEqual({ status, body: expect.anything() as unknown });
    return body;
  }

  /** A fresh change enqueued into gate (and processed). */
  async function enqueuedChange(): Promise<string> {
    nextChange += 1;
    h.changes.add('org/project', nextChange);
    await h.enqueue('gate', 'org/project', `${nextChange},1`);
    return `${nextChange},1`;
  }

  async function createAutohold(body: Json = {}): Promise<string> {
    const res = await post(`${T()}/project/org/project/autohold`, { job: 'unit', count: 1, reason: 'debug', node_hold_expiration: null, ...body });
    expect(await json(res)).toBe(true);
    const list = await json<Array<{ id: string }>>(await request(`${T()}/autohold`));
    const last = list.at(-1);
    if (!last) {
      throw new Error('no autohold created');
    }
    return last.id;
  }

  /** The call each endpoint gets in the contract loop (state it needs is prepared first). */
  const calls: Record<string, (method: HttpMethod) => Promise<Call>> = {
    status: async () => ({ path: `${T()}/status` }),
    status_change: async () => ({ path: `${T()}/status/change/1,1` }),
    state: async (method) =>
      method === 'GET'
        ? { path: `${T()}/state` }
        : { path: `${T()}/state`, init: { method, body: JSON.stringify({}), headers: { 'Content-Type': 'application/json' } } },
    promote: async (method) =>
      method === 'GET'
        ? { path: `${T()}/promote?pipeline=gate&changes=1,1&changes=2,1` }
        : { path: `${T()}/promote`, init: { method, body: JSON.stringify({ pipeline: 'gate', changes: ['1,1', '2,1'] }), headers: { 'Content-Type': 'application/json' } } },
    autohold_list: async () => ({ path: `${T()}/autohold` }),
    autohold_by_request_id: async (method) => ({ path: `${T()}/autohold/${Number(await createAutohold())}`, init: { method } }),
    enqueue: async (method) => {
      nextChange += 1;
      h.changes.add('org/project', nextChange);
      const fields = { pipeline: 'gate', change: `${nextChange},1` };
      return method === 'GET'
        ? { path: `${T()}/project/org/project/enqueue?${new URLSearchParams(fields).toString()}` }
        : { path: `${T()}/project/org/project/enqueue`, init: { method, body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } } };
    },
    dequeue: async (method) => {
      const fields = { pipeline: 'gate', change: await enqueuedChange() };
      return method === 'GET'
        ? { path: `${T()}/project/org/project/dequeue?${new URLSearchParams(fields).toString()}` }
        : { path: `${T()}/project/org/project/dequeue`, init: { method, body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } } };
    },
    autohold: async (method) =>
      method === 'GET'
        ? { path: `${T()}/project/org/project/autohold` }
        : {
            path: `${T()}/project/org/project/autohold`,
            init: { method, body: JSON.stringify({ job: 'unit', count: 1, reason: 'x', node_hold_expiration: 60 }), headers: { 'Content-Type': 'application/json' } },
          },
  };

  function responseValidator(shape: RestShape, path: string, method: HttpMethod, status: number): ValidateFunction {
    const paths = documents.get(shape)?.paths as Record<string, Record<string, Json>>;
    const operation = paths[path]?.[method.toLowerCase()];
    expect(operation).toBeDefined();
    const response = (operation.responses as Record<string, Json>)[String(status)];
    const content = response.content as Record<string, { schema: Json }>;
    return ajv.compile(content['application/json'].schema);
  }

  describe('every path x method x shape', () => {
    const cases: [string, HttpMethod, RestShape][] = [];
    for (const route of REST_ROUTES.filter((candidate) => ENGINE_ROUTES.has(candidate.name))) {
      for (const method of Object.keys(route.endpoints) as HttpMethod[]) {
        for (const shape of SHAPES) {
          cases.push([route.name, method, shape]);
        }
      }
    }

    it('covers every engine route', () => {
      expect(new Set(cases.map(([name]) => name))).toEqual(new Set(ENGINE_ROUTES));
    });

    it.each(cases)('%s %s (%s shape)', async (name, method, shape) => {
      const route = REST_ROUTES.find((candidate) => candidate.name === name);
      const endpoint = route?.endpoints[method];
      const call = calls[name];
      if (!route || !endpoint || !call) {
        throw new Error(`no endpoint ${name} ${method}`);
      }
      const served: RestShape = endpoint.responses[shape] ? shape : 'current';
      const spec = endpoint.responses[served];
      if (!spec) {
        throw new Error('endpoint without a response');
      }
      const { path, init } = await call(method);
      const res = await request(path, shape, { method, ...init }, endpoint.auth === 'admin' ? admin : undefined);
      expect(res.status).toBe(spec.status);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-sluice-api-shape')).toBe(served);
      for (const [header, value] of Object.entries(endpoint.headers ?? {})) {
        expect(res.headers.get(header)).toBe(value);
      }
      if (spec.status === 204) {
        expect(await res.text()).toBe('');
        return;
      }
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body: unknown = await res.json();
      const validate = responseValidator(shape, openApiPath(route, shape), method, spec.status);
      expect({ valid: validate(body), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
    });
  });
});
