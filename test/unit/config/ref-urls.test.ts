/** Web links of refs (docs/configuration.md#ref-url-templates): connection templates and dashboard defaults. */
import type { ChangeInfo } from '../../../src/model/changes';
import { changeLinks, refUrl, tenantWebRoot, type RefUrlInput } from '../../../src/config/ref-urls';
import { refUrlTemplateProblem, renderRefUrl } from '../../../src/model/ref-url-templates';
import type { Layout } from '../../../src/config/layout';
import type { ServiceConfig } from '../../../src/config/service';

const CHANGE: RefUrlInput = {
  kind: 'change',
  project: 'org/project',
  projectCanonical: 'review.example.com/org/project',
  ref: 'refs/changes/01/1/2',
  branch: 'master',
  number: 1,
  patchset: '2',
  newrev: 'abc123',
};
const BRANCH: RefUrlInput = {
  ...CHANGE,
  kind: 'branch',
  ref: 'refs/heads/stable/1.0',
  branch: 'stable/1.0',
  number: null,
  patchset: null,
  newrev: 'def456',
};
const TAG: RefUrlInput = { ...BRANCH, kind: 'tag', ref: 'refs/tags/v1', branch: null };
const ROOT = 'https://ci.example.com/t/tenant-one/';

describe('ref URL templates', () => {
  it('fills the reference placeholders and literal braces', () => {
    expect(
      renderRefUrl('{baseurl}/gitweb?p={project.name}.git;a=commitdiff;h={sha}{{x}}', {
        baseurl: 'https://review.example.com',
        'project.name': 'org/project',
        sha: 'abc',
      }),
    ).toBe('https://review.example.com/gitweb?p=org/project.git;a=commitdiff;h=abc{x}');
  });

  it('skips a template that names a value the ref lacks', () => {
    expect(renderRefUrl('https://x/{change.number}', { 'project.name': 'p' })).toBeNull();
  });

  it.each([
    ['https://x/{project.name}', null],
    ['https://x/{{literal}}', null],
    ['https://x/{project}', 'unknown placeholder {project}'],
    ['https://x/{}', 'unknown placeholder {}'],
    ['https://x/{sha', 'unmatched "{"'],
    ['https://x/sha}', 'unmatched "}"'],
  ])('checks %j', (template, problem) => {
    const found = refUrlTemplateProblem(template);
    if (problem === null) {
      expect(found).toBeNull();
    } else {
      expect(found).toContain(problem);
    }
  });

  it('links changes to the dashboard change page and other refs to their buildsets without templates', () => {
    expect(refUrl(undefined, ROOT, CHANGE)).toBe('https://ci.example.com/t/tenant-one/change/1,2');
    expect(refUrl({ baseurl: '/srv/git' }, ROOT, BRANCH)).toBe(
      'https://ci.example.com/t/tenant-one/buildsets?project=org%2Fproject&ref=refs%2Fheads%2Fstable%2F1.0&newrev=def456',
    );
    expect(refUrl(undefined, ROOT, { ...TAG, newrev: null })).toBe(
      'https://ci.example.com/t/tenant-one/buildsets?project=org%2Fproject&ref=refs%2Ftags%2Fv1',
    );
  });

  it('uses the template of the ref kind, branches falling back to the gitweb template', () => {
    const connection = {
      baseurl: 'https://review.example.com/',
      changeUrlTemplate: '{baseurl}/c/{project.name}/+/{change.number}/{change.patchset}',
      gitwebUrlTemplate: '{baseurl}/plugins/gitiles/{project.name}/+/{sha}^!/',
    };
    expect(refUrl(connection, ROOT, CHANGE)).toBe('https://review.example.com/c/org/project/+/1/2');
    expect(refUrl(connection, ROOT, BRANCH)).toBe('https://review.example.com/plugins/gitiles/org/project/+/def456^!/');
    expect(
      refUrl(
        { ...connection, branchUrlTemplate: 'https://git.example.com/{project.canonical_name}/log/?h={branch}' },
        ROOT,
        BRANCH,
      ),
    ).toBe('https://git.example.com/review.example.com/org/project/log/?h=stable/1.0');
    expect(refUrl(connection, ROOT, TAG)).toBe('https://review.example.com/plugins/gitiles/org/project/+/def456^!/');
    // No revision: the commit template cannot be filled, the dashboard page is used.
    expect(refUrl(connection, ROOT, { ...TAG, newrev: null })).toMatch(
      /^https:\/\/ci\.example\.com\/t\/tenant-one\/buildsets\?/,
    );
  });

  it('roots dashboard links at the tenant web root, else the public URL, else a relative path', () => {
    expect(tenantWebRoot('t1', 'https://zuul.example.com/t/t1', 'https://ci.example.com')).toBe(
      'https://zuul.example.com/t/t1/',
    );
    expect(tenantWebRoot('t 1', undefined, 'https://ci.example.com/')).toBe('https://ci.example.com/t/t%201/');
    expect(tenantWebRoot('t1', undefined, undefined)).toBe('/t/t1/');
  });

  it("links a tenant's changes through its project's connection", () => {
    const layout = {
      tenant: { webRoot: undefined },
      projects: new Map([['git.example.local/example/hello', { name: 'example/hello', connectionName: 'local' }]]),
    } as unknown as Layout;
    const config = {
      connections: {
        local: {
          driver: 'git',
          baseurl: '/srv',
          pollInterval: 60,
          changeUrlTemplate: 'https://r/{project.name}/{change.number}',
        },
      },
    } as unknown as ServiceConfig;
    const link = changeLinks(
      config,
      (tenant) => (tenant === 'example' ? layout : undefined),
      () => 'http://127.0.0.1:9000',
    );
    const change: ChangeInfo = {
      kind: 'change',
      project: 'git.example.local/example/hello',
      ref: 'refs/changes/03/3/1',
      branch: 'master',
      number: 3,
      patchset: '1',
      oldrev: null,
      newrev: 'abc',
      url: null,
      owner: null,
      dependsOn: [],
      merged: false,
    };
    expect(link('example', change)).toBe('https://r/example/hello/3');
    // A project the tenant does not know: its name from the canonical name, the dashboard page.
    expect(
      link('other', { ...change, project: 'git.example.local/x/y', kind: 'tag', ref: 'refs/tags/v1', number: null }),
    ).toBe('http://127.0.0.1:9000/t/other/buildsets?project=x%2Fy&ref=refs%2Ftags%2Fv1&newrev=abc');
  });
});
