/**
 * The GitHub reporter against the fake GitHub and a real database (docs/github.md#reporters):
 * a check run is created once and updated by later reports, also by a new reporter (a restarted
 * process) on the same database, and also inside a transaction (a report made inside a pass).
 */
import { GitHubConnection } from '../../../src/sources/github/connection';
import { GitHubReporter, type GitHubItemReport } from '../../../src/sources/github/reporter';
import { GitHubCheckRunRepository } from '../../../src/store/repositories/github-check-runs';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { FakeGitHub } from '../../helpers/fake-github/server';

const TOKEN = 'ghp_reporter_test_token';

describe('GitHub reporter', () => {
  const hub = new FakeGitHub({ personalToken: TOKEN });
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await hub.start();
    await hub.createRepo('org/app', { 'README.md': 'x\n' });
  });

  afterAll(async () => {
    await hub.stop();
    await database?.destroy();
  });

  /** A fresh connection and reporter: what a restarted process builds. */
  const newReporter = () => {
    const connection = new GitHubConnection('github', {
      server: hub.url,
      apiToken: TOKEN,
      webhookToken: 'secret',
      requestTimeout: 10,
      rateLimitMaxWait: 60,
    });
    return new GitHubReporter(
      new Map([['github', connection]]),
      (tenant, uuid) => `https://sluice.example.com/t/${tenant}/buildset/${uuid}`,
      new GitHubCheckRunRepository(database.knex),
    );
  };

  const report = (sha: string, number: number, phase: string, check: string, result: string | null) =>
    ({
      tenant: 'acme',
      pipeline: 'check',
      phase,
      change: {
        kind: 'change',
        project: `${new URL(hub.url).host}/org/app`,
        ref: `refs/pull/${number}/head`,
        branch: 'main',
        number,
        patchset: sha,
        oldrev: null,
        newrev: null,
        url: null,
        owner: null,
        dependsOn: [],
        merged: false,
      },
      buildsetUuid: 'b1',
      message: '',
      result,
      jobs: [{ name: 'unit', result: result === null ? null : 'SUCCESS', voting: true }],
      reporters: [{ connection: 'github', driver: 'github', options: { check, comment: false } }],
    }) satisfies GitHubItemReport;

  const checkRequests = () => hub.requests.filter((r) => r.path.includes('/check-runs'));

  it('updates the check run a previous process created instead of creating a second one', async () => {
    const pull = await hub.openPull('org/app', { title: 'One', files: { 'a.txt': 'a\n' } });
    await newReporter().report(report(pull.headSha, pull.number, 'start', 'in_progress', null));
    const runs = () => hub.repo('org/app').checkRuns.filter((r) => r.headSha === pull.headSha);
    expect(runs()).toMatchObject([{ name: 'acme/check', status: 'in_progress' }]);
    const created = runs()[0].id;

    // A restart: nothing of the first reporter is left but the database.
    await newReporter().report(report(pull.headSha, pull.number, 'success', 'success', 'SUCCESS'));
    expect(runs()).toHaveLength(1);
    expect(runs()[0]).toMatchObject({ id: created, status: 'completed', conclusion: 'success' });
    expect(checkRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/org/app/check-runs',
      `PATCH /repos/org/app/check-runs/${created}`,
    ]);
  });

  it('reads and stores check run ids through the transaction it is given', async () => {
    const pull = await hub.openPull('org/app', { title: 'Two', files: { 'b.txt': 'b\n' } });
    const before = checkRequests().length;
    await database.knex.transaction(async (trx) => {
      await newReporter().report(report(pull.headSha, pull.number, 'start', 'in_progress', null), trx);
      await newReporter().report(report(pull.headSha, pull.number, 'success', 'success', 'SUCCESS'), trx);
    });
    const runs = hub.repo('org/app').checkRuns.filter((r) => r.headSha === pull.headSha);
    expect(runs).toMatchObject([{ status: 'completed', conclusion: 'success' }]);
    expect(checkRequests().slice(before).map((r) => r.method)).toEqual(['POST', 'PATCH']);
  });
});
