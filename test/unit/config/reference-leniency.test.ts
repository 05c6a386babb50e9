/**
 * The loader is as lenient as the reference where real sites rely on it, and as strict where the
 * reference refuses (docs/project-configuration.md#configuration-files,
 * docs/project-configuration.md#the-tenant-file): one test per rule.
 */
import { freezeJobGraph } from '../../../src/config/freeze';
import { parseTenantFile } from '../../../src/config/tenant-file';
import { branchesToLoad, dynamicBranches } from '../../../src/config/tenant-sources';
import { memoryLayout } from '../../helpers/memory-layout';

const BASE = `
- pipeline: {name: check, manager: independent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
- job: {name: unit, run: unit.sh}
`;

function errorsOf(layout: ReturnType<typeof memoryLayout>): Array<[string, string, string]> {
  return layout.errors.map((e) => [e.severity, e.name, e.shortError]);
}

describe('project and template stanzas', () => {
  it('accept a pipeline the tenant does not define and ignore it, still checking its jobs', () => {
    const shared = `
- project-template:
    name: shared-template
    check: {jobs: [unit]}
    gate-special: {jobs: [unit]}
- project:
    templates: [shared-template]
    experimental: {jobs: [unit]}
`;
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': BASE } } },
      { name: 'org/jobs', branches: { master: { 'zuul.yaml': shared } } },
    ]);
    expect(errorsOf(layout)).toEqual([]);
    const graph = freezeJobGraph(layout, { pipeline: 'check', project: 'org/jobs', branch: 'master' });
    expect(graph.status === 'ok' ? graph.jobs.map((j) => j.name) : graph).toEqual(['unit']);
    expect(freezeJobGraph(layout, { pipeline: 'experimental', project: 'org/jobs', branch: 'master' }).status).toBe(
      'unknown-pipeline',
    );
    const missing = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': BASE } } },
      { name: 'org/jobs', branches: { master: { 'zuul.yaml': '- project: {experimental: {jobs: [nope]}}\n' } } },
    ]);
    expect(errorsOf(missing)).toEqual([['error', 'Job Not Found', 'Job nope not defined']]);
  });

  it('keep a template naming a missing job: its users get no Template Not Found, freezing names the job', () => {
    const files = `
- project-template: {name: t, check: {jobs: [unit, gone]}}
- project: {name: org/a, templates: [t]}
- project: {name: org/b, templates: [t]}
`;
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': `${BASE}${files}` } } },
      { name: 'org/a', branches: { master: {} } },
      { name: 'org/b', branches: { master: {} } },
    ]);
    expect(errorsOf(layout)).toEqual([['error', 'Job Not Found', 'Job gone not defined']]);
    const graph = freezeJobGraph(layout, { pipeline: 'check', project: 'org/b', branch: 'master' });
    expect(graph.status === 'error' ? graph.errors.map((e) => e.message) : graph).toEqual(['Job gone not defined']);
  });
});

describe('nodesets', () => {
  it('take a single mapping for nodes and groups', () => {
    const files = `
- nodeset:
    name: one
    nodes: {name: controller, label: ubuntu}
    groups: {name: ctl, nodes: controller}
- job: {name: single, nodeset: {nodes: {name: n, label: debian}}}
`;
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': `${BASE}${files}` } } },
    ]);
    expect(errorsOf(layout)).toEqual([]);
    expect(layout.nodesets.get('one')).toMatchObject({
      nodes: [{ name: 'controller', aliases: [], label: 'ubuntu' }],
      groups: [{ name: 'ctl', nodes: ['controller'] }],
    });
    const anonymous = layout.jobs.get('single')?.[0].attributes.nodeset;
    expect(anonymous).toMatchObject({ kind: 'anonymous', nodeset: { nodes: [{ name: 'n', label: 'debian' }] } });
  });
});

