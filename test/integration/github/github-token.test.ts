/**
 * A GitHub connection with a personal token (`apiToken`) instead of a GitHub App, through the
 * real server and the fake GitHub (docs/github.md#the-connection): every API call carries the
 * token, repositories are cloned with it, no App endpoint is called, and a pull request opened
 * gets its commit statuses (no check run: GitHub lets only Apps write them).
 */
import {
  appFiles,
  GITHUB_PIPELINES,
  lastStatus,
  startGitHubTenant,
  tenantYaml,
  until,
  type GitHubTenant,
} from '../../helpers/github-tenant';

jest.setTimeout(240_000);

const TOKEN = 'ghp_personal_token_of_the_sluice_user';

describe('GitHub connection with a personal token', () => {
  let env: GitHubTenant;

  beforeAll(async () => {
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': GITHUB_PIPELINES }, 'org/app': appFiles() },
      tenantFile: tenantYaml('org/config', ['org/app']),
      personalToken: TOKEN,
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('reports statuses on an opened pull request, authenticated by the token only', async () => {
    const { hub } = env;
    const pull = await hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    expect(hub.deliveries.at(-1)?.status).toBe(200);
    await until(
      'the success status',
      () => lastStatus(hub, 'org/app', pull.headSha, 'acme/check')?.state === 'success',
    );
    // GitHub lets only Apps write check runs: the `check` reporter is skipped, not sent and refused.
    expect(hub.repo('org/app').checkRuns).toEqual([]);
    expect(hub.requests.filter((r) => r.path.includes('/check-runs') && r.method !== 'GET')).toEqual([]);
    const states = (hub.repo('org/app').statuses.get(pull.headSha) ?? []).filter((s) => s.context === 'acme/check');
    expect(states.map((s) => s.state)).toEqual(['pending', 'success']);

    // Every API call carried the personal token; none went to the App endpoints.
    expect(hub.requests.length).toBeGreaterThan(0);
    expect(hub.requests.filter((r) => r.token !== TOKEN)).toEqual([]);
    expect(hub.requests.filter((r) => /\/installation|\/access_tokens/.test(r.path))).toEqual([]);
    expect(hub.requests.filter((r) => r.status === 401)).toEqual([]);
    // The configuration and the job's workspace were cloned with it.
    const cloned = new Set(hub.gitAccess.map((a) => a.path.split('/').slice(1, 3).join('/')));
    expect(cloned).toEqual(new Set(['org/config', 'org/app']));
    expect(hub.gitAccess.every((a) => a.token === TOKEN && a.installationId === null)).toBe(true);
  });

  it('lists the connection in /api/connections with the reference keys of each shape', async () => {
    const { hub, server } = env;
    const listed = async (shape: string) =>
      (await fetch(`${server.url}/api/connections`, { headers: { 'X-Sluice-Api-Shape': shape } })).json();
    const host = new URL(hub.url).host;
    const entry = {
      name: 'github',
      driver: 'github',
      baseurl: `${hub.url}/api/v3`,
      canonical_hostname: host,
      server: host,
    };
    expect(await listed('current')).toEqual([{ ...entry, repo_cache: null }]);
    expect(await listed('earlier')).toEqual([entry]);
  });
});
