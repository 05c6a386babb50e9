/**
 * `/metrics` (docs/operations.md#metrics) scraped through a real server after a gate run of two
 * changes: the documented series are there in the Prometheus text format with the values the
 * run implies (items, builds, durations, queues, executor slots, leadership, HTTP latency by
 * route, open subscriptions, pool). With `metrics.enabled: false` the path answers 404.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { loadServiceConfig } from '../../src/config/service';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { pushChange, recoveryFiles, waitFor, type RecoveryFiles } from '../helpers/recovery-deployment';
import { startTestServer } from '../helpers/server';

jest.setTimeout(180_000);

/** The value of one series of an exposition, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) {
      continue;
    }
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

describe('/metrics after a gate run', () => {
  let files: RecoveryFiles;
  let database: TestDatabase;
  let app: SluiceApp;
  let client: Client | undefined;

  beforeAll(async () => {
    files = await recoveryFiles();
    writeFileSync(path.join(files.marks, 'release'), '');
    const config = loadServiceConfig(files.configFile);
    database = await createTestDatabase();
    app = buildApp({ config, database, logger: silentLogger(), environment: { PATH: process.env.PATH } });
    await app.start(0, '127.0.0.1');
  });

  afterAll(async () => {
    await client?.dispose();
    await app.stop();
    await database.destroy();
    rmSync(files.dir, { recursive: true, force: true });
  });

  const count = async (where: Record<string, unknown>): Promise<number> => {
    const [{ n }] = await database.knex('buildsets').where(where).count({ n: '*' });
    return Number(n);
  };

  it('shows the documented series with the values of the run', async () => {
    await waitFor(
      'the first poll',
      async () => Number((await database.knex('git_poller_state').count({ n: '*' }))[0].n) > 0,
    );
    await pushChange(files, 1);
    await pushChange(files, 2);
    await waitFor('two changes reported', async () => (await count({ tenant: 'example', result: 'SUCCESS' })) === 2);
    // The two merges come back as Sluice's own ref-updated events (written after the merging
    // pass); once both are processed and the executor is idle, the figures stay put.
    await waitFor('both own ref updates processed', async () => {
      const [{ n }] = await database
        .knex('engine_events')
        .where({ event_type: 'ref-updated' })
        .whereNotNull('processed')
        .count({ n: '*' });
      return Number(n) === 2;
    });
    await waitFor('the executor idle', () => app.roles?.executor.worker.activeCount === 0);
    await app.roles?.engine.settle('example');

    // A live subscription and a REST read, so their series have something to show.
    client = createClient({ url: `${app.url().replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, lazy: false });
    const firstStatus = new Promise<void>((resolve, reject) => {
      client?.subscribe(
        { query: 'subscription { tenantStatus(tenant: "example") { tenant } }' },
        { next: () => resolve(), error: reject, complete: () => undefined },
      );
    });
    await firstStatus;
    expect((await fetch(`${app.url()}/api/tenant/example/status`)).status).toBe(200);

    const response = await fetch(`${app.url()}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    const tenant = { tenant: 'example' };
    const gate = { ...tenant, pipeline: 'gate' };

    expect(sample(text, 'sluice_items_enqueued_total', gate)).toBe(2);
    expect(sample(text, 'sluice_items_dequeued_total', { ...gate, reason: 'reported' })).toBe(2);
    expect(sample(text, 'sluice_builds_completed_total', { ...gate, job: 'slow', result: 'SUCCESS' })).toBe(2);
    expect(sample(text, 'sluice_build_duration_seconds_count', { ...tenant, job: 'slow', result: 'SUCCESS' })).toBe(2);
    const durations = sample(text, 'sluice_build_duration_seconds_sum', { ...tenant, job: 'slow', result: 'SUCCESS' });
    expect(durations).toBeGreaterThan(0);
    expect(durations).toBeLessThan(120);
    const queues = text.split('\n').filter((line) => line.startsWith('sluice_queue_items{'));
    expect(queues).toHaveLength(1);
    expect(queues[0]).toMatch(/^sluice_queue_items\{tenant="example",pipeline="gate",queue="[^"]+"\} 0$/);
    expect(text).toMatch(/^sluice_queue_window\{tenant="example",pipeline="gate",queue="[^"]+"\} [1-9]\d*$/m);
    expect(sample(text, 'sluice_pending_events', { ...tenant, category: 'trigger' })).toBe(0);
    expect(sample(text, 'sluice_pending_events', { ...tenant, category: 'result' })).toBe(0);
    expect(sample(text, 'sluice_build_requests', { state: 'running' })).toBe(0);
    expect(sample(text, 'sluice_nodes', { state: 'in-use' })).toBe(0);
    expect(sample(text, 'sluice_nodeset_requests', { state: 'requested' })).toBe(0);
    expect(sample(text, 'sluice_components_alive', { kind: 'executor' })).toBe(1);
    expect(sample(text, 'sluice_components_alive', { kind: 'api' })).toBe(1);
    expect(sample(text, 'sluice_executor_slots')).toBe(2);
    expect(sample(text, 'sluice_executor_slots_in_use')).toBe(0);
    expect(sample(text, 'sluice_scheduler_leader', tenant)).toBe(1);
    expect(sample(text, 'sluice_subscriptions_open', { kind: 'status' })).toBe(1);
    expect(sample(text, 'sluice_websocket_connections', { endpoint: 'graphql' })).toBe(1);
    expect(sample(text, 'sluice_database_reachable')).toBe(1);
    expect(
      sample(text, 'sluice_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/tenant/{tenant_name}/status',
        status: '200',
      }),
    ).toBe(1);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    if (database.kind === 'postgres') {
      expect(sample(text, 'sluice_db_pool_max')).toBeGreaterThan(0);
      expect(sample(text, 'sluice_db_pool_connections', { state: 'used' })).toBeGreaterThanOrEqual(0);
    }
    // The scrape itself is counted on the next one.
    const again = await (await fetch(`${app.url()}/metrics`)).text();
    expect(
      sample(again, 'sluice_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status: '200' }),
    ).toBe(1);
    expect((await fetch(`${app.url()}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('answers 404 on /metrics when metrics are disabled', async () => {
    const server = await startTestServer({ config: { metrics: { enabled: false } } });
    try {
      const response = await fetch(`${server.url}/metrics`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('Not Found\n');
    } finally {
      await server.stop();
    }
  });
});
