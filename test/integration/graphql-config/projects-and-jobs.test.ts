/**
 * Projects, jobs with their variants, and frozen job graphs in GraphQL, through a real server whose
 * LayoutManager loads the schema-tenant fixture from real git repositories
 * (test/helpers/schema-tenant.ts).
 */
import { useSchemaTenantServer } from '../../helpers/schema-tenant';

const env = useSchemaTenantServer();
const { tenantQuery } = env;

describe('projects', () => {
  it('lists projects sorted by name with type and canonical name', async () => {
    const tenant = await tenantQuery<{ projects: unknown[] }>(
      'projects { name canonicalName connectionName type branches }',
    );
    expect(tenant.projects).toEqual([
      {
        name: 'common-config',
        canonicalName: 'review.example.com/common-config',
        connectionName: 'gerrit',
        type: 'CONFIG',
        branches: ['master'],
      },
      {
        name: 'launcher-config',
        canonicalName: 'review.example.com/launcher-config',
        connectionName: 'gerrit',
        type: 'CONFIG',
        branches: ['master'],
      },
      {
        name: 'org/project1',
        canonicalName: 'review.example.com/org/project1',
        connectionName: 'gerrit',
        type: 'UNTRUSTED',
        branches: ['master', 'stable'],
      },
      {
        name: 'org/project2',
        canonicalName: 'review.example.com/org/project2',
        connectionName: 'gerrit',
        type: 'UNTRUSTED',
        branches: ['master'],
      },
    ]);
  });

  const PROJECT = `
    __typename
    ... on Project {
      name canonicalName
      metadata { mergeMode defaultBranch queueName }
      configs {
        sourceContext { project branch path trusted }
        isTemplate templates defaultBranch mergeMode queueName
        pipelines { name jobs { name variants { name parent voting variables sourceContext { project branch } impliedBranches } } }
      }
    }
    ... on Error { message }`;

  it('finds a project by short name (with a slash) and by canonical name alike', async () => {
    const tenant = await tenantQuery<{ short: unknown; canonical: unknown }>(
      `short: project(name: "org/project1") { ${PROJECT} } canonical: project(name: "review.example.com/org/project1") { ${PROJECT} }`,
    );
    expect(tenant.canonical).toEqual(tenant.short);
  });

  it('returns the project stanzas in layout order with their job variants per pipeline', async () => {
    type Variant = {
      name: string;
      parent: string;
      voting: boolean;
      variables: unknown;
      sourceContext: { project: string; branch: string };
      impliedBranches: string[] | null;
    };
    type Config = {
      sourceContext: unknown;
      isTemplate: boolean;
      templates: string[];
      defaultBranch: string | null;
      mergeMode: string | null;
      queueName: string | null;
      pipelines: { name: string; jobs: { name: string; variants: Variant[] }[] }[];
    };
    const tenant = await tenantQuery<{ project: { name: string; metadata: unknown; configs: Config[] } }>(
      `project(name: "org/project1") { ${PROJECT} }`,
    );
    const { project } = tenant;
    expect(project.metadata).toEqual({ mergeMode: 'SQUASH_MERGE', defaultBranch: 'master', queueName: 'integrated' });
    expect(
      project.configs.map((c) => [
        c.sourceContext,
        c.isTemplate,
        c.templates,
        c.defaultBranch,
        c.mergeMode,
        c.queueName,
      ]),
    ).toEqual([
      [
        { project: 'common-config', branch: 'master', path: 'zuul.d/50-projects.yaml', trusted: true },
        false,
        ['merge-jobs'],
        null,
        'SQUASH_MERGE',
        'integrated',
      ],
      [
        { project: 'org/project1', branch: 'master', path: '.zuul.yaml', trusted: false },
        false,
        [],
        'master',
        null,
        null,
      ],
      [{ project: 'org/project1', branch: 'stable', path: '.zuul.yaml', trusted: false }, false, [], null, null, null],
    ]);
    expect(project.configs[0].pipelines.map((p) => [p.name, p.jobs.map((j) => j.name)])).toEqual([
      ['check', ['project-test1', 'project-test2']],
      ['gate', ['project-test1']],
    ]);
    const ownCheck = project.configs[1].pipelines[0];
    expect(ownCheck.name).toBe('check');
    expect(ownCheck.jobs.map((j) => [j.name, j.variants.length])).toEqual([
      ['project1-unit', 1],
      ['project-test1', 2],
    ]);
    expect(ownCheck.jobs[0].variants).toEqual([
      {
        name: 'project1-unit',
        parent: 'base',
        voting: true,
        variables: {},
        sourceContext: { project: 'org/project1', branch: 'master' },
        impliedBranches: null,
      },
    ]);
    const [withVars, nonVoting] = ownCheck.jobs[1].variants;
    expect(withVars).toEqual({
      name: 'project-test1',
      parent: 'base',
      voting: true,
      variables: { from_project: 'yes' },
      sourceContext: { project: 'org/project1', branch: 'master' },
      // The stanza's implied branch applies to the stanza, not to its inline variants.
      impliedBranches: null,
    });
    expect(nonVoting.voting).toBe(false);
  });

  it('returns a NotFoundError for an unknown project', async () => {
    const tenant = await tenantQuery<{ project: unknown }>(
      'project(name: "org/nope") { __typename ... on NotFoundError { message resource key } }',
    );
    expect(tenant.project).toEqual({
      __typename: 'NotFoundError',
      message: 'Unknown project',
      resource: 'Project',
      key: 'org/nope',
    });
  });
});

