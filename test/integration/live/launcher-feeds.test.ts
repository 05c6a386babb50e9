/**
 * Live nodes and nodeset requests (docs/live.md#launcher-feeds) through a real server and
 * graphql-ws: the page at once, then each write of a record of the tenant as it is when
 * delivered (or its removal), whichever component wrote it; a new subscription after a dropped
 * connection starts from a page that holds what it missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'graphql-ws';
import type { ServiceConfig } from '../../../src/config/service';
import { createLauncher, type Launcher } from '../../../src/launcher/launcher';
import { LauncherChangeRepository } from '../../../src/store/repositories/launcher-changes';
import { buildApp, type SluiceApp } from '../../../src/server/app';
import { silentLogger } from '../../../src/server/logger';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { launcherLayout, TestClock, TestLayouts } from '../../helpers/launcher-layout';
import { adminToken, liveTestConfig, Subscription, type EventResult } from '../../helpers/live';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const NODE_EVENTS = /* GraphQL */ `
  subscription ($tenant: String!, $filter: NodeFilter, $first: Int) {
    nodeEvents(tenant: $tenant, filter: $filter, first: $first) {
      __typename
      ... on ProviderNodesSnapshot {
        totalCount
        records {
          uuid
          databaseId
          state
          label
        }
      }
      ... on ProviderNodeChanged {
        uuid
        totalCount
        record {
          uuid
          state
          comment
        }
      }
    }
  }
`;

const REQUEST_EVENTS = /* GraphQL */ `
  subscription ($tenant: String!, $first: Int) {
    nodesetRequestEvents(tenant: $tenant, first: $first) {
      __typename
      ... on NodesetRequestsSnapshot {
        totalCount
        records {
          uuid
          state
        }
      }
      ... on NodesetRequestChanged {
        uuid
        totalCount
        record {
          uuid
          state
          jobName
        }
      }
    }
  }
`;

interface NodeEvent {
  nodeEvents: {
    __typename: string;
    totalCount: number;
    uuid?: string;
    records?: Array<{ uuid: string; databaseId: number; state: string; label: string }>;
    record?: { uuid: string; state: string; comment: string | null } | null;
  };
}

interface RequestEvent {
  nodesetRequestEvents: {
    __typename: string;
    totalCount: number;
    uuid?: string;
    records?: Array<{ uuid: string; state: string }>;
    record?: { uuid: string; state: string; jobName: string } | null;
  };
}

const ADMIN = adminToken('acme');

