/**
 * The dashboard's status page on a big tenant, in headless Chromium: how long a 500-item status
 * takes to render, and how many item rows one queue delta re-renders (docs/dashboard.md, target:
 * at most 1 s, and only the changed item). The built dashboard is served by the real static
 * middleware; GraphQL is answered by the bench (a synthetic snapshot over HTTP, one delta, a job
 * completed, over a routed graphql-ws socket), so the figure is the browser's work alone.
 *
 *   npx tsx bench/dashboard-status.ts [items] [rounds]
 */
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { spaSite } from '../src/server/spa-site';
import { DASHBOARD_BUILD_DIR } from '../src/server/web';
import { launchBrowser } from '../test/e2e/browser';

const ITEMS = Number(process.argv[2] ?? 500);
const ROUNDS = Number(process.argv[3] ?? 5);
const PER_QUEUE = 50;
const ENQUEUED = Date.now() - 60_000;

function item(n: number, result: string | null) {
  return {
    id: `item-${n}`,
    active: true,
    live: true,
    itemAhead: n % PER_QUEUE === 0 ? null : `item-${n - 1}`,
    itemsBehind: [],
    enqueueTime: ENQUEUED,
    failingReasons: [],
    remainingTime: 120_000,
    waitingFor: null,
    zuulRef: null,
    refs: [{ id: `${n + 1},1`, project: `org/project-${n % 20}`, ref: null, url: null, owner: 'someone' }],
    jobs: ['unit', 'lint', 'integration'].map((name) => ({
      name,
      uuid: `${name}-${n}`,
      result: name === 'lint' ? 'SUCCESS' : name === 'unit' ? result : null,
      queued: false,
      voting: true,
      retry: false,
      tries: 1,
      paused: false,
      canceled: false,
      preFail: false,
      // Not started: a running job's progress bar ticks every second, which would blur the count below.
      startTime: null,
      estimatedTime: 300,
      elapsedTime: 30_000,
      remainingTime: 270_000,
      waitingStatus: null,
      url: null,
      reportUrl: null,
    })),
  };
}

function pipeline() {
  const queues = [];
  for (let q = 0; q * PER_QUEUE < ITEMS; q++) {
    const items = [];
    for (let n = q * PER_QUEUE; n < Math.min(ITEMS, (q + 1) * PER_QUEUE); n++) {
      items.push(item(n, null));
    }
    queues.push({ key: q + 1, name: `queue-${q}`, branch: null, window: 20, items });
  }
  return {
    name: 'gate',
    description: null,
    manager: 'DEPENDENT',
    state: 'NORMAL',
    disabled: false,
    consecutiveFailures: 0,
    triggerEvents: 0,
    managementEvents: 0,
    resultEvents: 0,
    changeQueues: queues,
  };
}

const snapshot = {
  data: {
    tenant: {
      __typename: 'Tenant',
      status: {
        __typename: 'TenantStatus',
        sequence: 1,
        zuulVersion: 'bench',
        lastReconfiguredAt: null,
        triggerEventQueue: { length: 0 },
        managementEventQueue: { length: 0 },
        resultEventQueue: { length: 0 },
        state: { reason: null, triggerQueuePaused: false, triggerQueueDiscarding: false, resultQueuePaused: false },
        pipelines: [pipeline()],
      },
    },
  },
};

async function main(): Promise<void> {
  execFileSync(process.execPath, [require.resolve('tsx/cli'), 'scripts/build-web.ts'], {
    cwd: path.join(__dirname, '..'),
    stdio: 'inherit',
  });
  const koa = new Koa();
  koa.use(spaSite({ dir: DASHBOARD_BUILD_DIR, mountPath: '/' }));
  const server = http.createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchBrowser(base);
  const renders: number[] = [];
  const rerendered: number[] = [];
  const afterSnapshot: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.open(1280);
      let sendDelta: (() => void) | undefined;
      await page.route('**/graphql', (route) => {
        const query = String((route.request().postDataJSON() as { query?: string } | null)?.query ?? '');
        const body = query.includes('StatusSnapshot')
          ? snapshot
          : query.includes('DeploymentInfo')
            ? { data: { info: { version: 'bench', capabilities: { auth: { defaultRealm: null, realms: [] } } } } }
            : { data: { tenantInfo: null } };
        return route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
      });
      await page.routeWebSocket('**/graphql', (ws) => {
        ws.onMessage((raw) => {
          const message = JSON.parse(String(raw)) as { type: string; id?: string; payload?: { query?: string } };
          if (message.type === 'connection_init') {
            ws.send(JSON.stringify({ type: 'connection_ack' }));
          } else if (message.type === 'subscribe' && message.payload?.query?.includes('queueEvents')) {
            const id = message.id;
            sendDelta = () =>
              ws.send(
                JSON.stringify({
                  id,
                  type: 'next',
                  payload: {
                    data: {
                      queueEvents: {
                        __typename: 'QueueDelta',
                        sequence: 2,
                        changes: [
                          {
                            __typename: 'JobCompleted',
                            pipeline: 'gate',
                            itemId: `item-${Math.floor(ITEMS / 2)}`,
                            job: item(Math.floor(ITEMS / 2), 'SUCCESS').jobs[0],
                          },
                        ],
                      },
                    },
                  },
                }),
              );
          }
        });
      });
      const started = Date.now();
      await page.goto('/t/bench/status');
      await page
        .locator('li.item')
        .nth(ITEMS - 1)
        .waitFor({ timeout: 60_000 });
      renders.push(Date.now() - started);
      // From the snapshot's arrival to the rendered items, as the browser measured it.
      afterSnapshot.push(
        await page.evaluate(() => {
          const snapshotEntry = performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.endsWith('/graphql'))
            .map((entry) => (entry as PerformanceResourceTiming).responseEnd)
            .sort((a, b) => b - a)[0];
          return Math.round(performance.now() - (snapshotEntry ?? 0));
        }),
      );
      // Count the item rows whose DOM the delta touches.
      await page.evaluate(() => {
        const touched = new Set<Element>();
        (window as unknown as { touched: Set<Element> }).touched = touched;
        new MutationObserver((records) => {
          for (const record of records) {
            const row = (record.target instanceof Element ? record.target : record.target.parentElement)?.closest(
              'li.item',
            );
            if (row) {
              touched.add(row);
            }
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      sendDelta?.();
      await page
        .locator(`li.item[data-item="item-${Math.floor(ITEMS / 2)}"] .job:first-child .badge`, { hasText: 'SUCCESS' })
        .waitFor({ timeout: 10_000 });
      await page.waitForTimeout(200);
      rerendered.push(await page.evaluate(() => (window as unknown as { touched: Set<Element> }).touched.size));
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  const sorted = [...renders].sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        items: ITEMS,
        rounds: ROUNDS,
        navigationToRenderedMs: {
          median: sorted[Math.floor(sorted.length / 2)],
          max: sorted[sorted.length - 1],
          all: renders,
        },
        snapshotToRenderedMs: afterSnapshot,
        itemRowsTouchedByOneDelta: rerendered,
      },
      null,
      2,
    ),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
