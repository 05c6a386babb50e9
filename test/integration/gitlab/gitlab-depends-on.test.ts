/**
 * `Depends-On:` from a GitLab merge request through the real server, the fake GitLab and the fake
 * Gerrit (docs/gitlab.md#changes): a merge request whose description names a merge request of
 * another GitLab project and a Gerrit change by URL is checked with both ahead of it in its queue;
 * a description edit that names a dependency is a `changed` event, checked with it ahead.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FakeGerrit } from '../../helpers/fake-gerrit/server';
import { eventually, itemsIn, lastVote, startFakeGerrit } from '../../helpers/gerrit-tenant';
import { BASE_JOB, until } from '../../helpers/github-tenant';
import {
  gitlabCheck,
  gitlabTenantFile,
  startGitLabTenant,
  unitIn,
  type GitLabTenant,
} from '../../helpers/gitlab-tenant';

jest.setTimeout(300_000);

const PIPELINES = `
${gitlabCheck(
  ['  - event: gl_merge_request', '    action: changed', 'gerrit:', '  - event: patchset-created'],
  [
    'success:',
    '  gitlab: {}',
    '  gerrit:',
    '    Verified: 1',
    'failure:',
    '  gitlab: {}',
    '  gerrit:',
    '    Verified: -1',
  ],
)}
${BASE_JOB}`;

/** GITLAB_APP's job `unit` (held while the file HOLD names exists) in `check`. */
const PROJECT = unitIn('check');

const TENANT = gitlabTenantFile(['- org/app', '- org/lib'], {
  sources: ['gerrit:', '  untrusted-projects:', '    - org/gerritlib'],
});

describe('Depends-On from a GitLab merge request', () => {
  let env: GitLabTenant;
  let gerrit: FakeGerrit;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-gitlab-across-'));
    const fake = await startFakeGerrit(root, { 'org/gerritlib': PROJECT });
    gerrit = fake.gerrit;
    env = await startGitLabTenant({
      projects: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': PROJECT, 'org/lib': PROJECT },
      tenantFile: TENANT,
      connections: { gerrit: fake.connection as never },
    });
    await gerrit.ssh.connected();
  });

  afterAll(async () => {
    await env?.stop();
    await gerrit?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('checks it with the merge request of another project and the Gerrit change it names ahead', async () => {
    const { lab } = env;
    const change = await gerrit.upload('org/gerritlib', { subject: 'Gerrit part', files: { 'g.txt': 'g\n' } });
    const lib = await lab.openMergeRequest('org/lib', { title: 'Library part', files: { 'l.txt': 'l\n' } });
    await until('the Gerrit change checked', () => lastVote(change, 'Verified') === 1);
    await until('the library checked', () => lib.notes.some((n) => n.startsWith('Build succeeded')));

    const held = path.join(root, 'held');
    writeFileSync(held, '');
    const app = await lab.openMergeRequest('org/app', {
      title: 'Uses both',
      description: [
        'Needs the library and the Gerrit part.',
        '',
        `Depends-On: ${lab.url}/org/lib/-/merge_requests/${lib.iid}`,
        `Depends-On: ${gerrit.url}/c/org/gerritlib/+/${change.number}`,
      ].join('\n'),
      files: { HOLD: held },
    });
    await eventually('the three items in check', async () => (await itemsIn(env.server, 'check')).length === 3);
    const items = await itemsIn(env.server, 'check');
    expect(items).toEqual(
      expect.arrayContaining([`${lib.iid},${lib.headSha}`, `${change.number},1`, `${app.iid},${app.headSha}`]),
    );
    expect(items.at(-1)).toBe(`${app.iid},${app.headSha}`);
    rmSync(held);
    await until('the app checked', () => app.notes.some((n) => n.startsWith('Build succeeded')));
  });

  it('checks a merge request again, with the dependency ahead, when a description edit names one', async () => {
    const { lab } = env;
    const lib = lab.mr('org/lib', 1);
    // HOLD names a file that does not exist yet: the first check passes at once.
    const held = path.join(root, 'held-later');
    const app = await lab.openMergeRequest('org/app', { title: 'Later', files: { HOLD: held } });
    await until('the first check', () => app.notes.some((n) => n.startsWith('Build succeeded')));
    writeFileSync(held, '');
    await lab.editDescription('org/app', app.iid, `Depends-On: ${lab.url}/org/lib/-/merge_requests/${lib.iid}`);
    await eventually('checked with the library ahead', async () => {
      const items = await itemsIn(env.server, 'check');
      return items.length === 2 && items[0] === `${lib.iid},${lib.headSha}` && items[1] === `${app.iid},${app.headSha}`;
    });
    rmSync(held);
    await until('the second check', () => app.notes.filter((n) => n.startsWith('Build succeeded')).length === 2);
  });
});
