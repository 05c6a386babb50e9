/**
 * The quickstart deployment end to end in one `buildApp()` process (as `sluice serve` runs it):
 * a change ref is pushed to the seeded example/hello repository with plain git, enqueued into
 * `gate` with the GraphQL `enqueue` mutation, run by the built-in executor, reported, its logs
 * served over HTTP and the change merged into master; a change breaking the unit test fails
 * and is not merged.
 */
import { rmSync } from 'node:fs';
import type { EngineDelta } from '../../src/engine/event-bus';
import type { SluiceApp } from '../../src/server/app';
import { git } from '../../src/sources/git-cli';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { adminToken } from '../helpers/live';
import { pushChange as pushChangeTo, quickstartDeployment, startQuickstartApp } from '../helpers/quickstart-deployment';

const TENANT = 'example';
const PROJECT = 'example/hello';

const ENQUEUE = /* GraphQL */ `
  mutation ($input: EnqueueInput!) {
    enqueue(input: $input) {
      __typename
      ... on ManagementEventAccepted {
        eventId
      }
      ... on Error {
        message
      }
    }
  }
`;

interface BuildRow {
  job_name: string;
  result: string | null;
  log_url: string | null;
}

describe('quickstart end to end (serve: engine, executor, git driver, logs)', () => {
  let root: string;
  let database: TestDatabase;
  let app: SluiceApp;
  let reports: EngineDelta[];
  let reported: Array<() => void>;
  let bareRepo: string;

  beforeAll(async () => {
    const deployment = quickstartDeployment('sluice-quickstart-e2e-');
    root = deployment.root;
    await deployment.seed();
    bareRepo = deployment.repository(PROJECT);
    database = await createTestDatabase({ migrate: false });
    app = await startQuickstartApp(deployment.config, database);
    reports = [];
    reported = [];
    engineEventBusOver(app.bus, () => undefined).subscribe(TENANT, (delta) => {
      if (delta.type === 'item-reported' && delta.pipeline === 'gate') {
        reports.push(delta);
        reported.splice(0).forEach((wake) => wake());
      }
    });
  });

  afterAll(async () => {
    await app.stop();
    await database.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  /** Commit `files` on top of master and push the commit as change `<number>,1`; resolves with its sha. */
  const pushChange = (number: number, files: Record<string, string>, message: string): Promise<string> =>
    pushChangeTo(root, bareRepo, number, files, message);

  /** Enqueue change `<number>,1` into gate as a tenant admin and wait for its report. */
  async function gate(number: number): Promise<EngineDelta> {
    const before = reports.length;
    const done = new Promise<void>((resolve) => reported.push(resolve));
    const response = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(TENANT)}` },
      body: JSON.stringify({
        query: ENQUEUE,
        variables: { input: { tenant: TENANT, pipeline: 'gate', project: PROJECT, change: `${number},1` } },
      }),
    });
    const body = (await response.json()) as { data?: { enqueue: { __typename: string } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data?.enqueue.__typename).toBe('ManagementEventAccepted');
    while (reports.length === before) {
      await done;
    }
    return reports[before];
  }

  async function gateBuilds(number: number): Promise<{ result: string | null; builds: BuildRow[] }> {
    const buildset = await database
      .knex('buildsets')
      .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where({ 'buildsets.tenant': TENANT, 'buildsets.pipeline': 'gate', 'refs.change': number })
      .first('buildsets.id', 'buildsets.result');
    const builds: BuildRow[] = await database
      .knex('builds')
      .where({ buildset_id: buildset.id })
      .orderBy('job_name')
      .select('job_name', 'result', 'log_url');
    return { result: buildset.result, builds };
  }

  async function masterContains(sha: string): Promise<boolean> {
    try {
      await git(bareRepo, ['merge-base', '--is-ancestor', sha, 'refs/heads/master']);
      return true;
    } catch {
      return false;
    }
  }

  it('gates a passing change: jobs succeed, logs are served and the change is merged', async () => {
    const sha = await pushChange(1, { 'NOTES.md': 'Release notes\n' }, 'Add release notes');
    const report = await gate(1);
    expect(report).toMatchObject({ pipeline: 'gate', result: 'SUCCESS' });

    const { result, builds } = await gateBuilds(1);
    expect(result).toBe('SUCCESS');
    expect(builds.map((build) => [build.job_name, build.result])).toEqual([
      ['hello-lint', 'SUCCESS'],
      ['hello-unit', 'SUCCESS'],
    ]);
    const unit = builds.find((build) => build.job_name === 'hello-unit');
    expect(unit?.log_url).toMatch(/^\/logs\/example\//);
    const log = await fetch(`${app.url()}${unit?.log_url ?? ''}job-output.txt`);
    expect(log.status).toBe(200);
    expect(await log.text()).toContain('unit tests passed');

    expect(await masterContains(sha)).toBe(true);
  }, 120_000);

  it('fails a change that breaks the unit test and does not merge it', async () => {
    const sha = await pushChange(2, { 'hello.sh': '#!/bin/sh\necho "Goodbye, ${1:-world}!"\n' }, 'Say goodbye instead');
    const report = await gate(2);
    expect(report).toMatchObject({ pipeline: 'gate', result: 'FAILURE' });

    const { result, builds } = await gateBuilds(2);
    expect(result).toBe('FAILURE');
    expect(builds.find((build) => build.job_name === 'hello-unit')?.result).toBe('FAILURE');
    expect(await masterContains(sha)).toBe(false);
  }, 120_000);
});
