/**
 * An executor for tests: a fresh database, real git repositories (project `org/app` holding
 * the scripts given), a repository cache, a merger and a worker whose builds are queued with
 * `enqueue`. `completion(uuid)` resolves when the worker has stored the build's completion,
 * `pause(uuid)` when it has stored its pause; `spawnWorker()` makes another worker on the same
 * store and directories (another executor process on the host, or the same after a restart).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  BuildCompletedPayload,
  BuildJob,
  BuildPausedPayload,
  BuildRequestParams,
} from '../../src/model/build-request';
import { Merger } from '../../src/executor/merger';
import { RepoCache } from '../../src/executor/repo-cache';
import { allowedHostEnvironment } from '../../src/executor/step-environment';
import { ExecutorWorker } from '../../src/executor/worker';
import type { ExecutorWorkerOptions } from '../../src/executor/worker-options';
import { BuildRequestRepository } from '../../src/store/repositories/build-requests';
import { buildParams } from './build-params';
import { createTestDatabase, type TestDatabase } from './database';
import { createGitFixture, type FileSpec, type GitFixture } from './git-fixtures';

export interface ExecutorHarness {
  fixture: GitFixture;
  database: TestDatabase;
  repository: BuildRequestRepository;
  worker: ExecutorWorker;
  root: string;
  logsDir: string;
  /** Queue a build of change 1,1 of org/app with the given job fields. */
  enqueue(uuid: string, job: Partial<BuildJob>, params?: Partial<BuildRequestParams>): Promise<void>;
  completion(uuid: string): Promise<BuildCompletedPayload>;
  pause(uuid: string): Promise<BuildPausedPayload>;
  /** Another worker with the same options (a new id); stop it before `close`. */
  spawnWorker(): ExecutorWorker;
  close(): Promise<void>;
}

/** Resolves per key once a value for it was seen (before or after the call). */
class Arrivals<T> {
  private readonly seen = new Map<string, T>();
  private readonly waiters = new Map<string, Array<(value: T) => void>>();

  add(key: string, value: T): void {
    this.seen.set(key, value);
    for (const resolve of this.waiters.get(key) ?? []) {
      resolve(value);
    }
    this.waiters.delete(key);
  }

  wait(key: string): Promise<T> {
    const value = this.seen.get(key);
    if (value !== undefined) {
      return Promise.resolve(value);
    }
    return new Promise((resolve) => {
      this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]);
    });
  }
}

export async function createExecutorHarness(
  scripts: FileSpec,
  options: Partial<ExecutorWorkerOptions> = {},
): Promise<ExecutorHarness> {
  const fixture = createGitFixture();
  await fixture.createProject('org/app', { README: 'app\n' });
  await fixture.pushChange('org/app', 1, 1, { parent: 'master', files: scripts, message: 'Add scripts' });
  const database = await createTestDatabase();
  const repository = new BuildRequestRepository(database.knex);
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-executor-'));
  const logsDir = path.join(root, 'logs');
  const cache = new RepoCache(path.join(root, 'cache'), {
    local: { baseurl: fixture.baseDir, canonicalHostname: 'git.example.com' },
  });
  const merger = new Merger(cache, path.join(root, 'scratch'));
  const completed = new Arrivals<BuildCompletedPayload>();
  const paused = new Arrivals<BuildPausedPayload>();
  const spawnWorker = (): ExecutorWorker => {
    const spawned = new ExecutorWorker({
      repository,
      merger,
      workRoot: path.join(root, 'builds'),
      logsDir,
      logsUrl: 'http://localhost:9000/logs/',
      concurrency: 2,
      pollIntervalMs: 50,
      cancelPollIntervalMs: 100,
      hostEnv: allowedHostEnvironment({ PATH: process.env.PATH }),
      killGraceMs: 200,
      ...options,
    });
    spawned.events.on('completed', (payload: BuildCompletedPayload) => completed.add(payload.buildUuid, payload));
    spawned.events.on('paused', (payload: BuildPausedPayload) => paused.add(payload.buildUuid, payload));
    return spawned;
  };
  const worker = spawnWorker();
  return {
    fixture,
    database,
    repository,
    worker,
    root,
    logsDir,
    enqueue: async (uuid, job, params) => {
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
      await repository.create(
        buildParams({
          job,
          params: { buildUuid: uuid, item, mergerItems: [{ ...item, mergeMode: 'merge-resolve' }], ...params },
        }),
      );
      worker.wake();
    },
    completion: (uuid) => completed.wait(uuid),
    pause: (uuid) => paused.wait(uuid),
    spawnWorker,
    close: async () => {
      await worker.stop();
      await database.destroy();
      fixture.cleanup();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
