/**
 * The dashboard end to end: the real server after real gate runs (a passing change, a failing
 * change, a slow change whose console is watched live, an autohold, a config error), driven in
 * headless Chromium. Every page must show the real data, update without reloads, and log no
 * console error. With SLUICE_E2E_SCREENSHOTS=<dir> the test also writes the screenshots of
 * docs/dashboard.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser';
import { pageProblems } from './page-checks';
import { ensureDashboardBuilt, PROJECT, startDeployment, TENANT, type Deployment } from './deployment';

const SCREENSHOTS = process.env.SLUICE_E2E_SCREENSHOTS;
const WAIT = { timeout: 60_000 };

describe('dashboard in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;
  let release: string;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment();
    browser = await launchBrowser(deployment.url);
    page = await browser.open();
    release = path.join(deployment.root, 'release-slow-change');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
  });

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  async function screenshot(name: string, target: Page = page): Promise<void> {
    if (SCREENSHOTS !== undefined) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    }
  }

  const item = (change: string) =>
    page.locator(`li.item[data-item]`, { has: page.getByRole('link', { name: change, exact: true }) });

  it('shows the tenants and an empty live status', async () => {
    await page.goto('/');
    await page.waitForURL('**/tenants');
    await page.getByRole('link', { name: TENANT, exact: true }).click();
    await page.waitForURL(`**/t/${TENANT}/status`);
    await page.getByRole('heading', { name: 'gate' }).waitFor();
    await page.getByText('Live', { exact: true }).waitFor(WAIT);
  }, 60_000);

  it('follows a passing and a failing change through the gate without a reload', async () => {
    await deployment.pushChange(1, { 'NOTES.md': 'Release notes\n' }, 'Add release notes');
    await deployment.pushChange(2, { 'hello.sh': '#!/bin/sh\necho "Goodbye, ${1:-world}!"\n' }, 'Say goodbye instead');
    const passed = await deployment.enqueue(1);
    await item('1,1').waitFor(WAIT); // arrived through the queueEvents subscription
    expect((await passed.reported).type).toBe('item-reported');
    await item('1,1').waitFor({ state: 'detached', ...WAIT });
    const failed = await deployment.enqueue(2);
    await item('2,1').waitFor(WAIT);
    await failed.reported;
    await item('2,1').waitFor({ state: 'detached', ...WAIT });
  }, 180_000);

  it('lists the builds with their results, filtered through the URL', async () => {
    await page.getByRole('link', { name: 'Builds', exact: true }).click();
    await page.waitForURL(`**/t/${TENANT}/builds`);
    await page.getByLabel('Pipeline').fill('gate');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`**/t/${TENANT}/builds?pipeline=gate`);
    await page.getByText('1–4 of 4').waitFor(WAIT); // the filtered page, not the one before it
    expect(await page.locator('table.builds-table tbody tr').count()).toBe(4);
    await page.locator('.badge', { hasText: 'FAILURE' }).first().waitFor();
    await screenshot('builds-1280');
    const narrow = await browser.open(390);
    await narrow.goto(`/t/${TENANT}/builds`);
    await narrow.locator('table.builds-table tbody tr').first().waitFor(WAIT);
    await screenshot('builds-390', narrow);
    await narrow.close();
    await page.goto(`/t/${TENANT}/builds?pipeline=gate&result=FAILURE`);
    await page.locator('table.builds-table tbody tr').first().waitFor(WAIT);
    expect(await page.locator('table.builds-table tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: 'hello-unit' }).waitFor();
  }, 60_000);

  it('shows a finished build with its console replayed', async () => {
    await page.goto(`/t/${TENANT}/builds?job_name=hello-unit&result=SUCCESS`);
    await page.getByRole('link', { name: 'hello-unit' }).click();
    await page.waitForURL(`**/t/${TENANT}/build/*`);
    await page.getByRole('heading', { name: /Build hello-unit/ }).waitFor(WAIT);
    await page.locator('.console-text', { hasText: 'unit tests passed' }).waitFor(WAIT);
    expect(await page.getByText(PROJECT).first().isVisible()).toBe(true);
  }, 60_000);

  it('shows buildsets, one buildset and one change', async () => {
    await page.goto(`/t/${TENANT}/buildsets?pipeline=gate`);
    const rows = page.locator('table tbody tr');
    await rows.first().waitFor(WAIT);
    expect(await rows.count()).toBe(2);
    await page.goto(`/t/${TENANT}/buildsets?pipeline=gate&result=FAILURE`);
    await page.locator('table tbody tr').first().waitFor(WAIT);
    expect(await page.locator('table tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: PROJECT }).click();
    await page.waitForURL(`**/t/${TENANT}/buildset/*`);
    await page.getByRole('heading', { name: /Buildset/ }).waitFor(WAIT);
    await page.locator('table tbody tr', { hasText: 'hello-unit' }).waitFor();
    await page.goto(`/t/${TENANT}/change/2`);
    await page.getByRole('heading', { name: 'Change 2' }).waitFor();
    await page.getByText('The change is in no queue.').waitFor(WAIT);
    await page.locator('table tbody tr', { hasText: 'FAILURE' }).waitFor(WAIT);
  }, 60_000);

  it('streams the console of a running build and its end, live', async () => {
    const slowUnit = [
      '#!/bin/sh',
      'echo "slow unit test starting"',
      'i=0',
      `while [ ! -e '${release}' ]; do i=$((i+1)); [ $i -gt 6000 ] && exit 1; sleep 0.1; done`,
      'echo "released"',
      'echo "unit tests passed"',
      '',
    ].join('\n');
    await deployment.pushChange(3, { 'scripts/unit.sh': slowUnit }, 'A slow unit test');
    await page.goto(`/t/${TENANT}/status`);
    const reported = await deployment.enqueue(3);
    const unitLink = item('3,1').getByRole('link', { name: 'hello-unit' });
    await unitLink.waitFor(WAIT);
    await page
      .locator('.progress, .job-state .small', { hasText: /running|%/ })
      .first()
      .waitFor(WAIT);
    await screenshot('status-1280');
    const narrow = await browser.open(390);
    await narrow.emulateMedia({ colorScheme: 'dark' });
    await narrow.goto(`/t/${TENANT}/status`);
    await narrow.locator('li.item', { hasText: '3,1' }).first().waitFor(WAIT);
    await screenshot('status-390-dark', narrow);
    await narrow.close();
    await unitLink.click();
    await page.waitForURL(`**/t/${TENANT}/build/*`);
    await page.locator('.console-text', { hasText: 'slow unit test starting' }).waitFor(WAIT);
    expect(await page.locator('.console-text').textContent()).not.toContain('released');
    await screenshot('build-console-1280');
    writeFileSync(release, 'go\n');
    await page.locator('.console-text', { hasText: 'unit tests passed' }).waitFor(WAIT);
    await reported.reported;
    // The summary follows the build through buildUpdated: the badge turns to SUCCESS without a reload.
    await page.locator('h1 .badge', { hasText: 'SUCCESS' }).waitFor(WAIT);
  }, 180_000);

  it('signs in with a pasted token and runs admin actions', async () => {
    await page.goto(`/t/${TENANT}/builds?job_name=hello-unit&result=FAILURE`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Token').fill('not a token');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('That is not a JSON Web Token').waitFor();
    await page.getByLabel('Token').fill(deployment.token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('(admin)').waitFor(WAIT);

    await page.getByRole('link', { name: 'hello-unit' }).first().click();
    await page.getByRole('heading', { name: 'Autohold' }).waitFor(WAIT);
    await page.getByLabel('Reason').fill('debug the failure');
    await page.getByRole('button', { name: /Hold the next failing/ }).click();
    await page.getByText('Autohold request created.').waitFor(WAIT);
    const holds = await deployment.graphql<{ tenant: { autoholds: Array<{ reason: string }> } }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { autoholds { reason } } } }`,
    );
    expect(holds.tenant.autoholds.map((a) => a.reason)).toEqual(['debug the failure']);

    await page.goto(`/t/${TENANT}/status`);
    await page.getByRole('button', { name: 'Pause events' }).click();
    await page.getByText(/trigger queue paused/).waitFor(WAIT); // through the TenantStateChanged delta
    await page.getByRole('button', { name: 'Resume events' }).click();
    await page.getByText(/trigger queue paused/).waitFor({ state: 'detached', ...WAIT });

    await page.getByRole('button', { name: 'Enqueue…' }).click();
    const form = page.getByRole('form', { name: 'Enqueue a change' });
    await form.getByLabel('Pipeline').fill('no-such-pipeline');
    await form.getByLabel('Project').fill(PROJECT);
    await form.getByLabel('Change or ref').fill('1,1');
    await form.getByRole('button', { name: 'Enqueue', exact: true }).click();
    await page.getByText(/^Invalid/).waitFor(WAIT); // the typed InvalidInputError, in words
  }, 120_000);

  it('shows jobs, projects, config errors and the other tenant pages with the real data', async () => {
    const visit = async (path: string, heading: string | RegExp) => {
      await page.goto(`/t/${TENANT}/${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
    };
    await visit('jobs', 'Jobs');
    await page.getByRole('link', { name: 'hello-unit', exact: true }).click();
    await page.getByRole('heading', { name: 'Job hello-unit' }).waitFor(WAIT);
    await page.getByText('Runs the unit tests of the hello project.').first().waitFor();
    await page.getByRole('link', { name: 'base', exact: true }).first().waitFor(); // inherits from base
    expect(await page.locator('.chart rect.bar').count()).toBeGreaterThanOrEqual(3); // the build-time chart

    await visit('projects', 'Projects');
    await page.getByRole('link', { name: PROJECT, exact: true }).click();
    await page.getByRole('heading', { name: /Project/ }).waitFor(WAIT);
    await page.locator('.graph svg g.node', { hasText: 'hello-unit' }).first().waitFor(WAIT); // the frozen job graph

    await visit('config-errors', 'Configuration errors');
    await page.locator('.config-errors li', { hasText: 'no-such-parent' }).first().waitFor(WAIT);

    await visit('autoholds', 'Autoholds');
    await page.locator('table tbody tr', { hasText: 'debug the failure' }).waitFor(WAIT);
    await page.locator('table tbody tr a').first().click();
    await page.getByRole('heading', { name: /Autohold \d+/ }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`**/t/${TENANT}/autoholds`);
    await page.getByText('No autohold request.', { exact: false }).waitFor(WAIT);

    await visit('semaphores', 'Semaphores');
    await page.getByText('The tenant has no semaphores.').waitFor(WAIT);
    for (const [path, heading] of [
      ['labels', 'Labels'],
      ['nodes', 'Nodes'],
      ['providers', 'Providers'],
      ['images', 'Images'],
      ['flavors', 'Flavors'],
      ['nodeset-requests', 'Nodeset requests'],
    ]) {
      await visit(path, heading);
      await page.locator('main table, main .empty').first().waitFor(WAIT);
    }

    await visit('system-events', 'System events');
    await page.locator('.events li', { hasText: 'AUTOHOLD_DELETED' }).first().waitFor(WAIT);
    // A new event arrives through the systemEvents subscription, without a reload.
    await deployment.graphql(
      `mutation { tenantStateSet(input: { tenant: "${TENANT}", triggerQueuePaused: false, reason: "live check" }) { __typename } }`,
    );
    await page.locator('.events li', { hasText: 'TENANT_STATE_CHANGED' }).first().waitFor(WAIT);

    await visit('components', 'Components');
    await page.locator('table tbody tr', { hasText: 'api' }).first().waitFor(WAIT);
  }, 120_000);

  it('fits 1,280 and 390 px, reads well in light and dark, and is keyboard reachable on every page', async () => {
    const found = await deployment.graphql<{
      tenant: { builds: { nodes: Array<{ uuid: string; buildset: { uuid: string } }> } };
    }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { builds(first: 1) { nodes { uuid buildset { uuid } } } } } }`,
    );
    const [build] = found.tenant.builds.nodes;
    const pages = [
      '/tenants',
      '/components',
      ...[
        'status',
        'builds',
        `build/${build.uuid}`,
        'buildsets',
        `buildset/${build.buildset.uuid}`,
        'change/2',
        'jobs',
        'job/hello-unit',
        'projects',
        `project/${PROJECT}`,
        'config-errors',
        'semaphores',
        'autoholds',
        'labels',
        'nodes',
        'providers',
        'images',
        'flavors',
        'nodeset-requests',
        'system-events',
      ].map((path) => `/t/${TENANT}/${path}`),
    ];
    expect(
      await pageProblems(browser, pages, [
        [1280, 'light', true],
        [1280, 'dark', false],
        [390, 'light', true],
        [390, 'dark', false],
      ]),
    ).toEqual([]);
  }, 600_000);
});
