/**
 * The configuration cases of docs/rest.md#current-shape-cases that need their own fixture, over REST through a real
 * server loading a tenant file over real git repositories: the tenant list after reconfigurations
 * (#3), particular job variants (#20 required projects, #21 nodeset alternatives, #22 all four
 * playbook phases, #24 secrets and their freeze-job redaction), label restrictions (#30) and
 * global semaphores with holders in several tenants (#34); earlier-shape checks where docs/rest.md#job-variants,
 * docs/rest.md#earlier-shape-cases say that shape differs.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RestShape } from '../../rest-compat/shape';
import { defaultServiceConfig } from '../../src/config/service';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { SemaphoreRepository } from '../../src/store/repositories/semaphores';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createGitFixture, type GitFixture } from '../helpers/git-fixtures';
import { launcherLayout, TestLayouts } from '../helpers/launcher-layout';
import { startTestServer, type TestServer } from '../helpers/server';

type Json = Record<string, unknown>;

interface Setup {
  git: GitFixture;
  server: TestServer;
  tenantFile: string;
}

async function startServer(projects: Record<string, Record<string, string>>, tenantFileText: string): Promise<Setup> {
  const git = createGitFixture();
  for (const [project, files] of Object.entries(projects)) {
    await git.createProject(project, files);
  }
  const tenantFile = path.join(git.root, 'main.yaml');
  writeFileSync(tenantFile, tenantFileText);
  const server = await startTestServer({
    config: {
      tenantConfig: tenantFile,
      connections: {
        gerrit: { driver: 'git', baseurl: git.baseDir, pollInterval: 3600, canonicalHostname: 'review.example.com' },
      },
    },
  });
  return { git, server, tenantFile };
}

async function stopServer(setup: Setup | undefined): Promise<void> {
  await setup?.server.stop();
  setup?.git.cleanup();
}

async function getJson<T = unknown>(server: { url: string }, route: string, shape: RestShape = 'current'): Promise<T> {
  const res = await fetch(`${server.url}/api/${route}`, { headers: { 'X-Sluice-Api-Shape': shape } });
  const text = await res.text();
  // The body is part of the comparison so that a wrong status shows what the server said.
  expect({ status: res.status, text }).toEqual({ status: 200, text: res.status === 200 ? text : '(a body)' });
  return JSON.parse(text) as T;
}

const tenant = (name: string, configProjects: string[], untrustedProjects: string[] = [], extra = ''): string => `
- tenant:
    name: ${name}${extra}
    source:
      gerrit:
        config-projects: [${configProjects.join(', ')}]
        untrusted-projects: [${untrustedProjects.join(', ')}]
`;

/** Pipelines and the base job every tenant of this file shares. */
const COMMON_CONFIG = `
- pipeline:
    name: check
    manager: independent
    post-review: true
    trigger: {}

- job:
    name: base
    parent: null
    run: playbooks/base.yaml

- semaphore:
    name: common-semaphore
    max: 10
`;

describe('tenant list after reconfigurations (case 3)', () => {
  let setup: Setup;
  const tenants = (names: string[]) => names.map((name) => tenant(name, ['common-config'])).join('');

  beforeAll(async () => {
    setup = await startServer(
      { 'common-config': { 'zuul.yaml': COMMON_CONFIG } },
      tenants(['tenant-one', 'tenant-two', 'tenant-three']),
    );
  }, 120_000);

  afterAll(() => stopServer(setup));

  it('lists the tenants sorted by name, and follows additions and removals', async () => {
    expect(await getJson(setup.server, 'tenants')).toEqual([
      { name: 'tenant-one' },
      { name: 'tenant-three' },
      { name: 'tenant-two' },
    ]);
    writeFileSync(setup.tenantFile, tenants(['tenant-one', 'tenant-two', 'tenant-four']));
    await setup.server.app.layoutManager?.reconfigure();
    expect(await getJson(setup.server, 'tenants')).toEqual([
      { name: 'tenant-four' },
      { name: 'tenant-one' },
      { name: 'tenant-two' },
    ]);
    const res = await fetch(`${setup.server.url}/api/tenant/tenant-three/jobs`);
    expect(res.status).toBe(404);
  });

  it('earlier shape: tenant file order with project and queue counts (earlier case 3)', async () => {
    const earlier = await getJson<Json[]>(setup.server, 'tenants', 'earlier');
    expect(earlier).toEqual([
      { name: 'tenant-one', projects: 0, queue: 0 },
      { name: 'tenant-two', projects: 0, queue: 0 },
      { name: 'tenant-four', projects: 0, queue: 0 },
    ]);
  });
});