describe('live nodes and nodeset requests', () => {
  let database: TestDatabase;
  let app: SluiceApp;
  let launcher: Launcher;
  let dataDir: string;
  let client: Client;

  function newClient(): Client {
    return createClient({
      url: `${app.url().replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { authorization: `Bearer ${ADMIN}` },
    });
  }

  async function graphql(query: string, variables: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const res = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data ?? {};
  }

  const request = (id: string, tenant: string, labels: string[]) =>
    launcher.gateway.requestNodes({
      id,
      tenant,
      pipeline: 'check',
      buildsetUuid: `bs-${id}`,
      jobName: `job-${id}`,
      labels,
      priority: 200,
    });

  /** The results of `sub` received so far, from the index `from` on. */
  const since = <T>(sub: Subscription<T>, from: number): Array<EventResult<T>> => sub.results.slice(from);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-live-'));
    database = await createTestDatabase({ migrate: false });
    const config: ServiceConfig = { ...liveTestConfig(), dataDir, connections: { local: { driver: 'local' } } };
    const layouts = new TestLayouts(
      launcherLayout({
        tenant: 'acme',
        images: [{ name: 'debian', type: 'cloud' }],
        flavors: ['normal'],
        labels: [{ name: 'small', image: 'debian', flavor: 'normal' }],
        sections: [{ name: 'local-section', connection: 'local' }],
        providers: [
          {
            name: 'local-main',
            section: 'local-section',
            config: { labels: ['small'], images: ['debian'], flavors: ['normal'] },
          },
        ],
      }),
      launcherLayout({ tenant: 'other' }),
    );
    // Only subscriber wake-ups or this short poll bring changes: the launcher runs no loop here.
    app = buildApp({ config, database, logger: silentLogger(), tenants: layouts, live: { launcherChangePollMs: 20 } });
    await app.start(0, '127.0.0.1');
    launcher = createLauncher({ config, knex: database.knex, layouts, now: new TestClock().now });
  }, 120_000);

  beforeEach(() => {
    client = newClient();
  });

  afterEach(async () => {
    await client.dispose();
  });

  afterAll(async () => {
    await launcher.stop();
    await app.stop();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the page, then each node as the launcher and an admin change it', async () => {
    const sub = new Subscription<NodeEvent>(client, NODE_EVENTS, { tenant: 'acme' });
    const [snapshot] = await sub.waitFor(1);
    expect(snapshot.data?.nodeEvents).toEqual({ __typename: 'ProviderNodesSnapshot', totalCount: 0, records: [] });

    await request('r1', 'acme', ['small']);
    await launcher.runOnce();
    const [node] = await launcher.context.repos.nodes.listByRequest('r1');
    expect(node.state).toBe('ready');
    // requested -> building -> ready, each delivered as the node is when delivered (so the later
    // ones may already read `READY`), the last one certainly READY.
    await sub.until(() => sub.results.at(-1)?.data?.nodeEvents.record?.state === 'READY', 10_000, 'the node ready');
    const changes = since(sub, 1).map((result) => result.data?.nodeEvents);
    expect(changes.every((change) => change?.__typename === 'ProviderNodeChanged' && change.uuid === node.uuid)).toBe(
      true,
    );
    expect(changes.at(-1)?.totalCount).toBe(1);

    const held = sub.results.length;
    await graphql(
      `
        mutation ($input: NodeHoldInput!) {
          nodeHold(input: $input) {
            __typename
          }
        }
      `,
      { input: { tenant: 'acme', nodeId: node.uuid, comment: 'look at it' } },
    );
    // A change of the node delivered late (written before the hold) may arrive first: wait for the hold itself.
    await sub.until(
      () => since(sub, held).some((result) => result.data?.nodeEvents.record?.state === 'HOLD'),
      10_000,
      'the hold',
    );
    expect(since(sub, held).at(-1)?.data?.nodeEvents).toEqual({
      __typename: 'ProviderNodeChanged',
      uuid: node.uuid,
      totalCount: 1,
      record: { uuid: node.uuid, state: 'HOLD', comment: 'look at it' },
    });
    expect(sub.results.every((result) => result.errors === undefined)).toBe(true);
    sub.close();
  }, 60_000);

  it("follows a request's life and its removal, and never another tenant's", async () => {
    const acme = new Subscription<RequestEvent>(client, REQUEST_EVENTS, { tenant: 'acme' });
    const other = new Subscription<RequestEvent>(client, REQUEST_EVENTS, { tenant: 'other' });
    const [first] = await acme.waitFor(1);
    await other.waitFor(1);
    const before = first.data?.nodesetRequestEvents.totalCount ?? 0;

    // Wait for r2's own event: a change of an earlier test's request written before the snapshot
    // may still be delivered after it (the feed is at-least-once around its snapshot).
    const eventOf = (uuid: string) => acme.results.findLast((r) => r.data?.nodesetRequestEvents.uuid === uuid);
    await request('r2', 'acme', ['small']);
    await acme.until(() => eventOf('r2') !== undefined, 10_000, 'the new request');
    expect(eventOf('r2')?.data?.nodesetRequestEvents).toEqual({
      __typename: 'NodesetRequestChanged',
      uuid: 'r2',
      totalCount: before + 1,
      record: { uuid: 'r2', state: 'REQUESTED', jobName: 'job-r2' },
    });

    await launcher.runOnce();
    await acme.until(
      () => eventOf('r2')?.data?.nodesetRequestEvents.record?.state === 'FULFILLED',
      10_000,
      'the fulfilment',
    );
    const nodes = await launcher.context.repos.nodes.listByRequest('r2');
    await launcher.gateway.returnNodes(
      'acme',
      nodes.map((node) => ({ id: node.uuid, label: node.label })),
    );
    await acme.until(() => eventOf('r2')?.data?.nodesetRequestEvents.record === null, 10_000, 'the removal');
    expect(eventOf('r2')?.data?.nodesetRequestEvents).toEqual({
      __typename: 'NodesetRequestChanged',
      uuid: 'r2',
      totalCount: before,
      record: null,
    });

    // The other tenant saw its own page only: no change of acme's request reached it.
    expect(other.results.map((result) => result.data?.nodesetRequestEvents.__typename)).toEqual([
      'NodesetRequestsSnapshot',
    ]);
    await request('r3', 'other', ['small']);
    await other.until(() => other.results.length > 1, 10_000, "the other tenant's request");
    expect(other.results[1].data?.nodesetRequestEvents.uuid).toBe('r3');
    acme.close();
    other.close();
  }, 60_000);

  it('filters: a node leaving the filter is sent as removed', async () => {
    await request('r4', 'acme', ['small']);
    await launcher.runOnce();
    const [node] = await launcher.context.repos.nodes.listByRequest('r4');
    const sub = new Subscription<NodeEvent>(client, NODE_EVENTS, { tenant: 'acme', filter: { states: ['READY'] } });
    const [snapshot] = await sub.waitFor(1);
    expect(snapshot.data?.nodeEvents.records?.map((record) => record.uuid)).toContain(node.uuid);
    await graphql(
      `
        mutation ($input: NodeHoldInput!) {
          nodeHold(input: $input) {
            __typename
          }
        }
      `,
      {
        input: { tenant: 'acme', nodeId: node.uuid },
      },
    );
    await sub.until(() => sub.results.length > 1, 10_000, 'the change');
    expect(sub.results[1].data?.nodeEvents).toMatchObject({ uuid: node.uuid, record: null });
    sub.close();
  }, 60_000);

  it('starts a new subscription after a dropped connection from a page holding what it missed', async () => {
    const sub = new Subscription<RequestEvent>(client, REQUEST_EVENTS, { tenant: 'acme' });
    await sub.waitFor(1);
    await client.dispose(); // the connection drops
    await request('r5', 'acme', ['small']);
    client = newClient();
    const again = new Subscription<RequestEvent>(client, REQUEST_EVENTS, { tenant: 'acme' });
    const [snapshot] = await again.waitFor(1);
    expect(snapshot.data?.nodesetRequestEvents.__typename).toBe('NodesetRequestsSnapshot');
    expect(snapshot.data?.nodesetRequestEvents.records?.[0]).toEqual({ uuid: 'r5', state: 'REQUESTED' });
    again.close();
  }, 60_000);

  it('refuses a negative page size with a typed error', async () => {
    const sub = new Subscription<NodeEvent>(client, NODE_EVENTS, { tenant: 'acme', first: -1 });
    const [result] = await sub.waitFor(1);
    expect(result.errors?.[0]).toMatchObject({
      message: '`first` and `offset` must not be negative.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('logs every write of a node or request except lock-holder changes, and prunes old entries', async () => {
    const changes = new LauncherChangeRepository(database.knex);
    const latest = await changes.latestId();
    await request('r6', 'acme', ['small']);
    const written = await changes.listAfter(latest, 100);
    expect(written.map((change) => [change.kind, change.uuid, change.tenant])).toEqual([
      ['nodeset-request', 'r6', 'acme'],
    ]);
    await launcher.context.repos.requests.update('r6', { lockHolder: 'someone' }, new Date());
    expect(await changes.listAfter(written[0].id, 100)).toEqual([]);
    await changes.pruneOlderThan(3600);
    expect((await changes.listAfter(latest, 100)).map((change) => change.uuid)).toEqual(['r6']); // too recent
    await database.knex('launcher_changes').update({ changed_at: new Date(Date.now() - 7200_000) });
    await changes.pruneOlderThan(3600);
    expect(await changes.listAfter(0, 10)).toEqual([]);
  });
});
