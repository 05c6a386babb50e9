/**
 * A real server with a seeded build history for two tenants: four buildsets of tenant-one (gate
 * success, gate failure, a running check with two refs, a post ref update), their builds, one
 * buildset of tenant-two and system events of both. Used by test/integration/graphql-history/.
 */
import { defaultServiceConfig } from '../../src/config/service';
import type { BuildRecord } from '../../src/store/repositories/builds';
import type { BuildsetRecord } from '../../src/store/repositories/buildsets';
import { defaultRef, historyFactory } from './factories';
import { startTestServer, type TestServer } from './server';

export interface Connection<Node> {
  totalCount: number;
  nodes: Node[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export interface SeededHistory {
  server: TestServer;
  /** Every build the seed writes, newest first. */
  all: BuildRecord[];
  sets: Record<'gate1' | 'gate2' | 'check' | 'post', BuildsetRecord>;
  /** The data of a GraphQL request; throws on errors. */
  graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

async function startSeededHistoryServer(): Promise<SeededHistory> {
  // Pages of up to 5,000 rows with every field are far over the default cost limit.
  const server = await startTestServer({
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
    resultData: { zuul: { log_url: 'https://logs.example.com/1/' }, docs: ['index.html'] },
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

  const graphql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const result = await server.graphql<T>(query, variables);
    if (result.errors) {
      throw new Error(JSON.stringify(result.errors));
    }
    if (!result.data) {
      throw new Error('no data');
    }
    return result.data;
  };
  return {
    server,
    all: [...created].reverse(),
    sets: { gate1: gate1Done, gate2: gate2Done, check: check.buildset, post: postDone },
    graphql,
  };
}

/** Starts the seeded server before the calling file's tests and stops it after them. */
export function useSeededHistory(): SeededHistory {
  let seeded: SeededHistory | undefined;
  beforeAll(async () => {
    seeded = await startSeededHistoryServer();
  });
  afterAll(async () => {
    await seeded?.server.stop();
  });
  const current = (): SeededHistory => {
    if (seeded === undefined) {
      throw new Error('the seeded history server is not running');
    }
    return seeded;
  };
  return {
    get server() {
      return current().server;
    },
    get all() {
      return current().all;
    },
    get sets() {
      return current().sets;
    },
    graphql: (query, variables) => current().graphql(query, variables),
  };
}
