/**
 * REST contract: every error path.
 */
import { useRestContract, SHAPES } from '../../helpers/rest-contract';

describe('REST contract', () => {
  const contract = useRestContract();
  const { get } = contract;

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
