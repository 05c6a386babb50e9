/**
 * The "inheritance" fixture: expected job graphs for parent chains, branch variants (explicit
 * and implied), project-pipeline variants, templates, regex stanzas, !override/!inherit,
 * final/protected/abstract violations, nodeset alternatives, file matchers and dependencies.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadTenantLayout } from '../../../src/config/load-tenants';
import type { Layout } from '../../../src/config/layout';
import { freezeJob, freezeJobGraph, type FreezeRequest } from '../../../src/config/freeze';
import { projectPipelineConfig } from '../../../src/config/project-pipeline-config';
import { buildFixtureRepos, fixtureTenantFile, type FixtureRepos } from '../../helpers/config-fixtures';
import { frozenView, type FrozenJobView } from '../../helpers/frozen-view';

const FIXTURE = path.join(__dirname, '../../fixtures/config/inheritance');

interface ExpectedCase {
  case: string;
  request: FreezeRequest;
  status: string;
  errors?: string[];
  jobs?: FrozenJobView[];
}

let repos: FixtureRepos;
let layout: Layout;

beforeAll(async () => {
  repos = await buildFixtureRepos(FIXTURE);
  const { abide, problems } = fixtureTenantFile(FIXTURE, repos.connections);
  layout = await loadTenantLayout(abide.tenants[0], abide, problems, repos.connections);
});

afterAll(() => repos.cleanup());

const cases = parse(readFileSync(path.join(FIXTURE, 'expected-freeze.yaml'), 'utf8')) as ExpectedCase[];

describe('inheritance fixture layout', () => {
  it('loads with only the intended error (a non-abstract child of an intermediate job)', () => {
    expect(layout.errors.map((e) => [e.name, e.sourceContext?.projectName, e.line, e.shortError])).toEqual([
      [
        'Unknown',
        'org/app',
        24,
        'Job "app-intermediate-child" inherits from intermediate job "intermediate-job" and must be abstract',
      ],
    ]);
  });

  it('keeps every variant of a job in layout order with its branch matcher', () => {
    const variants = layout.jobs.get('app-unit') ?? [];
    expect(
      variants.map((v) => [
        v.sourceContext.branch,
        v.branchMatcher?.kind,
        v.branchMatcher?.regexes.map((r) => r.pattern),
      ]),
    ).toEqual([
      ['master', 'implied', ['master']],
      ['master', 'explicit', ['stable']],
      ['stable', 'implied', ['stable']],
    ]);
    expect(layout.jobs.get('lib-job')?.[0].branchMatcher).toBeUndefined();
    expect(layout.jobs.get('base')?.[0].branchMatcher).toBeUndefined();
  });

  it('computes project metadata first-wins and loads the default branch first', () => {
    const lib = layout.projects.get('review.example.com/org/lib');
    expect(lib?.metadata).toEqual({ mergeMode: 'squash-merge', defaultBranch: 'master', queueName: 'integrated' });
    expect(layout.projects.get('review.example.com/org/app')?.branches).toEqual(['master', 'stable']);
    expect(layout.projects.get('review.example.com/org/app')?.metadata.mergeMode).toBe('merge-resolve');
  });

  it('applies regex project stanzas to every matching project after explicit ones', () => {
    expect((layout.projectConfigs.get('review.example.com/org/regex-a') ?? []).map((s) => [s.name, s.isRegex])).toEqual(
      [['^org/regex-.*$', true]],
    );
    expect(
      (layout.projectConfigs.get('review.example.com/org/lib') ?? []).map((s) => s.sourceContext.projectName),
    ).toEqual(['common-config', 'org/lib']);
  });

  it('merges templates and stanzas into the project-pipeline config', () => {
    const app = layout.projects.get('review.example.com/org/app');
    if (app === undefined) {
      throw new Error('org/app missing');
    }
    const ppc = projectPipelineConfig(layout, app, 'check', 'master');
    expect(ppc?.jobs.map((j) => [j.name, j.variants.length])).toEqual([
      ['template-job', 1],
      ['app-unit', 1],
      ['app-lint', 2],
      ['app-only-stable', 1],
    ]);
    expect(ppc?.vars).toEqual({ from_template: true, shared_project: 'project', project_var: 'p' });
  });
});

describe('inheritance fixture job graphs', () => {
  it.each(cases.map((c) => [c.case, c] as const))('%s', (_name, expected) => {
    const result = freezeJobGraph(layout, expected.request);
    expect(result.status).toBe(expected.status);
    if (result.status === 'error') {
      expect(result.errors.map((e) => e.message)).toEqual(expected.errors);
    }
    if ('jobs' in result) {
      expect(result.jobs.map(frozenView)).toEqual(expected.jobs);
    }
  });

  it('passes pass-to-parent secrets to the parent playbooks', () => {
    const result = freezeJob(layout, { pipeline: 'post', project: 'org/app', branch: 'master' }, 'publish');
    expect(result.status).toBe('ok');
    const job = result.status === 'ok' ? result.jobs[0] : undefined;
    expect(job?.preRun.map((p) => [p.path, p.secrets.map((s) => s.alias)])).toEqual([['base/pre.sh', ['creds']]]);
    expect(job?.run.map((p) => [p.path, p.secrets.map((s) => s.alias)])).toEqual([['publish.sh', []]]);
  });

  it('reports a job that is not in the graph', () => {
    expect(freezeJob(layout, { pipeline: 'check', project: 'org/app', branch: 'master' }, 'lib-job').status).toBe(
      'job-not-in-graph',
    );
  });

  it('resolves the nodeset object with aliases and groups', () => {
    const result = freezeJob(layout, { pipeline: 'alt-check', project: 'org/app', branch: 'master' }, 'alt-job');
    const job = result.status === 'ok' ? result.jobs[0] : undefined;
    expect(job?.nodeset).toMatchObject({
      name: 'large',
      nodes: [{ name: 'primary', aliases: ['alias'], label: 'large' }],
      groups: [{ name: 'all', nodes: ['primary'] }],
    });
  });
});