describe('providers and sections', () => {
  const launcher = `
- image: {name: debian, type: cloud}
- flavor: {name: normal}
- label: {name: debian-normal, image: debian, flavor: normal}
`;
  const section = (name: string, parent?: string) =>
    `- section: {name: ${name}, connection: gerrit${parent ? `, parent: ${parent}` : ''}, images: [debian], flavors: [normal], labels: [debian-normal]}\n`;

  it("let a provider use another project's section", () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: { master: { 'zuul.yaml': `${BASE}${launcher}${section('region')}` } },
      },
      {
        name: 'providers',
        trusted: true,
        branches: { master: { 'zuul.yaml': '- provider: {name: p, section: region}\n' } },
      },
    ]);
    expect(errorsOf(layout)).toEqual([]);
    expect(layout.providers.get('p')?.sectionChain).toEqual(['region']);
  });

  it('refuse a section whose parent is in another project', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: { master: { 'zuul.yaml': `${BASE}${launcher}${section('region')}` } },
      },
      {
        name: 'providers',
        trusted: true,
        branches: { master: { 'zuul.yaml': `${section('zone', 'region')}- provider: {name: p, section: zone}\n` } },
      },
    ]);
    expect(errorsOf(layout)).toEqual([
      ['error', 'Unknown', 'The section "zone" references a section in a different project.'],
    ]);
    expect(layout.providers.has('p')).toBe(false);
  });
});

