/**
 * Builds over GraphQL through a real server: `Tenant.builds` with every filter and pagination edge,
 * and `Tenant.build` with typed errors.
 */
import { useSeededHistory, type Connection } from '../../helpers/history-server';

const history = useSeededHistory();
const { graphql } = history;

interface BuildNode {
  databaseId: number;
  uuid: string;
  jobName: string;
  result: string | null;
}

const BUILDS = /* GraphQL */ `
  query ($filter: BuildFilter, $first: Int, $last: Int, $after: String, $before: String, $offset: Int) {
    tenant(name: "tenant-one") {
      ... on Tenant {
        builds(filter: $filter, first: $first, last: $last, after: $after, before: $before, offset: $offset) {
          totalCount
          nodes {
            databaseId
            uuid
            jobName
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

async function builds(variables: Record<string, unknown> = {}): Promise<Connection<BuildNode>> {
  const data = await graphql<{ tenant: { builds: Connection<BuildNode> } }>(BUILDS, variables);
  return data.tenant.builds;
}

async function jobsOf(filter: Record<string, unknown>): Promise<string[]> {
  return (await builds({ filter })).nodes.map((build) => build.jobName);
}

describe('Tenant.builds', () => {
  it('lists the tenant builds newest first with a total count', async () => {
    const page = await builds();
    expect(page.totalCount).toBe(11);
    expect(page.nodes.map((build) => build.databaseId)).toEqual(history.all.map((build) => build.id));
    expect(page.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: expect.any(String),
      endCursor: expect.any(String),
    });
  });

  it('filters by project, exactly, with wildcards and repeated values', async () => {
    expect(await jobsOf({ project: ['org/project1'] })).toEqual(['project-test2', 'project-test1', 'project-merge']);
    expect((await builds({ filter: { project: ['org/project', 'org/project1'] } })).totalCount).toBe(10);
    expect((await builds({ filter: { project: ['org/project'] } })).totalCount).toBe(7);
    expect((await builds({ filter: { project: ['org/proj*1'] } })).totalCount).toBe(3);
    expect((await builds({ filter: { project: ['org/project*'] } })).totalCount).toBe(10);
    expect(await jobsOf({ project: ['org/l*'] })).toEqual(['docs']);
  });

  it('filters by pipeline, branch and job name with wildcards', async () => {
    expect((await builds({ filter: { pipeline: ['gat*'] } })).totalCount).toBe(6);
    expect((await builds({ filter: { pipeline: ['check', 'post'] } })).totalCount).toBe(5);
    expect(await jobsOf({ branch: ['stable'] })).toEqual(['project-test1', 'lint', 'lint']);
    expect((await builds({ filter: { branch: ['*aster'] } })).totalCount).toBe(7);
    expect((await builds({ filter: { branch: ['%master%', '%mast_r'] } })).totalCount).toBe(0);
    expect((await builds({ filter: { jobName: ['*-merge'] } })).totalCount).toBe(2);
    expect(await jobsOf({ jobName: ['lint', 'docs'] })).toEqual(['docs', 'lint', 'lint']);
  });

  it('filters by change, patchset, ref, newrev, uuid and nodeset', async () => {
    expect((await builds({ filter: { change: [1, 2] } })).totalCount).toBe(6);
    expect(await jobsOf({ patchset: ['2'] })).toEqual(['project-test1', 'lint', 'lint']);
    expect(await jobsOf({ ref: ['refs/heads/master'] })).toEqual(['upload']);
    expect(await jobsOf({ newrev: ['b'.repeat(40)] })).toEqual(['upload']);
    expect(
      (await builds({ filter: { uuid: [history.all[0].uuid, history.all[3].uuid] } })).nodes.map((build) => build.uuid),
    ).toEqual([history.all[0].uuid, history.all[3].uuid]);
    expect(await jobsOf({ nodeset: ['small'] })).toEqual(['lint', 'lint']);
    expect((await builds({ filter: { nodeset: ['test-nodeset'] } })).totalCount).toBe(8);
  });

  it('filters by result, excluded result and completeness', async () => {
    expect((await builds({ filter: { result: ['SKIPPED', 'FAILURE'] } })).totalCount).toBe(4);
    // Excluding a result also drops running builds, as the reference does.
    const excluded = await builds({ filter: { excludeResult: ['SKIPPED', 'SUCCESS'] } });
    expect(excluded.nodes.map((build) => build.result)).toEqual(['FAILURE', 'RETRY', 'FAILURE']);
    expect(await jobsOf({ complete: false })).toEqual(['project-test1']);
    expect((await builds({ filter: { complete: true } })).totalCount).toBe(10);
  });

  it('filters by voting, final and held', async () => {
    expect(await jobsOf({ voting: false })).toEqual(['docs']);
    expect((await builds({ filter: { voting: true } })).totalCount).toBe(10);
    expect((await builds({ filter: { final: false } })).nodes.map((build) => build.result)).toEqual(['RETRY']);
    expect((await builds({ filter: { final: true } })).totalCount).toBe(9);
    expect((await builds({ filter: { held: true } })).nodes.map((build) => build.result)).toEqual(['FAILURE']);
    expect((await builds({ filter: { held: false } })).totalCount).toBe(10);
  });

  it('filters by database id range, inclusive', async () => {
    const ids = history.all.map((build) => build.id);
    const min = Math.min(...ids);
    const max = Math.max(...ids);
    expect((await builds({ filter: { idxMax: min } })).totalCount).toBe(1);
    expect((await builds({ filter: { idxMin: min } })).totalCount).toBe(11);
    expect((await builds({ filter: { idxMax: max } })).totalCount).toBe(11);
    expect((await builds({ filter: { idxMin: max } })).totalCount).toBe(1);
    expect(
      (await builds({ filter: { idxMin: ids[5], idxMax: ids[3] } })).nodes.map((build) => build.databaseId),
    ).toEqual(ids.slice(3, 6));
  });

  it('combines filters with AND and repeated values with OR', async () => {
    const page = await builds({
      filter: { pipeline: ['gat*'], project: ['org/project1'], jobName: ['*-merge', '*test*'] },
    });
    expect(page.nodes.map((build) => build.jobName)).toEqual(['project-test2', 'project-test1', 'project-merge']);
    expect(
      await jobsOf({
        project: ['org/project'],
        branch: ['stable'],
        result: ['FAILURE'],
        held: true,
        nodeset: ['small'],
      }),
    ).toEqual(['lint']);
    expect((await builds({ filter: { project: ['org/project1'], pipeline: ['check'] } })).totalCount).toBe(0);
  });

  it('pages forward with cursors: start, middle, end', async () => {
    const first = await builds({ first: 4 });
    expect(first.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(0, 4).map((build) => build.id));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const middle = await builds({ first: 4, after: first.pageInfo.endCursor });
    expect(middle.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(4, 8).map((build) => build.id));
    expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const end = await builds({ first: 4, after: middle.pageInfo.endCursor });
    expect(end.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(8).map((build) => build.id));
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(end.totalCount).toBe(11);
  });

  it('pages backward with last and before', async () => {
    const last = await builds({ last: 3 });
    expect(last.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(8).map((build) => build.id));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await builds({ last: 3, before: last.pageInfo.startCursor });
    expect(before.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(5, 8).map((build) => build.id));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const start = await builds({ last: 10, before: before.pageInfo.startCursor });
    expect(start.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(0, 5).map((build) => build.id));
    expect(start.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('pages with offset like REST skip', async () => {
    const page = await builds({ first: 3, offset: 9 });
    expect(page.nodes.map((build) => build.databaseId)).toEqual(history.all.slice(9).map((build) => build.id));
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect((await builds({ first: 2, offset: 2 })).nodes.map((build) => build.databaseId)).toEqual(
      history.all.slice(2, 4).map((build) => build.id),
    );
  });

  it('returns an empty page with null cursors when nothing matches', async () => {
    const empty = await builds({ filter: { jobName: ['no-such-job'] } });
    expect(empty).toEqual({
      totalCount: 0,
      nodes: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
    const beyond = await builds({ first: 5, offset: 100 });
    expect(beyond.nodes).toEqual([]);
  });

  it('clamps large pages and rejects bad paging arguments', async () => {
    expect((await builds({ first: 5000 })).nodes).toHaveLength(11);
    const negative = await history.server.graphql(BUILDS, { first: -1 });
    expect(negative.errors?.[0]).toMatchObject({
      message: '`first` must not be negative.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const both = await history.server.graphql(BUILDS, { first: 1, last: 1 });
    expect(both.errors?.[0]?.message).toBe('Pass either `first` or `last`, not both.');
    const cursor = await history.server.graphql(BUILDS, { after: 'garbage' });
    expect(cursor.errors?.[0]).toMatchObject({
      message: 'Invalid cursor "garbage".',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('never lists another tenant’s builds', async () => {
    const data = await graphql<{ tenant: { builds: { totalCount: number } } }>(
      '{ tenant(name: "tenant-two") { ... on Tenant { builds { totalCount } } } }',
    );
    expect(data.tenant.builds.totalCount).toBe(1);
  });
});

describe('Tenant.build', () => {
  const BUILD = /* GraphQL */ `
    query ($tenant: String!, $uuid: String!) {
      tenant(name: $tenant) {
        __typename
        ... on NotFoundError {
          message
        }
        ... on Tenant {
          build(uuid: $uuid) {
            __typename
            ... on NotFoundError {
              message
              resource
              key
            }
            ... on Build {
              id
              databaseId
              uuid
              jobName
              status
              result
              voting
              final
              held
              attempt
              nodeset
              logUrl
              errorDetail
              duration
              startTime
              endTime
              pipeline
              eventId
              eventTimestamp
              tenant
              artifacts {
                name
                url
                metadata
              }
              provides
              returnedData
              events {
                eventType
                description
                eventTime
              }
              ref {
                project
                branch
                change
                patchset
                ref
                oldrev
                newrev
                refUrl
              }
              buildset {
                uuid
                status
                result
                refs {
                  project
                  change
                }
              }
            }
          }
        }
      }
    }
  `;

  it('returns every REST field of one build with its buildset refs', async () => {
    const test1 = history.all.find(
      (build) => build.jobName === 'project-test1' && build.buildsetId === history.sets.gate1.id,
    );
    const data = await graphql<{ tenant: { build: Record<string, unknown> } }>(BUILD, {
      tenant: 'tenant-one',
      uuid: test1?.uuid,
    });
    expect(data.tenant.build).toEqual({
      __typename: 'Build',
      id: expect.any(String),
      databaseId: test1?.id,
      uuid: test1?.uuid,
      jobName: 'project-test1',
      status: 'COMPLETED',
      result: 'SUCCESS',
      voting: true,
      final: true,
      held: false,
      attempt: 1,
      nodeset: 'test-nodeset',
      logUrl: 'https://logs.example.com/1/',
      errorDetail: null,
      duration: 60,
      startTime: test1?.startTime?.toISOString(),
      endTime: test1?.endTime?.toISOString(),
      pipeline: 'gate',
      eventId: history.sets.gate1.eventId,
      eventTimestamp: history.sets.gate1.eventTimestamp?.toISOString(),
      tenant: 'tenant-one',
      artifacts: [
        { name: 'docs', url: 'http://example.com/docs', metadata: null },
        { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
        { name: 'tarball', url: 'http://example.com/tarball', metadata: null },
      ],
      provides: ['docs-site'],
      returnedData: { zuul: { log_url: 'https://logs.example.com/1/' }, docs: ['index.html'] },
      events: [],
      ref: {
        project: 'org/project',
        branch: 'master',
        change: 1,
        patchset: '1',
        ref: 'refs/changes/01/1/1',
        oldrev: null,
        newrev: null,
        refUrl: 'https://review.example.com/1',
      },
      buildset: {
        uuid: history.sets.gate1.uuid,
        status: 'COMPLETED',
        result: 'SUCCESS',
        refs: [{ project: 'org/project', change: 1 }],
      },
    });
  });

  it('separates the running status from the missing result', async () => {
    const running = history.all.find((build) => build.result === null);
    const data = await graphql<{ tenant: { build: Record<string, unknown> } }>(BUILD, {
      tenant: 'tenant-one',
      uuid: running?.uuid,
    });
    expect(data.tenant.build).toMatchObject({ status: 'RUNNING', result: null, endTime: null, duration: null });
  });

  it('answers a typed NotFoundError for an unknown uuid or another tenant’s build', async () => {
    const unknown = await graphql<{ tenant: { build: unknown } }>(BUILD, { tenant: 'tenant-one', uuid: '1234' });
    expect(unknown.tenant.build).toEqual({
      __typename: 'NotFoundError',
      message: 'Build not found',
      resource: 'Build',
      key: '1234',
    });
    const foreign = await graphql<{ tenant: { builds: { nodes: { uuid: string }[] } } }>(
      '{ tenant(name: "tenant-two") { ... on Tenant { builds { nodes { uuid } } } } }',
    );
    const other = await graphql<{ tenant: { build: { __typename: string } } }>(BUILD, {
      tenant: 'tenant-one',
      uuid: foreign.tenant.builds.nodes[0].uuid,
    });
    expect(other.tenant.build.__typename).toBe('NotFoundError');
  });

  it('answers a typed NotFoundError for an unknown tenant', async () => {
    const data = await graphql<{ tenant: unknown }>(BUILD, { tenant: 'nope', uuid: 'x' });
    expect(data.tenant).toEqual({ __typename: 'NotFoundError', message: 'Tenant not found' });
  });
});
