/**
 * REST contract of the routes over the live engine (docs/rest.md#status-document,
 * docs/rest.md#tenant-configuration-reads, docs/rest.md#tenant-event-queue-state, docs/rest.md#autohold,
 * docs/rest.md#enqueue-dequeue-and-promote, docs/rest.md#the-shape-rule,
 * docs/rest.md#deliberate-differences-from-the-reference): every path x method x shape answers with the declared status
 * and headers and a body that validates against the served OpenAPI document. The docs/rest.md#reference-cases cases are
 * in rest-engine-behaviour.test.ts, the error paths in rest-engine-errors.test.ts.
 */
import { REST_ROUTES } from '../../rest-compat';
import { openApiPath } from '../../rest-compat/openapi';
import type { HttpMethod } from '../../rest-compat/route';
import type { RestShape } from '../../rest-compat/shape';
import { SHAPES } from '../helpers/openapi-documents';
import { restEngineServer } from '../helpers/rest-engine-server';
import { ENGINE_ROUTES } from '../helpers/rest-engine-routes';

interface Call {
  path: string;
  init?: RequestInit;
}

describe('REST contract over the engine', () => {
  const fixture = restEngineServer();
  const { T, request, enqueuedChange, createAutohold } = fixture;

  /** The call each endpoint gets in the contract loop (state it needs is prepared first). */
  const calls: Record<string, (method: HttpMethod) => Promise<Call>> = {
    status: async () => ({ path: `${T()}/status` }),
    status_change: async () => ({ path: `${T()}/status/change/1,1` }),
    state: async (method) =>
      method === 'GET'
        ? { path: `${T()}/state` }
        : {
            path: `${T()}/state`,
            init: { method, body: JSON.stringify({}), headers: { 'Content-Type': 'application/json' } },
          },
    promote: async (method) =>
      method === 'GET'
        ? { path: `${T()}/promote?pipeline=gate&changes=1,1&changes=2,1` }
        : {
            path: `${T()}/promote`,
            init: {
              method,
              body: JSON.stringify({ pipeline: 'gate', changes: ['1,1', '2,1'] }),
              headers: { 'Content-Type': 'application/json' },
            },
          },
    autohold_list: async () => ({ path: `${T()}/autohold` }),
    quarantine: async (method) =>
      method === 'GET'
        ? { path: `${T()}/quarantine` }
        : {
            path: `${T()}/quarantine`,
            init: {
              method,
              body: JSON.stringify({ job: 'unit', reason: 'flaky runner', project: 'org/project' }),
              headers: { 'Content-Type': 'application/json' },
            },
          },
    quarantine_job: async (method) => {
      await fixture.h.engine.quarantineJob(fixture.h.tenant, { job: 'lint', project: null, reason: 'x', by: null });
      return { path: `${T()}/quarantine/lint`, init: { method } };
    },
    autohold_by_request_id: async (method) => ({
      path: `${T()}/autohold/${Number(await createAutohold())}`,
      init: { method },
    }),
    enqueue: async (method) => {
      const number = fixture.nextChangeNumber();
      fixture.h.changes.add('org/project', number);
      const fields = { pipeline: 'gate', change: `${number},1` };
      return method === 'GET'
        ? { path: `${T()}/project/org/project/enqueue?${new URLSearchParams(fields).toString()}` }
        : {
            path: `${T()}/project/org/project/enqueue`,
            init: { method, body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } },
          };
    },
    dequeue: async (method) => {
      const fields = { pipeline: 'gate', change: await enqueuedChange() };
      return method === 'GET'
        ? { path: `${T()}/project/org/project/dequeue?${new URLSearchParams(fields).toString()}` }
        : {
            path: `${T()}/project/org/project/dequeue`,
            init: { method, body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } },
          };
    },
    autohold: async (method) =>
      method === 'GET'
        ? { path: `${T()}/project/org/project/autohold` }
        : {
            path: `${T()}/project/org/project/autohold`,
            init: {
              method,
              body: JSON.stringify({ job: 'unit', count: 1, reason: 'x', node_hold_expiration: 60 }),
              headers: { 'Content-Type': 'application/json' },
            },
          },
  };

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
      const res = await request(
        path,
        shape,
        { method, ...init },
        endpoint.auth === 'admin' ? fixture.admin : undefined,
      );
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
      const validate = fixture.documents.responseValidator(shape, openApiPath(route, shape), method, spec.status);
      expect({ valid: validate(body), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
    });
  });
});
