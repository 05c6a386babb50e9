/**
 * The GitHub reporter against the fake GitHub and a real database (docs/github.md#reporters):
 * a check run is created once and updated by later reports, also by a new reporter (a restarted
 * process) on the same database, and also inside a transaction (a report made inside a pass);
 * a call answered 5xx or whose connection failed is tried again a bounded number of times.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GitHubConnection } from '../../../src/drivers/github/connection';
import type { ReporterPhase } from '../../../src/engine/ports/layout';
import type { ItemReport } from '../../../src/engine/ports/reporter';
import { GitHubReporter } from '../../../src/drivers/github/reporter';
import { REPORT_RETRY_DELAYS_MS } from '../../../src/drivers/github/retry';
import { GitHubCheckRunRepository } from '../../../src/store/repositories/github-check-runs';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { FakeGitHub } from '../../helpers/fake-github/server';

describe('GitHub reporter', () => {
  // A GitHub App: GitHub lets only Apps write check runs.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const hub = new FakeGitHub({ appId: 9, appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const keyDir = mkdtempSync(path.join(os.tmpdir(), 'github-reporter-'));
  const keyFile = path.join(keyDir, 'app.pem');
  let database: TestDatabase;

  beforeAll(async () => {
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
    database = await createTestDatabase();
    await hub.start();
    await hub.createRepo('org/app', { 'README.md': 'x\n' });
  });

  afterAll(async () => {
    await hub.stop();
    await database?.destroy();
    rmSync(keyDir, { recursive: true, force: true });
  });

  /** Waits the reporter asked for (retries), not slept. */
  let waits: number[] = [];

  /** A fresh connection and reporter (what a restarted process builds), its installation token fetched unless `cold`. */
  const newReporter = async (server = hub.url, cold = false) => {
    const connection = new GitHubConnection('github', {
      server,
      appId: 9,
      appKeyFile: keyFile,
      webhookToken: 'secret',
      requestTimeout: 10,
      rateLimitMaxWait: 60,
    });
    if (!cold) {
      await connection.client.tokenFor('org/app');
    }
    return new GitHubReporter(
      new Map([['github', connection]]),
      (tenant, uuid) => `https://sluice.example.com/t/${tenant}/buildset/${uuid}`,
      new GitHubCheckRunRepository(database.knex),
      () => new Date(),
      {
        delaysMs: REPORT_RETRY_DELAYS_MS,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    );
  };

  const report = (sha: string, number: number, phase: ReporterPhase, check: string, result: string | null) =>
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
    }) satisfies ItemReport;

  const checkRequests = () => hub.requests.filter((r) => r.path.includes('/check-runs'));

  it('updates the check run a previous process created instead of creating a second one', async () => {
    const pull = await hub.openPull('org/app', { title: 'One', files: { 'a.txt': 'a\n' } });
    await (await newReporter()).report(report(pull.headSha, pull.number, 'start', 'in_progress', null));
    const runs = () => hub.repo('org/app').checkRuns.filter((r) => r.headSha === pull.headSha);
    expect(runs()).toMatchObject([{ name: 'acme/check', status: 'in_progress' }]);
    const created = runs()[0].id;

    // A restart: nothing of the first reporter is left but the database.
    await (await newReporter()).report(report(pull.headSha, pull.number, 'success', 'success', 'SUCCESS'));
    expect(runs()).toHaveLength(1);
    expect(runs()[0]).toMatchObject({ id: created, status: 'completed', conclusion: 'success' });
    expect(checkRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/org/app/check-runs',
      `PATCH /repos/org/app/check-runs/${created}`,
    ]);
  });

  it('keeps a check run id for the next reporter (a new process), with no transaction of its caller', async () => {
    const pull = await hub.openPull('org/app', { title: 'Two', files: { 'b.txt': 'b\n' } });
    const before = checkRequests().length;
    await (await newReporter()).report(report(pull.headSha, pull.number, 'start', 'in_progress', null));
    await (await newReporter()).report(report(pull.headSha, pull.number, 'success', 'success', 'SUCCESS'));
    const runs = hub.repo('org/app').checkRuns.filter((r) => r.headSha === pull.headSha);
    expect(runs).toMatchObject([{ status: 'completed', conclusion: 'success' }]);
    expect(
      checkRequests()
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['POST', 'PATCH']);
  });

  it('sends a report again after GitHub answered 502 once', async () => {
    const pull = await hub.openPull('org/app', { title: 'Three', files: { 'c.txt': 'c\n' } });
    const reporter = await newReporter();
    const before = hub.requests.length;
    waits = [];
    hub.failNext(1);
    const withStatus = report(pull.headSha, pull.number, 'start', 'in_progress', null);
    withStatus.reporters[0].options = { status: 'pending', comment: false } as never;
    await reporter.report(withStatus);
    expect(hub.requests.slice(before).map((r) => `${r.status} ${r.method} ${r.path}`)).toEqual([
      `502 POST /repos/org/app/statuses/${pull.headSha}`,
      `201 POST /repos/org/app/statuses/${pull.headSha}`,
    ]);
    expect(
      hub
        .repo('org/app')
        .statuses.get(pull.headSha)
        ?.map((s) => s.state),
    ).toEqual(['pending']);
    expect(waits).toEqual([REPORT_RETRY_DELAYS_MS[0]]);
  });

  it('gives up after the bounded retries, and does not retry a refusal', async () => {
    const pull = await hub.openPull('org/app', { title: 'Four', files: { 'd.txt': 'd\n' } });
    waits = [];
    const reporter = await newReporter();
    const before = hub.requests.length;
    hub.failNext(10, 503);
    await expect(
      reporter.report(report(pull.headSha, pull.number, 'start', 'in_progress', null)),
    ).rejects.toMatchObject({ status: 503 });
    expect(hub.requests.length - before).toBe(REPORT_RETRY_DELAYS_MS.length + 1);
    expect(waits).toEqual([...REPORT_RETRY_DELAYS_MS]);
    hub.failNext(0);

    // A 404 (an unknown pull request) is GitHub's answer, not a passing failure.
    waits = [];
    const unknown = report(pull.headSha, 999, 'success', 'success', 'SUCCESS');
    unknown.reporters[0].options = { comment: true } as never;
    unknown.message = 'hello';
    await expect((await newReporter()).report(unknown)).rejects.toMatchObject({ status: 404 });
    expect(waits).toEqual([]);
  });

  it('retries when the connection to GitHub fails', async () => {
    // A port nothing listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    waits = [];
    await expect(
      (await newReporter(`http://127.0.0.1:${port}`, true)).report(
        report('e'.repeat(40), 1, 'start', 'in_progress', null),
      ),
    ).rejects.toMatchObject({ status: 0 });
    expect(waits).toEqual([...REPORT_RETRY_DELAYS_MS]);
  });
});
