/**
 * `exclude-unprotected-branches` on GitLab projects through the real server and the fake GitLab
 * (docs/gitlab.md#protected-branches): with the tenant's setting, a project's unprotected branch
 * is not loaded (its job is unknown) while a protected one is, and merge requests to it trigger
 * nothing; a project that says `false` itself loads every branch; a branch protected later joins
 * the tenant on the next poll, or at once when an event of the branch finds its protection
 * changed (one unprotected since leaves the same way).
 */
import { until } from '../../helpers/github-tenant';
import {
  GITLAB_APP,
  GITLAB_PIPELINES,
  gitlabTenantFile,
  startGitLabTenant,
  type GitLabTenant,
} from '../../helpers/gitlab-tenant';

jest.setTimeout(240_000);

const TENANT = gitlabTenantFile(['- org/app', '- org/open:', '    exclude-unprotected-branches: false'], {
  options: ['exclude-unprotected-branches: true'],
});

const jobOf = (name: string) => ({ '.zuul.yaml': `- job:\n    name: ${name}\n    run: unit.sh\n` });

describe('GitLab exclude-unprotected-branches', () => {
  let env: GitLabTenant;

  beforeAll(async () => {
    env = await startGitLabTenant({
      projects: {
        'org/config': { 'zuul.yaml': GITLAB_PIPELINES },
        'org/app': GITLAB_APP,
        'org/open': { 'README.md': 'open\n' },
      },
      tenantFile: TENANT,
      prepare: async (lab) => {
        await lab.createBranch('org/app', 'stable', jobOf('stable-job'), true);
        await lab.createBranch('org/app', 'wip', jobOf('wip-job'));
        await lab.createBranch('org/open', 'wip', jobOf('open-wip-job'));
      },
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const branches = (project: string) =>
    env.server.app.layoutManager?.layout('acme')?.projects.get(`gitlab.example.com/${project}`)?.branches;
  const jobs = async () =>
    ((await (await fetch(`${env.server.url}/api/tenant/acme/jobs`)).json()) as Array<{ name: string }>).map(
      (j) => j.name,
    );

  it("loads a project's protected branches only, and every branch of a project that says false", async () => {
    expect(branches('org/app')).toEqual(['main', 'stable']);
    expect(branches('org/open')).toEqual(['main', 'wip']);
    const names = await jobs();
    expect(names).toEqual(expect.arrayContaining(['unit', 'stable-job', 'open-wip-job']));
    expect(names).not.toContain('wip-job');
    expect(
      env.lab.requests.some((r) => r.method === 'GET' && r.path === '/api/v4/projects/org%2Fapp/repository/branches'),
    ).toBe(true);
  });

  it('triggers nothing for a merge request to an unprotected branch', async () => {
    const { lab, server } = env;
    const mr = await lab.openMergeRequest('org/app', {
      title: 'On wip',
      files: { 'w.txt': 'w\n' },
      targetBranch: 'wip',
    });
    const delivery = lab.deliveries.at(-1);
    await server.app.roles?.connectionEvents.idle();
    const stored = await server.database.knex('connection_events').where({ delivery: delivery?.uuid }).first();
    expect(stored.outcome).toBe('submitted 0; acme: wip is not protected');
    // One to a protected branch is checked.
    const main = await lab.openMergeRequest('org/app', { title: 'On main', files: { 'm.txt': 'm\n' } });
    await until('the verified label', () => main.labels.includes('verified'));
    expect(mr.notes).toEqual([]);
  });

  it('adds a branch protected since the load on the next poll', async () => {
    const { lab, server } = env;
    const manager = server.app.layoutManager;
    const before = manager?.layout('acme')?.uuid;
    await manager?.pollOnce();
    expect(manager?.layout('acme')?.uuid).toBe(before);
    lab.project('org/app').protectedBranches.add('wip');
    await manager?.pollOnce();
    expect(manager?.layout('acme')?.uuid).not.toBe(before);
    expect(branches('org/app')).toEqual(['main', 'stable', 'wip']);
    expect(await jobs()).toContain('wip-job');
  });

  it("reloads the tenant when an event's branch was protected or unprotected since the load", async () => {
    const { lab, server } = env;
    const outcomeOf = async (uuid: string | undefined) => {
      await server.app.roles?.connectionEvents.idle();
      return (await server.database.knex('connection_events').where({ delivery: uuid }).first()).outcome;
    };
    lab.project('org/app').protectedBranches.delete('stable');
    await lab.openMergeRequest('org/app', { title: 'To stable', files: { 's.txt': 's\n' }, targetBranch: 'stable' });
    expect(await outcomeOf(lab.deliveries.at(-1)?.uuid)).toBe(
      'submitted 0; acme: stable is unprotected now, reloading',
    );
    await until('stable left', () => branches('org/app')?.includes('stable') === false);
    lab.project('org/app').protectedBranches.add('stable');
    await lab.openMergeRequest('org/app', { title: 'Again', files: { 'a.txt': 'a\n' }, targetBranch: 'stable' });
    expect(await outcomeOf(lab.deliveries.at(-1)?.uuid)).toBe('submitted 0; acme: stable is protected now, reloading');
    await until('stable back', () => branches('org/app')?.includes('stable'));
    // Now loaded, its merge requests' events are the tenant's.
    await lab.openMergeRequest('org/app', { title: 'Third', files: { 't.txt': 't\n' }, targetBranch: 'stable' });
    expect(await outcomeOf(lab.deliveries.at(-1)?.uuid)).toBe('submitted 1');
  });
});