describe('jobs', () => {
  it('summarizes every job sorted by name, with first description line, variants and tags', async () => {
    const tenant = await tenantQuery<{ jobs: unknown[] }>(
      'jobs { name description tags variants { parent branches } }',
    );
    expect(tenant.jobs).toEqual([
      { name: 'abstract-job', description: null, tags: [], variants: [{ parent: 'base', branches: null }] },
      { name: 'base', description: 'The base job.', tags: [], variants: [{ parent: null, branches: null }] },
      { name: 'image-build-debian', description: null, tags: [], variants: [{ parent: 'base', branches: null }] },
      {
        name: 'noop',
        description: 'A job that will always succeed, no nodes or executor are used.',
        tags: [],
        variants: [{ parent: null, branches: null }],
      },
      {
        name: 'project-merge',
        description: 'Merge the change.',
        tags: ['merge'],
        variants: [{ parent: 'base', branches: null }],
      },
      {
        name: 'project-test1',
        description: 'First line of the first variant description.',
        tags: ['stable', 'unit'],
        variants: [
          { parent: 'base', branches: null },
          { parent: 'base', branches: ['stable'] },
        ],
      },
      { name: 'project-test2', description: null, tags: [], variants: [{ parent: 'base', branches: null }] },
      { name: 'project1-unit', description: null, tags: [], variants: [{ parent: 'base', branches: null }] },
    ]);
  });

  const VARIANT = `
    name parent description variantDescription branches impliedBranches overrideCheckout files irrelevantFiles
    sourceContext { project projectCanonicalName branch path trusted }
    requiredProjects { projectName projectCanonicalName overrideBranch overrideCheckout }
    semaphores { name resourcesFirst }
    variables extraVariables hostVariables groupVariables
    final abstract intermediate protected voting preTimeout timeout postTimeout
    tags provides requires dependencies { name soft } attempts
    roles { targetName type projectCanonicalName implicit }
    preRun { path cleanup semaphores secrets { name alias passToParent } roles { targetName } sourceContext { project } }
    run { path } postRun { path } cleanupRun { path cleanup }
    postReview matchOnConfigUpdates deduplicate failureOutput imageBuildName
    includeVars { name }
    nodeset { name nodes { name aliases label } groups { name nodes } alternatives { name } }
    nodesetAlternatives { name nodes { name aliases label } }
    ansibleSplitStreams ansibleVersion workspaceScheme workspaceCheckout`;

  it('returns every attribute of each variant of a job', async () => {
    const tenant = await tenantQuery<{ job: { variants: Record<string, unknown>[] } }>(
      `job(name: "project-test2") { ... on Job { variants { ${VARIANT} } } }`,
    );
    expect(tenant.job.variants).toEqual([
      {
        name: 'project-test2',
        parent: 'base',
        description: null,
        variantDescription: '',
        branches: null,
        impliedBranches: null,
        overrideCheckout: null,
        files: [],
        irrelevantFiles: [],
        sourceContext: {
          project: 'common-config',
          projectCanonicalName: 'review.example.com/common-config',
          branch: 'master',
          path: 'zuul.d/30-jobs.yaml',
          trusted: true,
        },
        requiredProjects: [
          {
            projectName: 'org/project2',
            projectCanonicalName: 'review.example.com/org/project2',
            overrideBranch: null,
            overrideCheckout: null,
          },
          {
            projectName: 'review.example.com/org/project1',
            projectCanonicalName: 'review.example.com/org/project1',
            overrideBranch: null,
            overrideCheckout: 'stable',
          },
        ],
        semaphores: [{ name: 'test-lock', resourcesFirst: false }],
        variables: {},
        extraVariables: {},
        hostVariables: {},
        groupVariables: {},
        final: false,
        abstract: false,
        intermediate: false,
        protected: null,
        voting: true,
        preTimeout: null,
        timeout: null,
        postTimeout: null,
        tags: [],
        provides: [],
        requires: [],
        dependencies: [{ name: 'project-merge', soft: true }],
        attempts: 5,
        roles: [
          {
            targetName: 'common-config',
            type: 'ZUUL',
            projectCanonicalName: 'review.example.com/common-config',
            implicit: true,
          },
        ],
        preRun: [],
        run: [{ path: 'test2.sh' }],
        postRun: [],
        cleanupRun: [],
        postReview: null,
        matchOnConfigUpdates: true,
        deduplicate: 'AUTO',
        failureOutput: [],
        imageBuildName: null,
        includeVars: [],
        nodeset: null,
        nodesetAlternatives: [
          { name: 'single', nodes: [{ name: 'worker', aliases: [], label: 'debian-normal' }] },
          {
            name: 'big',
            nodes: [
              { name: 'controller', aliases: ['primary'], label: 'debian-normal' },
              { name: 'compute', aliases: [], label: 'debian-normal' },
            ],
          },
        ],
        ansibleSplitStreams: null,
        ansibleVersion: null,
        workspaceScheme: 'GOLANG',
        workspaceCheckout: 'ALWAYS',
      },
    ]);
  });

  it('shows a single nodeset, script secrets by name only, and branch variants', async () => {
    type Variants = { variants: Record<string, unknown>[] };
    const tenant = await tenantQuery<{ base: Variants; test1: Variants; noop: Variants; unit: Variants }>(
      `base: job(name: "base") { ... on Job { variants { ${VARIANT} } } }
       test1: job(name: "project-test1") { ... on Job { variants { name branches variantDescription voting description } } }
       noop: job(name: "noop") { ... on Job { variants { name parent sourceContext { project } } } }
       unit: job(name: "project1-unit") { ... on Job { variants { branches impliedBranches cleanupRun { path cleanup } } } }`,
    );
    const [base] = tenant.base.variants;
    expect(base.parent).toBeNull();
    expect(base.timeout).toBe(1800);
    expect(base.nodeset).toEqual({
      name: 'single',
      nodes: [{ name: 'worker', aliases: [], label: 'debian-normal' }],
      groups: [{ name: 'workers', nodes: ['worker'] }],
      alternatives: [],
    });
    expect(base.nodesetAlternatives).toEqual([]);
    expect(base.preRun).toEqual([
      {
        path: 'base/pre.sh',
        cleanup: false,
        semaphores: [],
        secrets: [{ name: 'site-secret', alias: 'site_password', passToParent: false }],
        roles: [{ targetName: 'common-config' }],
        sourceContext: { project: 'common-config' },
      },
    ]);
    expect(tenant.test1.variants).toEqual([
      {
        name: 'project-test1',
        branches: null,
        variantDescription: '',
        voting: true,
        description: 'First line of the first variant description.\nSecond line.\n',
      },
      { name: 'project-test1', branches: ['stable'], variantDescription: 'stable', voting: false, description: null },
    ]);
    expect(tenant.noop.variants).toEqual([{ name: 'noop', parent: null, sourceContext: null }]);
    // A job of an untrusted project without explicit branches applies to the branch it is defined on.
    expect(tenant.unit.variants).toEqual([
      { branches: null, impliedBranches: ['master'], cleanupRun: [{ path: 'tidy.sh', cleanup: true }] },
    ]);
  });

  it('returns `Job not found` for an unknown job', async () => {
    const tenant = await tenantQuery<{ job: unknown }>(
      'job(name: "nope") { __typename ... on NotFoundError { message resource } }',
    );
    expect(tenant.job).toEqual({ __typename: 'NotFoundError', message: 'Job not found', resource: 'Job' });
  });
});

