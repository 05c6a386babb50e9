/**
 * Check run ids survive a restart (docs/github.md#reporters), through the real server and the
 * fake GitHub: `check` reports a check run at start (in progress) and at the end; after the
 * server is stopped and a new one started on the same database, a `recheck` of the same commit
 * updates that check run and creates none.
 */
import {
  appFiles,
  GITHUB_PIPELINES,
  startGitHubTenant,
  tenantYaml,
  until,
  type GitHubTenant,
} from '../../helpers/github-tenant';

jest.setTimeout(240_000);

/** `check` also on a `recheck` comment, and with a check run from its start. */
const PIPELINES = GITHUB_PIPELINES.replace(
  '          action: [opened, changed, reopened]\n',
  '          action: [opened, changed, reopened]\n' +
    '        - event: pull_request\n          action: comment\n          comment: (?i)^\\s*recheck\\s*$\n',
).replace(
  '    start:\n      github:\n        status: pending\n',
  '    start:\n      github:\n        status: pending\n        check: in_progress\n',
);

describe('GitHub check runs across a restart', () => {
  let env: GitHubTenant;

  beforeAll(async () => {
    expect(PIPELINES).toContain('check: in_progress');
    expect(PIPELINES).toContain('recheck');
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': appFiles() },
      tenantFile: tenantYaml('org/config', ['org/app']),
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('updates the check run of the previous server instead of creating a second one', async () => {
    const { hub } = env;
    const pull = await hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const runs = () => hub.repo('org/app').checkRuns.filter((r) => r.headSha === pull.headSha);
    const successes = () =>
      (hub.repo('org/app').statuses.get(pull.headSha) ?? []).filter(
        (s) => s.context === 'acme/check' && s.state === 'success',
      ).length;
    // The check run is reported after the status, in the same phase.
    const completedPatches = (from: number) =>
      hub.requests
        .slice(from)
        .filter((r) => r.method === 'PATCH' && (r.body as { status?: string }).status === 'completed').length;
    await until('the first result', () => successes() === 1 && completedPatches(0) === 1);
    expect(runs()).toMatchObject([{ name: 'acme/check', status: 'completed', conclusion: 'success' }]);
    const id = runs()[0].id;

    await env.restart();
    const since = hub.requests.length;
    await hub.comment('org/app', pull.number, 'developer', 'recheck');
    await until('the second result', () => successes() === 2 && completedPatches(since) === 1);

    expect(runs()).toHaveLength(1);
    expect(runs()[0]).toMatchObject({ id, status: 'completed', conclusion: 'success' });
    const calls = hub.requests.slice(since).filter((r) => r.path.includes('/check-runs'));
    // The new server's start (in progress) and success reports both updated the old run.
    expect(calls.filter((r) => r.method === 'POST')).toEqual([]);
    expect(
      calls.filter((r) => r.method === 'PATCH').map((r) => [r.path, (r.body as { status: string }).status]),
    ).toEqual([
      [`/repos/org/app/check-runs/${id}`, 'in_progress'],
      [`/repos/org/app/check-runs/${id}`, 'completed'],
    ]);
  });
});
