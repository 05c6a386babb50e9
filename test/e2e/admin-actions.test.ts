/**
 * Every admin action of the dashboard takes effect, driven in headless Chromium against a real
 * server (docs/dashboard.md#signing-in): enqueue from the status page, promote and dequeue
 * items, re-enqueue a buildset, discard and keep trigger events, hold a node and request an image
 * build in the launcher tenant. Each effect is read back from the page (live, no reload) and
 * from the API.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { adminToken } from '../helpers/live';
import { launchBrowser, type TestBrowser } from './browser';
import { ensureDashboardBuilt, waitingUnit, PROJECT, startDeployment, TENANT, type Deployment } from './deployment';

const LAB = 'lab';
const WAIT = { timeout: 60_000 };

describe('admin actions in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;
  let release: string;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment({ launcher: true });
    release = path.join(deployment.root, 'release-admin-changes');
    // Two changes whose unit test waits: they stay in the gate while the test works on them.
    await deployment.pushChange(6, { 'scripts/unit.sh': waitingUnit(release) }, 'Slow unit test, first');
    await deployment.pushChange(7, { 'scripts/unit.sh': waitingUnit(release) }, 'Slow unit test, second');
    browser = await launchBrowser(deployment.url);
    page = await browser.open();
    await page.goto(`/t/${TENANT}/status`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Token').fill(adminToken(TENANT, { zuul: { admin: [TENANT, LAB] } }));
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('(admin)').waitFor(WAIT);
  }, 180_000);

  afterAll(async () => {
    writeFileSync(release, 'go\n');
    await browser?.close();
    await deployment?.stop();
  });

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  const item = (change: string): Locator =>
    page.locator('li.item[data-item]', { has: page.getByRole('link', { name: change, exact: true }) });

  /** The changes of the gate's items, in queue order as the page shows them. */
  async function gateOrder(): Promise<string[]> {
    const links = await page.locator('li.item[data-item] a').allTextContents();
    return links.filter((text) => text === '6,1' || text === '7,1');
  }

  async function enqueueFromThePage(change: string): Promise<void> {
    const form = page.getByRole('form', { name: 'Enqueue a change' });
    if (!(await form.isVisible())) {
      await page.getByRole('button', { name: 'Enqueue…' }).click();
    }
    await form.getByLabel('Pipeline').fill('gate');
    await form.getByLabel('Project').fill(PROJECT);
    await form.getByLabel('Change or ref').fill(change);
    await form.getByRole('button', { name: 'Enqueue', exact: true }).click();
    await form.getByText(`${change} enqueued into gate.`).waitFor(WAIT);
  }

  it('enqueues two changes, promotes the second and dequeues the first', async () => {
    await enqueueFromThePage('6,1');
    await item('6,1').waitFor(WAIT);
    await enqueueFromThePage('7,1');
    await item('7,1').waitFor(WAIT);
    expect(await gateOrder()).toEqual(['6,1', '7,1']);
    // 6's jobs are shown once its job graph is frozen, when its buildset is recorded: the promote
    // then ends that buildset DEQUEUED. An item taken out before its merge completed would leave
    // none, as in the reference (docs/gating.md#leaving-a-pipeline), which is not what this tests.
    await item('6,1').locator('li.job').first().waitFor(WAIT);

    await item('7,1').getByRole('button', { name: 'Promote' }).click();
    await page.getByText('Promotion of 7,1 requested.').waitFor(WAIT);
    // The new order arrives live (no reload).
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('li.item[data-item] a')]
          .map((link) => link.textContent)
          .filter((text) => text === '6,1' || text === '7,1')
          .join(' ') === '7,1 6,1',
      undefined,
      WAIT,
    );
    // The promote reset 6 (the same status shows it without jobs): its new buildset is frozen
    // and recorded before it is dequeued.
    await item('6,1').locator('li.job').first().waitFor(WAIT);

    await item('6,1').getByRole('button', { name: 'Dequeue' }).click();
    await item('6,1').waitFor({ state: 'detached', ...WAIT });
    const buildsets = await deployment.graphql<{
      tenant: { buildsets: { nodes: Array<{ result: string | null }> } };
    }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { buildsets(filter: { change: [6] }) { nodes { result } } } } }`,
    );
    // Both of 6's buildsets: the one the promote reset and the one it was dequeued with.
    expect(buildsets.tenant.buildsets.nodes.map((buildset) => buildset.result)).toEqual(['DEQUEUED', 'DEQUEUED']);
  }, 180_000);

  it('re-enqueues the dequeued buildset from its page', async () => {
    await page.goto(`/t/${TENANT}/buildsets?change=6&result=DEQUEUED`);
    await page.locator('table tbody tr').first().waitFor(WAIT);
    await page.getByRole('link', { name: PROJECT }).first().click();
    await page.waitForURL(`**/t/${TENANT}/buildset/*`);
    await page.getByRole('button', { name: 'Re-enqueue' }).click();
    await page.getByText('Re-enqueued into gate.').waitFor(WAIT);
    await page.goto(`/t/${TENANT}/status`);
    await item('6,1').waitFor(WAIT);
    writeFileSync(release, 'go\n');
    await item('7,1').waitFor({ state: 'detached', ...WAIT });
    await item('6,1').waitFor({ state: 'detached', ...WAIT });
  }, 180_000);

  it('discards trigger events and keeps them again', async () => {
    const discarding = async (): Promise<boolean> =>
      (
        await deployment.graphql<{ tenant: { status: { state: { triggerQueueDiscarding: boolean } } } }>(
          `query { tenant(name: "${TENANT}") { ... on Tenant { status { ... on TenantStatus { state { triggerQueueDiscarding } } } } } }`,
        )
      ).tenant.status.state.triggerQueueDiscarding;
    await page.goto(`/t/${TENANT}/status`);
    await page.getByRole('button', { name: 'Discard events' }).click();
    await page.getByText(/trigger events discarded/).waitFor(WAIT);
    expect(await discarding()).toBe(true);
    await page.getByRole('button', { name: 'Stop discarding' }).click();
    await page.getByText(/trigger events discarded/).waitFor({ state: 'detached', ...WAIT });
    expect(await discarding()).toBe(false);
  }, 60_000);

  it('requests an image build in the launcher tenant', async () => {
    await page.goto(`/t/${LAB}/images`);
    const row = page.locator('main table tbody tr', { hasText: 'built' });
    await row.getByRole('button', { name: 'Build' }).click();
    await row.getByText('Image build requested.').waitFor(WAIT);
    const events = await deployment.graphql<{
      tenant: { systemEvents: { nodes: Array<{ eventType: string; description: string }> } };
    }>(
      `query { tenant(name: "${LAB}") { ... on Tenant { systemEvents(filter: { eventTypes: [IMAGE_BUILD_REQUESTED] }) { nodes { eventType description } } } } }`,
    );
    expect(events.tenant.systemEvents.nodes.map((event) => event.description)).toContain(
      `Build of image built requested by admin-of-${TENANT}`,
    );
  }, 60_000);
});
