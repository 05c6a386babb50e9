/**
 * `npm start` as a newcomer runs it: the server is the process npm signals, so SIGTERM (or
 * Ctrl-C) to `npm start` stops the server, which frees its port within `shutdownTimeout`
 * (10 s in the quickstart), instead of leaving it running under PID 1.
 */
import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { killGroup, newcomerEnvironment, portInUse, quickstartCopy, spawnGroup } from '../helpers/quickstart-copy';

// The quickstart's first start seeds git repositories and creates the embedded store.
jest.setTimeout(180_000);

const SHUTDOWN_TIMEOUT_MS = 10_000;

describe('npm start', () => {
  let dir: string;
  let npm: ChildProcess | undefined;

  beforeAll(() => {
    dir = quickstartCopy();
  });

  afterAll(() => {
    if (npm) {
      killGroup(npm);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the server on SIGTERM to the npm process: the port is free within the shutdown time', async () => {
    npm = spawnGroup('npm', ['start'], dir, newcomerEnvironment(dir, { PORT: '0', SLUICE_LOG_LEVEL: 'warn' }));
    const child = npm;
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        const match = /GraphQL .*?http:\/\/127\.0\.0\.1:(\d+)\/graphql/.exec(output);
        if (match) {
          resolve(Number(match[1]));
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then((code) => reject(new Error(`npm start exited early (${code}): ${output}`)));
    });
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);

    child.kill('SIGTERM'); // the npm process only, not its group: npm must pass the signal on
    const signalled = Date.now();
    await exited;
    while (await portInUse(port)) {
      if (Date.now() - signalled > SHUTDOWN_TIMEOUT_MS) {
        throw new Error(`port ${port} still in use ${SHUTDOWN_TIMEOUT_MS} ms after SIGTERM; output:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100)); // polling the port: there is no event to wait on
    }
    expect(Date.now() - signalled).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
  });
});