describe('tenant file', () => {
  const CONNECTIONS = { gerrit: { driver: 'git' } };

  it('accepts the options of current reference releases', () => {
    const { abide, problems } = parseTenantFile(
      `- authorization-rule: {name: admins, conditions: {groups: admin}}
- authorization-rule: {name: staff, conditions: {groups: staff}}
- authorization-rule: {name: bots, conditions: {groups: bots}}
- role:
    name: enqueuer
    permissions:
      read: true
      enqueue: {conditions: {project: org/a}}
- role: {name: promoter, permissions: {promote: true}}
- tenant:
    name: t
    allow-base-jobs: true
    default-oidc-ttl: 600
    anonymous-read-access: false
    role-mappings: {admins: admin, staff: [read], bots: [enqueuer, promoter]}
    admin-rules: [staff]
    source:
      gerrit:
        config-projects:
          - cfg
        untrusted-projects:
          - org/a: {include-provider-config: true, allow-reporter-jobs: true}
          - org/b: {include: [job], include-provider-config: true, exclude: [provider]}
`,
      CONNECTIONS,
    );
    expect(problems).toEqual([]);
    const [tenant] = abide.tenants;
    // Role mappings replace admin-rules; only rules mapped to a read-granting role may read.
    expect(tenant).toMatchObject({
      defaultOidcTtl: 600,
      adminRules: ['admins'],
      accessRules: ['admins', 'staff', 'bots'],
      readRestricted: true,
    });
    expect([...abide.roles.keys()]).toEqual(['enqueuer', 'promoter']);
    expect(tenant.projects.map((p) => [p.name, [...p.include].sort().join(',')])).toEqual([
      [
        'cfg',
        'flavor,image,job,label,nodeset,pipeline,project,project-template,provider,queue,secret,section,semaphore',
      ],
      [
        'org/a',
        'flavor,image,job,label,nodeset,pipeline,project,project-template,provider,queue,secret,section,semaphore',
      ],
      ['org/b', 'flavor,image,job,label,section'],
    ]);
  });

  it('keeps anonymous reading unless anonymous-read-access is false', () => {
    const access = (options: string) =>
      parseTenantFile(`- tenant:\n    name: t\n${options}`, CONNECTIONS).abide.tenants[0];
    expect(access('')).toMatchObject({ accessRules: [], readRestricted: false });
    expect(access('    access-rules: [r]\n')).toMatchObject({ accessRules: ['r'], readRestricted: true });
    expect(access('    anonymous-read-access: false\n')).toMatchObject({ accessRules: [], readRestricted: true });
    expect(access('    role-mappings: {r: read}\n')).toMatchObject({ accessRules: [], readRestricted: false });
  });

  it.each([
    [
      'a role mapping naming an undefined role',
      '- tenant:\n    name: t\n    role-mappings: {r: nobody}',
      /The role "nobody" was not found/,
    ],
    ['a redefined built-in role', '- role: {name: admin}', /The role "admin" is built in/],
    [
      'an unknown permission',
      '- role: {name: x, permissions: {fly: true}}',
      /extra keys not allowed @ data\['permissions'\]\['fly'\]/,
    ],
    [
      'a default-oidc-ttl above max-oidc-ttl',
      '- tenant:\n    name: t\n    max-oidc-ttl: 60\n    default-oidc-ttl: 600',
      /default-oidc-ttl 600 exceeds max-oidc-ttl 60/,
    ],
    [
      'allow-reporter-jobs on a config project',
      '- tenant:\n    name: t\n    source:\n      gerrit:\n        config-projects:\n          - cfg: {allow-reporter-jobs: true}',
      /allow-reporter-jobs is only allowed for untrusted projects/,
    ],
  ])('refuses %s', (_what, text, message) => {
    expect(parseTenantFile(text, CONNECTIONS).problems.map((p) => p.message)).toEqual([expect.stringMatching(message)]);
  });

  it('gives an oidc secret without ttl the tenant default, within the maximum', () => {
    const secret = '- secret: {name: token, oidc: {}}\n';
    const layout = (options: string) =>
      memoryLayout(
        [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': `${BASE}${secret}` } } }],
        options,
      );
    expect(layout('    default-oidc-ttl: 120\n').secrets.get('token')?.oidc?.ttl).toBe(120);
    expect(errorsOf(layout('    max-oidc-ttl: 600\n'))).toEqual([
      ['error', 'Max OIDC TTL Exceeded', 'The OIDC ttl 3600 exceeds tenant max-oidc-ttl 600.'],
    ]);
  });

  it('refuses configure-projects naming a config project: error, and the project configures only itself', () => {
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': BASE } } },
      { name: 'org/b', branches: { master: {} } },
      {
        name: 'org/c',
        options: "{configure-projects: ['.*']}",
        branches: { master: { 'zuul.yaml': '- project: {name: org/b, check: {jobs: [base]}}\n' } },
      },
    ]);
    expect(errorsOf(layout)).toEqual([
      [
        'error',
        'Unknown',
        'Untrusted-project org/c may not configure config-project config; its configure-projects is ignored (tenant file line 9)',
      ],
      ['error', 'Project Forbidden', 'Unable to modify project org/b'],
    ]);
    expect(layout.projectConfigs.has('review.example.com/org/b')).toBe(false);
  });
});

describe('always-dynamic-branches', () => {
  const tpc = (options: string) =>
    parseTenantFile(
      `- tenant:\n    name: t\n    source:\n      gerrit:\n        untrusted-projects:\n          - org/p: ${options}\n`,
      { gerrit: { driver: 'git' } },
    ).abide.tenants[0].projects[0];
  const branches = ['master', 'feature/a', 'feature/b', 'stable'];

  it('are not loaded but listed, unless include-branches takes them', () => {
    const dynamic = tpc("{always-dynamic-branches: ['feature/.*']}");
    expect(branchesToLoad(dynamic, branches)).toEqual(['master', 'stable']);
    expect(dynamicBranches(dynamic, branches)).toEqual(['feature/a', 'feature/b']);
    const included = tpc("{always-dynamic-branches: ['feature/.*'], include-branches: [master, feature/a]}");
    expect(branchesToLoad(included, branches)).toEqual(['master', 'feature/a']);
    expect(dynamicBranches(included, branches)).toEqual(['feature/b']);
  });

  it('an explicit empty include-branches loads nothing', () => {
    expect(branchesToLoad(tpc('{include-branches: []}'), branches)).toEqual([]);
  });
});
