/**
 * REST contract: the behavioural cases of docs/rest.md#reference-cases that build history can reproduce.
 */
import { historyFactory, defaultRef } from '../../helpers/factories';
import { useRestContract, type Json } from '../../helpers/rest-contract';
import { SYSTEM_EVENT_TYPES } from '../../../src/store/repositories/system-events';

describe('REST contract', () => {
  const contract = useRestContract();
  const { uuids, get, getJson } = contract;

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
      const history = historyFactory(contract.server.database.knex);
      const empty = await history.buildset({
        pipeline: 'post',
        refs: [defaultRef({ project: 'org/other' })],
        triggeredBy: 'x',
      });
      await contract.server.database.knex('buildset_events').where({ buildset_id: empty.buildset.id }).delete();
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

    it('system events: every type recorded is a filter value', async () => {
      for (const type of SYSTEM_EVENT_TYPES) {
        const res = await get(`/api/tenant/tenant-one/system-events?event_type=${type}`);
        expect([type, res.status]).toEqual([type, 200]);
      }
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
      // Every role of the process registers a component (docs/operations.md#lost-work).
      expect(Object.keys(components).sort()).toEqual(['executor', 'launcher', 'scheduler', 'web']);
      for (const kind of Object.keys(components)) {
        expect(components[kind]).toEqual([
          { hostname: expect.any(String), state: 'running', version: expect.any(String) },
        ]);
      }
      expect(await getJson('/api/connections')).toEqual([
        { name: 'gerrit', driver: 'git', baseurl: contract.repos.baseDir, canonical_hostname: 'review.example.com' },
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
});
