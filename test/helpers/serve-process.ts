/** A real `sluice serve` process for tests: started with a configuration file, its address read from the banner. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { describeExit, processExit, stoppable, type ProcessExit, type StoppableProcess } from './process-exit';

const ROOT = path.join(__dirname, '..', '..');

export interface ServeProcess extends StoppableProcess {
  child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Set once the process has exited: its code, or the signal that ended it. */
  exit(): ProcessExit | undefined;
  /** `/health/ready`: status and body (status 0 when the process does not answer). */
  ready(): Promise<{ status: number; body: unknown }>;
}

/**
 * Spawn `sluice serve --config <file>` (with `--roles` when given), from the build the run's
 * globalSetup compiled (test/helpers/compile-once.js), logging
 * warnings only, every save checking for item changes nothing marked (src/engine/scheduler/item-changes.ts);
 * `env` adds to the minimal environment every test process gets. `prefix` is a
 * command that executes the rest of its command line (test/helpers/tmpfs.ts).
 */
export function spawnServe(
  configFile: string,
  options: { roles?: string; cwd?: string; env?: Record<string, string>; prefix?: readonly string[] } = {},
): ChildProcessWithoutNullStreams {
  const args = [path.join(ROOT, 'bin', 'sluice.js'), 'serve', '--config', configFile];
  if (options.roles !== undefined) {
    args.push('--roles', options.roles);
  }
  const [command, ...prefixArgs] = [...(options.prefix ?? []), process.execPath];
  return killedWithTheTest(
    spawn(command, [...prefixArgs, ...args], {
      cwd: options.cwd ?? ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        SLUICE_LOG_LEVEL: 'warn',
        SLUICE_CHECK_ITEM_CHANGES: '1',
        ...(process.env.SLUICE_CACHE_DIR ? { SLUICE_CACHE_DIR: process.env.SLUICE_CACHE_DIR } : {}),
        ...options.env,
      },
    }),
  );
}

const running = new Set<ChildProcessWithoutNullStreams>();
let stopHooksInstalled = false;

/**
 * A server outlives a jest worker that ends without stopping it (a test file that crashed or
 * timed out, a run stopped with a signal): it would hold its port and database and load the
 * machine for the rest of the run. The worker's exit, or a SIGTERM/SIGINT to it, kills every
 * server it started that is still running.
 */
function killedWithTheTest(child: ChildProcessWithoutNullStreams): ChildProcessWithoutNullStreams {
  if (!stopHooksInstalled) {
    stopHooksInstalled = true;
    const killAll = (): void => {
      for (const server of running) {
        server.kill('SIGKILL');
      }
    };
    process.on('exit', killAll);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        killAll();
        process.kill(process.pid, signal);
      });
    }
  }
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

export async function startServe(
  configFile: string,
  env: Record<string, string> = {},
  options: { prefix?: readonly string[]; cwd?: string } = {},
): Promise<ServeProcess> {
  const child = spawnServe(configFile, { env, ...options });
  let output = '';
  let exitSeen: ProcessExit | undefined;
  const exited = processExit(child).then((exit) => {
    exitSeen = exit;
    return exit;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /GraphQL .*?(http:\/\/[^\s]+)\/graphql/.exec(output);
      if (match) {
        resolve(match[1] ?? '');
      }
    });
    void exited.then((exit) => reject(new Error(`sluice exited early (${describeExit(exit)}): ${output}`)));
  });
  return {
    ...stoppable({ child, exited, output: () => output }),
    base,
    exit: () => exitSeen,
    ready: async () => {
      try {
        const response = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5000) });
        return { status: response.status, body: await response.json() };
      } catch {
        return { status: 0, body: null };
      }
    },
  };
}
