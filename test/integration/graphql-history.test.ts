/**
 * Build history over GraphQL through a real server: builds, buildsets, build times, badge and
 * system events with every filter, pagination edges, typed errors and node(id) round trips.
 */
import { defaultServiceConfig } from '../../src/config/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { defaultRef, historyFactory } from '../helpers/factories';
import type { BuildRecord } from '../../src/store/repositories/builds';
import type { BuildsetRecord } from '../../src/store/repositories/buildsets';

interface BuildNode {
  databaseId: number;
  uuid: string;
  jobName: string;
  result: string | null;
}

interface Connection<Node> {
  totalCount: number;
  nodes: Node[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** Every build the seed writes, newest first. */
let all: BuildRecord[];
let sets: Record<'gate1' | 'gate2' | 'check' | 'post', BuildsetRecord>;
let server: TestServer;

async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await server.graphql<T>(query, variables);
  if (result.errors) {
    throw new Error(JSON.stringify(result.errors));
  }
  if (!result.data) {
    throw new Error('no data');
  }
  return result.data;
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

beforeAll(async () => {
  // Pages of up to 5,000 rows with every field are far over the default cost limit.
  server = await startTestServer({
    tenants: ['tenant-one', 'tenant-two'],
    config: { graphql: { ...defaultServiceConfig(process.cwd()).graphql, maxCost: 10_000_000 } },
  });
  const factory = historyFactory(server.database.knex);
  const created: BuildRecord[] = [];
  const record = async (...args: Parameters<typeof factory.build>): Promise<BuildRecord> => {
    const build = await factory.build(...args);
    created.push(build);
    return build;
  };

  const artifacts = [
    { name: 'tarball', url: 'http://example.com/tarball' },
    { name: 'docs', url: 'http://example.com/docs' },
    { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
  ];
  const gate1 = await factory.buildset({
    pipeline: 'gate',
    refs: [defaultRef()],
    triggeredBy: 'Triggered by change org/project 1,1',
  });
  await record(gate1, { jobName: 'project-merge', result: 'SUCCESS' });
  await record(gate1, {
    jobName: 'project-test1',
    result: 'SUCCESS',
    artifacts,
    provides: ['docs-site'],
    logUrl: 'https://logs.example.com/1/',
  });
  await record(gate1, {
    jobName: 'project-test2',
    result: 'SUCCESS',
    events: [{ eventTime: factory.tick(), eventType: 'paused', description: 'children' }],
  });
  const gate1Done = await factory.finish(gate1.buildset, 'SUCCESS', 'Build succeeded (gate pipeline).');

  const gate2 = await factory.buildset({
    pipeline: 'gate',
    refs: [
      defaultRef({
        project: 'org/project1',
        change: 2,
        ref: 'refs/changes/02/2/1',
        refUrl: 'https://review.example.com/2',
      }),
    ],
  });
  await record(gate2, { jobName: 'project-merge', result: 'FAILURE' });
  await record(gate2, {
    jobName: 'project-test1',
    result: 'SKIPPED',
    errorDetail: 'Skipped due to failed job project-merge',
  });
  await record(gate2, {
    jobName: 'project-test2',
    result: 'SKIPPED',
    errorDetail: 'Skipped due to failed job project-merge',
  });
  const gate2Done = await factory.finish(gate2.buildset, 'FAILURE', 'Build failed (gate pipeline).');

  const check = await factory.buildset({
    pipeline: 'check',
    refs: [
      defaultRef({ change: 3, patchset: '2', ref: 'refs/changes/03/3/2', branch: 'stable' }),
      defaultRef({ project: 'org/lib', change: 4, ref: 'refs/changes/04/4/1', branch: 'main' }),
    ],
  });
  await record(check, { jobName: 'lint', result: 'RETRY', final: false, nodeset: 'small' });
  await record(check, { jobName: 'lint', result: 'FAILURE', held: true, nodeset: 'small' });
  await record(check, { jobName: 'docs', result: 'SUCCESS', voting: false, refIndex: 1, nodeset: null });
  await record(check, { jobName: 'project-test1' });

  const post = await factory.buildset({
    pipeline: 'post',
    refs: [
      {
        project: 'org/project',
        ref: 'refs/heads/master',
        branch: 'master',
        oldrev: 'a'.repeat(40),
        newrev: 'b'.repeat(40),
      },
    ],
  });
  await record(post, { jobName: 'upload', result: 'SUCCESS' });
  const postDone = await factory.finish(post.buildset, 'SUCCESS', null);

  const other = await factory.buildset({ tenant: 'tenant-two', pipeline: 'gate' });
  await factory.build(other, { jobName: 'project-merge', result: 'SUCCESS' });
  await factory.finish(other.buildset, 'FAILURE');

  await factory.systemEvent('tenant-one', 'reconfigured', 'Tenant reconfigured');
  await factory.systemEvent('tenant-one', 'enqueued', 'admin enqueued change 1');
  await factory.systemEvent('tenant-one', 'config-errors-changed', '2 errors');
  await factory.systemEvent('tenant-two', 'reconfigured', 'other tenant');

  all = [...created].reverse();
  sets = { gate1: gate1Done, gate2: gate2Done, check: check.buildset, post: postDone };
});

afterAll(async () => {
  await server.stop();
});

describe('Tenant.builds', () => {
  it('lists the tenant builds newest first with a total count', async () => {
    const page = await builds();
    expect(page.totalCount).toBe(11);
    expect(page.nodes.map((build) => build.databaseId)).toEqual(all.map((build) => build.id));
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
    expect((await builds({ filter: { uuid: [all[0].uuid, all[3].uuid] } })).nodes.map((build) => build.uuid)).toEqual([
      all[0].uuid,
      all[3].uuid,
    ]);
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
    const ids = all.map((build) => build.id);
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
    expect(first.nodes.map((build) => build.databaseId)).toEqual(all.slice(0, 4).map((build) => build.id));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const middle = await builds({ first: 4, after: first.pageInfo.endCursor });
    expect(middle.nodes.map((build) => build.databaseId)).toEqual(all.slice(4, 8).map((build) => build.id));
    expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const end = await builds({ first: 4, after: middle.pageInfo.endCursor });
    expect(end.nodes.map((build) => build.databaseId)).toEqual(all.slice(8).map((build) => build.id));
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(end.totalCount).toBe(11);
  });

  it('pages backward with last and before', async () => {
    const last = await builds({ last: 3 });
    expect(last.nodes.map((build) => build.databaseId)).toEqual(all.slice(8).map((build) => build.id));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await builds({ last: 3, before: last.pageInfo.startCursor });
    expect(before.nodes.map((build) => build.databaseId)).toEqual(all.slice(5, 8).map((build) => build.id));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const start = await builds({ last: 10, before: before.pageInfo.startCursor });
    expect(start.nodes.map((build) => build.databaseId)).toEqual(all.slice(0, 5).map((build) => build.id));
    expect(start.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('pages with offset like REST skip', async () => {
    const page = await builds({ first: 3, offset: 9 });
    expect(page.nodes.map((build) => build.databaseId)).toEqual(all.slice(9).map((build) => build.id));
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect((await builds({ first: 2, offset: 2 })).nodes.map((build) => build.databaseId)).toEqual(
      all.slice(2, 4).map((build) => build.id),
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
    const negative = await server.graphql(BUILDS, { first: -1 });
    expect(negative.errors?.[0]).toMatchObject({
      message: '`first` must not be negative.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const both = await server.graphql(BUILDS, { first: 1, last: 1 });
    expect(both.errors?.[0]?.message).toBe('Pass either `first` or `last`, not both.');
    const cursor = await server.graphql(BUILDS, { after: 'garbage' });
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
    const test1 = all.find((build) => build.jobName === 'project-test1' && build.buildsetId === sets.gate1.id);
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
      eventId: sets.gate1.eventId,
      eventTimestamp: sets.gate1.eventTimestamp?.toISOString(),
      tenant: 'tenant-one',
      artifacts: [
        { name: 'docs', url: 'http://example.com/docs', metadata: null },
        { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
        { name: 'tarball', url: 'http://example.com/tarball', metadata: null },
      ],
      provides: ['docs-site'],
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
        uuid: sets.gate1.uuid,
        status: 'COMPLETED',
        result: 'SUCCESS',
        refs: [{ project: 'org/project', change: 1 }],
      },
    });
  });

  it('separates the running status from the missing result', async () => {
    const running = all.find((build) => build.result === null);
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
      { databaseId: sets.post.id, uuid: sets.post.uuid, pipeline: 'post', status: 'COMPLETED', result: 'SUCCESS' },
      { databaseId: sets.check.id, uuid: sets.check.uuid, pipeline: 'check', status: 'RUNNING', result: null },
      { databaseId: sets.gate2.id, uuid: sets.gate2.uuid, pipeline: 'gate', status: 'COMPLETED', result: 'FAILURE' },
      { databaseId: sets.gate1.id, uuid: sets.gate1.uuid, pipeline: 'gate', status: 'COMPLETED', result: 'SUCCESS' },
    ]);
  });

  it('filters by any ref of the buildset, with wildcards', async () => {
    expect(await idsOf({ project: ['org/lib'] })).toEqual([sets.check.id]);
    expect(await idsOf({ project: ['org/*'], branch: ['*ster*'], pipeline: ['check', '*ate'] })).toEqual([
      sets.gate2.id,
      sets.gate1.id,
    ]);
    expect(await idsOf({ branch: ['main'] })).toEqual([sets.check.id]);
    // Ref conditions must hold for one ref: org/lib is on main, not on stable.
    expect(await idsOf({ project: ['org/lib'], branch: ['stable'] })).toEqual([]);
    expect(await idsOf({ change: [2, 4] })).toEqual([sets.check.id, sets.gate2.id]);
    expect(await idsOf({ patchset: ['2'] })).toEqual([sets.check.id]);
    expect(await idsOf({ ref: ['refs/heads/master'] })).toEqual([sets.post.id]);
    expect(await idsOf({ newrev: ['b'.repeat(40)] })).toEqual([sets.post.id]);
    expect(await idsOf({ branch: ['%master%'] })).toEqual([]);
  });

  it('filters by uuid, pipeline, result, excluded result, completeness and id range', async () => {
    expect(await idsOf({ uuid: [sets.gate1.uuid] })).toEqual([sets.gate1.id]);
    expect(await idsOf({ pipeline: ['gat*'] })).toEqual([sets.gate2.id, sets.gate1.id]);
    expect(await idsOf({ result: ['FAILURE'] })).toEqual([sets.gate2.id]);
    expect(await idsOf({ excludeResult: ['FAILURE'] })).toEqual([sets.post.id, sets.gate1.id]);
    expect(await idsOf({ complete: false })).toEqual([sets.check.id]);
    expect(await idsOf({ complete: true })).toEqual([sets.post.id, sets.gate2.id, sets.gate1.id]);
    expect(await idsOf({ idxMin: sets.gate2.id, idxMax: sets.check.id })).toEqual([sets.check.id, sets.gate2.id]);
    expect(await idsOf({ idxMax: sets.gate1.id })).toEqual([sets.gate1.id]);
  });

  it('pages with cursors and offset', async () => {
    const first = await buildsets({ first: 3 });
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = await buildsets({ first: 3, after: first.pageInfo.endCursor });
    expect(rest.nodes.map((buildset) => buildset.databaseId)).toEqual([sets.gate1.id]);
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await buildsets({ last: 2, before: rest.pageInfo.startCursor });
    expect(back.nodes.map((buildset) => buildset.databaseId)).toEqual([sets.check.id, sets.gate2.id]);
    expect((await buildsets({ first: 1, offset: 3 })).nodes.map((buildset) => buildset.databaseId)).toEqual([
      sets.gate1.id,
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
      { uuid: sets.gate1.uuid },
    );
    expect(data.tenant.buildset).toEqual({
      __typename: 'Buildset',
      databaseId: sets.gate1.id,
      uuid: sets.gate1.uuid,
      pipeline: 'gate',
      status: 'COMPLETED',
      result: 'SUCCESS',
      message: 'Build succeeded (gate pipeline).',
      eventId: sets.gate1.eventId,
      eventTimestamp: sets.gate1.eventTimestamp?.toISOString(),
      firstBuildStartTime: sets.gate1.firstBuildStartTime?.toISOString(),
      lastBuildEndTime: sets.gate1.lastBuildEndTime?.toISOString(),
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
    expect(sets.gate1.lastBuildEndTime).not.toBeNull();
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
      buildset: { uuid: sets.post.uuid },
    });
    expect(await badge({ pipeline: ['gate'] })).toEqual({
      __typename: 'Badge',
      result: 'FAILURE',
      passing: false,
      buildset: { uuid: sets.gate2.uuid },
    });
    expect(await badge({ project: ['org/project'], pipeline: ['ga*'], branch: ['master'] })).toMatchObject({
      result: 'SUCCESS',
      buildset: { uuid: sets.gate1.uuid },
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
    const finished = all.filter((build) => build.endTime !== null);
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
    const result = await server.graphql<{ node: unknown }>(NODE, { id: bad });
    expect(result.errors?.[0]?.message).toBe('Invalid id "abc".');
  });
});