const TENANT_ONE_CONFIG = `
- nodeset:
    name: fast-nodeset
    nodes:
      - name: controller
        label: fast-label

- secret:
    name: project1_secret
    data:
      username: test-username

- job:
    name: test-job
    required-projects:
      - org/project

- job:
    name: complete-job
    pre-run: playbooks/pre-run.yaml
    run: playbooks/run.yaml
    post-run:
      - playbooks/post-run-01.yaml
      - playbooks/post-run-02.yaml
    cleanup-run: playbooks/cleanup-run.yaml

- job:
    name: project1-secret
    run: playbooks/secret.yaml
    secrets:
      - name: secret_name
        secret: project1_secret

- job:
    name: test-global-semaphore
    semaphores: global-semaphore

- job:
    name: nodeset-alternatives-job
    nodeset:
      alternatives:
        - fast-nodeset
        - nodes:
            - name: controller
              label: slow-label

- project:
    name: org/project1
    check:
      jobs:
        - project1-secret
        - test-global-semaphore
`;

const PROJECT1_CONFIG = `
- semaphore:
    name: project1-semaphore
    max: 11
`;

const SEMAPHORE_TENANTS = `
- global-semaphore:
    name: global-semaphore
    max: 100
${tenant('tenant-one', ['common-config', 'tenant-one-config'], ['org/project', 'org/project1'], '\n    semaphores: [global-semaphore]')}
${tenant('tenant-two', ['common-config'], [], '\n    semaphores: [global-semaphore]')}
`;