describe('frozen job graphs', () => {
  const GRAPH =
    '__typename ... on JobGraph { jobs { name voting dependencies { name soft } childJobs } } ... on Error { message }';

  it('freezes the graph of a project branch in graph order with dependencies', async () => {
    const tenant = await tenantQuery<{ byShort: unknown; byCanonical: unknown }>(
      `byShort: freezeJobs(pipeline: "check", project: "org/project1", branch: "master") { ${GRAPH} }
       byCanonical: freezeJobs(pipeline: "check", project: "review.example.com/org/project1") { ${GRAPH} }`,
    );
    expect(tenant.byShort).toEqual({
      __typename: 'JobGraph',
      jobs: [
        { name: 'project-merge', voting: true, dependencies: [], childJobs: ['project-test1', 'project-test2'] },
        { name: 'project-test1', voting: false, dependencies: [{ name: 'project-merge', soft: false }], childJobs: [] },
        { name: 'project-test2', voting: true, dependencies: [{ name: 'project-merge', soft: true }], childJobs: [] },
        { name: 'project1-unit', voting: true, dependencies: [], childJobs: [] },
      ],
    });
    expect(tenant.byCanonical).toEqual(tenant.byShort);
  });

  it('applies branch variants and gives an empty graph to a project without jobs in the pipeline', async () => {
    const tenant = await tenantQuery<{ stable: { jobs: { name: string; voting: boolean }[] }; none: unknown }>(
      `stable: freezeJobs(pipeline: "check", project: "org/project1", branch: "stable") { ... on JobGraph { jobs { name voting } } }
       none: freezeJobs(pipeline: "periodic", project: "org/project1", branch: "master") { ... on JobGraph { jobs { name } } }`,
    );
    expect(tenant.stable.jobs).toEqual([
      { name: 'project-merge', voting: true },
      { name: 'project-test1', voting: false },
      { name: 'project-test2', voting: true },
    ]);
    expect(tenant.none).toEqual({ jobs: [] });
  });

  it('returns typed errors for an unknown project, pipeline or job', async () => {
    const tenant = await tenantQuery<Record<string, unknown>>(
      `project: freezeJobs(pipeline: "check", project: "org/nope") { ${GRAPH} }
       pipeline: freezeJobs(pipeline: "nope", project: "org/project1") { ${GRAPH} }
       jobProject: freezeJob(pipeline: "check", project: "org/nope", job: "project-merge") { __typename ... on Error { message } }
       jobPipeline: freezeJob(pipeline: "nope", project: "org/project1", job: "project-merge") { __typename ... on Error { message } }
       job: freezeJob(pipeline: "check", project: "org/project1", job: "project1-unit", branch: "stable") { __typename ... on Error { message } }`,
    );
    expect(tenant).toEqual({
      __typename: 'Tenant',
      project: { __typename: 'NotFoundError', message: 'Unknown project' },
      pipeline: { __typename: 'NotFoundError', message: 'Unknown pipeline' },
      jobProject: { __typename: 'NotFoundError', message: 'Unknown project' },
      jobPipeline: { __typename: 'NotFoundError', message: 'Unknown pipeline' },
      job: { __typename: 'NotFoundError', message: 'Job not found' },
    });
  });

  it('returns a JobGraphError when the graph has configuration errors', async () => {
    const tenant = await tenantQuery<Record<string, unknown>>(
      `graph: freezeJobs(pipeline: "periodic", project: "common-config") { __typename ... on JobGraphError { message problems { job message } } }
       job: freezeJob(pipeline: "periodic", project: "common-config", job: "abstract-job") { __typename ... on Error { message } }`,
    );
    const problem = 'Job abstract-job is abstract and may not be directly run';
    expect(tenant).toEqual({
      __typename: 'Tenant',
      graph: {
        __typename: 'JobGraphError',
        message: `The job graph has configuration errors: ${problem}`,
        problems: [{ job: 'abstract-job', message: problem }],
      },
      job: { __typename: 'JobGraphError', message: `The job graph has configuration errors: ${problem}` },
    });
  });

  it('returns the frozen parameters of one job with secrets and keys redacted', async () => {
    const tenant = await tenantQuery<{
      freezeJob: { name: string; parent: string; inheritancePath: string[]; parameters: Record<string, unknown> };
    }>(
      'freezeJob(pipeline: "check", project: "org/project1", job: "project-test1") { __typename ... on FrozenJob { name parent inheritancePath parameters } }',
    );
    const { freezeJob } = tenant;
    expect(freezeJob.name).toBe('project-test1');
    expect(freezeJob.parent).toBe('base');
    expect(freezeJob.inheritancePath).toHaveLength(5);
    const p = freezeJob.parameters;
    expect(p.job).toBe('project-test1');
    expect(p.timeout).toBe(1800);
    expect(p.vars).toEqual({ level: 1, from_project: 'yes' });
    expect(p.ssh_keys).toEqual(['REDACTED']);
    expect(p.secret_vars).toBeNull();
    const pre = p.pre_playbooks as { path: string; secrets: Record<string, string>; trusted: boolean }[];
    expect(pre.map((x) => [x.path, x.secrets, x.trusted])).toEqual([
      ['base/pre.sh', { site_password: 'REDACTED' }, true],
    ]);
    expect((p.playbooks as { path: string }[]).map((x) => x.path)).toEqual(['test1.sh']);
    const zuul = p.zuul as Record<string, unknown>;
    expect(zuul.build).toBe('0'.repeat(32));
    expect(zuul.buildset).toBeNull();
    expect(zuul.voting).toBe(false);
    expect(zuul.tenant).toBe('acme');
    expect(zuul.project).toEqual({
      name: 'org/project1',
      short_name: 'project1',
      canonical_hostname: 'review.example.com',
      canonical_name: 'review.example.com/org/project1',
      src_dir: 'src/review.example.com/org/project1',
    });
  });
});

describe('secrets', () => {
  it('never appear in any response', async () => {
    // Touch every entry point that could carry job data once more, then check every body seen.
    await tenantQuery<unknown>(
      `jobs { variants { variables extraVariables hostVariables groupVariables preRun { secrets { name alias } } postRun { secrets { name } } } }
       projects { configs { variables pipelines { jobs { variants { variables } } } } }
       all: freezeJobs(pipeline: "check", project: "org/project1") { ... on JobGraph { jobs { parameters } } }`,
    );
    expect(env.bodies.length).toBeGreaterThan(10);
    env.expectNoSecretInResponses();
  });
});
