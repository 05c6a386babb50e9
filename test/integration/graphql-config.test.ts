/**
 * The configuration side of a tenant in GraphQL, through a real server whose LayoutManager loads
 * a fixture tenant from real git repositories (test/fixtures/config/schema-tenant).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../src/sources/git-cli';
import { encryptSecret } from '../../src/secrets/encryption';
import { REDACTED } from '../../src/secrets/redact';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server';
import { tenantFixture, type TenantFixture } from '../helpers/tenant-fixture';

/** The placeholder ciphertext of the fixture's only secret, replaced by a real one before the tests. */
const PLACEHOLDER_CIPHERTEXT = 'U0VDUkVULVZBTFVFLU1BUktFUi1kbzFub3RMZWFrVGhpc0NoaXBoZXJ0ZXh0QW55d2hlcmUK';
/** The secret's value; it and its ciphertext must never leave the server. */
const SECRET_VALUE = 'fixture-site-password-0451';
let secretCiphertext: string;

let fixture: TenantFixture;
let server: TestServer;
/** Every raw response body, to check that no secret ever appears. */
const bodies: string[] = [];

interface GraphQLResponse {
  data?: Record<string, unknown>;
  errors?: { message: string }[];
}

async function query(document: string, variables?: Record<string, unknown>): Promise<GraphQLResponse> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: document, variables }),
  });
  const text = await res.text();
  bodies.push(text);
  return JSON.parse(text) as GraphQLResponse;
}

/** `tenant(name) { ... on Tenant { <selection> } }` (tenant acme by default); fails on GraphQL errors. */
async function tenantQuery<T>(selection: string, variables?: Record<string, unknown>, tenant = 'acme'): Promise<T> {
  const params = variables
    ? `(${Object.keys(variables)
        .map((k) => `$${k}: ${variableType(k)}`)
        .join(', ')})`
    : '';
  const body = await query(
    /* GraphQL */ `query Q${params} { tenant(name: "${tenant}") { __typename ... on Tenant { ${selection} } } }`,
    variables,
  );
  expect(body.errors).toBeUndefined();
  const data = body.data as { tenant: T & { __typename: string } };
  expect(data.tenant.__typename).toBe('Tenant');
  return data.tenant;
}

function variableType(name: string): string {
  return name === 'filter'
    ? 'ConfigErrorFilter'
    : name === 'first' || name === 'last' || name === 'offset'
      ? 'Int'
      : 'String';
}

