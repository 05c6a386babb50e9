/**
 * GitLab merge requests in `gate` (docs/gitlab.md): a project that allows a merge only after a successful pipeline gets the merge asked "when the pipeline succeeds"
 * (`auto_merge`), which GitLab does once its pipeline succeeds, and a failed pipeline is the
 * item's merge failure; an approval taken back (`unapproved`) takes the item out of `gate`, noted
 * with the requirement it no longer meets, and the merge request is not merged.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { itemsIn } from '../../helpers/gerrit-tenant';
import { until } from '../../helpers/github-tenant';
import {
  GITLAB_APP,
  GITLAB_PIPELINES,
  GITLAB_TENANT,
  startGitLabTenant,
  type GitLabTenant,
} from '../../helpers/gitlab-tenant';

jest.setTimeout(300_000);

describe('GitLab merge requests in gate', () => {
  let env: GitLabTenant;
  let scratch: string;
  // The driver reads a merge request GitLab merges later every 5 s: the test moves that clock on.
  const timers = new FakeTimerClock();
  const mergeRequestRead = () => timers.advance(5000);

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-gitlab-holds-'));
    env = await startGitLabTenant({
      projects: { 'org/config': { 'zuul.yaml': GITLAB_PIPELINES }, 'org/app': GITLAB_APP },
      tenantFile: GITLAB_TENANT,
      timers,
    });
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const eventually = async (what: string, probe: () => Promise<boolean>) => {
    const deadline = Date.now() + 120_000;
    while (!(await probe())) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const gateBuildsets = async (result: string) =>
    Number(
      Object.values((await env.server.database.knex('buildsets').where({ pipeline: 'gate', result }).count())[0])[0],
    );

  it('merges when the pipeline succeeds where the project requires it, and fails the item when it fails', async () => {
    const { lab } = env;
    lab.project('org/app').pipelineRequired = true;
    const good = await lab.openMergeRequest('org/app', { title: 'Waits for the pipeline', files: { 'g.txt': 'g\n' } });
    await lab.approve('org/app', good.iid, 'reviewer');
    await until('the auto-merge asked', () => good.autoMerge);
    const asked = lab.requests.filter(
      (r) => r.method === 'PUT' && r.path.endsWith(`/merge_requests/${good.iid}/merge`),
    );
    expect(asked.at(-1)?.body).toMatchObject({
      sha: good.headSha,
      auto_merge: true,
      merge_when_pipeline_succeeds: true,
    });
    await lab.finishPipeline('org/app', good.iid, 'success');
    await until('merged', () => good.state === 'merged');
    await eventually('the success recorded', async () => {
      await mergeRequestRead();
      return (await gateBuildsets('SUCCESS')) > 0;
    });

    const bad = await lab.openMergeRequest('org/app', { title: 'Its pipeline fails', files: { 'b.txt': 'b\n' } });
    await lab.approve('org/app', bad.iid, 'reviewer');
    await until('the auto-merge asked', () => bad.autoMerge);
    await lab.finishPipeline('org/app', bad.iid, 'failed');
    await eventually('the merge failure reported', async () => {
      await mergeRequestRead();
      return bad.notes.some((note) => /pipeline .*failed/i.test(note));
    });
    expect(bad.state).toBe('opened');
    lab.project('org/app').pipelineRequired = false;
  });

  it('takes an item whose approval is revoked out of gate, notes why, and does not merge it', async () => {
    const { lab } = env;
    const held = path.join(scratch, 'unapproved');
    writeFileSync(held, '');
    const mr = await lab.openMergeRequest('org/app', { title: 'Revoked', files: { HOLD: held } });
    await lab.approve('org/app', mr.iid, 'reviewer');
    await eventually('in gate', async () => (await itemsIn(env.server, 'gate')).length === 1);
    await lab.unapprove('org/app', mr.iid, 'reviewer');
    await eventually('out of gate', async () => (await itemsIn(env.server, 'gate')).length === 0);
    await until('the requirement noted', () => mr.notes.some((note) => /approv/i.test(note)));
    rmSync(held);
    expect(mr.state).toBe('opened');
    expect(mr.autoMerge).toBe(false);
  });
});
