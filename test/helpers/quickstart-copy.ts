/**
 * A private copy of the repository's quickstart for tests that run `npm start` as a user would:
 * `package.json` and `examples/` are copied into a temporary directory (so `./data` is the
 * copy's own); `bin/`, `scripts/` (npm start's prestart builds the dashboard) and `node_modules/`
 * are linked to the repository's (node runs them from their real paths, so the sources, the
 * dashboard build and the dependencies are the repository's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

/** A temporary directory laid out like the repository root, with a fresh `./data`. */
export function quickstartCopy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-quickstart-copy-'));
  cpSync(path.join(REPOSITORY_ROOT, 'package.json'), path.join(dir, 'package.json'));
  cpSync(path.join(REPOSITORY_ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true });
  for (const linked of ['bin', 'scripts', 'node_modules']) {
    symlinkSync(path.join(REPOSITORY_ROOT, linked), path.join(dir, linked));
  }
  mkdirSync(path.join(dir, 'home'));
  return dir;
}

/** The environment of a newcomer's shell in `dir`: no DATABASE_URL (embedded store), own HOME. */
export function newcomerEnvironment(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(dir, 'home'),
    LANG: 'C.UTF-8',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    ...extra,
  };
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True while something accepts connections on 127.0.0.1:`port`. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Spawn `command` in its own process group, so `killGroup` can end whatever it started. */
export function spawnGroup(command: string, args: string[], cwd: string, env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** SIGKILL the process group of `child` (clean-up after a failed test); no error when it is gone. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
