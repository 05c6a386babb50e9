/**
 * REST contract of the routes over the live engine (compat.md §2.9–§2.12, §2.42–§2.47, §5, A3,
 * A4): every path x method x shape answers with the declared status and headers and a body that
 * validates against the served OpenAPI document; then the §8 cases for status, enqueue,
 * dequeue, promote and autohold, and the error paths. The engine runs with a scripted executor
 * (builds stay running until a test finishes them); `adminToken(tenant)` mints tenant admin tokens.
 */
import { REST_ROUTES } from '../../rest-compat';
import { openApiPath } from '../../rest-compat/openapi';
import type { HttpMethod } from '../../rest-compat/route';
import type { RestShape } from '../../rest-compat/shape';
import { EngineHarness, nextTenant } from '../engine/harness';
import { job, makeLayout, pipeline } from '../engine/scripted';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { adminToken, liveTestConfig, startLiveServer, type LiveServer } from '../helpers/live';
import { OpenApiDocuments, SHAPES } from '../helpers/openapi-documents';
import { ENGINE_ROUTES } from '../helpers/rest-engine-routes';

type Json = Record<string, unknown>;

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
  const documents = new OpenApiDocuments();

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: {
          'org/project': { gate: [job('unit'), job('integration', { dependencies: [{ name: 'unit', soft: false }] })] },
        },
      }),
    );
    await h.start();
    admin = adminToken(h.tenant);
    // Many control calls in a row: lift the per-token rate limit (its own test is in auth/wiring-graphql).
    const config = liveTestConfig();
    server = await startLiveServer(db, {
      harness: h,
      config: { ...config, graphql: { ...config.graphql, controlRateLimit: { burst: 10_000, perMinute: 10_000 } } },
    });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await documents.load(server.url);
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  const T = (): string => `/api/tenant/${h.tenant}`;

  function request(
    path: string,
    shape: RestShape = 'current',
    init: RequestInit = {},
    token?: string,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      'X-Sluice-Api-Shape': shape,
      ...(init.headers as Record<string, string>),
    };
    if (token) {
      headers.Authorization = `Bearer ${token}`;
    }
    return fetch(`${server.url}${path}`, { ...init, headers });
  }

  /** POST a JSON body, as tenant admin unless `token` says otherwise (null: no token). */
  const post = (
    path: string,
    body: unknown,
    token: string | null = admin,
    shape: RestShape = 'current',
  ): Promise<Response> =>
    request(
      path,
      shape,
      { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
      token ?? undefined,
    );

  async function json<T = unknown>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect({ status: res.status, text }).toEqual({ status, text: expect.any(String) as unknown });
    return JSON.parse(text) as T;
  }

  /** A fresh change enqueued into gate (and processed). */
  async function enqueuedChange(): Promise<string> {
    nextChange += 1;
    h.changes.add('org/project', nextChange);
    await h.enqueue('gate', 'org/project', `${nextChange},1`);
    return `${nextChange},1`;
  }

  async function createAutohold(body: Json = {}): Promise<string> {
    const res = await post(`${T()}/project/org/project/autohold`, {
      job: 'unit',
      count: 1,
      reason: 'debug',
      node_hold_expiration: null,
      ...body,
    });
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
    autohold_by_request_id: async (method) => ({
      path: `${T()}/autohold/${Number(await createAutohold())}`,
      init: { method },
    }),
    enqueue: async (method) => {
      nextChange += 1;
      h.changes.add('org/project', nextChange);
      const fields = { pipeline: 'gate', change: `${nextChange},1` };
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

  const responseValidator = (shape: RestShape, path: string, method: HttpMethod, status: number) =>
    documents.responseValidator(shape, path, method, status);

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
  describe('compat.md §8 behaviour', () => {
    it('status: headers, current items with refs, earlier per-change items (§8.1 #11–#13, §8.2 #2, §5, A3)', async () => {
      const res = await request(`${T()}/status`);
      expect(res.headers.get('cache-control')).toBe('public, max-age=1');
      expect(res.headers.get('last-modified')).toMatch(
        /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
      );
      const current = await json<{
        pipelines: Array<{ name: string; manager: string; change_queues: Array<{ heads: Json[][] }> }>;
        state: Json;
      }>(res);
      const gate = current.pipelines.find((entry) => entry.name === 'gate');
      expect(gate?.manager).toBe('dependent');
      const items = gate?.change_queues.flatMap((queue) => queue.heads.flat()) ?? [];
      const first = items.find((item) => (item.refs as Array<{ id: string }>)[0]?.id === '1,1');
      expect(first).toMatchObject({
        live: true,
        active: true,
        item_ahead: null,
        refs: [{ id: '1,1', project: 'org/project' }],
      });
      // Key order of the reference's example document (compat.md §5.1); some clients diff raw documents.
      expect(Object.keys(current)).toEqual([
        'zuul_version',
        'trigger_event_queue',
        'state',
        'management_event_queue',
        'connection_event_queues',
        'last_reconfigured',
        'pipelines',
      ]);
      expect(Object.keys(first ?? {})).toEqual([
        'active',
        'live',
        'refs',
        'id',
        'item_ahead',
        'items_behind',
        'failing_reasons',
        'zuul_ref',
        'enqueue_time',
        'jobs',
        'remaining_time',
      ]);
      expect(Object.keys((first?.refs as Json[])[0])).toEqual([
        'url',
        'ref',
        'project',
        'project_canonical',
        'owner',
        'id',
      ]);
      expect(Object.keys((first?.jobs as Json[])[0])).toEqual([
        'name',
        'dependencies',
        'elapsed_time',
        'remaining_time',
        'url',
        'finger_url',
        'report_url',
        'result',
        'voting',
        'uuid',
        'execute_time',
        'start_time',
        'end_time',
        'estimated_time',
        'pipeline',
        'canceled',
        'paused',
        'pre_fail',
        'retry',
        'tries',
        'queued',
        'waiting_status',
      ]);
      expect(
        (first?.jobs as Array<{ name: string; dependencies: string[]; waiting_status: string | null }>).map((entry) => [
          entry.name,
          entry.dependencies,
        ]),
      ).toEqual([
        ['unit', []],
        ['integration', ['unit']],
      ]);

      const earlier = await json<{
        ci_version: string;
        trigger_event_queue: number;
        pipelines: Array<{ change_queues: Array<{ heads: Json[][] }> }>;
      }>(await request(`${T()}/status`, 'earlier'));
      expect(typeof earlier.trigger_event_queue).toBe('number');
      expect(earlier.ci_version).toEqual(expect.any(String));
      const earlierItems = earlier.pipelines.flatMap((entry) =>
        entry.change_queues.flatMap((queue) => queue.heads.flat()),
      );
      const second = earlierItems.find((item) => item.id === '2,1');
      expect(second).toMatchObject({ item_ahead: '1,1', project: 'org/project', ci_ref: expect.stringMatching(/^Z/) });
      expect(earlierItems.find((item) => item.id === '1,1')?.items_behind).toEqual(expect.arrayContaining(['2,1']));
    });

    it('status/change returns the items of the change; unknown change -> [] (§2.10, §8.1 #16)', async () => {
      const items = await json<Array<{ refs: Array<{ id: string; project: string }> }>>(
        await request(`${T()}/status/change/1,1`),
      );
      expect(items).toHaveLength(1);
      expect(items[0]?.refs[0]).toMatchObject({ id: '1,1', project: 'org/project' });
      expect(await json(await request(`${T()}/status/change/99,1`))).toEqual([]);
    });

    it('state: POST coerces flags, keeps omitted ones, truncates the reason; GET and status show it (§2.12, A4)', async () => {
      expect(await json(await post(`${T()}/state`, { trigger_queue_paused: 1, reason: 'x'.repeat(5000) }))).toBeNull();
      const state = await json<Json>(await request(`${T()}/state`));
      expect(state).toEqual({
        trigger_queue_discarding: false,
        trigger_queue_paused: true,
        result_queue_paused: false,
        reason: 'x'.repeat(4096),
      });
      expect(await json(await post(`${T()}/state`, { result_queue_paused: true }))).toBeNull();
      expect(await json(await request(`${T()}/state`))).toEqual({
        trigger_queue_discarding: false,
        trigger_queue_paused: true,
        result_queue_paused: true,
        reason: null,
      });
      expect(
        await json(await post(`${T()}/state`, { trigger_queue_paused: false, result_queue_paused: '' })),
      ).toBeNull();
      const status = await json<{ state: Json }>(await request(`${T()}/status`));
      expect(status.state).toEqual({
        trigger_queue_discarding: false,
        trigger_queue_paused: false,
        result_queue_paused: false,
        reason: null,
      });
    });

    it('enqueue a change -> true and the item appears; earlier GET form too (§2.45, §8.2, A3)', async () => {
      h.changes.add('org/project', 50);
      expect(
        await json(
          await post(`${T()}/project/org/project/enqueue`, { pipeline: 'gate', change: '50,1', trigger: 'gerrit' }),
        ),
      ).toBe(true);
      h.changes.add('org/project', 51);
      const viaGet = await request(
        `${T()}/project/org/project/enqueue?pipeline=gate&change=51,1`,
        'earlier',
        {},
        admin,
      );
      expect(await json(viaGet)).toBe(true);
      await h.settle();
      for (const change of ['50,1', '51,1']) {
        expect(await json<unknown[]>(await request(`${T()}/status/change/${change}`))).toHaveLength(1);
      }
    });

    it('dequeue removes the item; promote of the current order answers true (§2.46, §2.47, §8.1 #51, #52)', async () => {
      const change = await enqueuedChange();
      expect(await json(await post(`${T()}/project/org/project/dequeue`, { pipeline: 'gate', change }))).toBe(true);
      await h.settle();
      expect(await json(await request(`${T()}/status/change/${change}`))).toEqual([]);
      expect(await json(await post(`${T()}/promote`, { pipeline: 'gate', changes: ['1,1', '2,1'] }))).toBe(true);
      await h.settle();
    });

    it('autohold: create (default, change, ref), list with project suffix filter, get, delete (§2.42–§2.44, §8.1 #49, #50)', async () => {
      const before = (await json<unknown[]>(await request(`${T()}/autohold`))).length;
      const plain = await createAutohold({ reason: 'reason text', node_hold_expiration: 600 });
      const record = await json<Json>(await request(`${T()}/autohold/${plain}`));
      expect(record).toMatchObject({
        id: plain,
        tenant: h.tenant,
        project: 'git.example.com/org/project',
        job: 'unit',
        ref_filter: '.*',
        max_count: 1,
        current_count: 0,
        reason: 'reason text',
        node_expiration: 600,
        expired: null,
        nodes: [],
      });
      expect(plain).toMatch(/^\d{10}$/);
      const byChange = await createAutohold({ change: '1' });
      expect(await json<Json>(await request(`${T()}/autohold/${Number(byChange)}`))).toMatchObject({
        ref_filter: 'refs/changes/01/1/.*',
      });
      const byRef = await createAutohold({ ref: 'refs/tags/foo' });
      expect(await json<Json>(await request(`${T()}/autohold/${byRef}`))).toMatchObject({
        ref_filter: 'refs/tags/foo',
      });

      expect(await json<unknown[]>(await request(`${T()}/autohold`))).toHaveLength(before + 3);
      expect(await json<unknown[]>(await request(`${T()}/autohold?project=org/project`))).toHaveLength(before + 3);
      expect(await json(await request(`${T()}/autohold?project=org/project2`))).toEqual([]);
      expect(await json<unknown[]>(await request(`${T()}/project/org/project/autohold`))).toHaveLength(before + 3);

      for (const id of [plain, byChange, byRef]) {
        const deleted = await request(`${T()}/autohold/${id}`, 'current', { method: 'DELETE' }, admin);
        expect(deleted.status).toBe(204);
      }
      expect(await json<unknown[]>(await request(`${T()}/autohold`))).toHaveLength(before);
    });
  });

  describe('errors', () => {
    const expectError = async (res: Response, status: number, description: string | RegExp): Promise<void> => {
      const body = (await res.json()) as { description: string };
      expect({ status: res.status, description: body.description }).toEqual({
        status,
        description: typeof description === 'string' ? description : expect.stringMatching(description),
      });
    };

    it('unknown tenant -> 404 Tenant not found (status, status/change, state, autohold)', async () => {
      for (const path of ['status', 'status/change/1,1', 'state', 'autohold', 'autohold/1']) {
        await expectError(await request(`/api/tenant/nobody/${path}`), 404, 'Tenant not found');
      }
    });

    it('admin endpoints: 401 without a token (WWW-Authenticate), 403 for another tenant admin', async () => {
      const missing = await post(`${T()}/project/org/project/enqueue`, { pipeline: 'gate', change: '1,1' }, null);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const deleteAnonymous = await request(`${T()}/autohold/12345`, 'current', { method: 'DELETE' });
      expect(deleteAnonymous.status).toBe(401);
      for (const path of ['state', 'promote', 'project/org/project/dequeue', 'project/org/project/autohold']) {
        const res = await post(
          `${T()}/${path}`,
          {
            pipeline: 'gate',
            changes: [],
            change: '1,1',
            job: 'unit',
            count: 1,
            reason: 'x',
            node_hold_expiration: null,
          },
          adminToken('other-tenant'),
        );
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
      }
    });

    it('enqueue/dequeue/promote validation: 400 texts, 404 Unknown project, 415, 405', async () => {
      const enqueue = `${T()}/project/org/project/enqueue`;
      await expectError(await post(enqueue, { change: '1,1' }), 400, 'Invalid request body');
      await expectError(await post(enqueue, { pipeline: 'nope', change: '1,1' }), 400, 'Unknown pipeline');
      await expectError(await post(enqueue, { pipeline: 'gate' }), 400, 'Invalid request body');
      await expectError(
        await post(`${T()}/project/org/nope/enqueue`, { pipeline: 'gate', change: '1,1' }),
        404,
        'Unknown project',
      );
      const notJson = await request(
        enqueue,
        'current',
        { method: 'POST', body: 'pipeline=gate', headers: { 'Content-Type': 'text/plain' } },
        admin,
      );
      expect(notJson.status).toBe(415);
      await expectError(
        await request(
          enqueue,
          'current',
          { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } },
          admin,
        ),
        400,
        'Invalid JSON document',
      );
      const put = await request(enqueue, 'current', { method: 'PUT' }, admin);
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');

      const dequeue = `${T()}/project/org/project/dequeue`;
      await expectError(
        await post(dequeue, { pipeline: 'gate', change: '1,1', ref: 'refs/heads/master' }),
        400,
        'Invalid request body',
      );
      await expectError(await post(dequeue, { pipeline: 'gate' }), 400, 'Invalid request body');
      await expectError(await post(dequeue, { pipeline: 'nope', change: '1,1' }), 400, 'Unknown pipeline');
      await expectError(await post(`${T()}/promote`, { changes: ['1,1'] }), 400, 'Unknown pipeline');
      await expectError(await post(`${T()}/promote`, { pipeline: 'nope', changes: ['1,1'] }), 400, 'Unknown pipeline');
      const options = await request(`${T()}/promote`, 'current', { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS');
    });

    it('autohold validation and 404 texts (§2.43, §2.44)', async () => {
      const create = `${T()}/project/org/project/autohold`;
      const valid = { job: 'unit', count: 1, reason: 'x', node_hold_expiration: null };
      await expectError(
        await post(create, { ...valid, change: '1', ref: 'refs/heads/master' }),
        400,
        'change and ref are mutually exclusive',
      );
      await expectError(await post(create, { job: 'unit', count: 1, reason: 'x' }), 400, 'Invalid request body');
      await expectError(await post(create, { ...valid, count: -1 }), 400, 'Count must be greater than 0');
      await expectError(await post(create, { ...valid, ref: '*abc' }), 400, /regular expression/);
      await expectError(await post(`${T()}/project/org/nope/autohold`, valid), 404, 'Unknown project');
      await expectError(await request(`${T()}/autohold/12345`), 404, 'Hold request 12345 not found.');
      await expectError(
        await request(`${T()}/autohold/invalidid`, 'current', { method: 'DELETE' }, admin),
        404,
        /not found/,
      );
    });
  });
});
