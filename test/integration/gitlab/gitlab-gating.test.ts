/**
 * The GitLab driver through the real server and the fake GitLab (docs/gitlab.md): an opened
 * merge request runs `check` and is labelled; an approval brings it into `gate`, which merges it
 * through the API, and the merge's push runs `post`; a failing merge request gets a failure
 * note and is not merged; a delivery with a wrong token is refused and nothing is stored; a
 * repeated delivery is stored once.
 */
import { until } from '../../helpers/github-tenant';
import {
  GITLAB_APP,
  GITLAB_PIPELINES,
  GITLAB_TENANT,
  startGitLabTenant,
  type GitLabTenant,
} from '../../helpers/gitlab-tenant';

jest.setTimeout(240_000);

describe('GitLab driver end to end', () => {
  let env: GitLabTenant;

  beforeAll(async () => {
    env = await startGitLabTenant({
      projects: { 'org/config': { 'zuul.yaml': GITLAB_PIPELINES }, 'org/app': GITLAB_APP },
      tenantFile: GITLAB_TENANT,
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const builds = async (job: string, result: string) =>
    Number(Object.values((await env.server.database.knex('builds').where({ job_name: job, result }).count())[0])[0]);

  it('checks an opened merge request and labels it', async () => {
    const { lab } = env;
    const mr = await lab.openMergeRequest('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    expect(lab.deliveries.at(-1)?.status).toBe(200);
    await until('the verified label', () => mr.labels.includes('verified'));
    expect(mr.state).toBe('opened');
    expect(await builds('unit', 'SUCCESS')).toBe(1);
    // The start reporter says `comment: false`; the success one comments (the default) and labels.
    expect(mr.notes).toHaveLength(1);
    expect(mr.notes[0]).toMatch(/^Build succeeded\.[\s\S]*unit .*: SUCCESS/);
  });

  it('gates an approved merge request, merges it through the API, and runs post on the push', async () => {
    const { lab } = env;
    const mr = lab.mr('org/app', 1);
    const before = await lab.branchSha('org/app', 'main');
    await lab.approve('org/app', 1, 'reviewer');
    await until('merge', () => mr.state === 'merged');
    const merge = lab.requests.find((r) => r.method === 'PUT' && r.path.endsWith('/merge_requests/1/merge'));
    expect(merge?.body).toMatchObject({ sha: mr.headSha, squash: false });
    const after = await lab.branchSha('org/app', 'main');
    expect(after).not.toBe(before);
    expect(after).toBe(mr.mergeCommitSha);
    await until('the post build', async () => (await builds('publish', 'SUCCESS')) > 0);
  });

  it('notes a failing merge request in gate and does not merge it', async () => {
    const { lab } = env;
    const mr = await lab.openMergeRequest('org/app', { title: 'Break it', files: { FAIL: 'yes\n' } });
    await until('check failure', async () => (await builds('unit', 'FAILURE')) > 0);
    await lab.approve('org/app', mr.iid, 'reviewer');
    await until('the failure note', () => mr.notes.some((note) => /unit.*FAILURE/s.test(note)));
    expect(mr.state).toBe('opened');
    expect(lab.requests.some((r) => r.method === 'PUT' && r.path.endsWith(`/merge_requests/${mr.iid}/merge`))).toBe(
      false,
    );
  });

  it('refuses a delivery with a wrong token and stores a repeated one once', async () => {
    const { lab } = env;
    const knex = env.server.database.knex;
    const count = async () => Number(Object.values((await knex('connection_events').count())[0])[0]);
    const stored = await count();
    const payload = {
      object_kind: 'push',
      ref: 'refs/heads/other',
      before: '0'.repeat(40),
      after: 'a'.repeat(40),
      project: { path_with_namespace: 'org/unknown' },
    };
    const refused = await lab.send('Push Hook', payload, { token: 'wrong' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'InvalidToken' });
    expect(await count()).toBe(stored);
    const first = await lab.send('Push Hook', payload);
    const again = await lab.send('Push Hook', payload, { uuid: first.uuid });
    expect(JSON.parse(first.body)).toMatchObject({ status: 'stored' });
    expect(JSON.parse(again.body)).toMatchObject({ status: 'duplicate delivery' });
    expect(await count()).toBe(stored + 1);
    const bad = await lab.send('Merge Request Hook', { object_kind: 'merge_request', project: {} });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).description).toMatch(/merge_request payload's project.path_with_namespace/);
  });

  it('lists the connection in /api/connections by name and driver only, as the reference does', async () => {
    const res = await fetch(`${env.server.url}/api/connections`);
    expect(await res.json()).toEqual([{ name: 'gitlab', driver: 'gitlab' }]);
  });
});
