/**
 * The launcher's live pages in a browser (docs/dashboard.md#live-updates-and-reconnection): tenant
 * `lab` has a local provider keeping one `small` node ready. The nodes and nodeset-requests pages
 * follow `nodeEvents` and `nodesetRequestEvents`: a node held from the page, the replacement
 * node the launcher starts, a request's life from requested to fulfilled and its removal, and a
 * dropped live connection all show without a reload.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import type { NodeInfo } from '../../src/model/pipeline-state';
import { adminToken } from '../helpers/live';
import { launchBrowser, type TestBrowser } from './browser';
import { contrastProblems, keyboardProblems, overflowProblems } from './page-checks';
import { ensureDashboardBuilt, startDeployment, type Deployment } from './deployment';

const LAB = 'lab';
const SCREENSHOTS = process.env.SLUICE_E2E_SCREENSHOTS;
const WAIT = { timeout: 60_000 };

describe('launcher pages in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment({ launcher: true });
    // The test asks the launcher for nodes no job waits for; the scheduler would cancel such a
    // fulfilment at once (docs/gating.md#windows-and-nodes). With the lab's result queue paused it
    // stays fulfilled until the test gives the nodes back, as a job's would.
    const paused = await fetch(`${deployment.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(LAB)}` },
      body: JSON.stringify({
        query: `mutation { tenantStateSet(input: { tenant: "${LAB}", resultQueuePaused: true, reason: "e2e" }) { __typename } }`,
      }),
    });
    expect(await paused.json()).toEqual({ data: { tenantStateSet: { __typename: 'TenantEventQueueState' } } });
    browser = await launchBrowser(deployment.url);
    page = await browser.open();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
  });

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  const launcher = () => {
    const roles = deployment.app.roles;
    if (!roles) {
      throw new Error('the deployment runs every role');
    }
    return roles.launcher;
  };
  const rows = () => page.locator('main table tbody tr');

  it('shows the ready node and follows a hold and the replacement node live', async () => {
    await page.goto(`/t/${LAB}/nodes`);
    await page.getByRole('heading', { name: 'Nodes', level: 1 }).waitFor(WAIT);
    // The min-ready node appears (and becomes ready) without a reload, however far the launcher got.
    await page.locator('[data-node-state="READY"]').first().waitFor(WAIT);
    expect(await rows().count()).toBe(1);
    const ready = (await rows().first().locator('code').textContent()) ?? '';

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Token').fill(adminToken(LAB));
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('(admin)').waitFor(WAIT);
    await page.getByRole('button', { name: 'Hold' }).click();
    const heldRow = rows().filter({ hasText: ready });
    await heldRow.locator('[data-node-state="HOLD"]').waitFor(WAIT);
    await heldRow.getByText('held from the dashboard').waitFor(WAIT);
    // The held node no longer counts as ready: the launcher starts another, which appears on top.
    await page.locator('main table tbody tr:first-child [data-node-state="READY"]').waitFor(WAIT);
    expect(await rows().count()).toBe(2);
    await page.getByText('1–2 of 2').waitFor(WAIT);
    expect(await keyboardProblems(page)).toEqual([]);
    const narrow = await browser.open(390);
    await narrow.emulateMedia({ colorScheme: 'dark' });
    for (const list of ['nodes', 'labels', 'providers', 'images', 'flavors']) {
      await narrow.goto(`/t/${LAB}/${list}`);
      await narrow.locator('main table tbody tr').first().waitFor(WAIT); // the lab's real launcher objects
      expect([...(await overflowProblems(narrow)), ...(await contrastProblems(narrow))]).toEqual([]);
      if (SCREENSHOTS !== undefined && list === 'nodes') {
        mkdirSync(SCREENSHOTS, { recursive: true });
        await narrow.screenshot({ path: path.join(SCREENSHOTS, 'nodes-390-dark.png') });
      }
    }
    await narrow.close();
  }, 120_000);

  it("follows a nodeset request's life and its removal live", async () => {
    await page.goto(`/t/${LAB}/nodeset-requests`);
    await page.getByRole('heading', { name: 'Nodeset requests', level: 1 }).waitFor(WAIT);
    await page.getByText('Nothing here.').waitFor(WAIT);
    await launcher().gateway.requestNodes({
      id: 'e2e-request',
      tenant: LAB,
      pipeline: 'check',
      buildsetUuid: 'e2e-buildset',
      jobName: 'e2e-job',
      labels: ['small'],
      priority: 200,
    });
    const row = rows().filter({ hasText: 'e2e-job' });
    await row.locator('[data-request-state="FULFILLED"]').waitFor(WAIT);
    const nodes = await launcher().context.repos.nodes.listByRequest('e2e-request');
    const infos: NodeInfo[] = nodes.map((node) => ({ id: node.uuid, label: node.label }));
    await launcher().gateway.returnNodes(LAB, infos);
    await row.waitFor({ state: 'detached', ...WAIT });
    await page.getByText('Nothing here.').waitFor(WAIT);
  }, 120_000);

  it('comes back after a dropped live connection with what changed meanwhile', async () => {
    // The page's WebSockets pass through a route the test can cut, as a network failure would.
    const tab = await browser.open();
    const sockets: WebSocketRoute[] = [];
    let cut = false;
    await tab.routeWebSocket(/\/graphql$/, (socket) => {
      if (cut) {
        void socket.close({ code: 1012, reason: 'still cut' }); // reconnection attempts fail meanwhile
        return;
      }
      socket.connectToServer();
      sockets.push(socket);
    });
    await tab.goto(`/t/${LAB}/nodeset-requests`);
    const tabRows = tab.locator('main table tbody tr');
    await tab.getByText('Nothing here.').waitFor(WAIT);
    await tab.locator('.live-dot.on').waitFor(WAIT);
    cut = true;
    for (const socket of sockets.splice(0)) {
      await socket.close({ code: 1012, reason: 'cut by the test' });
    }
    await tab.locator('.live-dot.off').waitFor(WAIT);
    await launcher().gateway.requestNodes({
      id: 'while-offline',
      tenant: LAB,
      pipeline: 'check',
      buildsetUuid: 'offline-buildset',
      jobName: 'offline-job',
      labels: ['small'],
      priority: 200,
    });
    cut = false;
    // The client reconnects by itself (with backoff) and the new subscription's page holds the request.
    await tabRows.filter({ hasText: 'offline-job' }).waitFor(WAIT);
    await tab.locator('.live-dot.on').waitFor(WAIT);
    expect(sockets.length).toBeGreaterThan(0);
    await tab.close();
  }, 120_000);
});
