/**
 * The Gerrit connection's `auth_type` (docs/gerrit.md#http-authentication), through the real server and a
 * fake Gerrit that takes only that authentication under `/a/` (test/helpers/fake-gerrit/auth.ts):
 * `digest` (REST and git over HTTP with HTTP Digest, a nonce Gerrit dropped answered again) and
 * `form` (a login at `/login`, its session cookie kept, a login again once Gerrit ended the
 * session). Each gates a change (the check votes `Verified +1`), and again after the renewal.
 */
import { until } from '../../helpers/github-tenant';
import * as tenant from '../../helpers/gerrit-tenant';

const { lastVote } = tenant;

jest.setTimeout(300_000);

describe.each(['digest', 'form'] as const)('Gerrit auth_type %s', (mode) => {
  let env: tenant.GerritTenant;

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({ authMode: mode });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('reads changes and votes with it, and renews it when Gerrit asks', async () => {
    const change = await env.gerrit.upload('org/app', { subject: `Checked over ${mode}`, files: { 'a.txt': 'a\n' } });
    await until('the first check', () => lastVote(change, 'Verified') === 1);
    const auth = env.gerrit.auth;
    if (mode === 'digest') {
      expect(auth.digestAnswers).toBeGreaterThan(1);
      expect(auth.logins).toBe(0);
    } else {
      // One login at the first request (several when requests ran at once); the cookie served the rest.
      expect(auth.logins).toBeGreaterThanOrEqual(1);
      expect(auth.logins).toBeLessThan(env.gerrit.requests.length);
    }
    const logins = auth.logins;
    // Gerrit forgets its nonces or sessions: the next requests are refused once, then renewed.
    auth.nonces.clear();
    auth.sessions.clear();
    const second = await env.gerrit.upload('org/app', { subject: 'Checked again', files: { 'b.txt': 'b\n' } });
    await until('the second check', () => lastVote(second, 'Verified') === 1);
    if (mode === 'form') {
      expect(auth.logins).toBeGreaterThan(logins);
    } else {
      expect(auth.nonces.size).toBeGreaterThan(0);
    }
  });
});
