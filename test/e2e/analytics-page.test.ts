/**
 * The analytics page and the status page's ranges in a browser (docs/analytics.md#the-analytics-page):
 * a real server whose history is seeded through the store's writers (test/e2e/analytics-history.ts),
 * so every number the page shows is known: totals, each chart's values (its data table and the
 * chart's own legend under the pointer), the job filter through the URL, node-hours, busiest
 * hours, the quarantine list edited by an admin and the flaky retries. Then a gate run whose job
 * outlasts its seeded history shows an ETA range and turns overdue on the status page.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser';
import { pageProblems } from './page-checks';
import { seedAnalyticsHistory } from './analytics-history';
import { ensureDashboardBuilt, PROJECT, startDeployment, TENANT, waitingUnit, type Deployment } from './deployment';

const WAIT = { timeout: 60_000 };
const SCREENSHOTS = process.env.SLUICE_E2E_SCREENSHOTS;
const DAY = 86_400_000;

describe('analytics page in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;
  let day: number;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment();
    const found = await deployment.graphql<{ tenant: { project: { canonicalName: string } } }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { project(name: "${PROJECT}") { ... on Project { canonicalName } } } } }`,
    );
    ({ day } = await seedAnalyticsHistory(deployment.knex, TENANT, {
      name: PROJECT,
      canonical: found.tenant.project.canonicalName,
    }));
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

  async function screenshot(name: string, target: Page): Promise<void> {
    if (SCREENSHOTS !== undefined) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    }
  }

  const iso = (at: number) => new Date(at).toISOString().slice(0, 10);
  const total = (key: string) => page.locator(`[data-total="${key}"] dd`);
  /** The cells of a chart's data table row for the bucket starting at `at`, after opening "Data". */
  async function chartRow(title: string, at: number): Promise<string[]> {
    const chart = page.locator(`figure[data-chart="${title}"]`);
    // The quantiles arrive by their own query (docs/analytics.md#the-analytics-page).
    await chart.locator('figcaption').filter({ hasNotText: 'Reading' }).waitFor(WAIT);
    const details = chart.locator('details');
    if ((await details.getAttribute('open')) === null) {
      await details.locator('summary').click();
    }
    return chart
      .locator('tbody tr', { has: page.getByRole('rowheader', { name: iso(at), exact: true }) })
      .locator('td')
      .allTextContents();
  }

  it('shows the seeded history in its totals, charts and breakdowns', async () => {
    await page.goto(`/t/${TENANT}/status`);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(`**/t/${TENANT}/analytics`);
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor(WAIT);
    await total('runs').getByText('23', { exact: true }).waitFor(WAIT);
    // 23 runs, 3 failed, 1 flaky; 3 items merged after 20, 40 and 10 min; 4 resets, 1 avoided.
    expect(await total('merged').textContent()).toBe('3');
    expect(await total('time-to-merge').textContent()).toBe('23 min 20 s');
    expect(await total('failure-rate').textContent()).toBe('13%');
    expect(await total('flake-rate').textContent()).toBe('4.3%');
    expect(await total('gate-resets').textContent()).toBe('4');
    expect(await total('flaky-retries').textContent()).toBe('1');
    expect(await total('node-wait').textContent()).toBe('45 s');
    expect(await total('node-hours').textContent()).toBe('2.5');

    // Job durations: p50, p90 (percentile_cont, read from the duration histograms: within 2.5% plus
    // 0.5 s of the exact values, here 145 and 181 s, then 115 and 231 s) and mean of each day's runs.
    expect(await chartRow('Job durations', day)).toEqual(['2 min 25 s', '3 min 1 s', '2 min 25 s']);
    expect(await chartRow('Job durations', day + DAY)).toEqual(['1 min 54 s', '3 min 52 s', '2 min 5 s']);
    expect(await chartRow('Job durations', day - DAY)).toEqual(['–', '–', '–']);
    expect(await chartRow('Failure and flake rates', day)).toEqual(['16.7%', '8.3%']);
    expect(await chartRow('Failure and flake rates', day + DAY)).toEqual(['9.1%', '0%']);
    expect(await chartRow('Gate resets by cause', day)).toEqual(['2', '0', '1']);
    expect(await chartRow('Gate resets by cause', day + DAY)).toEqual(['0', '1', '0']);
    // 90 item-minutes over the day's 1,440 minutes.
    expect(await chartRow('Queue length', day)).toEqual(['0.06']);
    expect(await chartRow('Time to merge', day)).toEqual(['30 min', '30 min', '45 s']);
    expect(await chartRow('Time to merge', day + DAY)).toEqual(['10 min', '10 min', '–']);

    // The chart draws the same numbers: its legend under the pointer at day 1.
    const durations = page.locator('figure[data-chart="Job durations"]');
    const plot = durations.locator('.u-over');
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    const buckets = await durations.evaluate((figure) =>
      [...figure.querySelectorAll('details tbody th')].map((cell) => cell.textContent ?? ''),
    );
    const xs = buckets.length;
    const index = buckets.indexOf(iso(day));
    if (box === null || index < 0) {
      throw new Error('the durations chart has no plot area');
    }
    await page.mouse.move(box.x + (box.width * index) / (xs - 1), box.y + box.height / 2, { steps: 5 });
    const legend = durations.locator('.u-legend .u-series');
    await legend.filter({ hasText: 'p50' }).locator('.u-value', { hasText: '2 min 25 s' }).waitFor(WAIT);
    expect(await legend.filter({ hasText: 'p90' }).locator('.u-value').textContent()).toBe('3 min 1 s');
    await screenshot('analytics-1280', page);

    const labels = page.locator('[data-label-hours]');
    expect(await labels.allTextContents()).toEqual(['small2 h', 'large0.5 h']);
    const weekday = new Date(day).getUTCDay();
    expect(await page.locator(`[data-busy-hour="${weekday}-10"]`).textContent()).toMatch(
      /10:00 UTC: 3 items enqueued, 12 runs$/,
    );
    const unit = page.locator('table tbody tr', { has: page.getByRole('button', { name: 'hello-unit' }) });
    expect(await unit.locator('td').allTextContents()).toEqual(['18', '3', '16.7%', '1', '5.6%', '0', '2 min 50 s']);
  }, 120_000);

  it('narrows to one job through the URL and a filter', async () => {
    await page.getByRole('button', { name: 'hello-unit' }).click();
    await page.waitForURL('**/analytics?job=hello-unit');
    await total('runs').getByText('18', { exact: true }).waitFor(WAIT);
    expect(await page.getByRole('combobox', { name: 'Job' }).inputValue()).toBe('hello-unit');
    // Exactly 220 and 236 s.
    expect(await chartRow('Job durations', day + DAY)).toEqual(['3 min 39 s', '3 min 57 s', '3 min 40 s']);
    await page.getByRole('combobox', { name: 'Buckets' }).selectOption('hour');
    await page.waitForURL('**/analytics?job=hello-unit&interval=hour');
    await page.getByRole('combobox', { name: 'Range' }).selectOption('30d');
    await page.waitForURL(/range=30d/);
    await total('runs').getByText('18', { exact: true }).waitFor(WAIT);
    await page.getByRole('combobox', { name: 'Job' }).selectOption('');
    await total('runs').getByText('23', { exact: true }).waitFor(WAIT);
  }, 120_000);

  it('shows the flaky retries and lets an admin edit the quarantine list', async () => {
    await page.goto(`/t/${TENANT}/analytics`);
    const retries = page.locator('section[aria-labelledby="flaky-retries"] tbody tr');
    await retries.first().waitFor(WAIT);
    expect(await retries.first().locator('td').nth(0).textContent()).toBe('hello-unit');
    expect(await retries.first().locator('td').nth(2).textContent()).toBe('8.3%');
    await page.getByText('No job is quarantined.').waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Quarantine' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Token').fill(deployment.token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('(admin)').waitFor(WAIT);
    const form = page.getByRole('form', { name: 'Quarantine a job' });
    await form.getByLabel('Job').fill('no-such-job-anywhere');
    await form.getByLabel('Project').fill('example/none');
    await form.getByLabel('Reason').fill('nothing');
    await form.getByRole('button', { name: 'Quarantine' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: /project/i })
      .waitFor(WAIT);

    await form.getByLabel('Job').fill('hello-lint');
    await form.getByLabel('Project').fill('');
    await form.getByLabel('Reason').fill('fails on Tuesdays');
    await form.getByRole('button', { name: 'Quarantine' }).click();
    const row = page.locator('section[aria-labelledby="quarantine"] tbody tr', { hasText: 'hello-lint' });
    await row.waitFor(WAIT);
    expect(await row.locator('td').nth(0).textContent()).toBe('every project');
    expect(await row.locator('td').nth(1).textContent()).toBe('fails on Tuesdays');
    const listed = await deployment.graphql<{ tenant: { quarantine: Array<{ job: string; reason: string }> } }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { quarantine { job reason } } } }`,
    );
    expect(listed.tenant.quarantine).toEqual([{ job: 'hello-lint', reason: 'fails on Tuesdays' }]);

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No job is quarantined.').waitFor(WAIT);
  }, 120_000);

  it('has no layout, contrast or keyboard problem at 1280 and 390 px', async () => {
    expect(
      await pageProblems(
        browser,
        [`/t/${TENANT}/analytics`, `/t/${TENANT}/analytics?range=30d&interval=week`],
        [
          [1280, 'light', true],
          [390, 'light', true],
          [390, 'dark', false],
        ],
      ),
    ).toEqual([]);
    const narrow = await browser.open(390);
    await narrow.goto(`/t/${TENANT}/analytics`);
    const canvas = narrow.locator('figure[data-chart="Job durations"] canvas');
    await canvas.waitFor(WAIT);
    // The chart is drawn again when its figures are read again (the page follows new history),
    // so its canvas can be hidden for a moment: take its size once it is shown.
    let box = await canvas.boundingBox();
    for (let tries = 0; box === null && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      box = await canvas.boundingBox();
    }
    expect(box?.width).toBeGreaterThan(200);
    expect(box?.width).toBeLessThanOrEqual(390);
    await narrow.emulateMedia({ colorScheme: 'dark' });
    await screenshot('analytics-390-dark', narrow);
    await narrow.close();
  }, 600_000);

  it('shows a running job as a range, then overdue by how much, on the status page', async () => {
    // hello-unit's seeded runs took 100 to 240 s on this project's master: a run that waits for the
    // test is in its range first, and past the p90 of those runs it is overdue.
    // An analytics page open meanwhile follows the new history (docs/analytics.md#the-analytics-page).
    const live = await browser.open();
    await live.goto(`/t/${TENANT}/analytics`);
    const liveRuns = live.locator('[data-total="runs"] dd');
    await liveRuns.getByText('23', { exact: true }).waitFor(WAIT);
    const release = path.join(deployment.root, 'release-overdue');
    await deployment.pushChange(5, { 'scripts/unit.sh': waitingUnit(release) }, 'A unit test that waits');
    await page.clock.install({ time: new Date() });
    await page.goto(`/t/${TENANT}/status`);
    const reported = await deployment.enqueue(5);
    const item = page.locator('li.item', { hasText: '5,1' });
    const unit = item.locator('li.job', { hasText: 'hello-unit' });
    await unit.getByRole('progressbar').waitFor(WAIT);
    expect(await unit.getByRole('progressbar').textContent()).toMatch(/s · \d+ min \d+ s–\d+ min \d+ s left$/);
    expect((await item.locator('.item-eta').textContent())?.trim()).toMatch(/^ETA \d+ min \d+ s–\d+ min \d+ s/);
    // Ten minutes later (the page's clock; the build keeps running): over its p90 by about 6 minutes.
    await page.clock.fastForward('10:00');
    const overdue = unit.getByRole('status', { name: 'hello-unit overdue' });
    await overdue.waitFor(WAIT);
    expect(await overdue.textContent()).toMatch(/overdue running 10 min \d+ s · over its usual duration by [5-6] min/);
    expect(await unit.getByRole('progressbar').count()).toBe(0);
    writeFileSync(release, 'go\n');
    await reported.reported;
    await liveRuns.filter({ hasNotText: /^23$/ }).waitFor(WAIT);
    expect(Number(await liveRuns.textContent())).toBeGreaterThan(23);
    await live.close();
  }, 180_000);
});