beforeAll(async () => {
  fixture = await tenantFixture(path.join(__dirname, '..', 'fixtures', 'config', 'schema-tenant'));
  server = await startTestServer({ config: fixture.config });
  // Secrets are decrypted at load, so the fixture's secret is encrypted with the project's real key.
  const key = await (await server.app.services.auth.keys()).secretsKey('review.example.com/common-config');
  [secretCiphertext] = encryptSecret(SECRET_VALUE, key.publicKey());
  await pushToCommonConfig('Encrypt the site secret with the project key', (work) => {
    const file = path.join(work, 'zuul.d', '20-objects.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(PLACEHOLDER_CIPHERTEXT, secretCiphertext));
  });
  await layoutManager().reconfigure();
}, 120_000);

async function pushToCommonConfig(message: string, edit: (work: string) => void): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-schema-push-'));
  try {
    await git(work, ['clone', '--quiet', path.join(fixture.reposDir, 'common-config.git'), '.']);
    edit(work);
    await git(work, ['add', '--all']);
    await git(work, ['commit', '--quiet', '-m', message]);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function layoutManager(): NonNullable<TestServer['app']['layoutManager']> {
  const manager = server.app.layoutManager;
  if (manager === undefined) {
    throw new Error('the test server has no LayoutManager');
  }
  return manager;
}

afterAll(async () => {
  await server.stop();
  fixture.cleanup();
});

describe('tenants from the LayoutManager', () => {
  it('lists the tenants of the tenant file, sorted', async () => {
    const body = await query('{ tenants { name } }');
    expect(body.data).toEqual({ tenants: [{ name: 'acme' }, { name: 'bare' }, { name: 'other' }] });
  });

  it('answers tenant-level capabilities: `niz` when the tenant has providers', async () => {
    const tenant = await tenantQuery<{ info: unknown }>('info { authenticationRealm readProtected niz }');
    expect(tenant.info).toEqual({ authenticationRealm: null, readProtected: false, niz: true });
    const bare = await tenantQuery<{ info: unknown; providers: unknown[]; images: unknown[] }>(
      'info { niz } providers { name } images { name }',
      undefined,
      'bare',
    );
    expect(bare).toEqual({ __typename: 'Tenant', info: { niz: false }, providers: [], images: [] });
  });
});

describe('pipelines', () => {
  it('lists pipelines in layout order with manager, precedence, triggers and window', async () => {
    const tenant = await tenantQuery<{ pipelines: unknown[] }>(
      'pipelines { name description manager precedence postReview triggers { name driver } window { initial floor ceiling increaseType increaseFactor decreaseType decreaseFactor } }',
    );
    expect(tenant.pipelines).toEqual([
      {
        name: 'check',
        description: 'Newly uploaded patchsets enter this pipeline.',
        manager: 'INDEPENDENT',
        precedence: 'NORMAL',
        postReview: false,
        triggers: [{ name: 'gerrit', driver: 'git' }],
        window: {
          initial: 20,
          floor: 3,
          ceiling: null,
          increaseType: 'LINEAR',
          increaseFactor: 1,
          decreaseType: 'EXPONENTIAL',
          decreaseFactor: 2,
        },
      },
      {
        name: 'gate',
        description: null,
        manager: 'DEPENDENT',
        precedence: 'HIGH',
        postReview: true,
        triggers: [],
        window: {
          initial: 10,
          floor: 2,
          ceiling: null,
          increaseType: 'EXPONENTIAL',
          increaseFactor: 2,
          decreaseType: 'EXPONENTIAL',
          decreaseFactor: 2,
        },
      },
      {
        name: 'periodic',
        description: null,
        manager: 'INDEPENDENT',
        precedence: 'LOW',
        postReview: false,
        triggers: [{ name: 'timer', driver: 'timer' }],
        window: {
          initial: 20,
          floor: 3,
          ceiling: null,
          increaseType: 'LINEAR',
          increaseFactor: 1,
          decreaseType: 'EXPONENTIAL',
          decreaseFactor: 2,
        },
      },
    ]);
  });
});

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

describe('config errors', () => {
  type Page = {
    totalCount: number;
    nodes: { severity: string; name: string; sourceContext: { project: string; branch: string } | null }[];
    pageInfo: Record<string, unknown>;
    edges: { cursor: string }[];
  };
  const PAGE =
    'totalCount nodes { severity name sourceContext { project branch } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor }';
  const summary = (page: Page) =>
    page.nodes.map(
      (n) => `${n.severity} ${n.name} ${n.sourceContext?.project ?? '-'}@${n.sourceContext?.branch ?? '-'}`,
    );

  it('counts and lists every error and warning in layout order', async () => {
    const tenant = await tenantQuery<{ configErrorCount: number; configErrors: Page }>(
      `configErrorCount configErrors { ${PAGE} }`,
    );
    expect(tenant.configErrorCount).toBe(4);
    expect(tenant.configErrors.totalCount).toBe(4);
    expect(summary(tenant.configErrors)).toEqual([
      'WARNING Cleanup Run Deprecation org/project1@master',
      'ERROR Nodeset Not Found org/project1@stable',
      'ERROR Job Not Found org/project2@master',
      'ERROR Job Not Found org/project2@master',
    ]);
    expect(tenant.configErrors.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it.each([
    [
      { project: 'org/project1' },
      ['WARNING Cleanup Run Deprecation org/project1@master', 'ERROR Nodeset Not Found org/project1@stable'],
    ],
    [{ branch: 'stable' }, ['ERROR Nodeset Not Found org/project1@stable']],
    [{ severity: 'WARNING' }, ['WARNING Cleanup Run Deprecation org/project1@master']],
    [{ name: 'Job Not Found' }, ['ERROR Job Not Found org/project2@master', 'ERROR Job Not Found org/project2@master']],
    [{ project: 'org/project1', severity: 'ERROR' }, ['ERROR Nodeset Not Found org/project1@stable']],
    [
      { project: 'org/project2', branch: 'master', name: 'Job Not Found', severity: 'ERROR' },
      ['ERROR Job Not Found org/project2@master', 'ERROR Job Not Found org/project2@master'],
    ],
    [{ project: 'common-config' }, []],
  ])('filters by %j', async (filter, expected) => {
    const tenant = await tenantQuery<{ configErrors: Page }>(`configErrors(filter: $filter) { ${PAGE} }`, { filter });
    expect(summary(tenant.configErrors)).toEqual(expected);
    expect(tenant.configErrors.totalCount).toBe(expected.length);
  });

  it('pages forwards with cursors and offset, and backwards', async () => {
    const first = (await tenantQuery<{ configErrors: Page }>(`configErrors(first: 1) { ${PAGE} }`)).configErrors;
    expect(summary(first)).toEqual(['WARNING Cleanup Run Deprecation org/project1@master']);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.totalCount).toBe(4);

    const middle = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(first: 2, after: $after) { ${PAGE} }`, {
        after: first.pageInfo.endCursor,
      })
    ).configErrors;
    expect(summary(middle)).toEqual([
      'ERROR Nodeset Not Found org/project1@stable',
      'ERROR Job Not Found org/project2@master',
    ]);
    expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const end = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(first: 5, after: $after) { ${PAGE} }`, {
        after: middle.pageInfo.endCursor,
      })
    ).configErrors;
    expect(summary(end)).toEqual(['ERROR Job Not Found org/project2@master']);
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const past = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(first: 5, after: $after) { ${PAGE} }`, {
        after: end.pageInfo.endCursor,
      })
    ).configErrors;
    expect(past.nodes).toEqual([]);
    expect(past.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });

    const skipped = (await tenantQuery<{ configErrors: Page }>(`configErrors(offset: 2, first: 1) { ${PAGE} }`))
      .configErrors;
    expect(summary(skipped)).toEqual(['ERROR Job Not Found org/project2@master']);
    expect(skipped.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const last = (await tenantQuery<{ configErrors: Page }>(`configErrors(last: 2) { ${PAGE} }`)).configErrors;
    expect(summary(last)).toEqual([
      'ERROR Job Not Found org/project2@master',
      'ERROR Job Not Found org/project2@master',
    ]);
    const before = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(last: 5, before: $before) { ${PAGE} }`, {
        before: last.pageInfo.startCursor,
      })
    ).configErrors;
    expect(summary(before)).toEqual([
      'WARNING Cleanup Run Deprecation org/project1@master',
      'ERROR Nodeset Not Found org/project1@stable',
    ]);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('rejects bad cursors and negative sizes', async () => {
    const badCursor = await query(
      '{ tenant(name: "acme") { ... on Tenant { configErrors(after: "bogus") { totalCount } } } }',
    );
    expect(badCursor.errors?.[0].message).toBe('Invalid cursor "bogus".');
    const negative = await query(
      '{ tenant(name: "acme") { ... on Tenant { configErrors(first: -1) { totalCount } } } }',
    );
    expect(negative.errors?.[0].message).toBe('`first` must not be negative.');
  });
});

describe('semaphores', () => {
  beforeAll(async () => {
    const acquired = new Date('2026-01-01T00:00:00Z');
    await server.app.database.knex('semaphore_holders').insert([
      {
        tenant: null,
        semaphore: 'global-lock',
        global: true,
        holder_tenant: 'acme',
        buildset_uuid: 'b1',
        job_name: 'project-test1',
        acquired,
      },
      {
        tenant: null,
        semaphore: 'global-lock',
        global: true,
        holder_tenant: 'acme',
        buildset_uuid: 'b2',
        job_name: 'project-test2',
        acquired,
      },
      {
        tenant: null,
        semaphore: 'global-lock',
        global: true,
        holder_tenant: 'other',
        buildset_uuid: 'b3',
        job_name: 'noop',
        acquired,
      },
      {
        tenant: 'acme',
        semaphore: 'test-lock',
        global: false,
        holder_tenant: 'acme',
        buildset_uuid: 'b1',
        job_name: 'project-test2',
        acquired,
      },
      // Another tenant's local semaphore of the same name is not ours.
      {
        tenant: 'other',
        semaphore: 'test-lock',
        global: false,
        holder_tenant: 'other',
        buildset_uuid: 'b4',
        job_name: 'noop',
        acquired,
      },
    ]);
  });

  it('lists local and global semaphores sorted by name with their holders', async () => {
    const tenant = await tenantQuery<{ semaphores: unknown[] }>(
      'semaphores { name global max holders { count thisTenant { buildsetUuid jobName acquired } otherTenants } }',
    );
    expect(tenant.semaphores).toEqual([
      {
        name: 'global-lock',
        global: true,
        max: 3,
        holders: {
          count: 3,
          thisTenant: [
            { buildsetUuid: 'b1', jobName: 'project-test1', acquired: '2026-01-01T00:00:00.000Z' },
            { buildsetUuid: 'b2', jobName: 'project-test2', acquired: '2026-01-01T00:00:00.000Z' },
          ],
          otherTenants: 1,
        },
      },
      {
        name: 'test-lock',
        global: false,
        max: 2,
        holders: {
          count: 1,
          thisTenant: [{ buildsetUuid: 'b1', jobName: 'project-test2', acquired: '2026-01-01T00:00:00.000Z' }],
          otherTenants: 0,
        },
      },
    ]);
  });

  it('shows other tenants only as a count', async () => {
    const tenant = await tenantQuery<{ semaphores: unknown[] }>(
      'semaphores { name holders { count thisTenant { buildsetUuid } otherTenants } }',
      undefined,
      'other',
    );
    expect(tenant.semaphores).toEqual([
      { name: 'global-lock', holders: { count: 3, thisTenant: [{ buildsetUuid: 'b3' }], otherTenants: 2 } },
      { name: 'test-lock', holders: { count: 1, thisTenant: [{ buildsetUuid: 'b4' }], otherTenants: 0 } },
    ]);
  });
});

describe('launcher objects', () => {
  const LOCAL_IMAGE = 'review.example.com%2Flauncher-config/debian-local';

  beforeAll(async () => {
    const at = new Date('2026-02-01T10:00:00Z');
    const knex = server.app.database.knex;
    await knex('image_build_artifacts').insert({
      uuid: 'a1',
      tenant: 'acme',
      canonical_name: LOCAL_IMAGE,
      build_uuid: 'build-1',
      format: 'qcow2',
      md5sum: 'md5',
      sha256: 'sha',
      url: 'https://artifacts.example.com/debian-local.qcow2',
      state: 'ready',
      state_time: at,
      timestamp: at,
      validated: true,
      lock_holder: null,
    });
    await knex('image_uploads').insert({
      uuid: 'u1',
      artifact_uuid: 'a1',
      canonical_name: LOCAL_IMAGE,
      endpoint_name: 'aws-main/us-east-1',
      external_id: 'ami-0abc',
      state: 'uploading',
      state_time: at,
      timestamp: at,
      validated: false,
      lock_holder: 'launcher-1',
    });
  });

  it('lists labels and flavors in configuration order', async () => {
    const tenant = await tenantQuery<{ labels: unknown; flavors: unknown }>(
      'labels { name canonicalName description image flavor minReady maxReadyAge } flavors { name canonicalName description }',
    );
    expect(tenant.labels).toEqual([
      {
        name: 'debian-normal',
        canonicalName: 'review.example.com%2Flauncher-config/debian-normal',
        description: null,
        image: 'debian',
        flavor: 'normal',
        minReady: 1,
        maxReadyAge: 0,
      },
    ]);
    expect(tenant.flavors).toEqual([
      { name: 'normal', canonicalName: 'review.example.com%2Flauncher-config/normal', description: '2 CPUs, 4 GB.' },
    ]);
  });

  const IMAGE = `name canonicalName projectCanonicalName branch type description
    buildArtifacts { uuid canonicalName buildTenant buildUuid format md5sum sha256 url timestamp validated state stateTime isLocked lockHolder
      uploads { uuid canonicalName artifactUuid endpointName externalId timestamp validated state stateTime isLocked lockHolder } }`;

  it('lists images with their build artifacts and uploads', async () => {
    const tenant = await tenantQuery<{ images: unknown[] }>(`images { ${IMAGE} }`);
    expect(tenant.images).toEqual([
      {
        name: 'debian',
        canonicalName: 'review.example.com%2Flauncher-config/debian',
        projectCanonicalName: 'review.example.com/launcher-config',
        branch: 'master',
        type: 'CLOUD',
        description: 'Stock Debian image of the cloud.',
        buildArtifacts: [],
      },
      {
        name: 'debian-local',
        canonicalName: LOCAL_IMAGE,
        projectCanonicalName: 'review.example.com/launcher-config',
        branch: 'master',
        type: 'ZUUL',
        description: null,
        buildArtifacts: [
          {
            uuid: 'a1',
            canonicalName: LOCAL_IMAGE,
            buildTenant: true,
            buildUuid: 'build-1',
            format: 'qcow2',
            md5sum: 'md5',
            sha256: 'sha',
            url: 'https://artifacts.example.com/debian-local.qcow2',
            timestamp: '2026-02-01T10:00:00.000Z',
            validated: true,
            state: 'READY',
            stateTime: '2026-02-01T10:00:00.000Z',
            isLocked: false,
            lockHolder: null,
            uploads: [
              {
                uuid: 'u1',
                canonicalName: LOCAL_IMAGE,
                artifactUuid: 'a1',
                endpointName: 'aws-main/us-east-1',
                externalId: 'ami-0abc',
                timestamp: '2026-02-01T10:00:00.000Z',
                validated: false,
                state: 'UPLOADING',
                stateTime: '2026-02-01T10:00:00.000Z',
                isLocked: true,
                lockHolder: 'launcher-1',
              },
            ],
          },
        ],
      },
    ]);
  });

  it('marks artifacts built by another tenant', async () => {
    const tenant = await tenantQuery<{
      images: { name: string; buildArtifacts: { uuid: string; buildTenant: boolean }[] }[];
    }>('images { name buildArtifacts { uuid buildTenant } }', undefined, 'other');
    expect(tenant.images).toEqual([
      { name: 'debian', buildArtifacts: [] },
      { name: 'debian-local', buildArtifacts: [{ uuid: 'a1', buildTenant: false }] },
    ]);
  });

  it('lists providers with their images, labels and flavors', async () => {
    const tenant = await tenantQuery<{ providers: unknown[] }>(
      'providers { name canonicalName section images { name type buildArtifacts { uuid } } labels { name canonicalName } flavors { name canonicalName } }',
    );
    expect(tenant.providers).toEqual([
      {
        name: 'aws-main',
        canonicalName: 'review.example.com%2Flauncher-config/aws-main',
        section: 'main-section',
        images: [
          { name: 'debian', type: 'CLOUD', buildArtifacts: [] },
          { name: 'debian-local', type: 'ZUUL', buildArtifacts: [{ uuid: 'a1' }] },
        ],
        labels: [{ name: 'debian-normal', canonicalName: 'review.example.com%2Flauncher-config/debian-normal' }],
        flavors: [{ name: 'normal', canonicalName: 'review.example.com%2Flauncher-config/normal' }],
      },
    ]);
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
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(body).not.toContain(SECRET_VALUE);
      expect(body).not.toContain(secretCiphertext);
      expect(body).not.toContain('pkcs1');
      expect(body).not.toContain('encrypted');
    }
  });
});

describe('secret values', () => {
  it('are masked in GraphQL (HTTP and WebSocket) and REST responses, errors included', async () => {
    // A careless job puts the secret's value into its variables in clear text.
    await pushToCommonConfig('Add a careless job', (work) => {
      writeFileSync(
        path.join(work, 'zuul.d', '70-leaky.yaml'),
        `- job:\n    name: leaky\n    vars:\n      token: ${SECRET_VALUE}\n      note: before ${SECRET_VALUE} after\n`,
      );
    });
    await layoutManager().reconfigure(['acme']);
    expect(layoutManager().secretRedactor().active).toBe(true);
    const selection = 'job(name: "leaky") { ... on Job { variants { variables } } }';
    const http = await tenantQuery<{ job: { variants: Array<{ variables: unknown }> } }>(selection);
    expect(http.job.variants[0].variables).toEqual({ token: REDACTED, note: `before ${REDACTED} after` });

    const rest = await fetch(`${server.url}/api/tenant/acme/job/leaky`);
    const restText = await rest.text();
    expect(rest.status).toBe(200);
    expect(restText).toContain(REDACTED);
    expect(restText).not.toContain(SECRET_VALUE);

    const client = createClient({
      url: `${server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const ws = await new Promise<unknown>((resolve, reject) => {
        client.subscribe(
          { query: `{ tenant(name: "acme") { ... on Tenant { ${selection} } } }` },
          { next: (value) => resolve(value), error: reject, complete: () => undefined },
        );
      });
      expect(JSON.stringify(ws)).toContain(REDACTED);
      expect(JSON.stringify(ws)).not.toContain(SECRET_VALUE);
    } finally {
      await client.dispose();
    }

    // Error messages too (here graphql-js merely echoes a bad variable value back).
    const coerced = await query('query Q($flag: Boolean!) { __typename @include(if: $flag) }', { flag: SECRET_VALUE });
    expect(coerced.errors?.[0].message).toContain(`got invalid value "${REDACTED}"`);
    expect(JSON.stringify(coerced)).not.toContain(SECRET_VALUE);
  });
});

describe('reconfiguration', () => {
  it('serves the new layout once the LayoutManager reloads the tenant', async () => {
    await pushToCommonConfig('Add a post pipeline', (work) => {
      writeFileSync(
        path.join(work, 'zuul.d', '60-post.yaml'),
        '- pipeline:\n    name: post\n    manager: supercedent\n    trigger:\n      gerrit:\n        - event: ref-updated\n',
      );
    });
    await layoutManager().reconfigure(['acme']);
    const acmePipelines = await tenantQuery<{ pipelines: { name: string; manager: string }[] }>(
      'pipelines { name manager }',
    );
    expect(acmePipelines.pipelines).toEqual([
      { name: 'check', manager: 'INDEPENDENT' },
      { name: 'gate', manager: 'DEPENDENT' },
      { name: 'periodic', manager: 'INDEPENDENT' },
      { name: 'post', manager: 'SUPERCEDENT' },
    ]);
    // Only acme was reloaded; the other tenant keeps its layout until its own reconfiguration.
    const other = await tenantQuery<{ pipelines: { name: string }[] }>('pipelines { name }', undefined, 'other');
    expect(other.pipelines.map((p) => p.name)).toEqual(['check', 'gate', 'periodic']);
  });
});
