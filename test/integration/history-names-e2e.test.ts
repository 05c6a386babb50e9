/**
 * What clients of the reference look for in history and status, on the quickstart deployment
 * (one `buildApp()` process; the connection's canonical host name `git.example.local` differs
 * from the project name `example/hello`): records carry the short project name
 * (docs/gating.md#project-names-in-history), a web link of their ref
 * (docs/configuration.md#ref-url-templates) and the id of the event that enqueued them
 * (docs/gating.md#event-ids); every history endpoint, REST in both shapes and GraphQL, filters
 * by the name and by the canonical name; status jobs carry estimates after a first run
 * (docs/rest.md#status-document).
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineDelta } from '../../src/engine/event-bus';
import type { SluiceApp } from '../../src/server/app';
import { migrateLatest } from '../../src/store/migrate';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { adminToken } from '../helpers/live';
import { pushChange, quickstartDeployment, startQuickstartApp } from '../helpers/quickstart-deployment';

const TENANT = 'example';
const NAME = 'example/hello';
const CANONICAL = 'git.example.local/example/hello';
const GITWEB = 'https://git.example.local/cgit/{project.name}/commit/?id={sha}';
const EVENT_ID = /^[0-9a-f]{32}$/;

interface RestRef {
  project: string;
  ref: string;
  change: number | null;
  newrev: string | null;
  ref_url: string;
}
interface RestBuild {
  uuid: string;
  job_name: string;
  duration: number;
  event_id: string | null;
  ref: RestRef;
  buildset: { refs?: RestRef[] };
}
interface RestBuildset {
  uuid: string;
  event_id: string | null;
  refs: RestRef[];
  builds?: RestBuild[];
}
/** Earlier-shape build and buildset records: the first ref's fields flat. */
interface EarlierRecord {
  project: string | null;
  ref_url: string | null;
  event_id?: string | null;
}
interface StatusRef {
  id: string;
  url: string | null;
  project: string;
}
interface StatusJob {
  name: string;
  estimated_time: number | null;
  remaining_time: number | null;
}
interface RestStatus {
  pipelines: Array<{
    change_queues: Array<{
      heads: Array<Array<{ refs: Array<StatusRef & { project_canonical: string }>; jobs: StatusJob[] }>>;
    }>;
  }>;
}
interface GraphqlRef {
  project: string;
  projectCanonicalName: string;
  refUrl: string | null;
}
interface GraphqlHistory {
  tenant: {
    builds: { nodes: Array<{ eventId: string | null; ref: GraphqlRef }> };
    buildsets: { nodes: Array<{ eventId: string | null; refs: GraphqlRef[] }> };
    buildTimes: { nodes: Array<{ project: string; projectCanonicalName: string }> };
    badge: { __typename: string; passing?: boolean };
  };
}
interface GraphqlStatus {
  tenant: {
    status: {
      pipelines: Array<{
        changeQueues: Array<{
          heads: Array<
            Array<{
              refs: Array<StatusRef & { projectCanonical: string }>;
              jobs: Array<{ name: string; estimatedTime: number | null }>;
            }>
          >;
        }>;
      }>;
    };
  };
}

