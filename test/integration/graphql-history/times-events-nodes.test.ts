/**
 * Build times and system events over GraphQL through a real server, and node(id) round trips of
 * history records.
 */
import { useSeededHistory, type Connection } from '../../helpers/history-server';

const history = useSeededHistory();
const { graphql } = history;

describe('Tenant.buildTimes', () => {
  const TIMES = /* GraphQL */ `
    query ($filter: BuildTimeFilter, $first: Int, $after: String) {
      tenant(name: "tenant-one") {
        ... on Tenant {
          buildTimes(filter: $filter, first: $first, after: $after) {
            totalCount
            nodes {
              databaseId
              uuid
              jobName
              result
              duration
              final
              project
              branch
              pipeline
              ref
              startTime
              endTime
              build {
                uuid
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
      }
    }
  `;
  type TimeNode = { databaseId: number; jobName: string; result: string; project: string; endTime: string };

  async function times(variables: Record<string, unknown> = {}): Promise<Connection<TimeNode>> {
    return (await graphql<{ tenant: { buildTimes: Connection<TimeNode> } }>(TIMES, variables)).tenant.buildTimes;
  }

  it('lists finished builds only, latest end time first, with flat ref fields', async () => {
    const page = await times();
    expect(page.totalCount).toBe(10);
    const finished = history.all.filter((build) => build.endTime !== null);
    const expected = [...finished].sort(
      (a, b) => (b.endTime?.getTime() ?? 0) - (a.endTime?.getTime() ?? 0) || b.id - a.id,
    );
    expect(page.nodes.map((row) => row.databaseId)).toEqual(expected.map((build) => build.id));
    expect(page.nodes[0]).toEqual({
      databaseId: expected[0].id,
      uuid: expected[0].uuid,
      jobName: 'upload',
      result: 'SUCCESS',
      duration: 60,
      final: true,
      project: 'org/project',
      branch: 'master',
      pipeline: 'post',
      ref: 'refs/heads/master',
      startTime: expected[0].startTime?.toISOString(),
      endTime: expected[0].endTime?.toISOString(),
      build: { uuid: expected[0].uuid },
    });
  });

  it('filters exactly by project, pipeline, branch, ref, job, result and final', async () => {
    expect((await times({ filter: { project: ['org/project1'] } })).totalCount).toBe(3);
    expect((await times({ filter: { project: ['org/project*'] } })).totalCount).toBe(0);
    expect((await times({ filter: { pipeline: ['check'] } })).totalCount).toBe(3);
    expect((await times({ filter: { branch: ['stable', 'main'] } })).totalCount).toBe(3);
    expect((await times({ filter: { ref: ['refs/heads/master'] } })).totalCount).toBe(1);
    expect((await times({ filter: { jobName: ['lint'] } })).totalCount).toBe(2);
    expect((await times({ filter: { result: ['SKIPPED'] } })).totalCount).toBe(2);
    expect((await times({ filter: { excludeResult: ['SKIPPED', 'SUCCESS'] } })).nodes.map((row) => row.result)).toEqual(
      ['FAILURE', 'RETRY', 'FAILURE'],
    );
    expect((await times({ filter: { final: false } })).totalCount).toBe(1);
    expect((await times({ filter: { jobName: ['lint'], final: true } })).nodes.map((row) => row.result)).toEqual([
      'FAILURE',
    ]);
  });

  it('filters by an inclusive end-time range and pages with cursors', async () => {
    const everything = await times();
    const newest = everything.nodes[0].endTime;
    const third = everything.nodes[2].endTime;
    expect((await times({ filter: { endTimeMin: third } })).totalCount).toBe(3);
    expect((await times({ filter: { endTimeMax: third } })).totalCount).toBe(8);
    expect(
      (await times({ filter: { endTimeMin: third, endTimeMax: newest } })).nodes.map((row) => row.endTime),
    ).toEqual(everything.nodes.slice(0, 3).map((row) => row.endTime));
    const first = await times({ first: 6 });
    const second = await times({ first: 6, after: first.pageInfo.endCursor });
    expect([...first.nodes, ...second.nodes].map((row) => row.databaseId)).toEqual(
      everything.nodes.map((row) => row.databaseId),
    );
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('Tenant.systemEvents', () => {
  const EVENTS = /* GraphQL */ `
    query ($filter: SystemEventFilter, $first: Int, $after: String) {
      tenant(name: "tenant-one") {
        ... on Tenant {
          systemEvents(filter: $filter, first: $first, after: $after) {
            totalCount
            nodes {
              id
              eventId
              eventType
              description
              eventTime
            }
            pageInfo {
              hasNextPage
              hasPreviousPage
              endCursor
            }
          }
        }
      }
    }
  `;
  type EventNode = { id: string; eventType: string; description: string };

  async function events(variables: Record<string, unknown> = {}): Promise<Connection<EventNode>> {
    return (await graphql<{ tenant: { systemEvents: Connection<EventNode> } }>(EVENTS, variables)).tenant.systemEvents;
  }

  it('lists the tenant events newest first and filters by type', async () => {
    const page = await events();
    expect(page.totalCount).toBe(3);
    expect(page.nodes.map((event) => event.eventType)).toEqual(['CONFIG_ERRORS_CHANGED', 'ENQUEUED', 'RECONFIGURED']);
    const filtered = await events({ filter: { eventTypes: ['RECONFIGURED', 'ENQUEUED'] } });
    expect(filtered.nodes.map((event) => event.description)).toEqual([
      'admin enqueued change 1',
      'Tenant reconfigured',
    ]);
    const paged = await events({ first: 2 });
    expect(paged.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = await events({ first: 2, after: paged.pageInfo.endCursor });
    expect(rest.nodes.map((event) => event.eventType)).toEqual(['RECONFIGURED']);
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });
});

describe('node(id)', () => {
  const NODE = /* GraphQL */ `
    query ($id: ID!) {
      node(id: $id) {
        __typename
        id
        ... on Build {
          uuid
        }
        ... on Buildset {
          uuid
        }
        ... on Ref {
          ref
        }
        ... on SystemEvent {
          eventId
        }
      }
    }
  `;

  it('round-trips the global ids of builds, buildsets, refs and system events', async () => {
    const data = await graphql<{
      tenant: {
        builds: {
          nodes: {
            id: string;
            uuid: string;
            ref: { id: string; ref: string };
            buildset: { id: string; uuid: string };
          }[];
        };
        systemEvents: { nodes: { id: string; eventId: string }[] };
      };
    }>(
      '{ tenant(name: "tenant-one") { ... on Tenant { builds(first: 1) { nodes { id uuid ref { id ref } buildset { id uuid } } } systemEvents(first: 1) { nodes { id eventId } } } } }',
    );
    const build = data.tenant.builds.nodes[0];
    const event = data.tenant.systemEvents.nodes[0];
    expect((await graphql<{ node: unknown }>(NODE, { id: build.id })).node).toEqual({
      __typename: 'Build',
      id: build.id,
      uuid: build.uuid,
    });
    expect((await graphql<{ node: unknown }>(NODE, { id: build.buildset.id })).node).toEqual({
      __typename: 'Buildset',
      id: build.buildset.id,
      uuid: build.buildset.uuid,
    });
    expect((await graphql<{ node: unknown }>(NODE, { id: build.ref.id })).node).toEqual({
      __typename: 'Ref',
      id: build.ref.id,
      ref: build.ref.ref,
    });
    expect((await graphql<{ node: unknown }>(NODE, { id: event.id })).node).toEqual({
      __typename: 'SystemEvent',
      id: event.id,
      eventId: event.eventId,
    });
  });

  it('answers null for a well-formed id of a record that does not exist', async () => {
    const missing = Buffer.from('Build:999999').toString('base64');
    expect((await graphql<{ node: unknown }>(NODE, { id: missing })).node).toBeNull();
  });

  it('rejects a global id whose local part is not a database id', async () => {
    const bad = Buffer.from('Build:abc').toString('base64');
    const result = await history.server.graphql<{ node: unknown }>(NODE, { id: bad });
    expect(result.errors?.[0]?.message).toBe('Invalid id "abc".');
  });
});
