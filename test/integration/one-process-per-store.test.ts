/**
 * docs/operations.md#one-process-per-embedded-store with real `sluice serve` processes on a copy
 * of the quickstart: a second process on the same data directory exits at once, naming the
 * directory and the running process; a process whose port is taken exits; the lock goes with
 * its holder (a stop or a SIGKILL); `sluice reconfigure` is refused with the way that works,
 * SIGHUP, which reloads the tenants.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { quickstartCopy, REPOSITORY_ROOT } from '../helpers/quickstart-copy';
import { startServe, type ServeProcess } from '../helpers/serve-process';
import { eventually } from '../helpers/pg-faults';

jest.setTimeout(180_000);

const SLUICE = path.join(REPOSITORY_ROOT, 'bin', 'sluice.js');

const spawned: ChildProcess[] = [];

/** Run the sluice command to its end; the embedded store whatever DATABASE_URL says. */
async function sluice(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SLUICE, ...args], {
    cwd: REPOSITORY_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SLUICE_LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
  });
  spawned.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

/** SIGKILL a child and resolve once it has exited (at once when it already has). */
function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

describe('one process per embedded store', () => {
  let dir: string;
  let config: string;
  let first: ServeProcess | undefined;

  beforeAll(() => {
    dir = quickstartCopy();
    config = path.join(dir, 'examples', 'quickstart', 'sluice.yaml');
  });

  afterEach(async () => {
    // A process that should have exited but did not (the failure these tests look for) is ended
    // too, and waited for: the next test's server must not meet its lock still held.
    const children = [first?.child, ...spawned.splice(0)].filter((child) => child !== undefined);
    await Promise.all(children.map(killAndWait));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second process on the same data directory, naming it and the running pid; the first carries on', async () => {
    first = await startServe(config, { PORT: '0', DATABASE_URL: '' });
    const second = await sluice(['serve', '--config', config], { PORT: '0' });
    expect(second.code).toBe(1);
    const pgdata = path.join(dir, 'data', 'pgdata');
    expect(second.stderr).toContain(
      `sluice: the embedded database ${pgdata} is in use by another process (pid ${first.child.pid})`,
    );
    expect(second.stderr).not.toMatch(/\n\s+at /); // one line, no stack
    expect(second.stdout).not.toContain('is running'); // no banner: it never served
    expect((await first.ready()).status).toBe(200);

    // Other commands that open the store are refused the same way; reconfigure says what works.
    const migrate = await sluice(['migrate', '--config', config]);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr.trim()).toBe(
      `sluice: the embedded database ${pgdata} is in use by another process (pid ${first.child.pid}): ` +
        'one process per embedded store; stop that one first or give this one another dataDir',
    );
    const reconfigure = await sluice(['reconfigure', '--config', config]);
    expect(reconfigure.code).toBe(1);
    expect(reconfigure.stderr).toContain(`kill -HUP ${first.child.pid} makes it reload every tenant`);

    // SIGHUP reloads every tenant: the status's last reconfiguration moves on.
    const lastReconfigured = async (): Promise<number> => {
      const response = await fetch(`${first?.base}/api/tenant/example/status`);
      return ((await response.json()) as { last_reconfigured: number }).last_reconfigured;
    };
    const before = await lastReconfigured();
    first.child.kill('SIGHUP');
    await eventually('a reload after SIGHUP', async () => (await lastReconfigured()) > before);

    await first.stop();
    // The lock went with the process: the next one opens the store.
    first = await startServe(config, { PORT: '0', DATABASE_URL: '' });
    expect((await first.ready()).status).toBe(200);
  });

  it('a SIGKILLed holder leaves no lock behind', async () => {
    first = await startServe(config, { PORT: '0', DATABASE_URL: '' });
    first.child.kill('SIGKILL');
    await first.exited;
    first = await startServe(config, { PORT: '0', DATABASE_URL: '' });
    expect((await first.ready()).status).toBe(200);
  });

  it('exits at once when its port is taken', async () => {
    first = await startServe(config, { PORT: '0', DATABASE_URL: '' });
    const port = new URL(first.base).port;
    const other = quickstartCopy();
    try {
      const taken = await sluice(['serve', '--config', path.join(other, 'examples', 'quickstart', 'sluice.yaml')], {
        PORT: port,
      });
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain(
        `sluice: cannot listen on 0.0.0.0:${port}: the address is in use by another process`,
      );
      expect(taken.stderr).not.toMatch(/\n\s+at /);
      expect(taken.stdout).not.toContain('is running');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
