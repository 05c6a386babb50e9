/** The example live client (examples/live-view/live-status.ts) follows a real server: snapshot, then deltas. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { startLiveServer, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

describe('example live client', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: { 'org/project': { gate: [job('unit')] } },
      }),
    );
    await h.start();
    server = await startLiveServer(db, { harness: h });
  });

  afterAll(async () => {
    child?.kill();
    await server.stop();
    await h.stop();
    await db.destroy();
  });

  it('prints the queue after a change is enqueued', async () => {
    const script = path.join(__dirname, '..', '..', '..', 'examples', 'live-view', 'live-status.ts');
    const running = spawn(process.execPath, ['--import', 'tsx', script, server.url, h.tenant], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = running;
    // Everything the example prints is kept, also while the test is not waiting for it.
    let output = '';
    running.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const seen = (text: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (output.includes(text)) {
            running.stdout?.off('data', check);
            resolve();
          }
        };
        running.stdout?.on('data', check);
        running.once('exit', (code) => reject(new Error(`example exited with ${code}: ${output}`)));
        check();
      });
    await seen(`--- ${h.tenant} @ sequence`);
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    await seen('org/project 1,1 [active] unit:');
  }, 60_000);
});
