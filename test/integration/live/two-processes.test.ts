/**
 * Two Sluice servers sharing PostgreSQL and Redis (each with its own Redis connections, as two
 * processes would have): a change made through one is pushed to the subscribers of the other.
 * Also: a client that stops reading does not hold up the others.
 */
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { Engine } from '../../../src/engine/engine';
import { InProcessEventBus } from '../../../src/engine/event-bus';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import { RedisBus } from '../../../subscriptions/bus/redis-bus';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken, startLiveServer, Subscription, wsClient, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { QUEUE_EVENT_FIELDS, type QueueEventView } from './status-fields';
import { describeIf, MULTI_PROCESS } from '../../helpers/preconditions';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const withPostgres = describeIf(MULTI_PROCESS);

const layoutSpec = () => ({
  tenant: nextTenant(),
  pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
  projects: [{ name: 'org/project', queue: 'integrated' }],
  jobs: { 'org/project': { gate: [job('unit')] } },
});

const QUEUE_EVENTS = /* GraphQL */ `subscription ($tenant: String!, $afterSeq: Int) { queueEvents(tenant: $tenant, afterSeq: $afterSeq) { ${QUEUE_EVENT_FIELDS} } }`;

withPostgres('two servers on PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let first: LiveServer;
  let second: LiveServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(db, makeLayout(layoutSpec()));
    await h.start();
    // The second process runs no scheduler; its engine object only reads status from the store.
    const reader = new Engine({
      database: db,
      layouts: (tenant) => (tenant === h.tenant ? h.layout : null),
      gateways: { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes },
      bus: new InProcessEventBus(),
      clock: h.clock,
    });
    first = await startLiveServer(db, { harness: h, bus: new RedisBus(REDIS_URL) });
    second = await startLiveServer(db, {
      engine: reader,
      bus: new RedisBus(REDIS_URL),
      tenants: { tenantNames: () => [h.tenant], layout: () => undefined },
    });
  });

  afterAll(async () => {
    for (const created of clients) {
      await created.dispose();
    }
    await second.stop();
    await first.stop();
    await h.stop();
    await db.destroy();
  });

  it('pushes deltas and status caused through one server to subscribers of the other', async () => {
    const committed = (await new EngineStateRepository(db.knex).loadTenant(h.tenant)).busSequence;
    const remote = wsClient(second);
    clients.push(remote);
    const events = new Subscription<{ queueEvents: QueueEventView }>(remote, QUEUE_EVENTS, {
      tenant: h.tenant,
      afterSeq: committed,
    });
    const status = new Subscription<{
      tenantStatus: {
        pipelines: Array<{ changeQueues: Array<{ heads: Array<Array<{ refs: Array<{ id: string }> }>> }> }>;
      };
    }>(
      remote,
      /* GraphQL */ `
        subscription ($t: String!) {
          tenantStatus(tenant: $t) {
            pipelines {
              changeQueues {
                heads {
                  refs {
                    id
                  }
                }
              }
            }
          }
        }
      `,
      { t: h.tenant },
    );
    await status.waitFor(1);

    h.changes.add('org/project', 1);
    const enqueued = await first.graphql(
      /* GraphQL */ `
        mutation ($input: EnqueueInput!) {
          enqueue(input: $input) {
            __typename
          }
        }
      `,
      { input: { tenant: h.tenant, pipeline: 'gate', project: 'org/project', change: '1,1' } },
      adminToken(h.tenant),
    );
    expect(enqueued.data).toEqual({ enqueue: { __typename: 'ManagementEventAccepted' } });
    await h.settle();
    await events.until(() =>
      events.results.some((result) =>
        (result.data?.queueEvents.changes ?? []).some((change) => change.__typename === 'ItemEnqueued'),
      ),
    );
    await status.until(() => JSON.stringify(status.results[status.results.length - 1]?.data).includes('"1,1"'));
    expect(
      events.results.every(
        (result) => result.data?.queueEvents.__typename !== 'QueueDelta' || result.data.queueEvents.tenant === h.tenant,
      ),
    ).toBe(true);
  });

  it('a client that stops reading does not hold up the others', async () => {
    const stalled = new WebSocket(second.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    await new Promise<void>((resolve, reject) => {
      stalled.once('error', reject);
      stalled.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string };
        if (message.type === 'connection_ack') {
          stalled.send(
            JSON.stringify({
              id: '1',
              type: 'subscribe',
              payload: { query: QUEUE_EVENTS, variables: { tenant: h.tenant } },
            }),
          );
          stalled.pause(); // never reads again
          resolve();
        }
      });
      stalled.once('open', () => stalled.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    });
    const healthy = wsClient(second);
    clients.push(healthy);
    const committed = (await new EngineStateRepository(db.knex).loadTenant(h.tenant)).busSequence;
    const events = new Subscription<{ queueEvents: QueueEventView }>(healthy, QUEUE_EVENTS, {
      tenant: h.tenant,
      afterSeq: committed,
    });
    for (const number of [2, 3, 4]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await h.executor.finishAll();
    await h.settle();
    const target = h.deltas.filter((delta) => delta.type === 'queue-delta').pop()?.sequence ?? 0;
    await events.until(
      () => events.results.some((result) => (result.data?.queueEvents.sequence ?? -1) >= target),
      10_000,
    );
    expect(h.reports().length).toBeGreaterThanOrEqual(3);
    stalled.terminate();
  });
});
