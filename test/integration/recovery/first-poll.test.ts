/**
 * A fresh `sluice serve` (nothing stored for its git poller) and a change pushed right after its
 * start banner (docs/operations.md#durable-source-state): every project's first-poll baseline is
 * recorded before the process listens, so the change is tested. The tenant holds 20 other
 * projects listed before org/app, so org/app's first poll comes last. On the store
 * `DATABASE_URL` names, else on the embedded store.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { pushChange, recoveryFiles, waitFor, type RecoveryFiles } from '../../helpers/recovery-deployment';
import { startServe, type ServeProcess } from '../../helpers/serve-process';

jest.setTimeout(180_000);

describe('the first poll of a fresh sluice serve', () => {
  let files: RecoveryFiles;
  let database: TestDatabase | null = null;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    files = await recoveryFiles({ extraProjects: 20, pollInterval: 0.3 });
    writeFileSync(path.join(files.marks, 'release'), '');
    if (process.env.DATABASE_URL) {
      database = await createTestDatabase({ backend: 'postgres', migrate: false });
    }
  });

  afterAll(async () => {
    serve?.child.kill('SIGKILL');
    await database?.destroy();
    rmSync(files.dir, { recursive: true, force: true });
  });

  it('tests a change pushed right after the start banner', async () => {
    serve = await startServe(files.configFile, { DATABASE_URL: database?.url ?? '' }, { cwd: files.dir });
    await pushChange(files, 1);
    const base = serve.base;
    let builds: Array<{ result: string | null }> = [];
    await waitFor(
      'the build of change 1',
      async () => {
        const response = await fetch(`${base}/api/tenant/example/builds?change=1`);
        builds = (await response.json()) as Array<{ result: string | null }>;
        return builds.some((build) => build.result !== null);
      },
      120_000,
    );
    expect(builds.map((build) => build.result)).toEqual(['SUCCESS']);
    // On a failure, the output says which shutdown step was abandoned (docs/operations.md#shutdown).
    await serve.stop();
  });
});
