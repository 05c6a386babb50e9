/**
 * What the dashboard says when something is refused or missing, in headless Chromium against a
 * real server (docs/dashboard.md#signing-in): a token pasted as `Bearer <jwt>` signs in, a token
 * the server refuses is said in the page (when pasted and when stored), an enqueue of a change
 * that does not exist reports the scheduler's real outcome, and an unknown tenant says so and
 * is looked for again after growing pauses, opening no WebSocket meanwhile.
 */
import type { Request } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser';
import { ensureDashboardBuilt, PROJECT, startDeployment, TENANT, type Deployment } from './deployment';

const WAIT = { timeout: 60_000 };
/** What Chromium logs for an answer with status 401: expected where the test sends a refused token. */
const REFUSED_REQUEST = /Failed to load resource: the server responded with a status of 401/;

/** The token with its signature changed: well formed, but the server's check fails. */
function tampered(token: string): string {
  const [header, payload, signature] = token.split('.');
  const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
  return [header, payload, flipped].join('.');
}

describe('sign-in, refusals and missing things in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment();
    browser = await launchBrowser(deployment.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
  });

  /** The problems seen so far, less the refused requests this test caused on purpose. */
  function unexpectedProblems(): string[] {
    return browser.takeProblems().filter((problem) => !REFUSED_REQUEST.test(problem));
  }

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  it('signs in with a token pasted with its Bearer prefix and says when the server refuses one', async () => {
    const page = await browser.open();
    await page.goto(`/t/${TENANT}/status`);
    await page.getByRole('heading', { name: 'gate' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Token').fill(`Bearer ${tampered(deployment.token)}`);
    await page.getByRole('button', { name: 'Use token' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The server refused the token' });
    await refusal.waitFor(WAIT);
    expect(await refusal.textContent()).toMatch(/^The server refused the token: .+/);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0); // not kept
    expect(unexpectedProblems()).toEqual([]);

    await page.getByLabel('Token').fill(`Bearer ${deployment.token}\n`);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('(admin)').waitFor(WAIT);
    await page.getByRole('button', { name: 'Enqueue…' }).waitFor(WAIT); // the admin controls
    expect(await page.evaluate(() => localStorage.getItem('sluice.token'))).toBe(deployment.token);

    // A stored token the server no longer takes (expired, another deployment's) is said too.
    await page.evaluate((token) => localStorage.setItem('sluice.token', token), tampered(deployment.token));
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'The server refused the token' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
    expect(unexpectedProblems()).toEqual([]);
    await page.close();
  }, 120_000);

  it('reports what the scheduler did with an enqueue of a change that does not exist', async () => {
    const page = await browser.open();
    await page.goto(`/t/${TENANT}/status`);
    await page.evaluate((token) => localStorage.setItem('sluice.token', token), deployment.token);
    await page.reload();
    await page.getByRole('button', { name: 'Enqueue…' }).click();
    const form = page.getByRole('form', { name: 'Enqueue a change' });
    await form.getByLabel('Pipeline').fill('gate');
    await form.getByLabel('Project').fill(PROJECT);
    await form.getByLabel('Change or ref').fill('99,1');
    await form.getByRole('button', { name: 'Enqueue', exact: true }).click();
    await form.getByText('99,1 was not enqueued into gate: unknown change.').waitFor(WAIT);
    await page.close();
  }, 60_000);

  it('says an unknown tenant does not exist and looks again after growing pauses, without WebSockets', async () => {
    const page = await browser.open(390);
    let sockets = 0;
    page.on('websocket', () => {
      sockets += 1;
    });
    const snapshotRead = (request: Request): boolean =>
      request.url().endsWith('/graphql') && (request.postData() ?? '').includes('query StatusSnapshot');
    const reads: number[] = [];
    page.on('request', (request) => {
      if (snapshotRead(request)) {
        reads.push(Date.now());
      }
    });
    await page.goto('/t/no-such/status');
    await page.getByText('There is no tenant no-such here.').waitFor(WAIT);
    expect(await page.locator('main').textContent()).not.toMatch(/admin/);
    // It looks again after pauses of 2 s, then 4 s (less a quarter of jitter), never at once: four
    // reads take at least the two pauses (the first read may happen twice as the page mounts).
    while (reads.length < 4) {
      await page.waitForRequest(snapshotRead, WAIT);
    }
    expect(reads[3] - reads[0]).toBeGreaterThanOrEqual(1_500 + 3_000);
    expect(sockets).toBe(0);
    await page.getByRole('link', { name: 'See the tenants' }).click();
    await page.getByRole('link', { name: TENANT, exact: true }).waitFor(WAIT);
    await page.close();
  }, 60_000);
});
