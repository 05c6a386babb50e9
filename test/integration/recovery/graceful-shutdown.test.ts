/**
 * SIGTERM to a real `sluice serve` while a gate build runs (docs/operations.md#shutdown):
 * - with room in `shutdownTimeout`, the build finishes during the shutdown and its result
 *   stands (one build, SUCCESS, merged once);
 * - a build still running when the time is up is handed back unfinished: after two restarts
 *   during one build of a job with two attempts, the change still merges with one build of
 *   attempt 1 (before: ABORTED twice, RETRY_LIMIT, the good change failed);
 * - no shutdown warns about the event bus ("Cannot use a pool after calling end").
 * On the store `DATABASE_URL` names (then with the PostgreSQL event bus), else on the embedded
 * store.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../../../src/sources/git-cli';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  pushChange,
  recoveryFiles,
  waitFor,
  type RecoveryFiles,
  type RecoveryOptions,
} from '../../helpers/recovery-deployment';
import { startServe, type ServeProcess } from '../../helpers/serve-process';

jest.setTimeout(240_000);

const BUS_WARNINGS = /Cannot use a pool|engine delta not published|event bus connection problem/;

describe('SIGTERM while a build runs', () => {
  let files: RecoveryFiles;
  let database: TestDatabase | null = null;
  const running = new Set<ServeProcess>();

  afterEach(async () => {
    for (const serve of running) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    running.clear();
    await database?.destroy();
    database = null;
    rmSync(files.dir, { recursive: true, force: true });
  });

  async function deploy(options: RecoveryOptions): Promise<void> {
    files = await recoveryFiles(options);
    if (process.env.DATABASE_URL) {
      database = await createTestDatabase({ backend: 'postgres', migrate: false });
    }
  }

  async function serve(): Promise<ServeProcess> {
    const started = await startServe(
      files.configFile,
      { DATABASE_URL: database?.url ?? '', SLUICE_LOG_LEVEL: 'info' },
      { cwd: files.dir },
    );
    running.add(started);
    return started;
  }

  /** SIGTERM, then `cleanExit`. */
  async function stop(serve: ServeProcess): Promise<void> {
    serve.child.kill('SIGTERM');
    await cleanExit(serve);
  }

  /** The exit must be code 0 (`ServeProcess.cleanExit`), and the output must not warn about the bus. */
  async function cleanExit(serve: ServeProcess): Promise<void> {
    await serve.cleanExit();
    running.delete(serve);
    expect(serve.output()).not.toMatch(BUS_WARNINGS);
  }

  function starts(): string[] {
    const file = path.join(files.marks, 'starts');
    return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
  }

  async function buildResults(serve: ServeProcess): Promise<string[]> {
    const response = await fetch(`${serve.base}/api/tenant/example/builds?change=1`);
    const builds = (await response.json()) as Array<{ result: string | null }>;
    return builds.map((build) => build.result ?? 'running');
  }

  async function merged(): Promise<string[]> {
    const { stdout } = await git(path.join(files.baseDir, 'org', 'app.git'), ['log', '--format=%s', 'master']);
    return stdout.split('\n').filter((subject) => /^Change \d+$/.test(subject));
  }

  it('lets a running build finish within shutdownTimeout; its result stands', async () => {
    await deploy({ shutdownTimeout: 60 });
    const first = await serve();
    await pushChange(files, 1);
    await waitFor('the build to run', () => starts().length === 1);
    first.child.kill('SIGTERM');
    await waitFor('the executor to wait for its build', () =>
      first.output().includes('stopping: waiting for running builds to finish'),
    );
    writeFileSync(path.join(files.marks, 'release'), '');
    await cleanExit(first);
    expect(first.output()).not.toContain('build handed back');

    const second = await serve();
    await waitFor('the build result', async () => !(await buildResults(second)).includes('running'));
    expect(await buildResults(second)).toEqual(['SUCCESS']);
    expect(await merged()).toEqual(['Change 1']);
    expect(starts()).toEqual(['1 1']);
    await stop(second);
  });

  it('hands a build still running at the deadline back: two restarts during one build use up no attempt', async () => {
    await deploy({ shutdownTimeout: 3, attempts: 2 });
    let current = await serve();
    await pushChange(files, 1);
    const stopped: ServeProcess[] = [];
    for (const restart of [1, 2]) {
      await waitFor(`run ${restart} of the build`, () => starts().length === restart);
      const stoppedAt = Date.now();
      await stop(current);
      expect(Date.now() - stoppedAt).toBeLessThan(3000 + 1000);
      stopped.push(current);
      current = await serve();
    }
    // Before: ABORTED at each SIGTERM, attempt 2 after the first, RETRY_LIMIT after the second.
    await waitFor('run 3 of the build', () => starts().length === 3);
    writeFileSync(path.join(files.marks, 'release'), '');
    await waitFor('the build result', async () => !(await buildResults(current)).includes('running'));
    expect(await buildResults(current)).toEqual(['SUCCESS']);
    await waitFor('change 1 merged', async () => (await merged()).length === 1);
    expect(starts()).toEqual(['1 1', '1 1', '1 1']);
    for (const earlier of stopped) {
      expect(earlier.output()).toContain('build handed back unfinished');
    }
    await stop(current);
  });
});
