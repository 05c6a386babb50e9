/**
 * Git over SSH for GitLab (docs/gitlab.md#repositories): with `cloneurl: ssh://git@<host>` and an
 * `sshkey`, the tenant's configuration and the jobs' workspaces come from the fake GitLab's SSH
 * endpoint with the connection's key, its host key trusted on first use and recorded in
 * `<dataDir>/ssh_known_hosts`, nothing over HTTP; a host whose key differs from the recorded one
 * is refused; over HTTP (no SSH cloneurl) git gets no SSH environment.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GitLabConnection, gitlabConnection } from '../../../src/drivers/gitlab/connection';
import { GitMirrors } from '../../../src/sources/git-mirror';
import { git } from '../../../src/sources/git-cli';
import { sshKnownHostsFile } from '../../../src/sources/git-ssh';
import { sshKeyPair } from '../../helpers/fake-ssh-server';
import { until } from '../../helpers/github-tenant';
import {
  GITLAB_APP,
  GITLAB_PIPELINES,
  GITLAB_TENANT,
  GITLAB_TOKEN,
  startGitLabTenant,
  type GitLabTenant,
} from '../../helpers/gitlab-tenant';

jest.setTimeout(240_000);

describe('GitLab with an ssh:// cloneurl and the connection key', () => {
  let env: GitLabTenant;

  beforeAll(async () => {
    env = await startGitLabTenant({
      projects: { 'org/config': { 'zuul.yaml': GITLAB_PIPELINES }, 'org/app': GITLAB_APP },
      tenantFile: GITLAB_TENANT,
      ssh: true,
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const ssh = () => {
    if (!env.lab.ssh) {
      throw new Error('the fake GitLab serves no SSH');
    }
    return env.lab.ssh;
  };

  it('loads the configuration and checks merge requests fetched over SSH, recording the host key', async () => {
    const { lab } = env;
    const good = await lab.openMergeRequest('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const bad = await lab.openMergeRequest('org/app', { title: 'Break it', files: { FAIL: 'yes\n' } });
    await until('the verified label', () => good.labels.includes('verified'));
    await until('the failure note', () => bad.notes.length > 0);
    expect(bad.notes.at(-1)).toMatch(/unit.*FAILURE/s);
    expect(bad.labels).not.toContain('verified');
    expect(lab.ssh?.uploadPacks).toEqual(expect.arrayContaining(['org/config', 'org/app']));
    expect(lab.gitHttpRequests).toBe(0);
    const [keyType, keyData] = ssh().hostPublicKey.split(/\s+/);
    expect(readFileSync(sshKnownHostsFile(env.dataDir), 'utf8')).toContain(`${keyType} ${keyData}`);
  });

  it('refuses a host whose key differs from the recorded one', async () => {
    const connection = new GitLabConnection('gitlab', gitlabConnection.parse(env.connection));
    const knownHosts = sshKnownHostsFile(mkdtempSync(path.join(env.dataDir, 'other-')));
    writeFileSync(knownHosts, `[127.0.0.1]:${ssh().port} ${sshKeyPair().public.split(/\s+/).slice(0, 2).join(' ')}\n`);
    const mirrors = new GitMirrors(
      mkdtempSync(path.join(env.dataDir, 'mirrors-')),
      () => connection.gitBaseUrl(),
      () => connection.gitEnv(knownHosts),
    );
    const served = ssh().uploadPacks.length;
    await expect(mirrors.update('gitlab', 'org/app')).rejects.toThrow(
      /Host key verification failed|REMOTE HOST IDENTIFICATION/,
    );
    expect(ssh().uploadPacks).toHaveLength(served);
    // With the recorded key the same fetch passes.
    const good = new GitMirrors(
      mkdtempSync(path.join(env.dataDir, 'mirrors-')),
      () => connection.gitBaseUrl(),
      () => connection.gitEnv(sshKnownHostsFile(env.dataDir)),
    );
    const mirror = await good.update('gitlab', 'org/app');
    expect((await git(mirror, ['show', 'refs/heads/main:README.md'])).stdout).toBe('app\n');
  });

  it('gives git no SSH environment over HTTP, and the token as credentials', () => {
    const http = new GitLabConnection(
      'gitlab',
      gitlabConnection.parse({
        driver: 'gitlab',
        baseurl: 'https://gitlab.example.com',
        apiToken: GITLAB_TOKEN,
        webhookToken: 'w',
        sshkey: '/etc/key',
      }),
    );
    expect(http.gitEnv('/data/ssh_known_hosts')).toEqual({});
    expect(http.gitBaseUrl()).toBe(`https://oauth2:${GITLAB_TOKEN}@gitlab.example.com`);
  });
});
