/**
 * The GitHub REST client against the fake GitHub (docs/github.md#the-connection): installation
 * tokens cached and refreshed before they expire, the request timeout, a rate limit longer
 * than the allowed wait, and the API's own message on refusals.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitHubClient } from '../../../src/drivers/github/client';
import { FakeGitHub } from '../../helpers/fake-github/server';

describe('GitHub client', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const hub = new FakeGitHub({
    appId: 7,
    appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    tokenTtlSeconds: 3600,
  });
  let silent: Server;

  beforeAll(async () => {
    await hub.start();
    await hub.createRepo('org/app', { 'README.md': 'x\n' });
    // A server that accepts requests and never answers (the timeout).
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await hub.stop();
  });

  const appClient = (options: Partial<ConstructorParameters<typeof GitHubClient>[0]> = {}) =>
    new GitHubClient({
      apiBase: `${hub.url}/api/v3`,
      auth: { kind: 'app', appId: '7', privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() },
      timeoutMs: 5000,
      maxWaitMs: 60_000,
      ...options,
    });
  const tokenRequests = () => hub.requests.filter((r) => r.path.endsWith('/access_tokens')).length;

  it('caches an installation token and refreshes it five minutes before it expires', async () => {
    let clock = Date.now();
    const client = appClient({ now: () => new Date(clock) });
    const before = tokenRequests();
    const first = await client.tokenFor('org/app');
    await client.request('GET', '/repos/org/app', 'org/app');
    await client.refreshTokens();
    expect(tokenRequests() - before).toBe(1);
    expect(client.cachedToken('org/app')).toBe(first);
    clock += 3600_000 - 4 * 60_000; // four minutes before expiry
    await client.refreshTokens();
    expect(tokenRequests() - before).toBe(2);
    const second = client.cachedToken('org/app');
    expect(second).not.toBe(first);
    expect(second).toMatch(/^ghs_/);
    // The refreshed token is accepted.
    await expect(client.request('GET', '/repos/org/app', 'org/app')).resolves.toMatchObject({ full_name: 'org/app' });
  });

  it('gives up on a request after the timeout', async () => {
    const client = new GitHubClient({
      apiBase: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      auth: { kind: 'token', token: 'ghp_x' },
      timeoutMs: 300,
      maxWaitMs: 1000,
    });
    await expect(client.request('GET', '/repos/org/app', 'org/app')).rejects.toThrow('timed out after 300 ms');
  });

  it('fails a request whose rate limit lasts longer than the allowed wait, without waiting', async () => {
    const waits: number[] = [];
    const client = appClient({ maxWaitMs: 2000, onRateLimit: (ms) => waits.push(ms) });
    await client.tokenFor('org/app');
    hub.rateLimit(1, 'retry-after', 120);
    await expect(client.request('GET', '/repos/org/app', 'org/app')).rejects.toThrow(
      'rate limited for 120 s (more than the allowed wait)',
    );
    expect(waits).toEqual([]);
  });

  it("reports a refusal in the API's words", async () => {
    const client = appClient();
    await expect(client.request('GET', '/repos/org/app/pulls/99', 'org/app')).rejects.toMatchObject({
      status: 404,
      apiMessage: expect.any(String),
    });
  });
});
