/**
 * REST contract: every path x method x shape of the route table answers with the declared status and
 * headers, and its body validates against the OpenAPI document the server itself publishes for that
 * shape; the schemas also accept the example records of compat.md.
 */
import { REST_ROUTES } from '../../../rest-compat';
import { openApiPath } from '../../../rest-compat/openapi';
import type { HttpMethod } from '../../../rest-compat/route';
import type { RestShape } from '../../../rest-compat/shape';
import { ENGINE_ROUTES } from '../../helpers/rest-engine-routes';
import { useRestContract, SHAPES, type Json } from '../../helpers/rest-contract';

describe('REST contract', () => {
  const contract = useRestContract();
  const { get, getJson, responseValidator, concretePath } = contract;

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

  describe('schemas accept the example records of compat.md', () => {
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

    it('build list record (§2.37) and its key set', async () => {
      expect(itemOf('current', '/api/tenant/{tenant_name}/builds', exampleBuild)).toBe(true);
      const [served] = await getJson<Json[]>('/api/tenant/tenant-one/builds?limit=1');
      expect(Object.keys(served).sort()).toEqual(Object.keys(exampleBuild).sort());
    });

    it('single build (§2.38) adds buildset.refs', () => {
      const validate = responseValidator('current', '/api/tenant/{tenant_name}/build/{uuid}', 'GET', 200);
      expect(validate({ ...exampleBuild, buildset: { uuid: 'f1', refs: [] } })).toBe(true);
      expect(validate(exampleBuild)).toBe(false);
    });

    it('buildset list record (§2.40) never carries builds/events; detail may', () => {
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

    it('build-times record (§2.39)', () => {
      expect(itemOf('current', '/api/tenant/{tenant_name}/build-times', exampleBuildTime)).toBe(true);
    });

    it('earlier flat records (rest-api.md tables)', () => {
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
});
