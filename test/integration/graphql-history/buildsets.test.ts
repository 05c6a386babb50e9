/**
 * Buildsets over GraphQL through a real server: `Tenant.buildsets` with every filter and paging,
 * `Tenant.buildset` and the badge.
 */
import { useSeededHistory, type Connection } from '../../helpers/history-server';

const history = useSeededHistory();
const { graphql } = history;

describe('Tenant.buildsets and Tenant.buildset', () => {
  const BUILDSETS = /* GraphQL */ `
    query ($filter: BuildsetFilter, $first: Int, $after: String, $last: Int, $before: String, $offset: Int) {
      tenant(name: "tenant-one") {
        ... on Tenant {
          buildsets(filter: $filter, first: $first, after: $after, last: $last, before: $before, offset: $offset) {
            totalCount
            nodes {
              databaseId
              uuid
              pipeline
              status
              result
            }
            pageInfo {
              hasNextPage
              hasPreviousPage
              startCursor
              endCursor
            }
          }
        }
      }
    }
  `;
  type BuildsetNode = { databaseId: number; uuid: string; pipeline: string; status: string; result: string | null };

  async function buildsets(variables: Record<string, unknown> = {}): Promise<Connection<BuildsetNode>> {
    return (await graphql<{ tenant: { buildsets: Connection<BuildsetNode> } }>(BUILDSETS, variables)).tenant.buildsets;
  }

  async function idsOf(filter: Record<string, unknown>): Promise<number[]> {
    return (await buildsets({ filter })).nodes.map((buildset) => buildset.databaseId);
  }

  it('lists buildsets newest first with lifecycle status and result', async () => {
    const page = await buildsets();
    expect(page.totalCount).toBe(4);
    expect(page.nodes).toEqual([
      {
        databaseId: history.sets.post.id,
        uuid: history.sets.post.uuid,
        pipeline: 'post',
        status: 'COMPLETED',
        result: 'SUCCESS',
      },
      {
        databaseId: history.sets.check.id,
        uuid: history.sets.check.uuid,
        pipeline: 'check',
        status: 'RUNNING',
        result: null,
      },
      {
        databaseId: history.sets.gate2.id,
        uuid: history.sets.gate2.uuid,
        pipeline: 'gate',
        status: 'COMPLETED',
        result: 'FAILURE',
      },
      {
        databaseId: history.sets.gate1.id,
        uuid: history.sets.gate1.uuid,
        pipeline: 'gate',
        status: 'COMPLETED',
        result: 'SUCCESS',
      },
    ]);
  });

  it('filters by any ref of the buildset, with wildcards', async () => {
    expect(await idsOf({ project: ['org/lib'] })).toEqual([history.sets.check.id]);
    expect(await idsOf({ project: ['org/*'], branch: ['*ster*'], pipeline: ['check', '*ate'] })).toEqual([
      history.sets.gate2.id,
      history.sets.gate1.id,
    ]);
    expect(await idsOf({ branch: ['main'] })).toEqual([history.sets.check.id]);
    // Ref conditions must hold for one ref: org/lib is on main, not on stable.
    expect(await idsOf({ project: ['org/lib'], branch: ['stable'] })).toEqual([]);
    expect(await idsOf({ change: [2, 4] })).toEqual([history.sets.check.id, history.sets.gate2.id]);
    expect(await idsOf({ patchset: ['2'] })).toEqual([history.sets.check.id]);
    expect(await idsOf({ ref: ['refs/heads/master'] })).toEqual([history.sets.post.id]);
    expect(await idsOf({ newrev: ['b'.repeat(40)] })).toEqual([history.sets.post.id]);
    expect(await idsOf({ branch: ['%master%'] })).toEqual([]);
  });

  it('filters by uuid, pipeline, result, excluded result, completeness and id range', async () => {
    expect(await idsOf({ uuid: [history.sets.gate1.uuid] })).toEqual([history.sets.gate1.id]);
    expect(await idsOf({ pipeline: ['gat*'] })).toEqual([history.sets.gate2.id, history.sets.gate1.id]);
    expect(await idsOf({ result: ['FAILURE'] })).toEqual([history.sets.gate2.id]);
    expect(await idsOf({ excludeResult: ['FAILURE'] })).toEqual([history.sets.post.id, history.sets.gate1.id]);
    expect(await idsOf({ complete: false })).toEqual([history.sets.check.id]);
    expect(await idsOf({ complete: true })).toEqual([
      history.sets.post.id,
      history.sets.gate2.id,
      history.sets.gate1.id,
    ]);
    expect(await idsOf({ idxMin: history.sets.gate2.id, idxMax: history.sets.check.id })).toEqual([
      history.sets.check.id,
      history.sets.gate2.id,
    ]);
    expect(await idsOf({ idxMax: history.sets.gate1.id })).toEqual([history.sets.gate1.id]);
  });

  it('pages with cursors and offset', async () => {
    const first = await buildsets({ first: 3 });
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = await buildsets({ first: 3, after: first.pageInfo.endCursor });
    expect(rest.nodes.map((buildset) => buildset.databaseId)).toEqual([history.sets.gate1.id]);
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await buildsets({ last: 2, before: rest.pageInfo.startCursor });
    expect(back.nodes.map((buildset) => buildset.databaseId)).toEqual([history.sets.check.id, history.sets.gate2.id]);
    expect((await buildsets({ first: 1, offset: 3 })).nodes.map((buildset) => buildset.databaseId)).toEqual([
      history.sets.gate1.id,
    ]);
  });

  it('returns one buildset with refs, events and builds (oldest build first)', async () => {
    const data = await graphql<{ tenant: { buildset: Record<string, unknown> } }>(
      /* GraphQL */ `
        query ($uuid: String!) {
          tenant(name: "tenant-one") {
            ... on Tenant {
              buildset(uuid: $uuid) {
                __typename
                ... on Buildset {
                  databaseId
                  uuid
                  pipeline
                  status
                  result
                  message
                  eventId
                  eventTimestamp
                  firstBuildStartTime
                  lastBuildEndTime
                  refs {
                    project
                    change
                    ref
                    branch
                  }
                  events {
                    eventType
                    description
                    eventTime
                  }
                  builds {
                    jobName
                    result
                    artifacts {
                      name
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { uuid: history.sets.gate1.uuid },
    );
    expect(data.tenant.buildset).toEqual({
      __typename: 'Buildset',
      databaseId: history.sets.gate1.id,
      uuid: history.sets.gate1.uuid,
      pipeline: 'gate',
      status: 'COMPLETED',
      result: 'SUCCESS',
      message: 'Build succeeded (gate pipeline).',
      eventId: history.sets.gate1.eventId,
      eventTimestamp: history.sets.gate1.eventTimestamp?.toISOString(),
      firstBuildStartTime: history.sets.gate1.firstBuildStartTime?.toISOString(),
      lastBuildEndTime: history.sets.gate1.lastBuildEndTime?.toISOString(),
      refs: [{ project: 'org/project', change: 1, ref: 'refs/changes/01/1/1', branch: 'master' }],
      events: [
        { eventType: 'triggered', description: 'Triggered by change org/project 1,1', eventTime: expect.any(String) },
      ],
      builds: [
        { jobName: 'project-merge', result: 'SUCCESS', artifacts: [] },
        {
          jobName: 'project-test1',
          result: 'SUCCESS',
          artifacts: [{ name: 'docs' }, { name: 'relative' }, { name: 'tarball' }],
        },
        { jobName: 'project-test2', result: 'SUCCESS', artifacts: [] },
      ],
    });
    expect(history.sets.gate1.lastBuildEndTime).not.toBeNull();
  });

  it('answers a typed NotFoundError for an unknown buildset', async () => {
    const data = await graphql<{ tenant: { buildset: unknown } }>(
      '{ tenant(name: "tenant-one") { ... on Tenant { buildset(uuid: "1234") { __typename ... on NotFoundError { message resource key } } } } }',
    );
    expect(data.tenant.buildset).toEqual({
      __typename: 'NotFoundError',
      message: 'Buildset not found',
      resource: 'Buildset',
      key: '1234',
    });
  });
});

describe('Tenant.badge', () => {
  const BADGE = /* GraphQL */ `
    query ($project: [String!], $pipeline: [String!], $branch: [String!]) {
      tenant(name: "tenant-one") {
        ... on Tenant {
          badge(project: $project, pipeline: $pipeline, branch: $branch) {
            __typename
            ... on Badge {
              result
              passing
              buildset {
                uuid
              }
            }
            ... on NotFoundError {
              message
            }
          }
        }
      }
    }
  `;

  async function badge(variables: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await graphql<{ tenant: { badge: Record<string, unknown> } }>(BADGE, variables)).tenant.badge;
  }

  it('reports the newest finished buildset, skipping running ones', async () => {
    expect(await badge({})).toEqual({
      __typename: 'Badge',
      result: 'SUCCESS',
      passing: true,
      buildset: { uuid: history.sets.post.uuid },
    });
    expect(await badge({ pipeline: ['gate'] })).toEqual({
      __typename: 'Badge',
      result: 'FAILURE',
      passing: false,
      buildset: { uuid: history.sets.gate2.uuid },
    });
    expect(await badge({ project: ['org/project'], pipeline: ['ga*'], branch: ['master'] })).toMatchObject({
      result: 'SUCCESS',
      buildset: { uuid: history.sets.gate1.uuid },
    });
    expect(await badge({ project: ['org/lib', 'org/project1'] })).toMatchObject({ result: 'FAILURE' });
  });

  it('answers "No buildset found" when nothing finished matches', async () => {
    expect(await badge({ project: ['org/lib'] })).toEqual({
      __typename: 'NotFoundError',
      message: 'No buildset found',
    });
    expect(await badge({ pipeline: ['periodic'] })).toEqual({
      __typename: 'NotFoundError',
      message: 'No buildset found',
    });
  });
});
