/**
 * Runs one step as a process in its own process group (detached), so a timeout or a cancel can
 * kill the step together with everything it started (`kill(-pgid)`). When the step's main
 * process exits, whatever it left running in its group is killed too: background processes
 * never outlive their step. (A process that leaves the group with `setsid` escapes this.)
 */
import { spawn } from 'node:child_process';
import { systemClock, type TimerClock } from '../engine/ports/clock';

export type OutputStream = 'stdout' | 'stderr';

export interface StepProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to the process's standard input, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Milliseconds before the step is killed and reported as timed out; null = no limit. */
  timeoutMs: number | null;
  /** The clock the timeout runs on (tests move a fake one on); default: the system clock. */
  timers?: TimerClock;
  signal?: AbortSignal;
  /** Called for every complete output line (and the last partial one), without the newline. */
  onLine: (stream: OutputStream, text: string) => void;
  /** Milliseconds between SIGTERM and SIGKILL when a step is stopped. */
  killGraceMs?: number;
}

export type StepExit =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timed-out' }
  | { kind: 'aborted' }
  | { kind: 'spawn-error'; message: string };

const DEFAULT_KILL_GRACE_MS = 500;
/** Node timers fire at once beyond this (about 24.8 days); longer timeouts are capped to it. */
const MAX_TIMER_MS = 2_147_483_647;

/** Run a step to completion (or until it is stopped) and describe how it ended. */
export function runStepProcess(options: StepProcessOptions): Promise<StepExit> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ kind: 'aborted' });
      return;
    }
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // the process may exit without reading it
      child.stdin.end(options.input);
    }
    let stopReason: 'timed-out' | 'aborted' | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let spawnError: string | null = null;
    let openStreams = 2;
    let killTimer: NodeJS.Timeout | undefined;

    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) {
        return;
      }
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (reason: 'timed-out' | 'aborted'): void => {
      if (stopReason !== null || exit !== null) {
        return;
      }
      stopReason = reason;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    };
    const timeout =
      options.timeoutMs === null
        ? undefined
        : (options.timers ?? systemClock).after(Math.min(MAX_TIMER_MS, Math.max(0, options.timeoutMs)), () =>
            stop('timed-out'),
          );
    const onAbort = (): void => stop('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (): void => {
      if (openStreams > 0 || (exit === null && spawnError === null)) {
        return;
      }
      timeout?.cancel();
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (spawnError !== null) {
        resolve({ kind: 'spawn-error', message: spawnError });
      } else if (stopReason !== null) {
        resolve({ kind: stopReason });
      } else {
        resolve({ kind: 'exited', code: exit?.code ?? null, signal: exit?.signal ?? null });
      }
    };

    for (const name of ['stdout', 'stderr'] as const) {
      const stream = child[name];
      if (stream === null) {
        continue; // not reached: both are pipes
      }
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        pending += chunk;
        let index = pending.indexOf('\n');
        while (index >= 0) {
          options.onLine(name, pending.slice(0, index));
          pending = pending.slice(index + 1);
          index = pending.indexOf('\n');
        }
      });
      stream.on('close', () => {
        if (pending !== '') {
          options.onLine(name, pending);
          pending = '';
        }
        openStreams -= 1;
        finish();
      });
    }
    child.on('error', (err) => {
      spawnError = err.message;
      openStreams = 0;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Leftover background processes hold the output pipes open; they do not outlive the step.
      killGroup('SIGKILL');
      finish();
    });
  });
}
