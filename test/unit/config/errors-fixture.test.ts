/**
 * The "errors" fixture: a tenant whose projects carry one broken object per validation rule.
 * Each bad object must be dropped with the expected error (name, severity, location) while
 * everything valid still loads, in this tenant and in the other tenant sharing the projects.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadTenantLayout } from '../../../src/config/load-tenants';
import type { Layout } from '../../../src/config/layout';
import { freezeJobGraph } from '../../../src/config/freeze';
import { buildFixtureRepos, fixtureTenantFile, type FixtureRepos } from '../../helpers/config-fixtures';

const FIXTURE = path.join(__dirname, '../../fixtures/config/errors');

interface ExpectedError {
  name: string;
  severity: 'error' | 'warning';
  project: string | null;
  branch: string | null;
  path: string | null;
  line: number | null;
  contains: string;
}

let repos: FixtureRepos;
const layouts = new Map<string, Layout>();

beforeAll(async () => {
  repos = await buildFixtureRepos(FIXTURE);
  const { abide, problems } = fixtureTenantFile(FIXTURE, repos.connections);
  expect(problems).toEqual([]);
  for (const tenant of abide.tenants) {
    layouts.set(
      tenant.name,
      await loadTenantLayout(tenant, abide, problems, repos.connections, { uuid: () => `uuid-${tenant.name}` }),
    );
  }
});

afterAll(() => repos.cleanup());

function tenant(name: string): Layout {
  const layout = layouts.get(name);
  if (layout === undefined) {
    throw new Error(`tenant ${name} did not load`);
  }
  return layout;
}

describe('errors fixture', () => {
  const expected = parse(readFileSync(path.join(FIXTURE, 'expected-errors.yaml'), 'utf8')) as ExpectedError[];

  it('covers at least 40 distinct error cases', () => {
    expect(new Set(expected.map((e) => `${e.name}|${e.contains}`)).size).toBeGreaterThanOrEqual(40);
  });

  it('records exactly the expected errors, in layout order', () => {
    const actual = tenant('errors').errors.map((e) => ({
      name: e.name,
      severity: e.severity,
      project: e.sourceContext?.projectName ?? null,
      branch: e.sourceContext?.branch ?? null,
      path: e.sourceContext?.path ?? null,
      line: e.line ?? null,
      shortError: e.shortError,
    }));
    expect(actual).toHaveLength(expected.length);
    actual.forEach((a, i) => {
      const e = expected[i];
      expect({ ...a, shortError: a.shortError.includes(e.contains) ? e.contains : a.shortError }).toEqual({
        name: e.name,
        severity: e.severity,
        project: e.project,
        branch: e.branch,
        path: e.path,
        line: e.line,
        shortError: e.contains,
      });
    });
  });

  it('formats messages like the reference, with the offending stanza and location', () => {
    const error = tenant('errors').errors.find((e) => e.shortError.includes('no-such-parent'));
    expect(error?.error).toBe(
      [
        'Zuul encountered a configuration error while parsing its configuration in the repo common-config on branch master.  The problem was:',
        '',
        '  Job no-such-parent not defined',
        '',
        'The problem appears in the "parent" attribute of the "orphan" job stanza:',
        '',
        '  - job:',
        '      name: orphan',
        '      parent: no-such-parent',
        '',
        '  in "zuul.d/30-jobs.yaml", line 59',
      ].join('\n'),
    );
    const repoError = tenant('errors').errors.find((e) => e.sourceContext?.projectName === 'org/missing');
    expect(repoError?.error.startsWith('Zuul encountered an error while accessing the repo org/missing.')).toBe(true);
  });

  it('keeps de-duplication keys unique per error', () => {
    const hashes = tenant('errors').errors.map((e) => e.keyHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('still loads every valid object of the broken projects', () => {
    const layout = tenant('errors');
    expect([...layout.pipelines.keys()]).toEqual(['check', 'gate', 'periodic']);
    expect([...layout.jobs.keys()]).toEqual([
      'noop',
      'base',
      'cleanup-user',
      'lookahead',
      'final-parent',
      'protected-job',
      'good-job',
      'other-job',
      'multi-job',
    ]);
    expect([...layout.nodesets.keys()]).toEqual(['single', 'three', 'forbidden']);
    expect([...layout.secrets.keys()]).toEqual(['untrusted-secret', 'other_secret']);
    expect(layout.secrets.get('untrusted-secret')?.data?.password).toEqual({
      encrypted: 'pkcs1-oaep',
      chunks: [expect.stringMatching(/^BFhtdnm8/)],
    });
    expect([...layout.semaphores.values()].map((s) => [s.name, s.max, s.global])).toEqual([
      ['local-sem', 2, false],
      ['global-sem', 2, true],
    ]);
    expect([...layout.images.keys()]).toEqual(['debian']);
    expect([...layout.labels.keys()]).toEqual(['debian-normal']);
    expect([...layout.providers.keys()]).toEqual(['main']);
    expect(layout.projectTemplates.has('good-template')).toBe(true);
    expect(layout.projectTemplates.has('bad-template')).toBe(false);
  });

  it('flattens providers with their section chain and hashes', () => {
    const provider = tenant('errors').providers.get('main');
    expect(provider?.sectionChain).toEqual(['base-section']);
    expect(provider?.config['launch-timeout']).toBe(600);
    expect(provider?.canonicalName).toBe('review.example.com%2Flauncher-config/main');
    expect(provider?.images.map((i) => [i.name, i.type, i.config_hash.length])).toEqual([['debian', 'cloud', 64]]);
    expect(provider?.labels.map((l) => [l.name, l.image, l.flavor])).toEqual([['debian-normal', 'debian', 'normal']]);
  });

  it('ignores extra configuration locations with a warning', () => {
    expect(tenant('errors').jobs.has('multi-job')).toBe(true);
    expect(tenant('errors').jobs.has('ignored-job')).toBe(false);
  });

  it('does not let a broken project stop another tenant', () => {
    const other = tenant('other-tenant');
    expect(other.errors.every((e) => e.sourceContext?.projectName === 'common-config')).toBe(true);
    const graph = freezeJobGraph(other, { pipeline: 'check', project: 'org/good', branch: 'master' });
    expect(graph.status).toBe('ok');
    expect(graph.status === 'ok' ? graph.jobs.map((j) => j.name) : []).toEqual(['good-job', 'base']);
  });

  it('keeps a stanza naming a missing template or job, as the reference does: no cascade of errors', () => {
    const layout = tenant('errors');
    // org/other's stanzas stay; one names a missing template, so the project is in no pipeline.
    expect(layout.projectConfigs.get('review.example.com/org/other')?.map((s) => s.templates)).toEqual([
      ['no-such-template'],
      [],
      [],
    ]);
    expect(freezeJobGraph(layout, { pipeline: 'check', project: 'org/other', branch: 'master' }).status).toBe(
      'not-in-pipeline',
    );
    expect(layout.errors.filter((e) => e.name === 'Template Not Found')).toHaveLength(1);
  });

  it('lists the projects of the tenant file with trust and load branches', () => {
    const projects = [...tenant('errors').projects.values()].map((p) => [
      p.canonicalName,
      p.trusted,
      p.branches,
      p.metadata.defaultBranch,
    ]);
    expect(projects).toEqual([
      ['review.example.com/common-config', true, ['master'], 'master'],
      ['review.example.com/launcher-config', true, ['master'], 'master'],
      ['review.example.com/org/good', false, ['master'], 'master'],
      ['review.example.com/org/untrusted', false, ['master'], 'master'],
      ['review.example.com/org/other', false, ['master'], 'master'],
      ['review.example.com/org/multi', false, ['master'], 'master'],
    ]);
  });
});
