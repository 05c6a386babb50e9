/**
 * A realistic two-tenant site (test/fixtures/config/shared-jobs) loads clean through the real
 * server (docs/project-configuration.md#the-tenant-file, docs/project-configuration.md#projects-and-templates):
 * a job repository shared by tenants with different pipelines, a Pagure project whose name starts
 * with its connection's hostname, a GitHub project, a provider using another project's section,
 * single-mapping nodes, and the tenant-file options of current reference releases. GraphQL and
 * REST list no config error, only the reference's warnings; the shared templates act in both.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildFixtureRepos, type FixtureRepos } from '../../helpers/config-fixtures';
import { startTestServer, type TestServer } from '../../helpers/server';
import { FakeGitHub } from '../../helpers/fake-github/server';
import type { FileMap } from '../../helpers/fake-github/repos';
import { tenantFixture, type TenantFixture } from '../../helpers/tenant-fixture';

const FIXTURE = path.join(__dirname, '../../fixtures/config/shared-jobs');
const TOKEN = 'ghp_shared_jobs_token';

// git clones and a fake GitHub on a loaded machine.
jest.setTimeout(120_000);

let fixture: TenantFixture;
let pagure: FixtureRepos;
let hub: FakeGitHub;
let server: TestServer;

/** Every file under `dir`, keyed by its path relative to `dir`. */
function filesOf(dir: string, prefix = ''): FileMap {
  const files: FileMap = {};
  for (const entry of readdirSync(path.join(dir, prefix))) {
    const relative = prefix === '' ? entry : `${prefix}/${entry}`;
    if (statSync(path.join(dir, relative)).isDirectory()) {
      Object.assign(files, filesOf(dir, relative));
    } else {
      files[relative] = readFileSync(path.join(dir, relative), 'utf8');
    }
  }
  return files;
}

beforeAll(async () => {
  fixture = await tenantFixture(FIXTURE);
  pagure = await buildFixtureRepos(path.join(FIXTURE, 'pagure'), { hostname: 'pagure' });
  hub = new FakeGitHub({ personalToken: TOKEN });
  await hub.start();
  await hub.createRepo('acme/widget', filesOf(path.join(FIXTURE, 'github/acme/widget')));
  server = await startTestServer({
    config: {
      ...fixture.config,
      connections: {
        ...fixture.config.connections,
        pagure: { driver: 'git', baseurl: pagure.baseDir, pollInterval: 3600, canonicalHostname: 'pagure' },
        github: {
          driver: 'github',
          server: hub.url,
          apiToken: TOKEN,
          webhookToken: 'webhook-secret',
          requestTimeout: 30,
          rateLimitMaxWait: 900,
        },
        'local-nodes': { driver: 'local' },
      },
    },
  });
});

afterAll(async () => {
  await server?.stop();
  await hub?.stop();
  pagure?.cleanup();
  fixture?.cleanup();
});

interface ErrorNode {
  severity: string;
  name: string;
  shortError: string;
  sourceContext: { project: string; branch: string; path: string } | null;
}

