import path from 'node:path';
import { loadTenantLayout } from '../../src/config/load-tenants';
import type { Layout } from '../../src/config/layout';
import { toEngineLayout } from '../../src/engine/layout-adapter';
import { buildFixtureRepos, fixtureTenantFile, type FixtureRepos } from '../helpers/config-fixtures';

const FIXTURE = path.join(__dirname, '../fixtures/config/engine-gate');

let repos: FixtureRepos;
let layout: Layout;

beforeAll(async () => {
  repos = await buildFixtureRepos(FIXTURE);
  const { abide, problems } = fixtureTenantFile(FIXTURE, repos.connections);
  layout = await loadTenantLayout(abide.tenants[0], abide, problems, repos.connections);
});

afterAll(() => repos.cleanup());

describe('engine layout adapter', () => {
  it('loads the fixture without errors', () => {
    expect(layout.errors.map((error) => error.shortError)).toEqual([]);
  });

  it('maps pipelines: managers, windows, triggers and the submit action', () => {
    const engine = toEngineLayout(layout);
    expect(engine.pipelines.map((pipeline) => [pipeline.name, pipeline.manager, pipeline.precedence])).toEqual([
      ['check', 'independent', 'normal'],
      ['gate', 'dependent', 'high'],
      ['post', 'supercedent', 'normal'],
      ['periodic', 'independent', 'normal'],
    ]);
    const gate = engine.pipelines[1];
    expect([
      gate.window.window,
      gate.window.floor,
      gate.reporters.success.submit,
      gate.reporters['merge-conflict'].connections,
    ]).toEqual([5, 2, true, ['gerrit']]);
    expect(engine.pipelines[0].reporters.success.submit).toBe(false);
    expect([gate.require, gate.reject]).toEqual([
      [{ connection: 'gerrit', open: true, currentPatchset: true }],
      [{ connection: 'gerrit', status: ['MERGED'] }],
    ]);
    expect([engine.pipelines[0].require, engine.pipelines[0].reject]).toEqual([[], []]);
    expect([gate.allowOtherConnections, engine.pipelines[0].allowOtherConnections]).toEqual([false, true]);
    const post = engine.pipelines[2].triggers[0];
    const refUpdated = (ref: string, connection = 'gerrit') =>
      post.matches({
        event: { type: 'ref-updated', ref },
        pipeline: 'post',
        connection,
        ref,
        branch: undefined,
        change: undefined,
        now: new Date(0),
      });
    expect([post.driver, post.events, refUpdated('refs/heads/master'), refUpdated('refs/tags/v1')]).toEqual([
      'git',
      ['ref-updated'],
      true,
      false,
    ]);
    // A git trigger takes the events of its own connection only.
    expect(refUpdated('refs/heads/master', 'other')).toBe(false);
    expect(engine.pipelines[3].triggers).toEqual([
      expect.objectContaining({ driver: 'timer', connection: 'timer', events: ['timer'], time: '0 0 * * *' }),
    ]);
  });

  it('maps projects with their queue and freezes job graphs for the engine', () => {
    const engine = toEngineLayout(layout);
    const project = engine.projects.get('review.example.com/org/project');
    expect([
      project?.name,
      project?.queueName,
      project?.queuePerBranch,
      project?.queueAllowsCycles,
      project?.defaultBranch,
    ]).toEqual(['org/project', 'integrated', true, true, 'master']);
    const frozen = engine.freezeJobGraph('gate', 'org/project', 'master', ['README']);
    expect(frozen.status).toBe('ok');
    if (frozen.status !== 'ok') {
      return;
    }
    expect(frozen.failFast).toBe(true);
    expect(
      frozen.jobs.map((job) => [
        job.name,
        job.attempts,
        job.dependencies,
        job.semaphores,
        job.nodeset.labels,
        job.nodeset.alternatives,
        job.provides,
      ]),
    ).toEqual([
      ['unit', 2, [], [], [], [], []],
      [
        'integration',
        3,
        [{ name: 'unit', soft: false }],
        [{ name: 'deploy', resourcesFirst: false }],
        ['ubuntu'],
        [['ubuntu']],
        ['tarball'],
      ],
    ]);
    expect(engine.freezeJobGraph('periodic', 'org/project', 'master', undefined)).toEqual({
      status: 'not-in-pipeline',
    });
    expect(engine.projectInPipeline('gate', 'org/project')).toBe(true);
    expect(engine.projectInPipeline('post', 'org/project')).toBe(false);
    expect(engine.limits).toEqual({ maxChangesPerPipeline: 50, maxDependencies: 10 });
    expect(engine.semaphores.get('deploy')).toEqual({ name: 'deploy', max: 1, global: false });
  });
});
