/**
 * REST contract: the tenant configuration endpoints over the basic fixture.
 */
import { useRestContract, type Json } from '../../helpers/rest-contract';

describe('REST contract', () => {
  const contract = useRestContract();
  const { get, getJson } = contract;

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
      // Neither the job nor the tenant names an Ansible version: the reference's default.
      expect(frozen).toHaveProperty('ansible_version', '9');
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
});
