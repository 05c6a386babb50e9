/**
 * Runs git commands from a small helper process instead of from this one (docs/operations.md#git-processes).
 *
 * Node on Linux starts a child with fork(), whose cost grows with the parent's memory: the kernel
 * copies the parent's page tables. A Sluice process with the embedded store holds hundreds of
 * megabytes, and a gate run starts hundreds of git commands (merges, checkouts, clones): measured
 * on a 2-core machine, 100 starts of `/bin/true` cost 0.02 s of system time from a fresh node and
 * 2.5 s from one holding 1 GB, and as much again in the children. The helper is a plain node
 * process started on the first command (one fork of this process); it starts each command with
 * its own small memory and hands back the exit code and output. It ends when this process has
 * sent it nothing for IDLE_MS, or when this process goes (its standard input closes).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';

/** What the helper ran: the exit code (null: a signal, or the command could not start) and the output. */
export interface RunnerResult {
  code: number | null;
  /** Why the command did not finish normally (the exit status, a signal, a start failure). */
  failure: string | null;
  stdout: Buffer;
  stderr: Buffer;
}

export interface RunnerRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  maxBuffer: number;
  /** Standard input: text (UTF-8) or bytes; sent to the helper in base64. */
  input?: string | Buffer;
}

/** The helper: one JSON request a line on standard input, one JSON answer a line on standard output. */
const HELPER_SOURCE = `
const { execFile } = require('node:child_process');
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line);
  const child = execFile(
    request.file,
    request.args,
    { cwd: request.cwd, env: request.env, maxBuffer: request.maxBuffer, encoding: 'buffer' },
    (error, stdout, stderr) => {
      const answer = {
        id: request.id,
        code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
        failure: error ? String(error.message) : null,
        stdout: Buffer.from(stdout ?? '').toString('base64'),
        stderr: Buffer.from(stderr ?? '').toString('base64'),
      };
      process.stdout.write(JSON.stringify(answer) + '\\n');
    },
  );
  child.stdin.on('error', () => undefined);
  child.stdin.end(request.input === undefined ? undefined : Buffer.from(request.input, 'base64'));
});
lines.on('close', () => process.exit(0));
`;

/** How long the helper stays without a request before it is ended (a poll interval or two). */
const IDLE_MS = 30_000;

interface Pending {
  resolve(result: RunnerResult): void;
  reject(error: Error): void;
}

interface Helper {
  child: ChildProcessWithoutNullStreams;
  pending: Map<number, Pending>;
  idle: NodeJS.Timeout | undefined;
}

let helper: Helper | undefined;
let nextId = 1;

function startHelper(): Helper {
  const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  const started: Helper = { child, pending: new Map(), idle: undefined };
  const errors: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  child.stdin.on('error', () => undefined);
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as {
      id: number;
      code: number | null;
      failure: string | null;
      stdout: string;
      stderr: string;
    };
    const waiting = started.pending.get(answer.id);
    started.pending.delete(answer.id);
    settleRefs(started);
    waiting?.resolve({
      code: answer.code,
      failure: answer.failure,
      stdout: Buffer.from(answer.stdout, 'base64'),
      stderr: Buffer.from(answer.stderr, 'base64'),
    });
  });
  const gone = (why: string): void => {
    if (helper === started) {
      helper = undefined;
    }
    clearTimeout(started.idle);
    const detail = Buffer.concat(errors).toString('utf8').trim();
    for (const waiting of started.pending.values()) {
      waiting.reject(new Error(`the git helper process ${why}${detail ? `: ${detail}` : ''}`));
    }
    started.pending.clear();
  };
  child.on('error', (error) => gone(`could not start (${error.message})`));
  child.on('close', (code, signal) => gone(`ended (${signal ?? code})`));
  return started;
}

/**
 * While commands are pending the helper keeps this process alive; when none are, it does not,
 * and it is ended after IDLE_MS without a request.
 */
function settleRefs(current: Helper): void {
  const busy = current.pending.size > 0;
  const streams = [current.child.stdout, current.child.stderr, current.child.stdin] as unknown as Socket[];
  for (const handle of [current.child, ...streams]) {
    if (busy) {
      handle.ref();
    } else {
      handle.unref();
    }
  }
  clearTimeout(current.idle);
  current.idle = undefined;
  if (!busy) {
    current.idle = setTimeout(() => {
      if (helper === current && current.pending.size === 0) {
        helper = undefined;
        current.child.stdin.end();
      }
    }, IDLE_MS);
    current.idle.unref();
  }
}

/** Run `request.file` with `request.args` through the helper. */
export function runThroughHelper(request: RunnerRequest): Promise<RunnerResult> {
  helper ??= startHelper();
  const current = helper;
  const id = nextId++;
  return new Promise<RunnerResult>((resolve, reject) => {
    current.pending.set(id, { resolve, reject });
    settleRefs(current);
    const input = request.input === undefined ? undefined : Buffer.from(request.input).toString('base64');
    current.child.stdin.write(`${JSON.stringify({ id, ...request, input })}\n`);
  });
}
