/**
 * The `executor` section of the service configuration (docs/configuration.md#keys) reaches the
 * worker `sluice serve` builds: its slots, its workspace root and whether workspaces are kept.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseServiceConfig } from '../../src/config/service';
import { createExecutorServices, type ExecutorServices } from '../../src/executor/executor-services';
import type { BuildCompletedPayload } from '../../src/model/build-request';
import { BuildRequestRepository } from '../../src/store/repositories/build-requests';
import { buildParams, step } from '../helpers/build-params';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createGitFixture, type GitFixture } from '../helpers/git-fixtures';

jest.setTimeout(120_000);

describe('executor settings from the service configuration', () => {
  let fixture: GitFixture;
  let database: TestDatabase;
  let root: string;
  let services: ExecutorServices;

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/app', { README: 'app\n' });
    await fixture.pushChange('org/app', 1, 1, {
      parent: 'master',
      files: { 'where.sh': { content: '#!/bin/sh\necho "workspace $PWD"\n', executable: true } },
      message: 'Add a script',
    });
    database = await createTestDatabase();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-executor-settings-'));
    const config = parseServiceConfig(
      JSON.stringify({
        dataDir: 'data',
        connections: { local: { driver: 'git', baseurl: fixture.baseDir, canonicalHostname: 'git.example.com' } },
        executor: { slots: 1, workRoot: 'workspaces', keepWorkspaces: true, pollInterval: 0.05, killGracePeriod: 1 },
      }),
      path.join(root, 'sluice.yaml'),
    );
    services = createExecutorServices(config, {
      repository: new BuildRequestRepository(database.knex),
      environment: { PATH: process.env.PATH },
    });
  });

  afterAll(async () => {
    await services.worker.stop();
    await database.destroy();
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs at most executor.slots builds, in executor.workRoot, and keeps the workspace', async () => {
    expect(services.worker.concurrency).toBe(1);
    const uuid = 'e5000000000000000000000000000001';
    const item = {
      connection: 'local',
      project: 'org/app',
      branch: 'master',
      ref: 'refs/changes/01/1/1',
      change: 1,
      patchset: '1',
      oldrev: null,
      newrev: null,
    };
    const completed = new Promise<BuildCompletedPayload>((resolve) =>
      services.worker.events.on('completed', (payload: BuildCompletedPayload) => resolve(payload)),
    );
    await new BuildRequestRepository(database.knex).create(
      buildParams({
        job: { run: [step('where.sh')] },
        params: { buildUuid: uuid, item, mergerItems: [{ ...item, mergeMode: 'merge-resolve' }] },
      }),
    );
    services.worker.start();
    const payload = await completed;
    expect(payload).toMatchObject({ buildUuid: uuid, result: 'SUCCESS' });
    // Kept after the build, under the configured root (relative to the configuration file).
    const workspace = path.join(root, 'workspaces', uuid);
    expect(existsSync(workspace)).toBe(true);
    expect(readdirSync(workspace).length).toBeGreaterThan(0);
    expect(existsSync(path.join(root, 'data', 'executor', 'builds', uuid))).toBe(false);
  });
});
