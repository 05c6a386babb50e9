/**
 * A real `sluice serve --roles ...` child process (docs/operations.md#roles): started with a
 * configuration file, its address read from the banner's health line (printed by every process,
 * with or without the api role).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface RoleProcess {
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  exited: Promise<number | null>;
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/** `roles` is the `--roles` value; undefined leaves the choice to the configuration's `roles` key. */
export async function startRoleProcess(
  name: string,
  configFile: string,
  roles: string | undefined,
): Promise<RoleProcess> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'sluice.js'),
      'serve',
      '--config',
      configFile,
      ...(roles === undefined ? [] : ['--roles', roles]),
    ],
    {
      cwd: path.dirname(configFile),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        SLUICE_LOG_LEVEL: 'warn',
        SLUICE_FROM_SOURCE: '1',
        ...(process.env.SLUICE_CACHE_DIR ? { SLUICE_CACHE_DIR: process.env.SLUICE_CACHE_DIR } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Health:\s+(http:\/\/\S+)\/health\/ready/.exec(output);
      if (match) {
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`${name} exited early (${code}): ${output}`)));
  });
  return {
    name,
    child,
    base,
    exited,
    output: () => output,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return child.exitCode;
      }
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
