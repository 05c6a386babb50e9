/** A real `sluice serve` process for tests: started with a configuration file, its address read from the banner. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
  /** Set once the process has exited. */
  exitCode(): number | null | undefined;
  output(): string;
  /** `/health/ready`: status and body (status 0 when the process does not answer). */
  ready(): Promise<{ status: number; body: unknown }>;
}

export async function startServe(configFile: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'sluice.js'), 'serve', '--config', configFile], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SLUICE_LOG_LEVEL: 'warn',
      SLUICE_FROM_SOURCE: '1',
      ...env,
    },
  });
  let output = '';
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (exitCode) => {
      code = exitCode;
      resolve(exitCode);
    }),
  );
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
    void exited.then((exitCode) => reject(new Error(`sluice exited early (${exitCode}): ${output}`)));
  });
  return {
    child,
    base,
    exited,
    exitCode: () => code,
    output: () => output,
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
