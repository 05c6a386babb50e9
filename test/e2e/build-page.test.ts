/**
 * The build page's returned data and log file browser in a browser, after a real gate run whose
 * unit job writes reports into its log folder and returns data; the executor writes the folder's
 * `zuul-manifest.json` and its `zuul_manifest` artifact (docs/logs.md#zuul-manifestjson,
 * docs/dashboard.md#log-file-browser), shown in the build page's Artifacts and Logs tabs.
 * Folders open with the mouse and the keyboard, plain-text files open in the page at a link that
 * can be shared, other files link raw to the log server.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser';
import { contrastProblems, keyboardProblems, overflowProblems } from './page-checks';
import { ensureDashboardBuilt, startDeployment, TENANT, type Deployment } from './deployment';

const SCREENSHOTS = process.env.SLUICE_E2E_SCREENSHOTS;
const WAIT = { timeout: 60_000 };

/** A unit job that publishes reports in its log folder and returns data. */
const UNIT_WITH_REPORTS = `#!/bin/sh
set -e
output=$(sh ./hello.sh Sluice)
test "$output" = "Hello, Sluice!"
mkdir -p "$SLUICE_LOG_DIR/reports/unit"
printf 'test_greeting ... ok\\ntest_farewell ... ok\\n' > "$SLUICE_LOG_DIR/reports/unit/results.txt"
printf '{"passed": 2, "failed": 0}\\n' > "$SLUICE_LOG_DIR/reports/summary.json"
printf '{"data": {"greeting": "%s", "tests": {"passed": 2}}}\\n' "$output" > "$SLUICE_RESULTS_FILE"
echo "unit tests passed"
`;

describe('build page: returned data and log files in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;
  let buildPath: string;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment();
    browser = await launchBrowser(deployment.url);
    page = await browser.open();
    await deployment.pushChange(5, { 'scripts/unit.sh': UNIT_WITH_REPORTS }, 'Publish the unit test reports');
    await deployment.gate(5);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
  });

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  it('shows the data the job returned', async () => {
    await page.goto(`/t/${TENANT}/builds?job_name=hello-unit&change=5`);
    await page.getByRole('link', { name: 'hello-unit' }).first().click();
    await page.waitForURL(`**/t/${TENANT}/build/*`);
    buildPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: /Build hello-unit/ }).waitFor(WAIT);
    const returned = page.getByRole('region', { name: 'Returned data' });
    await returned.waitFor(WAIT);
    expect(JSON.parse((await returned.locator('pre').textContent()) ?? '')).toEqual({
      greeting: 'Hello, Sluice!',
      tests: { passed: 2 },
    });
  }, 60_000);

  it('browses the log folder from the manifest and opens a text file in the page', async () => {
    await page.getByRole('link', { name: 'Artifacts', exact: true }).click();
    await page.waitForURL(`**${buildPath}/artifacts`);
    await page.getByRole('link', { name: 'Zuul Manifest' }).waitFor(WAIT); // the executor's artifact
    await page.getByRole('link', { name: 'Logs', exact: true }).click();
    await page.waitForURL(`**${buildPath}/logs`);
    const files = page.getByRole('region', { name: 'Log files' });
    // The executor's own files are in the tree too: the JSON output links raw, the inventory opens here.
    expect(await files.getByRole('link', { name: 'job-output.json', exact: true }).getAttribute('href')).toMatch(
      /\/job-output\.json$/,
    );
    await files.getByRole('button', { name: 'zuul-info/' }).click();
    await files.getByRole('link', { name: 'inventory.yaml', exact: true }).click();
    await page.waitForURL(`**${buildPath}/log/zuul-info/inventory.yaml`);
    await page.locator('.log-text', { hasText: 'hello-unit' }).waitFor(WAIT);
    await files.getByRole('button', { name: 'reports/' }).click();
    await files.getByRole('button', { name: 'unit/' }).waitFor(WAIT);
    // The keyboard opens a folder too.
    await files.getByRole('button', { name: 'unit/' }).focus();
    await page.keyboard.press('Enter');
    expect(await files.getByRole('button', { name: 'unit/' }).getAttribute('aria-expanded')).toBe('true');
    const summary = files.getByRole('link', { name: 'summary.json' });
    expect(await summary.getAttribute('href')).toMatch(
      /\/logs\/example\/[0-9a-f]{2}\/[0-9a-f]+\/reports\/summary\.json$/,
    );
    await files.getByRole('link', { name: 'results.txt', exact: true }).click();
    await page.waitForURL(`**${buildPath}/log/reports/unit/results.txt`);
    await page.locator('.log-text', { hasText: 'test_farewell ... ok' }).waitFor(WAIT);
    if (SCREENSHOTS !== undefined) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'build-logs-1280.png'), fullPage: true });
    }
    // The raw file is the same text, from the log server.
    const raw = await page.request.get(
      (await files.getByRole('link', { name: 'results.txt raw' }).getAttribute('href')) ?? '',
    );
    expect(await raw.text()).toBe('test_greeting ... ok\ntest_farewell ... ok\n');
  }, 60_000);

  it('opens the file from a shared link, its folders open, at 390 px', async () => {
    const narrow = await browser.open(390);
    await narrow.goto(`${buildPath}/log/reports/unit/results.txt`);
    await narrow.locator('.log-text', { hasText: 'test_greeting ... ok' }).waitFor(WAIT);
    expect(await narrow.getByRole('button', { name: 'unit/' }).getAttribute('aria-expanded')).toBe('true');
    expect(await overflowProblems(narrow)).toEqual([]);
    await narrow.emulateMedia({ colorScheme: 'dark' });
    expect(await contrastProblems(narrow)).toEqual([]);
    expect(await keyboardProblems(narrow)).toEqual([]);
    await narrow.goto(`${buildPath}/log/reports/missing.txt`);
    await narrow.getByText('The log folder has no reports/missing.txt.').waitFor(WAIT);
    await narrow.close();
  }, 60_000);
});
