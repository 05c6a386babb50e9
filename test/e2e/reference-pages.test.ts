/**
 * The reference dashboard's URLs and the pages behind them, in headless Chromium against a real
 * server after real gate runs (docs/dashboard.md#pages): the `url` the REST status gives a running
 * job opens its live console; change, pipeline, build-tab, freeze-job, runtime, semaphore,
 * provider, image and OpenAPI paths open their pages; the build page reads `job-output.json` for
 * its task summary and play/task console and opens at its summary on a phone; it does the same for
 * a real Ansible playbook job (`ansible-playbook` run by the executor, docs/executor.md), whose
 * job-output.json is what the reference dashboard's Task Summary and Console tabs read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser';
import { overflowProblems, pageProblems } from './page-checks';
import {
  ensureDashboardBuilt,
  waitingUnit,
  PLAYBOOK_PROJECT,
  PROJECT,
  startDeployment,
  TENANT,
  type Deployment,
} from './deployment';

const SCREENSHOTS = process.env.SLUICE_E2E_SCREENSHOTS;
const WAIT = { timeout: 60_000 };
const LAB = 'lab';

/** A unit test that prints a long log, says what it expected on both streams, and fails. */
const FAILING_UNIT = `#!/bin/sh
i=0
while [ $i -lt 150 ]; do i=$((i+1)); echo "checking case $i"; done
echo "greeting: got Goodbye"
echo "expected Hello, Sluice!" >&2
exit 3
`;

interface StatusJob {
  name: string;
  uuid: string | null;
  url: string | null;
}

