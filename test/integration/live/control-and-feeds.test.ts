/** Control mutations (tenant admin, typed errors) and the build, buildset and system-event feeds; protocol limits. */
import type { Client } from 'graphql-ws';
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

const layoutSpec = () => ({
  tenant: nextTenant(),
  pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
  projects: [{ name: 'org/project', queue: 'integrated' }],
  jobs: { 'org/project': { gate: [job('unit'), job('integration')] } },
});

const ENQUEUE = /* GraphQL */ `
  mutation ($input: EnqueueInput!) {
    enqueue(input: $input) {
      __typename
      ... on ManagementEventAccepted {
        eventId
        tenant
      }
      ... on Error {
        message
      }
      ... on NotFoundError {
        resource
        key
      }
      ... on InvalidInputError {
        field
      }
    }
  }
`;

describe('control mutations and live feeds', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  const clients: Client[] = [];
  let admin: string;

  function client(): Client {
    const created = wsClient(server);
    clients.push(created);
    return created;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    h = new EngineHarness(db, makeLayout(layoutSpec()));
    await h.start();
    admin = adminToken(h.tenant);
    server = await startLiveServer(db, {
      harness: h,
      live: { statusIntervalMs: 20 },
      webSocket: { maxSubscriptionsPerConnection: 2 },
    });
  });

  afterEach(async () => {
    for (const created of clients.splice(0)) {
      await created.dispose();
    }
    await server.stop();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  it('enqueue requires tenant admin and answers typed errors', async () => {
    h.changes.add('org/project', 1);
    const input = { tenant: h.tenant, pipeline: 'gate', project: 'org/project', change: '1,1' };
    const anonymous = await server.graphql(ENQUEUE, { input });
    expect(anonymous.errors?.[0]).toMatchObject({
      message: 'Missing "Authorization" header',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const otherAdmin = await server.graphql(ENQUEUE, { input }, adminToken('some-other-tenant'));
    expect(otherAdmin.errors?.[0]).toMatchObject({ message: 'Permission denied', extensions: { code: 'FORBIDDEN' } });

    const unknownPipeline = await server.graphql(ENQUEUE, { input: { ...input, pipeline: 'nope' } }, admin);
    expect(unknownPipeline.data).toEqual({
      enqueue: { __typename: 'InvalidInputError', message: 'Unknown pipeline', field: 'pipeline' },
    });
    const unknownProject = await server.graphql(ENQUEUE, { input: { ...input, project: 'org/nope' } }, admin);
    expect(unknownProject.data).toEqual({
      enqueue: { __typename: 'NotFoundError', message: 'Unknown project', resource: 'Project', key: 'org/nope' },
    });
    const noChange = await server.graphql(
      ENQUEUE,
      { input: { tenant: h.tenant, pipeline: 'gate', project: 'org/project' } },
      admin,
    );
    expect(noChange.data).toEqual({
      enqueue: { __typename: 'InvalidInputError', message: 'Invalid request body', field: null },
    });

    const accepted = await server.graphql<{ enqueue: { __typename: string; eventId: number } }>(
      ENQUEUE,
      { input },
      admin,
    );
    expect(accepted.data?.enqueue.__typename).toBe('ManagementEventAccepted');
    await h.settle();
    const status = await server.graphql<{
      tenant: { status: { changeItems: Array<{ refs: Array<{ id: string }> }> } };
    }>(
      /* GraphQL */ `
        query ($t: String!) {
          tenant(name: $t) {
            ... on Tenant {
              status {
                ... on TenantStatus {
                  changeItems(change: "1,1") {
                    refs {
                      id
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { t: h.tenant },
    );
    expect(status.data?.tenant.status.changeItems.map((item) => item.refs[0]?.id)).toEqual(['1,1']);
  });

  it('dequeue, promote, tenantStateSet and autohold mutations', async () => {
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    const promote = await server.graphql(
      /* GraphQL */ `
        mutation ($input: PromoteInput!) {
          promote(input: $input) {
            __typename
            ... on Error {
              message
            }
          }
        }
      `,
      { input: { tenant: h.tenant, pipeline: 'gate', changes: ['9,1'] } },
      admin,
    );
    expect(promote.data).toEqual({
      promote: { __typename: 'InvalidInputError', message: 'Change 9,1 is not in pipeline gate' },
    });
    const dequeue = await server.graphql(
      /* GraphQL */ `
        mutation ($input: DequeueInput!) {
          dequeue(input: $input) {
            __typename
          }
        }
      `,
      { input: { tenant: h.tenant, pipeline: 'gate', project: 'org/project', change: '2,1' } },
      admin,
    );
    expect(dequeue.data).toEqual({ dequeue: { __typename: 'ManagementEventAccepted' } });
    await h.settle();
    const afterDequeue = await server.graphql<{ tenant: { status: { changeItems: unknown[] } } }>(
      /* GraphQL */ `
        query ($t: String!) {
          tenant(name: $t) {
            ... on Tenant {
              status {
                ... on TenantStatus {
                  changeItems(change: "2,1") {
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
    expect(afterDequeue.data?.tenant.status.changeItems).toEqual([]);

    const statusSub = new Subscription<{
      tenantStatus: { state: { triggerQueuePaused: boolean; reason: string | null } };
    }>(
      client(),
      /* GraphQL */ `
        subscription ($t: String!) {
          tenantStatus(tenant: $t) {
            state {
              triggerQueuePaused
              reason
            }
          }
        }
      `,
      { t: h.tenant },
    );
    await statusSub.waitFor(1);
    const paused = await server.graphql(
      /* GraphQL */ `
        mutation ($input: TenantStateSetInput!) {
          tenantStateSet(input: $input) {
            __typename
            ... on TenantEventQueueState {
              triggerQueuePaused
              reason
            }
          }
        }
      `,
      { input: { tenant: h.tenant, triggerQueuePaused: true, reason: 'maintenance' } },
      admin,
    );
    expect(paused.data).toEqual({
      tenantStateSet: { __typename: 'TenantEventQueueState', triggerQueuePaused: true, reason: 'maintenance' },
    });
    await statusSub.until(() =>
      statusSub.results.some((result) => result.data?.tenantStatus.state.reason === 'maintenance'),
    );

    const events = new Subscription<{ systemEvents: { eventType: string; description: string } }>(
      client(),
      /* GraphQL */ `
        subscription ($t: String!) {
          systemEvents(tenant: $t, types: [AUTOHOLD_CREATED, AUTOHOLD_DELETED]) {
            eventType
            description
          }
        }
      `,
      { t: h.tenant },
    );
    await subscribersActive(server, { status: 1, systemEvents: 1 });
    const created = await server.graphql<{ autoholdCreate: { __typename: string; id: string; refFilter: string } }>(
      /* GraphQL */ `
        mutation ($input: AutoholdCreateInput!) {
          autoholdCreate(input: $input) {
            __typename
            ... on Autohold {
              id
              refFilter
            }
            ... on Error {
              message
            }
          }
        }
      `,
      { input: { tenant: h.tenant, project: 'org/project', job: 'unit', count: 1, reason: 'debug', change: '1' } },
      admin,
    );
    expect(created.data?.autoholdCreate).toMatchObject({ __typename: 'Autohold', refFilter: 'refs/changes/01/1/.*' });
    const badRegex = await server.graphql(
      /* GraphQL */ `
        mutation ($input: AutoholdCreateInput!) {
          autoholdCreate(input: $input) {
            __typename
            ... on Error {
              message
            }
          }
        }
      `,
      { input: { tenant: h.tenant, project: 'org/project', job: 'unit', count: 1, reason: 'x', ref: '*abc' } },
      admin,
    );
    expect(badRegex.data).toMatchObject({ autoholdCreate: { __typename: 'InvalidInputError' } });
    const id = created.data?.autoholdCreate.id ?? '';
    const listed = await server.graphql<{
      tenant: { autoholds: Array<{ id: string }>; autohold: { __typename: string } };
    }>(
      /* GraphQL */ `
        query ($t: String!, $id: String!) {
          tenant(name: $t) {
            ... on Tenant {
              autoholds {
                id
              }
              autohold(id: $id) {
                __typename
              }
            }
          }
        }
      `,
      { t: h.tenant, id: String(Number(id)) },
    );
    expect(listed.data?.tenant.autoholds.map((entry) => entry.id)).toEqual([id]);
    expect(listed.data?.tenant.autohold.__typename).toBe('Autohold');
    const deleted = await server.graphql(
      /* GraphQL */ `
        mutation ($input: AutoholdDeleteInput!) {
          autoholdDelete(input: $input) {
            __typename
            ... on AutoholdDeleted {
              id
            }
          }
        }
      `,
      { input: { tenant: h.tenant, id } },
      admin,
    );
    expect(deleted.data).toEqual({ autoholdDelete: { __typename: 'AutoholdDeleted', id } });
    const missing = await server.graphql(
      /* GraphQL */ `
        mutation ($input: AutoholdDeleteInput!) {
          autoholdDelete(input: $input) {
            __typename
            ... on NotFoundError {
              message
            }
          }
        }
      `,
      { input: { tenant: h.tenant, id: '12345' } },
      admin,
    );
    expect(missing.data).toEqual({
      autoholdDelete: { __typename: 'NotFoundError', message: 'Hold request 12345 not found.' },
    });
    await events.waitFor(2);
    expect(events.results.map((result) => result.data?.systemEvents.eventType)).toEqual([
      'AUTOHOLD_CREATED',
      'AUTOHOLD_DELETED',
    ]);
  });

  it('buildUpdated and buildsetUpdated push matching builds and buildsets', async () => {
    const builds = new Subscription<{ buildUpdated: { jobName: string; result: string | null } }>(
      client(),
      /* GraphQL */ `
        subscription ($t: String!) {
          buildUpdated(tenant: $t, filter: { jobName: ["unit"] }) {
            jobName
            result
          }
        }
      `,
      { t: h.tenant },
    );
    const buildsets = new Subscription<{ buildsetUpdated: { uuid: string; result: string | null } }>(
      client(),
      /* GraphQL */ `
        subscription ($t: String!) {
          buildsetUpdated(tenant: $t, filter: { pipeline: ["gate"] }) {
            uuid
            result
          }
        }
      `,
      { t: h.tenant },
    );
    await subscribersActive(server, { delta: 2 });
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    await h.executor.finishAll();
    await h.settle();
    await builds.until(() => builds.results.some((result) => result.data?.buildUpdated.result === 'SUCCESS'));
    expect(builds.results.every((result) => result.data?.buildUpdated.jobName === 'unit')).toBe(true);
    await buildsets.until(() => buildsets.results.some((result) => result.data?.buildsetUpdated.result === 'SUCCESS'));
  });

  it('buildsetUpdated pushes a buildset that reports before any of its builds started', async () => {
    const buildsets = new Subscription<{
      buildsetUpdated: { uuid: string; result: string | null; builds: Array<{ uuid: string }> };
    }>(
      client(),
      /* GraphQL */ `
        subscription ($t: String!) {
          buildsetUpdated(tenant: $t, filter: { complete: true }) {
            uuid
            result
            builds {
              uuid
            }
          }
        }
      `,
      { t: h.tenant },
    );
    await subscribersActive(server, { delta: 1 });
    h.changes.add('org/project', 1);
    h.merger.conflicts.add(1);
    await h.enqueue('gate', 'org/project', '1,1');
    await h.settle();
    const [pushed] = await buildsets.waitFor(1);
    expect(pushed?.data?.buildsetUpdated).toMatchObject({ result: 'MERGE_CONFLICT', builds: [] });
    expect(h.executor.started).toEqual([]);
    // Recorded and reported in one pass: two deltas, one push (the state after the pass).
    expect(
      h.deltas
        .filter((delta) => delta.type === 'buildset-changed')
        .map((delta) => delta.type === 'buildset-changed' && delta.result),
    ).toEqual([null, 'MERGE_CONFLICT']);
    // Deltas reach the subscription in order: once the next buildset is pushed, no second push of the first can follow.
    h.changes.add('org/project', 2);
    h.merger.conflicts.add(2);
    await h.enqueue('gate', 'org/project', '2,1');
    await h.settle();
    await buildsets.waitFor(2);
    const uuids = buildsets.results.map((result) => result.data?.buildsetUpdated.uuid);
    expect(uuids).toHaveLength(2);
    expect(new Set(uuids).size).toBe(2);
  });

  it('limits operations per connection and answers bad operations without closing the socket', async () => {
    const shared = client();
    const query = /* GraphQL */ `
      subscription ($t: String!) {
        tenantStatus(tenant: $t) {
          sequence
        }
      }
    `;
    const first = new Subscription<{ tenantStatus: { sequence: number } }>(shared, query, { t: h.tenant });
    const second = new Subscription<{ tenantStatus: { sequence: number } }>(shared, query, { t: h.tenant });
    await first.waitFor(1);
    await second.waitFor(1);
    const third = new Subscription(shared, query, { t: h.tenant });
    const [refused] = await third.waitFor(1);
    expect(refused?.errors?.[0]?.message).toMatch(/Too many operations/);
    second.close();
    const invalid = new Subscription(
      shared,
      /* GraphQL */ `
        subscription {
          noSuchField
        }
      `,
    );
    const [invalidResult] = await invalid.waitFor(1);
    expect(invalidResult?.errors?.[0]?.message).toMatch(/noSuchField/);
    // The socket still serves the first subscription.
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    await first.until(() => first.results.length >= 2);
    expect(first.completed).toBe(false);
  });
});
