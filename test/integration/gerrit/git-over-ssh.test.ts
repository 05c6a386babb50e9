/**
 * `git_over_ssh` (docs/gerrit.md#repositories): git reaches the fake Gerrit's SSH server with the
 * connection's key, user and port (`GIT_SSH_COMMAND`), trusts its host key on first use and
 * records it, and refuses a host whose key changed. Through the real server: the tenant's
 * configuration and the jobs' workspaces come over SSH, and `check` votes on what was fetched.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gerritConnection, gerritGitEnv } from '../../../src/drivers/gerrit/connection-schema';
import { sshKnownHostsFile } from '../../../src/sources/git-ssh';
import { GerritEventStream } from '../../../src/drivers/gerrit/stream';
import { GitMirrors } from '../../../src/sources/git-mirror';
import { ConnectionEventRepository } from '../../../src/store/repositories/connection-events';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { git } from '../../../src/sources/git-cli';
import type { FakeGerrit } from '../../helpers/fake-gerrit/server';
import { sshKeyPair } from '../../helpers/fake-ssh-server';
import { until } from '../../helpers/github-tenant';
import { type GerritTenant, lastVote, startFakeGerrit, startGerritGateTenant } from '../../helpers/gerrit-tenant';

jest.setTimeout(240_000);

describe('git over SSH with the connection key', () => {
  let root: string;
  let gerrit: FakeGerrit;
  let settings: ReturnType<typeof gerritConnection.parse>;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-gerrit-ssh-'));
    const started = await startFakeGerrit(root, { 'org/app': { 'README.md': 'app\n' } }, { git_over_ssh: true });
    gerrit = started.gerrit;
    settings = gerritConnection.parse(started.connection);
  });

  afterAll(async () => {
    await gerrit?.stop();
    await database?.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  /** A mirror of org/app fetched with the connection's git environment and this known_hosts file. */
  const fetchWith = (knownHosts: string, connection = settings) => {
    const url = `ssh://zuul@127.0.0.1:${gerrit.ssh.port}`;
    const mirrors = new GitMirrors(
      mkdtempSync(path.join(root, 'mirrors-')),
      () => url,
      () => gerritGitEnv(connection, knownHosts),
    );
    return mirrors.update('gerrit', 'org/app');
  };

  it('fetches with the key, trusting the host key on first use and recording it', async () => {
    const knownHosts = sshKnownHostsFile(mkdtempSync(path.join(root, 'data-')));
    const mirror = await fetchWith(knownHosts);
    const { stdout } = await git(mirror, ['show', 'refs/heads/master:README.md']);
    expect(stdout).toBe('app\n');
    expect(gerrit.ssh.uploadPacks).toContain('org/app');
    // Recorded (host names hashed or not, as the machine's ssh_config says).
    const [keyType, keyData] = gerrit.ssh.hostPublicKey.split(/\s+/);
    expect(readFileSync(knownHosts, 'utf8')).toContain(`${keyType} ${keyData}`);
    // A second fetch checks the recorded key and passes.
    await expect(fetchWith(knownHosts)).resolves.toEqual(expect.any(String));
  });

  it('refuses a host whose key differs from the recorded one', async () => {
    const knownHosts = sshKnownHostsFile(mkdtempSync(path.join(root, 'data-')));
    const other = sshKeyPair().public.split(/\s+/).slice(0, 2).join(' ');
    writeFileSync(knownHosts, `[127.0.0.1]:${gerrit.ssh.port} ${other}\n`);
    const served = gerrit.ssh.uploadPacks.length;
    await expect(fetchWith(knownHosts)).rejects.toThrow(/Host key verification failed|REMOTE HOST IDENTIFICATION/);
    expect(gerrit.ssh.uploadPacks).toHaveLength(served);
  });

  /** Open the event stream with this known_hosts file; resolves with what it logged once it opened or was refused. */
  const streamWith = async (knownHosts: string) => {
    const warnings: string[] = [];
    const opened = gerrit.ssh.opened;
    const stream = new GerritEventStream({
      connection: 'gerrit',
      settings,
      knownHosts,
      events: new ConnectionEventRepository(database.knex),
      now: () => new Date(),
      onStored: () => undefined,
      onOpen: () => undefined,
      log: { info: () => undefined, error: () => undefined, warn: (f) => warnings.push(JSON.stringify(f)) },
    });
    stream.start();
    await until('the stream opened or refused', () => gerrit.ssh.opened > opened || warnings.length > 0);
    await stream.stop();
    return { opened: gerrit.ssh.opened > opened, warnings };
  };

  it('opens the event stream with the key git recorded, and git fetches with the key the stream recorded', async () => {
    const byGit = sshKnownHostsFile(mkdtempSync(path.join(root, 'data-')));
    await fetchWith(byGit);
    expect(await streamWith(byGit)).toEqual({ opened: true, warnings: [] });
    const byStream = sshKnownHostsFile(path.join(mkdtempSync(path.join(root, 'data-')), 'fresh'));
    expect(await streamWith(byStream)).toEqual({ opened: true, warnings: [] });
    const [keyType, keyData] = gerrit.ssh.hostPublicKey.split(/\s+/);
    expect(readFileSync(byStream, 'utf8')).toBe(`[127.0.0.1]:${gerrit.ssh.port} ${keyType} ${keyData}\n`);
    await expect(fetchWith(byStream)).resolves.toEqual(expect.any(String));
    expect(readFileSync(byStream, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('refuses to open the event stream with a host whose key differs from the recorded one', async () => {
    const knownHosts = sshKnownHostsFile(mkdtempSync(path.join(root, 'data-')));
    const other = sshKeyPair().public.split(/\s+/).slice(0, 2).join(' ');
    writeFileSync(knownHosts, `[127.0.0.1]:${gerrit.ssh.port} ${other}\n`);
    const { opened, warnings } = await streamWith(knownHosts);
    expect(opened).toBe(false);
    expect(warnings[0]).toContain('differs from the one recorded');
    expect(readFileSync(knownHosts, 'utf8')).toBe(`[127.0.0.1]:${gerrit.ssh.port} ${other}\n`);
  });

  it('is refused with another key (the connection key is the one offered)', async () => {
    const knownHosts = sshKnownHostsFile(mkdtempSync(path.join(root, 'data-')));
    const keyFile = path.join(root, 'other_ed25519');
    writeFileSync(keyFile, sshKeyPair().private, { mode: 0o600 });
    await expect(fetchWith(knownHosts, { ...settings, sshkey: keyFile })).rejects.toThrow(/Permission denied/);
  });
});

describe('Gerrit with git_over_ssh end to end', () => {
  let env: GerritTenant;

  beforeAll(async () => {
    env = await startGerritGateTenant({ connection: { git_over_ssh: true } });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('loads the configuration and checks patch sets fetched over SSH', async () => {
    const { gerrit } = env;
    const good = await gerrit.upload('org/app', { subject: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const bad = await gerrit.upload('org/app', { subject: 'Break it', files: { FAIL: 'yes\n' } });
    await until('Verified +1', () => lastVote(good, 'Verified') === 1);
    await until('Verified -1', () => lastVote(bad, 'Verified') === -1);
    expect(bad.reviews.at(-1)?.message).toMatch(/unit.*FAILURE/s);
    expect(gerrit.ssh.uploadPacks).toEqual(expect.arrayContaining(['org/config', 'org/app']));
    const [keyType, keyData] = gerrit.ssh.hostPublicKey.split(/\s+/);
    expect(readFileSync(sshKnownHostsFile(env.dataDir), 'utf8')).toContain(`${keyType} ${keyData}`);
  });
});
