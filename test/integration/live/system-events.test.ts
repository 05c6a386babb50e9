/** The systemEvents subscription pushes every event of its tenant, in order, with no gaps (real server, graphql-ws). */
import type { Client } from 'graphql-ws';
import { SystemEventRepository } from '../../../src/store/repositories/system-events';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  adminToken,
  startLiveServer,
  subscribersActive,
  Subscription,
  wsClient,
  type LiveServer,
} from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const SYSTEM_EVENTS = /* GraphQL */ `
  subscription ($t: String!) {
    systemEvents(tenant: $t) {
      databaseId
      eventType
      description
    }
  }
`;
const SET_STATE = /* GraphQL */ `
  mutation ($input: TenantStateSetInput!) {
    tenantStateSet(input: $input) {
      __typename
    }
  }
`;

interface Received {
  systemEvents: { databaseId: number; eventType: string; description: string };
}

describe('systemEvents subscription', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  let client: Client;
  let events: SystemEventRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    events = new SystemEventRepository(db.knex);
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function start(systemEventPollMs: number): Promise<void> {
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: { 'org/project': { gate: [job('unit')] } },
      }),
    );
    await h.start();
    server = await startLiveServer(db, { harness: h, live: { statusIntervalMs: 20, systemEventPollMs } });
    client = wsClient(server);
  }

  afterEach(async () => {
    await client.dispose();
    await server.stop();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  /** The tenant's events recorded after `afterId`, oldest first, as the database has them. */
  async function recordedAfter(afterId: number): Promise<number[]> {
    const all = await events.list(h.tenant, { limit: 10_000, offset: 0 });
    return all
      .map((event) => event.id)
      .filter((id) => id > afterId)
      .sort((a, b) => a - b);
  }

  it('pushes all of more than 200 events recorded between two changes, in order', async () => {
    await start(60_000); // no polling during the test: only the two changes wake the reader
    const admin = adminToken(h.tenant);
    const other = `${h.tenant}-other`;
    const sub = new Subscription<Received>(client, SYSTEM_EVENTS, { t: h.tenant });
    await subscribersActive(server, { systemEvents: 1 });
    const before = await events.latestId();

    expect(
      (
        await server.graphql(
          SET_STATE,
          { input: { tenant: h.tenant, triggerQueuePaused: true, reason: 'first change' } },
          admin,
        )
      ).data,
    ).toEqual({
      tenantStateSet: { __typename: 'TenantEventQueueState' },
    });
    for (let index = 0; index < 250; index += 1) {
      await events.record({
        tenant: h.tenant,
        eventType: 'enqueued',
        description: `bulk ${index}`,
        eventTime: new Date(),
      });
      await events.record({
        tenant: other,
        eventType: 'enqueued',
        description: `other ${index}`,
        eventTime: new Date(),
      });
    }
    expect(
      (
        await server.graphql(
          SET_STATE,
          { input: { tenant: h.tenant, triggerQueuePaused: false, reason: 'second change' } },
          admin,
        )
      ).data,
    ).toEqual({
      tenantStateSet: { __typename: 'TenantEventQueueState' },
    });

    const expected = await recordedAfter(before);
    expect(expected).toHaveLength(252);
    await sub.waitFor(252);
    const received = sub.results.map((result) => result.data?.systemEvents);
    expect(received.map((event) => event?.databaseId)).toEqual(expected);
    expect(
      received.map((event) => event?.description).filter((description) => description?.startsWith('bulk')),
    ).toEqual(Array.from({ length: 250 }, (_, index) => `bulk ${index}`));
    expect(received[0]?.eventType).toBe('TENANT_STATE_CHANGED');
    expect(received[251]?.eventType).toBe('TENANT_STATE_CHANGED');
    sub.close();
  });

  it('pushes an event recorded with no accompanying change', async () => {
    await start(50);
    const sub = new Subscription<Received>(client, SYSTEM_EVENTS, { t: h.tenant });
    await subscribersActive(server, { systemEvents: 1 });
    const recorded = await events.record({
      tenant: h.tenant,
      eventType: 'node-held',
      description: 'held by a component of another process',
      eventTime: new Date(),
    });
    await sub.waitFor(1);
    expect(sub.results.map((result) => result.data?.systemEvents)).toEqual([
      { databaseId: recorded.id, eventType: 'NODE_HELD', description: 'held by a component of another process' },
    ]);
    sub.close();
  });
});
