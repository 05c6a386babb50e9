/**
 * OpenID Connect sign-in end to end (docs/dashboard.md#signing-in): the example tenant's realm is
 * an OpenIDConnect authenticator whose issuer is a fake provider (test/helpers/oidc-provider.ts).
 * In headless Chromium the dashboard runs the authorization code flow with PKCE against it, the
 * server verifies the ID token through the provider's discovery document and JWKS, and the
 * signed-in user (an admin by the tenant's rule on the `groups` claim) pauses the event queues.
 * A code exchanged with the wrong verifier is refused and the dashboard says so.
 */
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startFakeOidcProvider, type FakeOidcProvider } from '../helpers/oidc-provider';
import { launchBrowser, type TestBrowser } from './browser';
import { ensureDashboardBuilt, startDeployment, TENANT, type Deployment } from './deployment';

const CLIENT_ID = 'sluice-dashboard';
const WAIT = { timeout: 60_000 };

const TENANT_STATE = /* GraphQL */ `
  query ($tenant: String!) {
    tenant(name: $tenant) {
      ... on Tenant {
        status {
          ... on TenantStatus {
            state {
              triggerQueuePaused
            }
          }
        }
      }
    }
  }
`;

describe('OpenID Connect sign-in in a browser', () => {
  let provider: FakeOidcProvider;
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ensureDashboardBuilt();
    provider = await startFakeOidcProvider({
      clientId: CLIENT_ID,
      claims: { sub: 'alice-id', preferred_username: 'alice', groups: ['example-admins'] },
    });
    deployment = await startDeployment({ oidc: { issuer: provider.issuer, clientId: CLIENT_ID } });
    browser = await launchBrowser(deployment.url, { allowedOrigins: [provider.issuer] });
    page = await browser.open();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
    await provider?.close();
  });

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  async function triggerQueuePaused(): Promise<boolean> {
    const data = await deployment.graphql<{ tenant: { status: { state: { triggerQueuePaused: boolean } } } }>(
      TENANT_STATE,
      { tenant: TENANT },
    );
    return data.tenant.status.state.triggerQueuePaused;
  }

  it('signs in with the realm through the provider and comes back to the page', async () => {
    await page.goto(`/t/${TENANT}/status`);
    await page.getByRole('heading', { name: 'gate' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Sign in with fake-realm' }).click();
    // To the provider's authorize endpoint, back to /auth_callback with a code, then to the page.
    await page.waitForURL(`**/t/${TENANT}/status`, WAIT);
    await page.getByText('alice (admin)').waitFor(WAIT);

    const [authorization] = provider.authorizations;
    expect(authorization.get('response_type')).toBe('code');
    expect(authorization.get('client_id')).toBe(CLIENT_ID);
    expect(authorization.get('redirect_uri')).toBe(`${deployment.url}/auth_callback`);
    expect(authorization.get('scope')).toBe('openid profile');
    expect(authorization.get('code_challenge_method')).toBe('S256');
    expect(authorization.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(provider.exchanges).toEqual([{ outcome: 'issued', reason: 'PKCE verified' }]);
    const token = await page.evaluate(() => localStorage.getItem('sluice.token'));
    expect(JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({
      iss: provider.issuer,
      aud: CLIENT_ID,
      sub: 'alice-id',
    });
  }, 120_000);

  it('performs an admin action with the token the provider issued', async () => {
    expect(await triggerQueuePaused()).toBe(false);
    await page.getByRole('button', { name: 'Pause events' }).click();
    await page.getByText(/trigger queue paused/).waitFor(WAIT); // through the TenantStateChanged delta
    expect(await triggerQueuePaused()).toBe(true);
    await page.getByRole('button', { name: 'Resume events' }).click();
    await page.getByText(/trigger queue paused/).waitFor({ state: 'detached', ...WAIT });
    expect(await triggerQueuePaused()).toBe(false);
  }, 60_000);

  it('refuses a code exchanged with the wrong PKCE verifier and says why', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with fake-realm' }).waitFor(WAIT);
    const redirectUri = `${deployment.url}/auth_callback`;
    const code = provider.issueCode(redirectUri, createHash('sha256').update('the-right-verifier').digest('base64url'));
    await page.evaluate(
      ({ issuer, clientId }) =>
        sessionStorage.setItem(
          'sluice.oidc',
          JSON.stringify({
            state: 'state-1',
            verifier: 'a-wrong-verifier',
            realm: { name: 'fake-realm', authority: issuer, clientId, scope: 'openid profile' },
            tokenEndpoint: `${issuer}/token`,
            returnTo: '/t/example/status',
          }),
        ),
      { issuer: provider.issuer, clientId: CLIENT_ID },
    );
    await page.goto(`/auth_callback?code=${code}&state=state-1`);
    await page.getByText('The identity provider did not issue a token: invalid_grant').waitFor(WAIT);
    expect(provider.exchanges.at(-1)).toEqual({ outcome: 'invalid_grant', reason: 'PKCE verification failed' });
    expect(await page.evaluate(() => localStorage.getItem('sluice.token'))).toBeNull();
    // The browser logs the provider's 400 answer; nothing else went wrong.
    expect(browser.takeProblems()).toEqual([expect.stringMatching(/console error on .*auth_callback.*status of 400/)]);
  }, 60_000);
});