describe('job variants, secrets and semaphores (cases 20–22, 24, 34)', () => {
  let setup: Setup;
  let server: TestServer;

  beforeAll(async () => {
    setup = await startServer(
      {
        'common-config': { 'zuul.yaml': COMMON_CONFIG },
        'tenant-one-config': { 'zuul.yaml': TENANT_ONE_CONFIG },
        'org/project': { README: 'project\n' },
        'org/project1': { '.zuul.yaml': PROJECT1_CONFIG },
      },
      SEMAPHORE_TENANTS,
    );
    server = setup.server;
  }, 120_000);

  afterAll(() => stopServer(setup));

  it('has loaded with only the deprecation warning of cleanup-run', async () => {
    const errors = await getJson<Json[]>(server, 'tenant/tenant-one/config-errors');
    expect(errors.map((error) => [error.severity, error.name])).toEqual([['warning', 'Cleanup Run Deprecation']]);
  });

  it('#20: test-job has one variant, no nodeset key and its required project as written', async () => {
    const variants = await getJson<Json[]>(server, 'tenant/tenant-one/job/test-job');
    expect(variants).toHaveLength(1);
    expect(variants[0]).not.toHaveProperty('nodeset');
    expect(variants[0]).not.toHaveProperty('nodeset_alternatives');
    expect(variants[0].required_projects).toEqual([
      { override_branch: null, override_checkout: null, project_name: 'org/project' },
    ]);
    // docs/rest.md#earlier-shape-cases #7, docs/rest.md#job-variants: the earlier shape names the required project
    // canonically.
    const [earlier] = await getJson<Json[]>(server, 'tenant/tenant-one/job/test-job', 'earlier');
    expect(earlier.required_projects).toEqual([
      { override_branch: null, override_checkout: null, project_name: 'review.example.com/org/project' },
    ]);
  });

  it('#21: a nodeset with alternatives shows nodeset_alternatives (named, then anonymous) and no nodeset', async () => {
    const [variant] = await getJson<Json[]>(server, 'tenant/tenant-one/job/nodeset-alternatives-job');
    expect(variant).not.toHaveProperty('nodeset');
    const node = (name: string, label: string) => ({
      name,
      aliases: [],
      label,
      id: null,
      state: 'unknown',
      hold_job: null,
      comment: null,
      user_data: null,
      tenant_name: null,
      requestor: null,
    });
    expect(variant.nodeset_alternatives).toEqual([
      { name: 'fast-nodeset', nodes: [node('controller', 'fast-label')], groups: [], alternatives: [] },
      { name: '', nodes: [node('controller', 'slow-label')], groups: [], alternatives: [] },
    ]);
    // docs/rest.md#job-variants: the earlier shape had no alternatives.
    const [earlier] = await getJson<Json[]>(server, 'tenant/tenant-one/job/nodeset-alternatives-job', 'earlier');
    expect(earlier).not.toHaveProperty('nodeset_alternatives');
  });

  it('#22: complete-job lists its playbooks per phase, post-run in written order', async () => {
    const [variant] = await getJson<Json[]>(server, 'tenant/tenant-one/job/complete-job');
    const context = { project: 'tenant-one-config', branch: 'master', path: 'zuul.yaml' };
    // A job's own project is its implicit role, on the variant and on each of its scripts (docs/rest.md#job-variants).
    const roles = [
      {
        implicit: true,
        project_canonical_name: 'review.example.com/tenant-one-config',
        target_name: 'tenant-one-config',
        type: 'zuul',
      },
    ];
    expect(variant.roles).toEqual(roles);
    const play = (file: string) => ({
      path: file,
      roles,
      secrets: [],
      semaphores: [],
      cleanup: false,
      source_context: context,
    });
    expect(variant.pre_run).toEqual([play('playbooks/pre-run.yaml')]);
    expect(variant.run).toEqual([play('playbooks/run.yaml')]);
    expect(variant.post_run).toEqual([play('playbooks/post-run-01.yaml'), play('playbooks/post-run-02.yaml')]);
    expect(variant.cleanup_run).toEqual([play('playbooks/cleanup-run.yaml')]);
    // docs/rest.md#job-variants: earlier playbooks are {path, roles, secrets, source_context}; no cleanup_run.
    const [earlier] = await getJson<Json[]>(server, 'tenant/tenant-one/job/complete-job', 'earlier');
    const earlierPlay = (file: string) => ({ path: file, roles, secrets: [], source_context: context });
    expect(earlier.post_run).toEqual([
      earlierPlay('playbooks/post-run-01.yaml'),
      earlierPlay('playbooks/post-run-02.yaml'),
    ]);
    expect(earlier).not.toHaveProperty('cleanup_run');
  });

  it('#24: a run playbook names its secret and alias; freeze-job redacts both secrets and SSH keys', async () => {
    const [variant] = await getJson<Json[]>(server, 'tenant/tenant-one/job/project1-secret');
    expect((variant.run as Json[])[0].secrets).toEqual([{ name: 'project1_secret', alias: 'secret_name' }]);
    const [earlier] = await getJson<Json[]>(server, 'tenant/tenant-one/job/project1-secret', 'earlier');
    expect((earlier.run as Json[])[0].secrets).toEqual([{ name: 'project1_secret', alias: 'secret_name' }]);
    const frozen = await getJson<{ playbooks: Json[]; ssh_keys: string[] }>(
      server,
      'tenant/tenant-one/pipeline/check/project/org/project1/branch/master/freeze-job/project1-secret',
    );
    expect(frozen.playbooks[0].secrets).toEqual({ secret_name: 'REDACTED' });
    expect(frozen.ssh_keys[0]).toBe('REDACTED');
    expect(JSON.stringify(frozen)).not.toContain('test-username');
  });

  it('#34: tenant and global semaphores, global holders of other tenants only counted', async () => {
    const semaphores = new SemaphoreRepository(server.database.knex);
    const acquire = (
      holderTenant: string,
      buildsetUuid: string,
      jobName: string,
      claim: { name: string; max: number; global: boolean },
    ) =>
      server.database.knex.transaction((trx) =>
        semaphores.acquireAll(holderTenant, { buildsetUuid, jobName }, [claim], new Date(), trx),
      );
    const global = { name: 'global-semaphore', max: 100, global: true };
    expect(await acquire('tenant-one', 'a'.repeat(32), 'test-global-semaphore', global)).toEqual([]);
    expect(await acquire('tenant-two', 'b'.repeat(32), 'test-global-semaphore', global)).toEqual([]);
    // tenant-two's own common-semaphore is another semaphore than tenant-one's of the same name.
    expect(
      await acquire('tenant-two', 'c'.repeat(32), 'other-job', { name: 'common-semaphore', max: 10, global: false }),
    ).toEqual([]);
    const none = { count: 0, this_tenant: [], other_tenants: 0 };
    const expected = [
      { name: 'common-semaphore', global: false, max: 10, holders: none },
      {
        name: 'global-semaphore',
        global: true,
        max: 100,
        holders: {
          count: 2,
          this_tenant: [{ buildset_uuid: 'a'.repeat(32), job_name: 'test-global-semaphore' }],
          other_tenants: 1,
        },
      },
      { name: 'project1-semaphore', global: false, max: 11, holders: none },
    ];
    expect(await getJson(server, 'tenant/tenant-one/semaphores')).toEqual(expected);
    // No semaphore endpoint existed in 2019; the earlier shape serves the current records
    // (docs/rest.md#earlier-shape-endpoints).
    expect(await getJson(server, 'tenant/tenant-one/semaphores', 'earlier')).toEqual(expected);
    expect(await getJson(server, 'tenant/tenant-two/semaphores')).toEqual([
      {
        name: 'common-semaphore',
        global: false,
        max: 10,
        holders: {
          count: 1,
          this_tenant: [{ buildset_uuid: 'c'.repeat(32), job_name: 'other-job' }],
          other_tenants: 0,
        },
      },
      {
        name: 'global-semaphore',
        global: true,
        max: 100,
        holders: {
          count: 2,
          this_tenant: [{ buildset_uuid: 'b'.repeat(32), job_name: 'test-global-semaphore' }],
          other_tenants: 1,
        },
      },
    ]);
  });
});