describe('reference dashboard URLs and pages in a browser', () => {
  let deployment: Deployment;
  let browser: TestBrowser;
  let page: Page;
  let release: string;
  let passedBuild: string;
  let failedBuild: string;

  beforeAll(async () => {
    ensureDashboardBuilt();
    deployment = await startDeployment({ launcher: true, ansible: true });
    release = path.join(deployment.root, 'release-reference-pages');
    await deployment.pushChange(8, { 'scripts/unit.sh': waitingUnit(release) }, 'A slow unit test');
    browser = await launchBrowser(deployment.url);
    page = await browser.open();
  }, 240_000);

  afterAll(async () => {
    writeFileSync(release, 'go\n');
    await browser?.close();
    await deployment?.stop();
  });

  afterEach(() => {
    expect(browser.takeProblems()).toEqual([]);
  });

  async function screenshot(name: string, target: Page, fullPage = false): Promise<void> {
    if (SCREENSHOTS !== undefined) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
    }
  }

  async function heading(target: Page, name: string | RegExp): Promise<void> {
    await target.getByRole('heading', { name, level: 1 }).waitFor(WAIT);
    expect(await target.getByRole('heading', { name: 'Page not found' }).count()).toBe(0);
  }

  /** The jobs of change 8,1 in the gate as the REST status shows them. */
  async function statusJobs(): Promise<StatusJob[]> {
    const response = await fetch(`${deployment.url}/api/tenant/${TENANT}/status`);
    const status = (await response.json()) as {
      pipelines: Array<{
        change_queues: Array<{ heads: Array<Array<{ refs: Array<{ id: string }>; jobs: StatusJob[] }>> }>;
      }>;
    };
    return status.pipelines
      .flatMap((p) => p.change_queues.flatMap((q) => q.heads.flat()))
      .filter((item) => item.refs.some((ref) => ref.id === '8,1'))
      .flatMap((item) => item.jobs);
  }

  it("opens the REST status's job url at the live console, and the change and pipeline pages", async () => {
    const done = await deployment.enqueue(8);
    let unit: StatusJob | undefined;
    try {
      await page.goto(`/t/${TENANT}/status`);
      // Once the page shows the build running, the REST status gives it a url.
      await page
        .locator('li.item', { hasText: '8,1' })
        .locator('.progress, .job-state .small', { hasText: /running|%/ })
        .first()
        .waitFor(WAIT);
      unit = (await statusJobs()).find((job) => job.name === 'hello-unit');
      if (unit?.url == null) {
        throw new Error(`hello-unit has no url in the REST status: ${JSON.stringify(unit)}`);
      }
      expect(unit.url).toBe(`stream/${unit.uuid}?logfile=console.log`);
      await page.goto(`/t/${TENANT}/${unit.url}`);
      await heading(page, /Console of hello-unit/);
      await page.locator('.console-text', { hasText: 'slow unit test starting' }).waitFor(WAIT);
      expect(await page.getByLabel('Follow').isChecked()).toBe(true); // a running build is followed

      await page.goto(`/t/${TENANT}/status/change/8,1`);
      await heading(page, 'Change 8,1');
      await page.locator('li.item', { hasText: '8,1' }).first().waitFor(WAIT);
      await page.goto(`/t/${TENANT}/status/pipeline/gate`);
      await heading(page, 'Pipeline gate');
      await page.locator('li.item', { hasText: '8,1' }).first().waitFor(WAIT);
      expect(await page.getByRole('heading', { name: 'check', level: 2 }).count()).toBe(0);
      await page.goto(`/t/${TENANT}/status/pipeline/no-such-pipeline`);
      await page.getByText('The tenant has no pipeline no-such-pipeline.').waitFor(WAIT);
    } finally {
      // Released whatever happened: the later tests gate behind this change.
      writeFileSync(release, 'go\n');
    }
    await done.reported;
    // The stream page follows the build to its end.
    await page.goto(`/t/${TENANT}/${unit.url}`);
    await page.locator('.console-text', { hasText: 'unit tests passed' }).waitFor(WAIT);
    passedBuild = unit.uuid ?? '';
  }, 240_000);

  it('reads the task summary and the play/task console from job-output.json', async () => {
    // Pushed on the master that merged change 8 (both change scripts/unit.sh).
    await deployment.pushChange(9, { 'scripts/unit.sh': FAILING_UNIT }, 'A unit test that fails loudly');
    await deployment.gate(9);
    const found = await deployment.graphql<{ tenant: { builds: { nodes: Array<{ uuid: string }> } } }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { builds(filter: { change: [9], jobName: ["hello-unit"] }) { nodes { uuid } } } } }`,
    );
    failedBuild = found.tenant.builds.nodes[0].uuid;
    await page.goto(`/t/${TENANT}/build/${failedBuild}`);
    const summary = page.getByRole('region', { name: 'Task summary' });
    await summary.getByText('0 ok · 0 changed · 1 failed').waitFor(WAIT);
    const failed = summary.locator('.failed-task');
    expect(await failed.getByRole('heading', { level: 4 }).textContent()).toContain('scripts/unit.sh (example/hello)');
    expect(await failed.getByText('non-zero return code').count()).toBe(1);
    expect(await failed.getByText('exit code 3').count()).toBe(1);
    expect(await failed.getByLabel('Output', { exact: true }).textContent()).toContain('greeting: got Goodbye');
    expect(await failed.getByLabel('Error output', { exact: true }).textContent()).toBe('expected Hello, Sluice!');

    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await page.waitForURL(`**/t/${TENANT}/build/${failedBuild}/console`);
    const plays = page.getByRole('region', { name: 'Plays and tasks' });
    await plays.getByRole('heading', { name: /Run playbook hello-unit\/run/ }).waitFor(WAIT);
    const task = plays.locator('.tasks details', { hasText: 'scripts/unit.sh' });
    expect(await task.getAttribute('open')).not.toBeNull(); // a failed task is open
    expect(await task.locator('.badge').textContent()).toBe('FAILED');
    expect(await task.getByLabel('Output', { exact: true }).textContent()).toContain('checking case 150');
    await screenshot('build-tasks-1280', page, true);
  }, 240_000);

  it('opens a finished build at its summary on a phone, console not followed', async () => {
    const narrow = await browser.open(390);
    await narrow.goto(`/t/${TENANT}/build/${failedBuild}`);
    await narrow.locator('.console-text', { hasText: 'checking case 150' }).waitFor(WAIT);
    await narrow.getByRole('region', { name: 'Task summary' }).getByText('1 failed').waitFor(WAIT);
    expect(await narrow.getByLabel('Follow').isChecked()).toBe(false);
    expect(await narrow.evaluate(() => window.scrollY)).toBe(0);
    const title = await narrow.getByRole('heading', { level: 1 }).boundingBox();
    expect(title !== null && title.y >= 0 && title.y < 300).toBe(true);
    expect(await overflowProblems(narrow)).toEqual([]);
    await screenshot('build-summary-390', narrow);
    await narrow.close();
  }, 120_000);

  it('opens the build tabs, freeze-job, runtime, semaphore, provider, image and OpenAPI paths', async () => {
    await page.goto(`/t/${TENANT}/build/${passedBuild}/logs`);
    await heading(page, /Build hello-unit/);
    expect(await page.getByRole('link', { name: 'Logs', exact: true }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('region', { name: 'Log files' }).getByRole('button', { name: 'zuul-info/' }).waitFor(WAIT);
    await page.goto(`/t/${TENANT}/build/${passedBuild}/artifacts`);
    await page.getByRole('region', { name: 'Artifacts' }).getByRole('link', { name: 'Zuul Manifest' }).waitFor(WAIT);
    await page.goto(`/t/${TENANT}/build/${passedBuild}/console`);
    await page
      .locator('.tasks .badge', { hasText: /^(OK|CHANGED)$/ })
      .first()
      .waitFor(WAIT);

    await page.goto(`/t/${TENANT}/freeze-job?pipeline=gate&project=${PROJECT}&branch=master&job=hello-unit`);
    await heading(page, 'Freeze job');
    const frozen = page.getByRole('region', { name: 'hello-unit' });
    await frozen.locator('ol.variants li', { hasText: '<Job base ' }).waitFor(WAIT);
    expect(await frozen.locator('ol.variants li').last().textContent()).toMatch(/^<Job hello-unit /);
    expect(await frozen.getByLabel('Parameters of the frozen job').textContent()).toContain('"job": "hello-unit"');
    await page.goto(`/t/${TENANT}/freeze-job?pipeline=gate&project=${PROJECT}&job=no-such-job`);
    await page.locator('.error-box').waitFor(WAIT);
    // The form fills the URL.
    await page.goto(`/t/${TENANT}/freeze-job`);
    const which = page.getByRole('form', { name: 'Which job' });
    await which.getByLabel('Pipeline').fill('check');
    await which.getByLabel('Project').fill(PROJECT);
    await which.getByLabel('Job').fill('hello-lint');
    await page.getByRole('button', { name: 'Freeze' }).click();
    await page.waitForURL(`**/freeze-job?pipeline=check&project=${encodeURIComponent(PROJECT)}&job=hello-lint`);
    await page
      .getByRole('region', { name: 'hello-lint' })
      .locator('ol.variants li', { hasText: '<Job hello-lint ' })
      .first()
      .waitFor(WAIT);

    await page.goto(`/t/${TENANT}/runtime?pipeline=gate&project=${PROJECT}&branch=master&job_name=hello-unit`);
    await heading(page, 'Job runtimes');
    await page.locator('.chart rect.bar').first().waitFor(WAIT);
    expect(await page.locator('.chart rect.bar').count()).toBe(2); // change 8 passed, change 9 failed

    await page.goto(`/t/${LAB}/semaphores`);
    await page.getByRole('link', { name: 'lab-lock' }).click();
    await page.waitForURL(`**/t/${LAB}/semaphore/lab-lock`);
    await heading(page, 'Semaphore lab-lock');
    await page.getByText('0 of 2').waitFor(WAIT);

    // Node lists carry the provider's canonical name; the page shows its name and links its page.
    await page.goto(`/t/${LAB}/nodes`);
    const provider = page.getByRole('link', { name: 'lab-nodes', exact: true }).first();
    await provider.waitFor(WAIT);
    expect(await page.getByText('%2F').count()).toBe(0);
    await provider.click();
    await page.waitForURL(`**/t/${LAB}/provider/lab-nodes`);
    await heading(page, 'Provider lab-nodes');
    await page.locator('table tbody tr', { hasText: 'small' }).waitFor(WAIT);
    await page.getByRole('link', { name: 'built', exact: true }).click();
    await page.waitForURL(`**/t/${LAB}/provider/lab-nodes/image/built`);
    await heading(page, 'Image built');
    await page.getByText('No build of this image yet.').waitFor(WAIT);
    await page.goto(`/t/${LAB}/image/host`);
    await heading(page, 'Image host');
    await page.getByText('A cloud image has no build artifacts.').waitFor(WAIT);

    for (const at of ['/openapi', `/t/${TENANT}/openapi`]) {
      await page.goto(at);
      await heading(page, 'REST API');
      const builds = page.locator('details.operation', { hasText: '/api/tenant/{tenant_name}/builds' }).first();
      await builds.waitFor(WAIT);
      await builds.locator('> summary').click();
      await builds.getByRole('rowheader', { name: /job_name/ }).waitFor(WAIT);
    }
    await page.getByLabel('Shape').selectOption('earlier');
    await page.waitForURL('**/openapi?shape=earlier');
    await page.getByRole('heading', { name: /earlier shape/ }).waitFor(WAIT);
  }, 240_000);

  it('fits 390 px, reads well in light and dark, and is keyboard reachable on the new pages', async () => {
    const pages = [
      `/t/${TENANT}/build/${failedBuild}`,
      `/t/${TENANT}/build/${failedBuild}/console`,
      `/t/${TENANT}/build/${passedBuild}/logs`,
      `/t/${TENANT}/stream/${passedBuild}`,
      `/t/${TENANT}/status/pipeline/gate`,
      `/t/${TENANT}/freeze-job?pipeline=gate&project=${PROJECT}&job=hello-unit`,
      `/t/${TENANT}/runtime?pipeline=gate&project=${PROJECT}&job_name=hello-unit`,
      `/t/${TENANT}/project/${PROJECT}`,
      `/t/${LAB}/semaphore/lab-lock`,
      `/t/${LAB}/provider/lab-nodes`,
      `/t/${LAB}/image/built`,
      `/t/${LAB}/nodes`,
      '/openapi',
    ];
    expect(
      await pageProblems(browser, pages, [
        [390, 'light', true],
        [390, 'dark', false],
        [1280, 'light', false],
      ]),
    ).toEqual([]);
  }, 600_000);

  it('draws job graph boxes with text at body size', async () => {
    await page.goto(`/t/${TENANT}/project/${PROJECT}`);
    const label = page.locator('.graph svg g.node text').first();
    await label.waitFor(WAIT);
    const box = await label.boundingBox();
    // 12 px text: its box is about 15 px high (drawn scaled to the page width it was about 50 px).
    expect(box !== null && box.height < 20).toBe(true);
  }, 60_000);

  it('shows the builds filters in force in the form', async () => {
    await page.goto(`/t/${TENANT}/builds?result=FAILURE&voting=1&held=0`);
    await page.locator('table.builds-table tbody tr').first().waitFor(WAIT);
    expect(await page.getByLabel('Result').inputValue()).toBe('FAILURE');
    expect(await page.getByLabel('Voting').inputValue()).toBe('true');
    expect(await page.getByLabel('Held').inputValue()).toBe('false');
    expect(await page.locator('details.more-filters').getAttribute('open')).not.toBeNull();
    await page.goto(`/t/${TENANT}/builds?result=FAILURE&result=SUCCESS&voting=true`);
    await page.locator('table.builds-table tbody tr').first().waitFor(WAIT);
    expect(await page.getByLabel('Result').inputValue()).toBe('FAILURE, SUCCESS');
    expect(await page.getByLabel('Voting').inputValue()).toBe('true');
    // Submitting the form keeps them.
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`**/builds?result=FAILURE&result=SUCCESS&voting=true`);
  }, 60_000);

  it("reads a real Ansible job's job-output.json: task summary, plays, tasks and hosts, console", async () => {
    await deployment.pushChange(20, { 'greeting.txt': 'Goodbye\n' }, 'Say goodbye instead', PLAYBOOK_PROJECT);
    await deployment.gate(20, PLAYBOOK_PROJECT);
    const found = await deployment.graphql<{
      tenant: { builds: { nodes: Array<{ uuid: string; result: string }> } };
    }>(
      `query { tenant(name: "${TENANT}") { ... on Tenant { builds(filter: { change: [20], jobName: ["greeting-check"] }) { nodes { uuid result } } } } }`,
    );
    expect(found.tenant.builds.nodes.map((b) => b.result)).toEqual(['FAILURE']);
    const uuid = found.tenant.builds.nodes[0].uuid;
    await page.goto(`/t/${TENANT}/build/${uuid}`);
    const summary = page.getByRole('region', { name: 'Task summary' });
    const host = summary.locator('.host-summary');
    await host.getByText('1 failed').waitFor(WAIT);
    // ansible-playbook's own stats of the node: two tasks ok (one of them changed), one failed.
    expect(await host.getByRole('heading', { level: 3 }).textContent()).toBe('worker 2 ok · 1 changed · 1 failed');
    const failed = summary.locator('.failed-task');
    expect(await failed.count()).toBe(1);
    expect(await failed.getByRole('heading', { level: 4 }).textContent()).toMatch(
      /^FAILED Compare the greeting \(.*example\/playbooks\/playbooks\/check\.yaml.*\)$/,
    );
    expect(await failed.getByText('exit code 3').count()).toBe(1);
    // Without ansible-split-streams the command's stderr joins its stdout, as in the reference.
    expect(await failed.getByLabel('Output', { exact: true }).textContent()).toBe(
      'greeting: got Goodbye\nexpected Hello, Sluice!',
    );
    // The text console the callback wrote as the tasks ran.
    await page.locator('.console-text', { hasText: 'Compare the greeting' }).first().waitFor(WAIT);

    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await page.waitForURL(`**/t/${TENANT}/build/${uuid}/console`);
    const run = page.getByRole('region', { name: 'Plays and tasks' }).getByRole('region', { name: /^Run playbook / });
    await run.getByRole('heading', { name: /^Play Check the greeting/ }).waitFor(WAIT);
    const rows = await run
      .locator('.tasks summary')
      .evaluateAll((summaries) =>
        summaries.map((row) =>
          ['.badge', '.task-name', '.muted'].map((part) => row.querySelector(part)?.textContent?.split(' · ')[0]),
        ),
      );
    expect(rows).toEqual([
      ['OK', 'Say where we are', 'worker'],
      ['CHANGED', 'Build the greeting', 'worker'],
      ['FAILED', 'Compare the greeting', 'worker'],
    ]);
    const task = run.locator('.tasks details', { hasText: 'Compare the greeting' });
    expect(await task.getAttribute('open')).not.toBeNull(); // a failed task is open
    expect(await task.getByLabel('Output', { exact: true }).textContent()).toContain('expected Hello, Sluice!');
    await screenshot('build-ansible-console-1280', page, true);
  }, 240_000);
});