async function configErrors(tenant: string, severity: 'ERROR' | 'WARNING'): Promise<ErrorNode[]> {
  const body = (await server.graphql(
    /* GraphQL */ `
      query Q($tenant: String!, $filter: ConfigErrorFilter) {
        tenant(name: $tenant) {
          __typename
          ... on Tenant {
            configErrors(filter: $filter, first: 100) {
              nodes {
                severity
                name
                shortError
                sourceContext {
                  project
                  branch
                  path
                }
              }
            }
          }
        }
      }
    `,
    { tenant, filter: { severity } },
  )) as { data?: { tenant: { __typename: string; configErrors: { nodes: ErrorNode[] } } }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  expect(body.data?.tenant.__typename).toBe('Tenant');
  return body.data?.tenant.configErrors.nodes ?? [];
}

async function rest<T>(route: string): Promise<T> {
  const res = await fetch(`${server.url}/api/${route}`);
  const text = await res.text();
  expect({ route, status: res.status }).toEqual({ route, status: 200 });
  return JSON.parse(text) as T;
}

const where = (e: ErrorNode) => `${e.name} ${e.sourceContext?.project ?? '-'} ${e.sourceContext?.path ?? '-'}`;

describe('a job repository shared by tenants with different pipelines', () => {
  it('loads both tenants without a config error, over GraphQL and REST', async () => {
    expect(await configErrors('alpha', 'ERROR')).toEqual([]);
    expect(await configErrors('beta', 'ERROR')).toEqual([]);
    expect(await rest<unknown[]>('tenant/alpha/config-errors?severity=error')).toEqual([]);
    expect(await rest<unknown[]>('tenant/beta/config-errors?severity=error')).toEqual([]);
    const tenants = await rest<Array<{ name: string }>>('tenants');
    expect(tenants.map((t) => t.name).sort()).toEqual(['alpha', 'beta']);
  });

  it("lists the reference's warnings, and only them", async () => {
    // In layout order: pragmas are read with their files, before any object.
    expect((await configErrors('alpha', 'WARNING')).map(where)).toEqual([
      'Regex Deprecation zuul-jobs zuul.d/jobs.yaml',
      'Regex Deprecation alpha-config zuul.d/pipelines.yaml',
      'Cleanup Run Deprecation alpha-config zuul.d/jobs.yaml',
    ]);
    expect((await configErrors('beta', 'WARNING')).map(where)).toEqual([
      'Regex Deprecation zuul-jobs zuul.d/jobs.yaml',
      'Github require-status Deprecation beta-config zuul.yaml',
      'Github Trigger Configuration Warning beta-config zuul.yaml',
    ]);
    const restWarnings = await rest<Array<{ name: string; severity: string }>>('tenant/beta/config-errors');
    expect(restWarnings.map((e) => [e.severity, e.name])).toEqual([
      ['warning', 'Regex Deprecation'],
      ['warning', 'Github require-status Deprecation'],
      ['warning', 'Github Trigger Configuration Warning'],
    ]);
  });

  it('runs the shared templates in each tenant, and the pipelines only one tenant has in it alone', async () => {
    const jobs = async (tenant: string, pipeline: string, project: string) =>
      (
        await rest<Array<{ name: string }>>(
          `tenant/${tenant}/pipeline/${pipeline}/project/${project}/branch/master/freeze-jobs`,
        )
      ).map((j) => j.name);
    expect(await jobs('alpha', 'check', 'org/lib')).toEqual(['tox-py312', 'tox-linters']);
    expect(await jobs('beta', 'check', 'org/lib')).toEqual(['tox-py312', 'tox-linters']);
    expect(await jobs('alpha', 'experimental', 'org/lib')).toEqual(['tox-py314', 'tox-py312']);
    expect(await jobs('alpha', 'post', 'zuul-jobs')).toEqual(['docs-publish']);
    expect(await jobs('beta', 'gate', 'zuul-jobs')).toEqual(['tox-py312', 'tox-linters']);
    const missing = await fetch(
      `${server.url}/api/tenant/beta/pipeline/experimental/project/org/lib/branch/master/freeze-jobs`,
    );
    expect(missing.status).toBe(404);
  });

  it('keeps a project whose name starts with its connection hostname as written', async () => {
    const projects =
      await rest<Array<{ name: string; canonical_name: string; connection_name: string }>>('tenant/alpha/projects');
    expect(projects.find((p) => p.connection_name === 'pagure')).toEqual({
      name: 'pagure/project2',
      canonical_name: 'pagure/pagure/project2',
      connection_name: 'pagure',
      type: 'untrusted',
    });
    const checkJobs = await rest<Array<{ name: string }>>(
      'tenant/alpha/pipeline/check/project/pagure/project2/branch/master/freeze-jobs',
    );
    expect(checkJobs.map((j) => j.name)).toEqual(['tox-py312', 'project2-integration']);
  });

  it("loads launcher objects of config projects and a provider using another project's section", async () => {
    const providers = await rest<Array<{ name: string; labels: Array<{ name: string }> }>>('tenant/alpha/providers');
    expect(providers.map((p) => [p.name, p.labels.map((l) => l.name)])).toEqual([['local-cloud', ['ubuntu-noble']]]);
  });

  it('loads the GitHub project of beta with the shared template', async () => {
    const body = (await server.graphql(/* GraphQL */ `
      {
        tenant(name: "beta") {
          ... on Tenant {
            projects {
              name
              connectionName
            }
          }
        }
      }
    `)) as { data: { tenant: { projects: Array<{ name: string; connectionName: string }> } } };
    expect(body.data.tenant.projects).toContainEqual({ name: 'acme/widget', connectionName: 'github' });
    const jobs = await rest<Array<{ name: string }>>(
      'tenant/beta/pipeline/check/project/acme/widget/branch/main/freeze-jobs',
    );
    expect(jobs.map((j) => j.name)).toEqual(['tox-py312', 'tox-linters', 'widget-unit']);
  });
});
