/**
 * An executor-only process (no scheduler role, so no API call has cached a token) fetches GitHub
 * repositories with an installation token it gets itself (docs/github.md#repositories): the
 * repository cache prepares the connection before every fetch.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RepoCache } from '../../../src/executor/repo-cache';
import { git } from '../../../src/sources/git-cli';
import { GitHubConnection } from '../../../src/drivers/github/connection';
import { FakeGitHub } from '../../helpers/fake-github/server';

describe('executor clones from GitHub', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const hub = new FakeGitHub({ appId: 7, appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-executor-clone-'));

  beforeAll(async () => {
    await hub.start();
    await hub.createRepo('org/private', { 'README.md': 'secret\n' });
  });

  afterAll(async () => {
    await hub.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('fetches with an installation token although nothing cached one', async () => {
    const keyFile = path.join(work, 'app.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    const connection = new GitHubConnection('gh', {
      server: hub.url,
      baseurl: `${hub.url}/api/v3`,
      appId: 7,
      appKeyFile: keyFile,
      webhookToken: 'secret',
      requestTimeout: 5,
      rateLimitMaxWait: 5,
    });
    expect(connection.client.cachedToken('org/private')).toBeNull();
    const cache = new RepoCache(path.join(work, 'cache'), {
      gh: {
        baseurl: (project) => connection.gitBaseUrl(project),
        canonicalHostname: connection.canonicalHostname,
        prepare: (project) => connection.prepareGit(project),
      },
    });
    const before = hub.gitAccess.length;
    const mirror = await cache.update('gh', 'org/private');
    expect(hub.gitAccess.length).toBeGreaterThan(before);
    expect(hub.gitAccess.slice(before).every((access) => access.installationId !== null)).toBe(true);
    const readme = await git(mirror, ['show', 'HEAD:README.md']);
    expect(readme.stdout.trim()).toBe('secret');
  });
});
