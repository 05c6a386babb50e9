/**
 * REST contract: every path x method x shape of the route table answers with the declared
 * status and headers, and its body validates against the OpenAPI document the server itself
 * publishes for that shape; the schemas also accept the example records of compat.md. Then the
 * behavioural cases of compat.md §8 that build history can reproduce, and every error path.
 */
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { REST_ROUTES } from '../../rest-compat';
import { openApiPath } from '../../rest-compat/openapi';
import type { HttpMethod } from '../../rest-compat/route';
import type { RestShape } from '../../rest-compat/shape';
import { buildFixtureRepos, type FixtureRepos } from '../helpers/config-fixtures';
import { ENGINE_ROUTES } from '../helpers/rest-engine-routes';
import { historyFactory, defaultRef } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

type Json = Record<string, unknown>;

const SHAPES: RestShape[] = ['current', 'earlier'];

describe('REST contract', () => {
  let server: TestServer;
  let repos: FixtureRepos;
  const documents = new Map<RestShape, Json>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const uuids: { buildOne: string; buildsetOne: string; buildsetTwo: string; minBuildId: number; maxBuildId: number } =
    {
      buildOne: '',
      buildsetOne: '',
      buildsetTwo: '',
      minBuildId: 0,
      maxBuildId: 0,
    };

  beforeAll(async () => {
    // tenant-one of the basic configuration fixture (common-config, org/project1, org/project2).
    const fixture = path.join(__dirname, '../fixtures/config/basic');
    repos = await buildFixtureRepos(fixture);
    server = await startTestServer({
      config: {
        tenantConfig: path.join(fixture, 'main.yaml'),
        connections: {
          gerrit: {
            driver: 'git',
            baseurl: repos.baseDir,
            pollInterval: 3600,
            canonicalHostname: 'review.example.com',
          },
          timer: { driver: 'timer' },
        },
      },
    });
    const history = historyFactory(server.database.knex);
    // compat.md §8 "add_base_changes": 1,1 on org/project and 2,1 on org/project1, three builds each.
    const one = await history.buildset({
      refs: [defaultRef()],
      triggeredBy: 'Triggered by GerritChange org/project 1,1',
    });
    const merge = await history.build(one, { jobName: 'project-merge', result: 'SUCCESS' });
    await history.build(one, {
      jobName: 'project-test1',
      result: 'SUCCESS',
      logUrl: 'https://logs.example.com/1/',
      artifacts: [
        { name: 'docs', url: 'http://example.com/docs' },
        { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
      ],
      provides: ['some-artifact'],
    });
    await history.build(one, { jobName: 'project-test2', result: 'SUCCESS' });
    await history.finish(one.buildset, 'SUCCESS', 'Build succeeded (gate pipeline).');
    const two = await history.buildset({
      refs: [
        defaultRef({
          project: 'org/project1',
          ref: 'refs/changes/02/2/1',
          change: 2,
          refUrl: 'https://review.example.com/2',
        }),
      ],
    });
    await history.build(two, { jobName: 'project-merge', result: 'FAILURE' });
    await history.build(two, {
      jobName: 'project-test1',
      result: 'SKIPPED',
      errorDetail: 'Skipped due to failed job project-merge',
    });
    const last = await history.build(two, {
      jobName: 'project-test2',
      result: 'SKIPPED',
      errorDetail: 'Skipped due to failed job project-merge',
      held: true,
    });
    await history.finish(two.buildset, 'FAILURE', 'Build failed.');
    await history.systemEvent('tenant-one', 'reconfigured', 'Tenant reconfigured');
    await history.systemEvent('tenant-one', 'config-errors-changed', '2 configuration errors');
    uuids.buildOne = merge.uuid;
    uuids.buildsetOne = one.buildset.uuid;
    uuids.buildsetTwo = two.buildset.uuid;
    uuids.minBuildId = merge.id;
    uuids.maxBuildId = last.id;
    for (const shape of SHAPES) {
      const res = await fetch(`${server.url}/api/openapi.json?shape=${shape}`);
      documents.set(shape, (await res.json()) as Json);
    }
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    repos.cleanup();
  });

  const get = (path: string, shape: RestShape = 'current', init: RequestInit = {}): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { 'X-Sluice-Api-Shape': shape, ...(init.headers as Record<string, string>) },
    });

  const getJson = async <T = unknown>(path: string, shape: RestShape = 'current'): Promise<T> => {
    const res = await get(path, shape);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };

  /** The response schema the served OpenAPI document declares for path x method x shape. */
  function responseValidator(shape: RestShape, path: string, method: HttpMethod, status: number): ValidateFunction {
    const paths = documents.get(shape)?.paths as Record<string, Record<string, Json>>;
    const operation = paths[path]?.[method.toLowerCase()];
    expect(operation).toBeDefined();
    const response = (operation.responses as Record<string, Json>)[String(status)];
    const content = response.content as Record<string, { schema: Json }>;
    return ajv.compile(content['application/json'].schema);
  }

  /** Concrete URL for a route pattern with the fixture's values. */
  function concretePath(pattern: string): string {
    const values: Record<string, string> = {
      tenant_name: 'tenant-one',
      pipeline_name: 'check',
      project_name: 'org/project1',
      branch_name: 'master',
      job_name: 'p1-unit',
    };
    const path = pattern.replace(/\{([a-z_]+)(?::\.\*)?\}/g, (_all, name: string) => {
      if (name === 'uuid') {
        return pattern.includes('buildset/') ? uuids.buildsetOne : uuids.buildOne;
      }
      return values[name] ?? name;
    });
    return path === '' ? '/api' : `/api/${path}`;
  }

  /** Bodies of the non-admin endpoints that require one. */
  const REQUEST_BODIES: Record<string, unknown> = { freeze_pipeline: { ref: 'master', pipeline: 'check' } };

  describe('every path x method x shape', () => {
    const cases: [string, HttpMethod, RestShape][] = [];
    for (const route of REST_ROUTES.filter((candidate) => !ENGINE_ROUTES.has(candidate.name))) {
      for (const method of Object.keys(route.endpoints) as HttpMethod[]) {
        for (const shape of SHAPES) {
          cases.push([route.name, method, shape]);
        }
      }
    }

    it.each(cases)('%s %s (%s shape)', async (name, method, shape) => {
      const route = REST_ROUTES.find((candidate) => candidate.name === name);
      const endpoint = route?.endpoints[method];
      if (!route || !endpoint) {
        throw new Error(`no endpoint ${name} ${method}`);
      }
      const served: RestShape = endpoint.responses[shape] ? shape : 'current';
      const spec = endpoint.responses[served];
      if (!spec) {
        throw new Error('endpoint without a response');
      }
      const requestBody = REQUEST_BODIES[name];
      const init: RequestInit =
        requestBody === undefined
          ? { method }
          : { method, body: JSON.stringify(requestBody), headers: { 'Content-Type': 'application/json' } };
      const res = await get(concretePath(route.pattern), shape, init);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-sluice-api-shape')).toBe(served);
      if (endpoint.auth === 'admin') {
        // Admin actions without a token: the reference's 401 (their success paths: rest-launcher-runtime.test.ts).
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
        return;
      }
      if (endpoint.auth === 'token') {
        // The fixture configures no authenticator: a token can never be valid (tests/integration/auth cover 200).
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
        return;
      }
      for (const [header, value] of Object.entries(endpoint.headers ?? {})) {
        expect(res.headers.get(header)).toBe(value);
      }
      expect(res.status).toBe(spec.status);
      const contentType = spec.contentType ?? 'application/json';
      expect(res.headers.get('content-type')).toBe(`${contentType}; charset=utf-8`);
      if (contentType !== 'application/json') {
        expect(await res.text()).toMatch(
          name.endsWith('_key') ? /^(-----BEGIN PUBLIC KEY-----\n|ssh-rsa AAAA)/ : /^<svg /,
        );
        return;
      }
      const body: unknown = await res.json();
      const validate = responseValidator(shape, openApiPath(route, shape), method, spec.status);
      expect({ valid: validate(body), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
    });
  });

  describe('schemas accept the reference example records', () => {
    const exampleBuild: Json = {
      _id: 6,
      uuid: '5bae5f2dd0b4469d8b3ccf4ff7ef8a36',
      job_name: 'project-test1',
      result: 'SUCCESS',
      held: false,
      start_time: '2025-07-01T12:00:03',
      end_time: '2025-07-01T12:04:10',
      duration: 247.0,
      voting: true,
      log_url: 'https://logs.example.com/01/1/1/gate/project-test1/5bae5f2/',
      nodeset: 'test-nodeset',
      error_detail: null,
      final: true,
      artifacts: [
        { name: 'docs', url: 'http://example.com/docs' },
        { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
      ],
      provides: [{ name: 'some-artifact' }],
      ref: {
        project: 'org/project',
        branch: 'master',
        change: 1,
        patchset: '1',
        ref: 'refs/changes/01/1/1',
        oldrev: null,
        newrev: null,
        ref_url: 'https://review.example.com/1',
      },
      pipeline: 'gate',
      event_id: '0d9dc5e7b8a54b1c8a1f2a3b4c5d6e7f',
      event_timestamp: '2025-07-01T11:59:58',
      buildset: { uuid: 'f1e2d3c4b5a697887766554433221100' },
    };
    const exampleBuildset: Json = {
      _id: 2,
      uuid: 'f1e2d3c4b5a697887766554433221100',
      result: 'SUCCESS',
      message: 'Build succeeded (gate pipeline).',
      pipeline: 'gate',
      event_id: '0d9dc5e7b8a54b1c8a1f2a3b4c5d6e7f',
      event_timestamp: '2025-07-01T11:59:58',
      first_build_start_time: '2025-07-01T12:00:03',
      last_build_end_time: '2025-07-01T12:06:40',
      refs: [
        {
          project: 'org/project1',
          branch: 'master',
          change: 2,
          patchset: '1',
          ref: 'refs/changes/02/2/1',
          oldrev: null,
          newrev: null,
          ref_url: 'https://review.example.com/2',
        },
      ],
    };
    const exampleBuildTime: Json = {
      _id: 6,
      uuid: '5bae',
      job_name: 'project-test1',
      result: 'SUCCESS',
      start_time: '2025-07-01T12:00:03',
      end_time: '2025-07-01T12:04:10',
      duration: 247.0,
      final: true,
      project: 'org/project',
      branch: 'master',
      pipeline: 'gate',
      ref: 'refs/changes/01/1/1',
    };
    const itemOf = (shape: RestShape, path: string, record: Json): boolean =>
      responseValidator(shape, path, 'GET', 200)([record]);

    it('build list record and its key set', async () => {
      expect(itemOf('current', '/api/tenant/{tenant_name}/builds', exampleBuild)).toBe(true);
      const [served] = await getJson<Json[]>('/api/tenant/tenant-one/builds?limit=1');
      expect(Object.keys(served).sort()).toEqual(Object.keys(exampleBuild).sort());
    });

    it('single build adds buildset.refs', () => {
      const validate = responseValidator('current', '/api/tenant/{tenant_name}/build/{uuid}', 'GET', 200);
      expect(validate({ ...exampleBuild, buildset: { uuid: 'f1', refs: [] } })).toBe(true);
      expect(validate(exampleBuild)).toBe(false);
    });

    it('buildset list record never carries builds/events; detail may', () => {
      expect(itemOf('current', '/api/tenant/{tenant_name}/buildsets', exampleBuildset)).toBe(true);
      expect(itemOf('current', '/api/tenant/{tenant_name}/buildsets', { ...exampleBuildset, builds: [] })).toBe(false);
      const detail = responseValidator('current', '/api/tenant/{tenant_name}/buildset/{uuid}', 'GET', 200);
      const { pipeline: _p, event_id: _e, event_timestamp: _t, buildset: _b, ...inner } = exampleBuild;
      expect(
        detail({
          ...exampleBuildset,
          builds: [inner],
          events: [{ event_time: '2025-07-01T11:59:58', event_type: 'triggered', description: 'x' }],
        }),
      ).toBe(true);
    });

    it('build-times record', () => {
      expect(itemOf('current', '/api/tenant/{tenant_name}/build-times', exampleBuildTime)).toBe(true);
    });

    it('earlier flat records', () => {
      const flatBuild = {
        branch: 'master',
        change: 1,
        duration: 247,
        end_time: '2019-04-16T12:04:10',
        job_name: 'project-test1',
        log_url: null,
        newrev: null,
        patchset: 1,
        pipeline: 'gate',
        project: 'org/project',
        ref: 'refs/changes/01/1/1',
        ref_url: 'https://review.example.com/1',
        result: 'SUCCESS',
        start_time: '2019-04-16T12:00:03',
        uuid: '5bae',
        voting: true,
      };
      expect(itemOf('earlier', '/api/tenant/{tenant}/builds', flatBuild)).toBe(true);
      expect(itemOf('earlier', '/api/tenant/{tenant}/builds', { ...flatBuild, duration: 247.5 })).toBe(false);
      const flatBuildset = {
        project: 'org/project',
        event_id: null,
        uuid: 'f1',
        branch: 'master',
        ref_url: 'https://review.example.com/1',
        newrev: null,
        result: 'SUCCESS',
        change: 1,
        patchset: 1,
        ref: 'refs/changes/01/1/1',
        pipeline: 'gate',
        message: 'Build succeeded.',
      };
      expect(itemOf('earlier', '/api/tenant/{tenant}/buildsets', flatBuildset)).toBe(true);
    });
  });

  describe('reference cases (build history)', () => {
    it('lists builds newest first with integer _id, float duration and the build ref (case 36)', async () => {
      const builds = await getJson<Json[]>('/api/tenant/tenant-one/builds');
      expect(builds).toHaveLength(6);
      const ids = builds.map((build) => build._id as number);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      expect(builds[5]).toMatchObject({
        job_name: 'project-merge',
        duration: 60,
        voting: true,
        final: true,
        ref: { change: 1, patchset: '1' },
      });
      expect(builds[5].start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(builds[0].buildset).toEqual({ uuid: uuids.buildsetTwo });
    });

    it('filters: repeated values, wildcards, literal % and _, idx range (cases 36–38)', async () => {
      const count = async (query: string): Promise<number> =>
        (await getJson<Json[]>(`/api/tenant/tenant-one/builds?${query}`)).length;
      expect(await count('project=org/project&project=org/project1')).toBe(6);
      expect(await count('job_name=*-merge')).toBe(2);
      expect(await count('project=org/project*&branch=*aster')).toBe(6);
      expect(await count('branch=%25master%25&branch=%25mast_r')).toBe(0);
      expect(await count(`idx_max=${uuids.minBuildId}`)).toBe(1);
      expect(await count(`idx_min=${uuids.minBuildId}`)).toBe(6);
      expect(await count(`idx_min=${uuids.maxBuildId}`)).toBe(1);
      const ordered = await getJson<Json[]>(
        '/api/tenant/tenant-one/builds?pipeline=gat*&project=org/project1&job_name=*-merge&job_name=*test*',
      );
      expect(ordered.map((build) => build.job_name)).toEqual(['project-test2', 'project-test1', 'project-merge']);
    });

    it('result filters and error_detail (cases 39, 41)', async () => {
      const excluded = await getJson<Json[]>(
        '/api/tenant/tenant-one/builds?project=org/project1&exclude_result=SKIPPED',
      );
      expect(excluded.map((build) => [build.job_name, build.result, build.error_detail])).toEqual([
        ['project-merge', 'FAILURE', null],
      ]);
      expect(await getJson<Json[]>('/api/tenant/tenant-one/builds?result=SKIPPED&result=FAILURE')).toHaveLength(3);
      const held = await getJson<Json[]>('/api/tenant/tenant-one/builds?held=1');
      expect(held.map((build) => build.held)).toEqual([true]);
      expect(await getJson<Json[]>('/api/tenant/tenant-one/builds?held=true')).toHaveLength(1);
    });

    it('artifacts carry metadata only when present (case 42)', async () => {
      const [build] = await getJson<Json[]>('/api/tenant/tenant-one/builds?project=org/project&job_name=project-test1');
      expect(build.artifacts).toEqual([
        { name: 'docs', url: 'http://example.com/docs' },
        { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
      ]);
      expect(build.provides).toEqual([{ name: 'some-artifact' }]);
    });

    it('single build has buildset.refs; unknown uuid is 404 Build not found (case 36)', async () => {
      const build = await getJson<Json>(`/api/tenant/tenant-one/build/${uuids.buildOne}`);
      expect(build.job_name).toBe('project-merge');
      expect(build.buildset).toEqual({
        uuid: uuids.buildsetOne,
        refs: [expect.objectContaining({ project: 'org/project', change: 1 })],
      });
      const res = await get('/api/tenant/tenant-one/build/1234');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'NotFound', description: 'Build not found' });
    });

    it('buildsets newest first, exclude_result, wildcards over refs (cases 43, 44)', async () => {
      const buildsets = await getJson<Json[]>('/api/tenant/tenant-one/buildsets');
      expect(buildsets.map((bs) => bs.uuid)).toEqual([uuids.buildsetTwo, uuids.buildsetOne]);
      expect(
        (await getJson<Json[]>('/api/tenant/tenant-one/buildsets?exclude_result=FAILURE')).map((bs) => bs.uuid),
      ).toEqual([uuids.buildsetOne]);
      const filtered = await getJson<Json[]>(
        '/api/tenant/tenant-one/buildsets?project=org/*&branch=*ster*&pipeline=check&pipeline=*ate',
      );
      expect(filtered.map((bs) => (bs.refs as Json[])[0].project)).toEqual(['org/project1', 'org/project']);
      expect(await getJson<Json[]>('/api/tenant/tenant-one/buildsets?complete=')).toHaveLength(2);
      expect(await getJson<Json[]>('/api/tenant/tenant-one/buildsets?complete=false')).toHaveLength(0);
    });

    it('buildset detail: builds oldest first, triggered event; absent keys when empty (case 43)', async () => {
      const detail = await getJson<Json>(`/api/tenant/tenant-one/buildset/${uuids.buildsetOne}`);
      expect((detail.builds as Json[]).map((build) => [build.job_name, build.result])).toEqual([
        ['project-merge', 'SUCCESS'],
        ['project-test1', 'SUCCESS'],
        ['project-test2', 'SUCCESS'],
      ]);
      expect((detail.builds as Json[])[0]).not.toHaveProperty('pipeline');
      expect(detail.events).toEqual([
        {
          event_type: 'triggered',
          description: 'Triggered by GerritChange org/project 1,1',
          event_time: expect.any(String),
        },
      ]);
      const history = historyFactory(server.database.knex);
      const empty = await history.buildset({
        pipeline: 'post',
        refs: [defaultRef({ project: 'org/other' })],
        triggeredBy: 'x',
      });
      await server.database.knex('buildset_events').where({ buildset_id: empty.buildset.id }).delete();
      const bare = await getJson<Json>(`/api/tenant/tenant-one/buildset/${empty.buildset.uuid}`);
      expect(bare).not.toHaveProperty('builds');
      expect(bare).not.toHaveProperty('events');
      const earlier = await getJson<Json>(`/api/tenant/tenant-one/buildset/${empty.buildset.uuid}`, 'earlier');
      expect(earlier).not.toHaveProperty('builds');
    });

    it('build-times lists finished builds (case 45)', async () => {
      const times = await getJson<Json[]>('/api/tenant/tenant-one/build-times');
      expect(times).toHaveLength(6);
      expect(times[0]).toMatchObject({ project: expect.any(String), pipeline: 'gate', ref: expect.any(String) });
    });

    it('badge: passing/failing SVG, no-cache, 404 No buildset found (case 46)', async () => {
      const passing = await get('/api/tenant/tenant-one/badge?project=org/project');
      expect(passing.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(passing.headers.get('cache-control')).toBe('no-cache');
      const svg = await passing.text();
      expect(svg.startsWith('<svg ')).toBe(true);
      expect(svg).toContain('passing');
      expect(svg).toContain('#3C1');
      const failing = await (await get('/api/tenant/tenant-one/badge?project=org/project1')).text();
      expect(failing).toContain('failing');
      expect(failing).toContain('#E43');
      const none = await get('/api/tenant/tenant-one/badge?project=nope');
      expect(none.status).toBe(404);
      expect(await none.json()).toEqual({ error: 'NotFound', description: 'No buildset found' });
    });

    it('system events: newest first, lower-case dashed types, filter (A4)', async () => {
      const events = await getJson<Json[]>('/api/tenant/tenant-one/system-events');
      expect(events.slice(0, 2).map((event) => event.event_type)).toEqual(['config-errors-changed', 'reconfigured']);
      const filtered = await getJson<Json[]>('/api/tenant/tenant-one/system-events?event_type=reconfigured&limit=1');
      expect(filtered).toEqual([
        {
          event_id: expect.stringMatching(/^[0-9a-f]{32}$/),
          event_time: expect.any(String),
          event_type: 'reconfigured',
          description: 'Tenant reconfigured',
        },
      ]);
    });

    it('paging: limit/skip, default 50, larger limits clamped (A2)', async () => {
      expect(await getJson<Json[]>('/api/tenant/tenant-one/builds?limit=2&skip=1')).toHaveLength(2);
      expect(await getJson<Json[]>('/api/tenant/tenant-one/builds?limit=100000')).toHaveLength(6);
    });

    it('earlier shape: flat builds and buildsets with integer change/patchset/duration (earlier cases 13, 14)', async () => {
      const builds = await getJson<Json[]>(
        '/api/tenant/tenant-one/builds?project=org/project&project=org/project1',
        'earlier',
      );
      expect(builds).toHaveLength(6);
      expect(builds[5]).toEqual({
        uuid: uuids.buildOne,
        job_name: 'project-merge',
        result: 'SUCCESS',
        start_time: expect.any(String),
        end_time: expect.any(String),
        duration: 60,
        voting: true,
        log_url: null,
        project: 'org/project',
        branch: 'master',
        change: 1,
        patchset: 1,
        ref: 'refs/changes/01/1/1',
        newrev: null,
        ref_url: 'https://review.example.com/1',
        pipeline: 'gate',
      });
      const buildsets = await getJson<Json[]>('/api/tenant/tenant-one/buildsets?project=org/project', 'earlier');
      expect(buildsets).toEqual([
        expect.objectContaining({ uuid: uuids.buildsetOne, project: 'org/project', change: 1, patchset: 1 }),
      ]);
      const detail = await getJson<Json>(`/api/tenant/tenant-one/buildset/${uuids.buildsetOne}`, 'earlier');
      expect((detail.builds as Json[]).map((build) => build.result)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
      expect(detail).not.toHaveProperty('events');
    });

    it('components by reference kind and source connections (cases 4, 5)', async () => {
      const components = await getJson<Record<string, Json[]>>('/api/components');
      expect(Object.keys(components)).toEqual(['web']);
      expect(components.web[0]).toEqual({
        hostname: expect.any(String),
        state: 'running',
        version: expect.any(String),
      });
      expect(await getJson('/api/connections')).toEqual([
        { name: 'gerrit', driver: 'git', baseurl: repos.baseDir, canonical_hostname: 'review.example.com' },
      ]);
    });

    it('tenants sorted with Cache-Control; info and tenant info (cases 2, 7, 8)', async () => {
      const res = await get('/api/tenants');
      expect(res.headers.get('cache-control')).toBe('public, max-age=1');
      expect(await res.json()).toEqual([{ name: 'tenant-one' }]);
      const info = await getJson<{ info: Json }>('/api/tenant/tenant-one/info');
      expect(info.info.tenant).toBe('tenant-one');
      expect((info.info.capabilities as Json).auth).toEqual({
        realms: {},
        default_realm: null,
        read_protected: false,
        auth_log_file_requests: false,
        niz: false,
      });
      const unknown = await getJson<{ info: Json }>('/api/tenant/nobody/info');
      expect(unknown.info.tenant).toBe('nobody');
      expect((unknown.info.capabilities as Json).auth).toEqual({ realms: {}, default_realm: null });
      const index = await getJson<Json>('/api');
      expect(index).toMatchObject({
        info: '/api/info',
        builds: '/api/tenant/{tenant}/builds',
        project_freeze_jobs: expect.stringContaining('freeze-jobs'),
      });
      // Only served routes are listed; the earlier index has no tenant_status.
      expect(index).toMatchObject({
        status: '/api/tenant/{tenant}/status',
        autohold_list: '/api/tenant/{tenant}/autohold',
        promote: '/api/tenant/{tenant}/promote',
      });
      expect(Object.keys(await getJson<Json>('/api', 'earlier'))).not.toContain('tenant_status');
      // Earlier tenants: untrusted project count, live items (none: this server runs no engine).
      expect(await getJson('/api/tenants', 'earlier')).toEqual([{ name: 'tenant-one', projects: 2, queue: 0 }]);
    });
  });

  describe('tenant configuration (basic fixture)', () => {
    it('pipelines in layout order with triggers; earlier names only (case 25, earlier case 8)', async () => {
      expect(await getJson('/api/tenant/tenant-one/pipelines')).toEqual([
        { name: 'check', triggers: [{ name: 'gerrit', driver: 'git' }] },
        { name: 'gate', triggers: [] },
      ]);
      expect(await getJson('/api/tenant/tenant-one/pipelines', 'earlier')).toEqual([
        { name: 'check' },
        { name: 'gate' },
      ]);
    });

    it('projects sorted with types (case 26)', async () => {
      const projects = await getJson<Json[]>('/api/tenant/tenant-one/projects');
      expect(projects.map((project) => [project.name, project.type, project.canonical_name])).toEqual([
        ['common-config', 'config', 'review.example.com/common-config'],
        ['org/project1', 'untrusted', 'review.example.com/org/project1'],
        ['org/project2', 'untrusted', 'review.example.com/org/project2'],
      ]);
    });

    it('jobs: absent keys when empty, variants with parents; earlier name/description (case 18)', async () => {
      const jobs = await getJson<Json[]>('/api/tenant/tenant-one/jobs');
      expect(jobs[0]).toEqual({ name: 'base' });
      expect(jobs.find((job) => job.name === 'p1-unit')).toEqual({
        name: 'p1-unit',
        variants: [{ parent: 'project-test' }],
      });
      const earlier = await getJson<Json[]>('/api/tenant/tenant-one/jobs', 'earlier');
      expect(earlier.find((job) => job.name === 'p1-unit')).toEqual({ name: 'p1-unit' });
      expect(earlier.find((job) => job.name === 'noop')).toEqual({ name: 'noop', description: expect.any(String) });
    });

    it('tenant-status and config-errors with filters and paging (case 35)', async () => {
      expect(await getJson('/api/tenant/tenant-one/tenant-status')).toEqual({ config_error_count: 1 });
      const [error] = await getJson<Json[]>('/api/tenant/tenant-one/config-errors');
      expect(error).toMatchObject({
        source_context: { project: 'org/project2', branch: 'master', path: 'zuul.yaml' },
        severity: 'error',
        name: 'Job Not Found',
      });
      expect(await getJson('/api/tenant/tenant-one/config-errors?project=org/project2')).toHaveLength(1);
      expect(await getJson('/api/tenant/tenant-one/config-errors?project=org/project1')).toHaveLength(0);
      expect(await getJson('/api/tenant/tenant-one/config-errors?severity=warning')).toHaveLength(0);
      expect(await getJson('/api/tenant/tenant-one/config-errors?name=Job%20Not%20Found&skip=1&limit=1')).toHaveLength(
        0,
      );
      expect(Object.keys((await getJson<Json[]>('/api/tenant/tenant-one/config-errors', 'earlier'))[0])).toEqual([
        'source_context',
        'error',
      ]);
    });

    it('job variants: current and earlier keys, nodeset rules, unknown job 404 (cases 19, 23)', async () => {
      const [variant] = await getJson<Json[]>('/api/tenant/tenant-one/job/p1-unit');
      expect(variant).toMatchObject({
        name: 'p1-unit',
        parent: 'project-test',
        branches: null,
        variables: { b: 2 },
        voting: true,
        deduplicate: 'auto',
        source_context: { project: 'org/project1', branch: 'master', path: '.zuul.yaml' },
      });
      expect((variant.run as Json[])[0]).toMatchObject({
        path: 'unit.sh',
        cleanup: false,
        secrets: [],
        semaphores: [],
      });
      const [earlier] = await getJson<Json[]>('/api/tenant/tenant-one/job/p1-unit', 'earlier');
      expect(earlier).toMatchObject({ branches: [], implied_branch: null, semaphore: null });
      expect(earlier).not.toHaveProperty('workspace_scheme');
      expect((await getJson<Json[]>('/api/tenant/tenant-one/job/noop'))[0].name).toBe('noop');
      const res = await get('/api/tenant/tenant-one/job/nopenopenope');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'NotFound', description: 'Job not found' });
    });

    it('project detail with metadata and configs; unknown and %2F-encoded names 404 (case 27)', async () => {
      const project = await getJson<Json>('/api/tenant/tenant-one/project/org/project1');
      expect(project).toMatchObject({
        name: 'org/project1',
        canonical_name: 'review.example.com/org/project1',
        connection_name: 'gerrit',
      });
      const [config] = project.configs as Json[];
      expect((config.pipelines as Json[]).map((pipeline) => pipeline.name)).toEqual(['check']);
      const jobs = (config.pipelines as Json[])[0].jobs as Json[][];
      expect(jobs.map((variants) => variants[0].name)).toEqual(['p1-unit', 'project-test']);
      expect(await getJson<Json>('/api/tenant/tenant-one/project/review.example.com/org/project1')).toMatchObject({
        name: 'org/project1',
      });
      for (const path of ['project/org/nope', 'project/org%2Fproject1']) {
        const res = await get(`/api/tenant/tenant-one/${path}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: 'NotFound', description: 'Unknown project' });
      }
      const earlier = await getJson<Json>('/api/tenant/tenant-one/project/org/project1', 'earlier');
      expect(earlier).not.toHaveProperty('metadata');
    });

    it('a project without a project stanza has empty configs and metadata (case 28)', async () => {
      expect(await getJson<Json>('/api/tenant/tenant-one/project/common-config')).toEqual({
        name: 'common-config',
        canonical_name: 'review.example.com/common-config',
        connection_name: 'gerrit',
        metadata: {},
        configs: [],
      });
    });

    it('freeze-jobs and freeze-job; unknown pipeline/project/job 404 (cases 32, 33)', async () => {
      const graph = await getJson<Json[]>(
        '/api/tenant/tenant-one/pipeline/check/project/org/project1/branch/master/freeze-jobs',
      );
      expect(graph.map((job) => job.name).sort()).toEqual(['p1-unit', 'project-test']);
      const frozen = await getJson<Json>(
        '/api/tenant/tenant-one/pipeline/check/project/org/project1/branch/master/freeze-job/p1-unit',
      );
      expect(frozen).toHaveProperty('job', 'p1-unit');
      const cases: [string, string][] = [
        ['pipeline/nope/project/org/project1/branch/master/freeze-jobs', 'Unknown pipeline'],
        ['pipeline/check/project/org/nope/branch/master/freeze-jobs', 'Unknown project'],
        ['pipeline/check/project/org/project1/branch/master/freeze-job/nope', 'Job not found'],
      ];
      for (const [path, description] of cases) {
        const res = await get(`/api/tenant/tenant-one/${path}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: 'NotFound', description });
      }
    });

    it('launcher objects and semaphores are empty lists for a layout without them', async () => {
      for (const name of ['semaphores', 'labels', 'flavors', 'providers', 'images']) {
        expect(await getJson(`/api/tenant/tenant-one/${name}`)).toEqual([]);
      }
    });
  });

  describe('errors', () => {
    const tenantPaths = [
      'builds',
      'build/x',
      'buildsets',
      'buildset/x',
      'build-times',
      'system-events',
      'badge',
      'tenant-status',
      'pipelines',
      'projects',
      'jobs',
      'semaphores',
      'config-errors',
      'labels',
      'flavors',
      'providers',
      'images',
      'job/x',
      'project/org/project1',
      'pipeline/check/project/org/project1/branch/master/freeze-jobs',
      'pipeline/check/project/org/project1/branch/master/freeze-job/x',
    ];

    it.each(tenantPaths)('unknown tenant on %s -> 404 Tenant not found', async (path) => {
      for (const shape of SHAPES) {
        const res = await get(`/api/tenant/nobody/${path}`, shape);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: 'NotFound', description: 'Tenant not found' });
      }
    });

    it('unknown buildset -> 404 Buildset not found', async () => {
      const res = await get('/api/tenant/tenant-one/buildset/nope');
      expect(await res.json()).toEqual({ error: 'NotFound', description: 'Buildset not found' });
    });

    it.each([
      ['builds?foo=1', 'Unknown query parameter: foo'],
      ['builds?limit=abc', 'Query parameter limit must be a non-negative integer'],
      ['builds?skip=-1', 'Query parameter skip must be a non-negative integer'],
      ['builds?idx_min=x', 'Query parameter idx_min must be a non-negative integer'],
      ['builds?limit=1&limit=2', 'Query parameter limit may be given only once'],
      ['builds?voting=maybe', 'Query parameter voting must be 1, 0, true or false'],
      ['builds?change=1,1', 'Query parameter change must be an integer'],
      ['builds?result=GREAT', 'Query parameter result: unknown build result "GREAT"'],
      ['buildsets?exclude_result=SKIPPED', 'Query parameter exclude_result: unknown buildset result "SKIPPED"'],
      ['build-times?start_time=yesterday', 'Query parameter start_time must be a time such as 2026-01-31T12:00:00'],
      ['build-times?result=SUCCESS', 'Unknown query parameter: result'],
      ['system-events?event_type=party', 'Query parameter event_type: unknown event type "PARTY"'],
      ['badge?limit=1', 'Unknown query parameter: limit'],
      ['build/x?x=1', 'Unknown query parameter: x'],
      ['config-errors?severity=fatal', 'Query parameter severity must be error or warning'],
    ])('GET T/%s -> 400 %s', async (path, description) => {
      const res = await get(`/api/tenant/tenant-one/${path}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'BadRequest', description });
    });

    it('earlier shape rejects current-only parameters', async () => {
      const res = await get('/api/tenant/tenant-one/builds?held=1', 'earlier');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'BadRequest', description: 'Unknown query parameter: held' });
    });

    it('wrong methods -> 405 with Allow; OPTIONS -> 204', async () => {
      const res = await get('/api/tenant/tenant-one/builds', 'current', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const preflight = await get('/api/tenant/my-tenant//builds', 'current', { method: 'OPTIONS' });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    });

    it('openapi.json rejects an unknown shape', async () => {
      const res = await get('/api/openapi.json?shape=future');
      expect(res.status).toBe(400);
    });
  });
});