describe('labels with per-tenant label restrictions (case 30)', () => {
  let database: TestDatabase;
  let app: SluiceApp;
  const LABELS = ['tenant-one-label', 'fake', 'label1', 'tenant-two-label'];

  /** A tenant whose layout defines LABELS (config order), with the given restrictions. */
  function restricted(tenant: string, restrictions: { allowedLabels?: string[]; disallowedLabels?: string[] }) {
    const layout = launcherLayout({
      tenant,
      images: [{ name: 'debian', type: 'cloud' }],
      flavors: ['normal'],
      labels: LABELS.map((name) => ({ name, image: 'debian', flavor: 'normal' })),
    });
    return { ...layout, tenant: { ...layout.tenant, ...restrictions } };
  }

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    const layouts = new TestLayouts(
      restricted('tenant-one', { allowedLabels: ['tenant-one-.*', 'fake'] }),
      restricted('tenant-two', { disallowedLabels: ['tenant-one-.*'] }),
    );
    app = buildApp({ config: defaultServiceConfig(process.cwd()), database, logger: silentLogger(), tenants: layouts });
    await app.start(0, '127.0.0.1');
  }, 120_000);

  afterAll(async () => {
    await app.stop();
    await database.destroy();
  });

  // The reference filters only the legacy Nodepool labels that registered launchers advertise;
  // Sluice has no legacy Nodepool, so that part of the list is always empty and the restrictions
  // leave the layout's labels (listed in config order) as they are.
  it('lists the layout labels in config order, not filtered by allowed-labels or disallowed-labels', async () => {
    for (const tenant of ['tenant-one', 'tenant-two']) {
      const labels = await getJson<Json[]>({ url: app.url() }, `tenant/${tenant}/labels`);
      expect(labels).toEqual(
        LABELS.map((name) => ({ name, canonical_name: `git.example.com%2Forg%2Fconfig/${name}`, description: null })),
      );
    }
  });

  it('earlier shape: label names sorted', async () => {
    expect(await getJson({ url: app.url() }, 'tenant/tenant-one/labels', 'earlier')).toEqual(
      ['fake', 'label1', 'tenant-one-label', 'tenant-two-label'].map((name) => ({ name })),
    );
  });
});
