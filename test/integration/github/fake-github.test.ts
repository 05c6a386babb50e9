/**
 * The fake GitHub itself: repositories cloned over smart HTTP with a token (refused without),
 * pull requests with `refs/pull/N/head`, signed webhooks, statuses and the merge API.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../../src/sources/git-cli';
import { FakeGitHub } from '../../helpers/fake-github/server';

describe('fake GitHub', () => {
  const hub = new FakeGitHub({ personalToken: 'ghp_test' });
  const received: Array<{ headers: Record<string, unknown>; body: string }> = [];
  let receiver: Server;
  let scratch: string;

  beforeAll(async () => {
    await hub.start();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'fake-github-test-'));
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hub.setWebhook(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, 'hook-secret');
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await hub.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('hosts repositories over HTTP, pull requests, signed webhooks and merges', async () => {
    await hub.createRepo('org/app', { 'README.md': 'hello\n' });
    const pull = await hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    expect(received).toHaveLength(1);
    const signature = createHmac('sha256', 'hook-secret').update(received[0].body).digest('hex');
    expect(received[0].headers['x-hub-signature-256']).toBe(`sha256=${signature}`);
    expect(received[0].headers['x-github-event']).toBe('pull_request');
    expect((JSON.parse(received[0].body) as { action: string }).action).toBe('opened');

    const authed = hub.url.replace('http://', 'http://x-access-token:ghp_test@');
    await expect(git(scratch, ['ls-remote', `${hub.url}/org/app`])).rejects.toThrow();
    const { stdout } = await git(scratch, ['ls-remote', `${authed}/org/app`]);
    expect(stdout).toContain(`${pull.headSha}\trefs/pull/1/head`);

    const api = (p: string, init: RequestInit = {}) =>
      fetch(`${hub.url}/api/v3${p}`, { ...init, headers: { authorization: 'token ghp_test' } });
    expect((await api('/repos/org/app/pulls/1')).status).toBe(200);
    expect((await fetch(`${hub.url}/api/v3/repos/org/app/pulls/1`)).status).toBe(401);

    pull.refuseMerge = 'At least 1 approving review is required by reviewers with write access.';
    const refused = await api('/repos/org/app/pulls/1/merge', {
      method: 'PUT',
      body: JSON.stringify({ merge_method: 'squash' }),
    });
    expect(refused.status).toBe(405);
    expect(((await refused.json()) as { message: string }).message).toContain('approving review');
    pull.refuseMerge = null;
    const merged = await api('/repos/org/app/pulls/1/merge', {
      method: 'PUT',
      body: JSON.stringify({ merge_method: 'squash' }),
    });
    expect(merged.status).toBe(200);
    const { stdout: log } = await git(hub.repo('org/app').dir, ['log', '--format=%s', 'main']);
    expect(log.split('\n')[0]).toBe('Merge pull request #1');
    expect(hub.pull('org/app', 1).merged).toBe(true);
    await hub.settled();
    expect(received.map((r) => r.headers['x-github-event'])).toEqual(['pull_request', 'push', 'pull_request']);

    hub.rateLimit(1, 'retry-after', 2);
    const limited = await api('/repos/org/app');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
  });
});