describe('history and status as reference clients read them (quickstart, canonical host differs)', () => {
  let root: string;
  let database: TestDatabase;
  let app: SluiceApp;
  let bareRepo: string;
  let release: string;
  const waiters: Array<{ match: (delta: EngineDelta) => boolean; resolve: (delta: EngineDelta) => void }> = [];

  /** The next engine delta matching `match` (ask before causing it). */
  function nextDelta(match: (delta: EngineDelta) => boolean): Promise<EngineDelta> {
    return new Promise((resolve) => waiters.push({ match, resolve }));
  }

  const reported = (pipeline: string) =>
    nextDelta((delta) => delta.type === 'item-reported' && delta.pipeline === pipeline);

  beforeAll(async () => {
    const deployment = quickstartDeployment('sluice-history-names-');
    const { connection } = deployment;
    root = deployment.root;
    release = path.join(root, 'release-unit');
    expect(connection.canonicalHostname).toBe('git.example.local');
    // Branch heads link to a repository browser; changes keep the default (the dashboard's change page).
    connection.gitwebUrlTemplate = GITWEB;
    // Nothing but the test enqueues: merges are not picked up by a poll during the test.
    connection.pollInterval = 3600;
    await deployment.seed();
    bareRepo = deployment.repository(NAME);

    database = await createTestDatabase({ migrate: false });
    await migrateLatest(database.knex);
    // A ref of the project whose name an earlier version derived wrongly: corrected at start.
    await database.knex('refs').insert({ project: 'wrong/name', project_canonical: CANONICAL, ref: 'refs/heads/old' });

    app = await startQuickstartApp(deployment.config, database);
    engineEventBusOver(app.bus, () => undefined).subscribe(TENANT, (delta) => {
      for (const waiter of waiters.filter((candidate) => candidate.match(delta))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(delta);
      }
    });
  }, 120_000);

  afterAll(async () => {
    writeFileSync(release, '');
    await app.stop();
    await database.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  const push = (number: number, files: Record<string, string>, message: string) =>
    pushChange(root, bareRepo, number, files, message);

  async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(TENANT)}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    if (body.data === undefined) {
      throw new Error('no data');
    }
    return body.data;
  }

  async function enqueue(input: Record<string, string>): Promise<void> {
    const data = await graphql<{ enqueue: { __typename: string; message?: string } }>(
      /* GraphQL */ `
        mutation ($input: EnqueueInput!) {
          enqueue(input: $input) {
            __typename
            ... on Error {
              message
            }
          }
        }
      `,
      { input: { tenant: TENANT, project: NAME, ...input } },
    );
    expect(data.enqueue).toEqual({ __typename: 'ManagementEventAccepted' });
  }

  async function rest(pathAndQuery: string, shape: 'current' | 'earlier' = 'current'): Promise<Response> {
    return fetch(`${app.url()}/api/tenant/${TENANT}/${pathAndQuery}`, { headers: { 'X-Sluice-Api-Shape': shape } });
  }

  async function restJson<T>(pathAndQuery: string, shape: 'current' | 'earlier' = 'current'): Promise<T> {
    const response = await rest(pathAndQuery, shape);
    expect([pathAndQuery, shape, response.status]).toEqual([pathAndQuery, shape, 200]);
    return (await response.json()) as T;
  }

  const changeUrl = (change: string) => `${app.url()}/t/${TENANT}/change/${change}`;

  it('corrects history names of configured projects from the configuration at start', async () => {
    expect(await database.knex('refs').where({ ref: 'refs/heads/old' }).first('project')).toEqual({ project: NAME });
  });

  it('gives status refs their link and short name, and started jobs an estimate after a first run', async () => {
    // First run: no history yet. Each merge runs the post pipeline on the new branch head.
    await push(1, { 'NOTES.md': 'Release notes\n' }, 'Add release notes');
    const first = reported('gate');
    const firstPost = reported('post');
    await enqueue({ pipeline: 'gate', change: '1,1' });
    expect(await first).toMatchObject({ result: 'SUCCESS' });
    expect(await firstPost).toMatchObject({ result: 'SUCCESS' });

    // Second run: the unit job waits for the test to release it.
    const unitScript = [
      '#!/bin/sh',
      'set -e',
      `while [ ! -e '${release}' ]; do sleep 0.05; done`,
      'output=$(sh ./hello.sh Sluice)',
      'test "$output" = "Hello, Sluice!"',
      'echo "unit tests passed"',
      '',
    ].join('\n');
    await push(2, { 'scripts/unit.sh': unitScript }, 'Unit tests wait for a signal');
    const started = nextDelta(
      (delta) => delta.type === 'job-started' && delta.pipeline === 'gate' && delta.job === 'hello-unit',
    );
    const second = reported('gate');
    const secondPost = reported('post');
    await enqueue({ pipeline: 'gate', change: '2,1' });
    await started;

    const [firstUnit] = await restJson<RestBuild[]>('builds?job_name=hello-unit&result=SUCCESS');
    expect(firstUnit.duration).toBeGreaterThan(0);
    const status = await restJson<RestStatus>('status');
    const items = status.pipelines.flatMap((p) => p.change_queues.flatMap((q) => q.heads.flat()));
    const item = items.find((candidate) => candidate.refs[0].id === '2,1');
    expect(item?.refs[0]).toMatchObject({ project: NAME, project_canonical: CANONICAL, url: changeUrl('2,1') });
    const unit = item?.jobs.find((job) => job.name === 'hello-unit');
    expect(unit?.estimated_time).toBeCloseTo(firstUnit.duration, 3);
    expect(unit?.remaining_time).not.toBeNull();
    const [byChange] =
      await restJson<RestStatus['pipelines'][number]['change_queues'][number]['heads'][number]>('status/change/2,1');
    expect(byChange.refs[0]).toMatchObject({ project: NAME, url: changeUrl('2,1') });

    const data = await graphql<GraphqlStatus>(
      /* GraphQL */ `
        query ($tenant: String!) {
          tenant(name: $tenant) {
            ... on Tenant {
              status(pipeline: "gate") {
                ... on TenantStatus {
                  pipelines {
                    changeQueues {
                      heads {
                        refs {
                          id
                          url
                          project
                          projectCanonical
                        }
                        jobs {
                          name
                          estimatedTime
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { tenant: TENANT },
    );
    const heads = data.tenant.status.pipelines[0].changeQueues.flatMap((q) => q.heads.flat());
    const head = heads.find((candidate) => candidate.refs[0].id === '2,1');
    expect(head?.refs[0]).toEqual({ id: '2,1', url: changeUrl('2,1'), project: NAME, projectCanonical: CANONICAL });
    expect(head?.jobs.find((job) => job.name === 'hello-unit')?.estimatedTime).toBeCloseTo(firstUnit.duration, 3);

    writeFileSync(release, '');
    expect(await second).toMatchObject({ result: 'SUCCESS' });
    expect(await secondPost).toMatchObject({ result: 'SUCCESS' });
  }, 300_000);

  /** Every project filter form: name, canonical name, and wildcards of each. */
  const FILTERS = [NAME, CANONICAL, 'example/*', 'git.example.local/*'];

  function expectRef(ref: RestRef): void {
    expect(ref.project).toBe(NAME);
    expect(ref.ref_url).toEqual(expect.stringMatching(/^(http:\/\/127\.0\.0\.1:\d+\/t\/example\/change\/|https:\/\/)/));
  }

  it('serves builds with the short name, the link and the event id, filtered by either name (REST)', async () => {
    for (const project of FILTERS) {
      const builds = await restJson<RestBuild[]>(`builds?project=${project}`);
      expect([project, builds.length]).toEqual([project, 6]);
      for (const build of builds) {
        expectRef(build.ref);
        expect(build.event_id).toMatch(EVENT_ID);
      }
      const earlier = await restJson<EarlierRecord[]>(`builds?project=${project}`, 'earlier');
      expect(earlier.map((build) => [build.project, build.ref_url])).toEqual(
        builds.map((build) => [NAME, build.ref.ref_url]),
      );
      const times = await restJson<Array<{ project: string }>>(`build-times?project=${project}`);
      expect([project, times.length]).toEqual([project, project.includes('*') ? 0 : 6]);
      expect(times.every((time) => time.project === NAME)).toBe(true);
      const badge = await rest(`badge?project=${project}`);
      expect([project, badge.status, badge.headers.get('content-type')]).toEqual([
        project,
        200,
        expect.stringMatching(/^image\/svg\+xml/),
      ]);
      expect(await badge.text()).toContain('passing');
    }
    const builds = await restJson<RestBuild[]>(`builds?project=${NAME}`);
    const byJob = (job: string, change: number | null) =>
      builds.find((build) => build.job_name === job && build.ref.change === change);
    expect(byJob('hello-unit', 1)?.ref.ref_url).toBe(changeUrl('1,1'));
    const publish = byJob('hello-publish', null);
    expect(publish?.ref).toMatchObject({ ref: 'refs/heads/master', project: NAME });
    expect(publish?.ref.ref_url).toBe(`https://git.example.local/cgit/${NAME}/commit/?id=${publish?.ref.newrev}`);
    // Builds of one buildset share its event id; each enqueue and each merge's trigger has its own.
    const ids = new Set(builds.map((build) => build.event_id));
    expect(ids.size).toBe(4);

    const one = await restJson<RestBuild>(`build/${byJob('hello-lint', 2)?.uuid}`);
    expect(one.event_id).toBe(byJob('hello-unit', 2)?.event_id);
    expectRef(one.ref);
    expect(one.buildset.refs).toHaveLength(1);
    one.buildset.refs?.forEach(expectRef);
    const oneEarlier = await restJson<EarlierRecord>(`build/${one.uuid}`, 'earlier');
    expect([oneEarlier.project, oneEarlier.ref_url]).toEqual([NAME, changeUrl('2,1')]);
  });

  it('serves buildsets with the short name, the link and the event id, filtered by either name (REST)', async () => {
    for (const project of FILTERS) {
      const buildsets = await restJson<RestBuildset[]>(`buildsets?project=${project}`);
      expect([project, buildsets.length]).toEqual([project, 4]);
      for (const buildset of buildsets) {
        buildset.refs.forEach(expectRef);
        expect(buildset.event_id).toMatch(EVENT_ID);
      }
      const earlier = await restJson<EarlierRecord[]>(`buildsets?project=${project}`, 'earlier');
      expect(earlier.map((buildset) => [buildset.project, buildset.ref_url, buildset.event_id])).toEqual(
        buildsets.map((buildset) => [NAME, buildset.refs[0].ref_url, buildset.event_id]),
      );
    }
    const [newest] = await restJson<RestBuildset[]>(`buildsets?project=${CANONICAL}&pipeline=gate`);
    const detail = await restJson<RestBuildset>(`buildset/${newest.uuid}`);
    expect(detail.refs).toEqual([expect.objectContaining({ project: NAME, change: 2, ref_url: changeUrl('2,1') })]);
    expect(detail.event_id).toBe(newest.event_id);
    expect(detail.builds).toHaveLength(2);
    for (const build of detail.builds ?? []) {
      expectRef(build.ref);
    }
    const detailEarlier = await restJson<EarlierRecord>(`buildset/${newest.uuid}`, 'earlier');
    expect([detailEarlier.project, detailEarlier.ref_url, detailEarlier.event_id]).toEqual([
      NAME,
      changeUrl('2,1'),
      newest.event_id,
    ]);
  });

  it('filters builds, buildsets, build times and the badge by either name and keeps both names (GraphQL)', async () => {
    for (const project of FILTERS) {
      const data = await graphql<GraphqlHistory>(
        /* GraphQL */ `
          query ($tenant: String!, $project: [String!]) {
            tenant(name: $tenant) {
              ... on Tenant {
                builds(filter: { project: $project }) {
                  nodes {
                    eventId
                    ref {
                      project
                      projectCanonicalName
                      refUrl
                    }
                  }
                }
                buildsets(filter: { project: $project }) {
                  nodes {
                    eventId
                    refs {
                      project
                      projectCanonicalName
                      refUrl
                    }
                  }
                }
                buildTimes(filter: { project: $project }) {
                  nodes {
                    project
                    projectCanonicalName
                  }
                }
                badge(project: $project) {
                  __typename
                  ... on Badge {
                    passing
                  }
                }
              }
            }
          }
        `,
        { tenant: TENANT, project: [project] },
      );
      const { builds, buildsets, buildTimes, badge } = data.tenant;
      const refs = [...builds.nodes.map((build) => build.ref), ...buildsets.nodes.flatMap((set) => set.refs)];
      expect([project, builds.nodes.length, buildsets.nodes.length, badge]).toEqual([
        project,
        6,
        4,
        { __typename: 'Badge', passing: true },
      ]);
      for (const ref of refs) {
        expect(ref).toEqual({ project: NAME, projectCanonicalName: CANONICAL, refUrl: expect.any(String) });
        expect(ref.refUrl).not.toBe('');
      }
      expect([...builds.nodes, ...buildsets.nodes].every((node) => EVENT_ID.test(node.eventId ?? ''))).toBe(true);
      expect(buildTimes.nodes).toEqual(
        project.includes('*') ? [] : Array(6).fill({ project: NAME, projectCanonicalName: CANONICAL }),
      );
    }
  });
});
