/** The tenant file parser (docs/project-configuration.md#the-tenant-file). */
import { parseTenantFile } from '../../../src/config/tenant-file';
import { branchesToLoad } from '../../../src/config/tenant-sources';

const CONNECTIONS = { gerrit: { driver: 'git' }, other: { driver: 'git' }, timer: { driver: 'timer' } };

describe('parseTenantFile', () => {
  it('reads tenants with every option, project groups and per-project options', () => {
    const { abide, problems } = parseTenantFile(
      `
- tenant:
    name: t1
    max-nodes-per-job: -1
    max-job-timeout: 600
    max-changes-per-pipeline: 10
    max-dependencies: 4
    max-oidc-ttl: 900
    allowed-oidc-issuers: https://a
    exclude-unprotected-branches: true
    allowed-triggers: [gerrit]
    allowed-reporters: gerrit
    allowed-labels: ['^ubuntu']
    disallowed-labels: [gpu]
    default-parent: base-minimal
    default-ansible-version: 9
    access-rules: readers
    admin-rules: [admins]
    authentication-realm: corp
    semaphores: [shared]
    web-root: https://ci.example.com/t1
    allow-circular-dependencies: true
    report-build-page: true
    use-nodepool: false
    source:
      gerrit:
        config-projects:
          - common-config
          - project-config:
              load-branch: main
              include: []
        untrusted-projects:
          - include: [job]
            projects:
              - org/a
              - org/b:
                  exclude: job
          - org/c:
              shadow: org/a
              include-branches: ['stable/.*', master]
              extra-config-paths: [extra.yaml, more/]
              implied-branch-matchers: true
              configure-projects: ['org/.*']
      other:
        untrusted-projects:
          - org/d
- authorization-rule:
    name: admins
    conditions:
      - groups: admin
      - sub: root
        iss: corp
- admin-rule:
    name: readers
    conditions:
      resources_access:
        account:
          roles: reader
- global-semaphore:
    name: shared
    max: 3
- api-root:
    authentication-realm: corp
    access-rules: readers
`,
      CONNECTIONS,
    );
    expect(problems).toEqual([]);
    const [t] = abide.tenants;
    expect(t).toMatchObject({
      name: 't1',
      maxNodesPerJob: -1,
      maxJobTimeout: 600,
      maxChangesPerPipeline: 10,
      maxDependencies: 4,
      maxOidcTtl: 900,
      allowedOidcIssuers: ['https://a'],
      excludeUnprotectedBranches: true,
      allowedTriggers: ['gerrit'],
      allowedReporters: ['gerrit'],
      allowedLabels: ['^ubuntu'],
      disallowedLabels: ['gpu'],
      defaultParent: 'base-minimal',
      defaultAnsibleVersion: '9',
      accessRules: ['readers'],
      adminRules: ['admins'],
      authenticationRealm: 'corp',
      semaphores: ['shared'],
      webRoot: 'https://ci.example.com/t1/',
      useNodepool: false,
    });
    expect(t.projects.map((p) => [p.connectionName, p.name, p.trusted, [...p.include].sort().join(',')])).toEqual([
      [
        'gerrit',
        'common-config',
        true,
        'flavor,image,job,label,nodeset,pipeline,project,project-template,provider,queue,secret,section,semaphore',
      ],
      ['gerrit', 'project-config', true, ''],
      ['gerrit', 'org/a', false, 'job'],
      ['gerrit', 'org/b', false, ''],
      ['gerrit', 'org/c', false, 'job,nodeset,pipeline,project,project-template,queue,secret,semaphore'],
      ['other', 'org/d', false, 'job,nodeset,pipeline,project,project-template,queue,secret,semaphore'],
    ]);
    const c = t.projects[4];
    expect(c).toMatchObject({
      shadow: ['org/a'],
      includeBranches: ['stable/.*', 'master'],
      extraConfigPaths: ['extra.yaml', 'more/'],
      impliedBranchMatchers: true,
      configureProjects: ['org/.*'],
    });
    expect(t.projects[1].loadBranch).toBe('main');
    expect(abide.authorizationRules).toEqual([
      { name: 'admins', conditions: [{ groups: 'admin' }, { sub: 'root', iss: 'corp' }] },
      { name: 'readers', conditions: [{ resources_access: { account: { roles: 'reader' } } }] },
    ]);
    expect([...abide.globalSemaphores.values()]).toEqual([{ name: 'shared', max: 3 }]);
    expect(abide.apiRoot).toEqual({ authenticationRealm: 'corp', accessRules: ['readers'] });
  });

  it('applies the defaults of the reference', () => {
    const { abide } = parseTenantFile('- tenant:\n    name: t\n', CONNECTIONS);
    expect(abide.tenants[0]).toMatchObject({
      maxNodesPerJob: 5,
      maxJobTimeout: 10800,
      maxOidcTtl: 10800,
      defaultParent: 'base',
      useNodepool: true,
      projects: [],
    });
    expect(abide.tenants[0].allowedTriggers).toBeUndefined();
  });

  it.each([
    ['an unknown top-level item', '- widget: {}', /Unknown tenant file item "widget"/],
    ['a tenant without name', '- tenant:\n    source: {}', /required key not provided @ data\['name'\]/],
    [
      'an unknown tenant option',
      '- tenant:\n    name: t\n    colour: red',
      /extra keys not allowed @ data\['colour'\]/,
    ],
    ['a duplicate tenant', '- tenant: {name: t}\n- tenant: {name: t}', /Duplicate tenant name "t"/],
    ['two api-roots', '- api-root: {}\n- api-root: {}', /More than one api-root/],
    [
      'a rule without conditions',
      '- authorization-rule: {name: r}',
      /required key not provided @ data\['conditions'\]/,
    ],
    [
      'an unknown include class',
      '- tenant:\n    name: t\n    source:\n      gerrit:\n        untrusted-projects:\n          - org/a: {include: [widgets]}',
      /Unknown configuration class "widgets"/,
    ],
    [
      'a default location in extra-config-paths',
      '- tenant:\n    name: t\n    source:\n      gerrit:\n        untrusted-projects:\n          - org/a: {extra-config-paths: [zuul.d/]}',
      /Default zuul configs are not allowed/,
    ],
    ['a bad max-job-timeout', '- tenant:\n    name: t\n    max-job-timeout: soon', /expected int/],
    ['duplicate keys', '- tenant:\n    name: t\n    name: u', /appears more than once/],
    ['a non-list file', 'tenant: {name: t}', /Configuration file is not a list/],
  ])('reports %s', (_what, text, message) => {
    const { problems } = parseTenantFile(text, CONNECTIONS);
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(message)]);
  });

  it('reports unknown connections and global semaphores against the tenant, keeping the rest', () => {
    const { abide, problems } = parseTenantFile(
      '- tenant:\n    name: t\n    semaphores: [missing]\n    source:\n      nowhere:\n        config-projects: [x]\n      gerrit:\n        config-projects: [common-config]\n',
      CONNECTIONS,
    );
    expect(problems).toEqual([
      { tenant: 't', message: 'Unknown connection named "nowhere"', line: 5 },
      { tenant: 't', message: 'The global semaphore "missing" was not found', line: 1 },
    ]);
    expect(abide.tenants[0].projects.map((p) => p.name)).toEqual(['common-config']);
  });
});

describe('branchesToLoad', () => {
  const base = parseTenantFile(
    `- tenant:
    name: t
    source:
      gerrit:
        config-projects: [{cfg: {load-branch: main}}]
        untrusted-projects:
          - org/inc: {include-branches: ['stable/.*'], exclude-branches: [stable/old]}
          - org/exc: {exclude-branches: ['feature/.*']}
          - org/dyn: {always-dynamic-branches: [wip]}
`,
    CONNECTIONS,
  ).abide.tenants[0].projects;
  const branches = ['main', 'master', 'stable/new', 'stable/old', 'feature/x', 'wip'];

  it('loads only the load-branch of a config project', () => {
    expect(branchesToLoad(base[0], branches)).toEqual(['main']);
  });

  it('uses full-match include-branches before exclude-branches', () => {
    expect(branchesToLoad(base[1], branches)).toEqual(['stable/new', 'stable/old']);
    expect(branchesToLoad(base[2], branches)).toEqual(['main', 'master', 'stable/new', 'stable/old', 'wip']);
    expect(branchesToLoad(base[3], branches)).toEqual(['main', 'master', 'stable/new', 'stable/old', 'feature/x']);
  });
});
