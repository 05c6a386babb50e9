/**
 * How a test's child process ended, and the check that it stopped cleanly: a process expected to
 * exit with code 0 that exits with another code, or is ended by a signal (code null), fails the
 * test with its code, its signal and the tail of its output, not only `expected 0, received null`.
 */
import type { ChildProcess } from 'node:child_process';

/** How a process ended: `signal` names the signal that ended it (`code` is null then). */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How many characters of the output (stdout and stderr as they arrived) a failed stop shows. */
export const OUTPUT_TAIL = 4000;

/** How long a failed stop waits for the last output still in the pipes after the exit. */
const DRAIN_MS = 1000;

/** Resolves when `child` exits (call it at once after spawning). */
export function processExit(child: ChildProcess): Promise<ProcessExit> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** `code 1`, or `signal SIGKILL (code null)`. */
export function describeExit(exit: ProcessExit): string {
  return exit.signal === null ? `code ${exit.code}` : `signal ${exit.signal} (code null)`;
}

/** A child process with its exit and everything it printed so far. */
export interface WatchedProcess {
  child: ChildProcess;
  /** Resolves with the exit code and the signal that ended the process (code null then). */
  exited: Promise<ProcessExit>;
  output(): string;
}

/** A `sluice serve` child process a test stops and expects to exit with code 0. */
export interface StoppableProcess extends WatchedProcess {
  /** SIGTERM, then `cleanExit()`. */
  stop(): Promise<void>;
  /** Waits for the exit; throws, naming the code, the signal and the output's tail, unless it is code 0. */
  cleanExit(): Promise<void>;
}

/** `watched` with `stop()` and `cleanExit()`. */
export function stoppable<T extends WatchedProcess>(watched: T): T & StoppableProcess {
  return { ...watched, stop: () => stopCleanly(watched), cleanExit: () => expectCleanExit(watched) };
}

/**
 * Wait for the exit of `watched`; throws unless it exited with code 0, naming the code, the signal
 * and the last OUTPUT_TAIL characters of its output.
 */
export async function expectCleanExit(watched: WatchedProcess, name = 'sluice'): Promise<void> {
  const exit = await watched.exited;
  if (exit.code === 0) {
    return;
  }
  // 'exit' may come before the pipes are read to their end: the last lines are the useful ones.
  await streamsClosed(watched.child);
  const tail = watched.output().slice(-OUTPUT_TAIL);
  throw new Error(
    `${name} (pid ${watched.child.pid}) exited with code ${exit.code} and signal ${exit.signal}, ` +
      `expected code 0; the last ${tail.length} characters of its output:\n${tail}`,
  );
}

/** SIGTERM `watched`, then `expectCleanExit`. */
export async function stopCleanly(watched: WatchedProcess, name = 'sluice'): Promise<void> {
  watched.child.kill('SIGTERM');
  await expectCleanExit(watched, name);
}

function streamsClosed(child: ChildProcess): Promise<void> {
  if ([child.stdout, child.stderr].every((stream) => !stream || stream.destroyed)) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, DRAIN_MS);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
