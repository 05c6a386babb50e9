/**
 * The executor and git driver on the quickstart's example repositories, playing the engine's
 * part by hand: two stacked changes are pushed as change refs, the poller reports them, the
 * gate jobs of the example project run for real at each item's speculative state, the passing
 * change is merged into master and the merge is reported once as Sluice's own ref-updated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BuildCompletedPayload, MergerItem } from '../../src/model/build-request';
import { Merger } from '../../src/executor/merger';
import { RepoCache } from '../../src/executor/repo-cache';
import { allowedHostEnvironment } from '../../src/executor/step-environment';
import { ExecutorWorker } from '../../src/executor/worker';
import { GitMirrors } from '../../src/sources/git-mirror';
import { GitPoller, type GitTriggerEvent } from '../../src/drivers/git/poller';
import { seedRepositories } from '../../src/drivers/git/seed';
import { BuildRequestRepository } from '../../src/store/repositories/build-requests';
import { buildParams } from '../helpers/build-params';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createGitFixture, type GitFixture } from '../helpers/git-fixtures';

const PROJECT = 'example/hello';

describe('quickstart gate flow (executor and git driver)', () => {
  let fixture: GitFixture;
  let database: TestDatabase;
  let root: string;
  let worker: ExecutorWorker;
  let merger: Merger;

  beforeAll(async () => {
    fixture = createGitFixture();
    await seedRepositories(path.resolve(__dirname, '../../examples/quickstart/repos'), fixture.baseDir);
    database = await createTestDatabase();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-quickstart-'));
    const cache = new RepoCache(path.join(root, 'cache'), {
      local: { baseurl: fixture.baseDir, canonicalHostname: 'git.example.local' },
    });
    merger = new Merger(cache, path.join(root, 'scratch'));
    worker = new ExecutorWorker({
      repository: new BuildRequestRepository(database.knex),
      merger,
      workRoot: path.join(root, 'builds'),
      logsDir: path.join(root, 'logs'),
      logsUrl: 'http://localhost:9000/logs/',
      pollIntervalMs: 50,
      hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
    });
    worker.start();
  });

  afterAll(async () => {
    await worker.stop();
    await database.destroy();
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('tests stacked changes speculatively, merges the good one and reports the merge once', async () => {
    const events: GitTriggerEvent[] = [];
    const poller = new GitPoller({
      connection: 'local',
      mirrors: new GitMirrors(path.join(root, 'poller'), () => fixture.baseDir),
      projects: () => [PROJECT],
      intervalMs: 60_000,
      onEvent: (event) => {
        events.push(event);
      },
    });
    await poller.pollNow();

    await fixture.pushChange(PROJECT, 1, 1, {
      parent: 'master',
      files: { 'NOTES.md': 'Release notes\n' },
      message: 'Add release notes',
    });
    const broken = await fixture.pushChange(PROJECT, 2, 1, {
      parent: 'master',
      files: { 'hello.sh': { content: '#!/bin/sh\necho "Goodbye, ${1:-world}!"\n', executable: true } },
      message: 'Say goodbye instead\n\nDepends-On: example/hello:1\n',
    });
    await poller.pollNow();
    expect(events.map((e) => (e.type === 'patchset-created' ? [e.ref, e.branch, e.dependsOn.length] : e.type))).toEqual(
      [
        ['refs/changes/01/1/1', 'master', 0],
        ['refs/changes/02/2/1', 'master', 1],
      ],
    );
    expect(events[1]).toMatchObject({ newrev: broken });

    const change = (n: number): MergerItem => ({
      connection: 'local',
      project: PROJECT,
      branch: 'master',
      ref: `refs/changes/0${n}/${n}/1`,
      change: n,
      patchset: '1',
      oldrev: null,
      newrev: null,
      mergeMode: 'merge-resolve',
    });
    const completions = new Map<string, BuildCompletedPayload>();
    const done = new Promise<void>((resolve) => {
      worker.events.on('completed', (payload: BuildCompletedPayload) => {
        completions.set(payload.buildUuid, payload);
        if (completions.size === 3) {
          resolve();
        }
      });
    });
    const repository = new BuildRequestRepository(database.knex);
    const gateBuild = (uuid: string, job: string, script: string, items: MergerItem[]) => {
      const { mergeMode: _mergeMode, ...item } = items[items.length - 1];
      return repository.create(
        buildParams({
          job: { name: job, run: [{ connection: 'local', project: PROJECT, path: script }], timeout: 600, attempts: 2 },
          params: { buildUuid: uuid, pipeline: 'gate', item, mergerItems: items },
        }),
      );
    };
    await gateBuild('9a000000000000000000000000000001', 'hello-unit', 'scripts/unit.sh', [change(1)]);
    await gateBuild('9a000000000000000000000000000002', 'hello-lint', 'scripts/lint.sh', [change(1)]);
    await gateBuild('9b000000000000000000000000000003', 'hello-unit', 'scripts/unit.sh', [change(1), change(2)]);
    worker.wake();
    await done;
    expect(completions.get('9a000000000000000000000000000001')).toMatchObject({
      result: 'SUCCESS',
      changedFiles: ['NOTES.md'],
    });
    expect(completions.get('9a000000000000000000000000000002')).toMatchObject({ result: 'SUCCESS' });
    expect(completions.get('9b000000000000000000000000000003')).toMatchObject({
      result: 'FAILURE',
      changedFiles: ['hello.sh'],
    });

    const merged = await merger.mergeToBranch({
      connection: 'local',
      project: PROJECT,
      ref: 'refs/changes/01/1/1',
      targetBranch: 'master',
      mergeMode: 'merge-resolve',
    });
    if (!merged.ok) {
      throw new Error(merged.detail);
    }
    expect(await fixture.showFile(PROJECT, 'master', 'NOTES.md')).toBe('Release notes\n');
    events.length = 0;
    await poller.expectOwnUpdate(PROJECT, 'master', merged.newrev, merged.oldrev);
    await poller.pollNow();
    expect(events).toEqual([
      expect.objectContaining({
        type: 'ref-updated',
        ref: 'refs/heads/master',
        oldrev: merged.oldrev,
        newrev: merged.newrev,
        own: true,
      }),
    ]);
  });
});
