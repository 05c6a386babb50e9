/**
 * The output of one build: every line gets a timestamp and is written synchronously to
 * `job-output.txt` (so the file always holds every line announced so far), and subscribers
 * follow it live. Subscribers pull: a slow one falls behind and catches up from a window of
 * recent lines or, further back, from the file, so a slow reader never holds the build up and
 * memory stays bounded. Line numbers (`seq`) start at 1 and equal line numbers in the file.
 *
 * The log never throws at its writer: a log that cannot be opened or written (a full disk,
 * ENOSPC) records the error in `failure`, stops taking lines and tells `onFailure`, so the
 * executor ends the build ERROR with the reason instead of an uncaught exception in a step's
 * output handler taking the process down (docs/executor.md#out-of-space).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Redactor } from '../secrets/redact';

export interface ConsoleLine {
  seq: number;
  /** The line as written to the file (timestamp prefix included), without the newline. */
  text: string;
}

/** How many recent lines are kept in memory for subscribers that are a little behind. */
const RECENT_LINES = 2000;

/** `2026-11-22 01:55:12.123 | text`: the timestamped form of one output line (UTC). */
export function formatLogLine(at: Date, text: string): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} | ${text}`;
}

export class BuildLog {
  private fd: number | null = null;
  private count = 0;
  private readonly recent: string[] = [];
  private finished = false;
  private wake: { promise: Promise<void>; resolve: () => void } | null = null;
  private redactor: Redactor | null = null;
  private failed: Error | null = null;
  private failureListener: ((err: Error) => void) | null = null;

  constructor(
    readonly file: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      // A resumed build (paused, then continued by another process) appends to its log: line
      // numbers go on from the lines already there.
      this.count = existsSync(file) ? fileLines(readFileSync(file, 'utf8')).length : 0;
      this.fd = openSync(file, 'a');
    } catch (err) {
      this.failed = asError(err);
    }
  }

  /** Why the log could not be opened or written (nothing is written after it); null while it works. */
  get failure(): Error | null {
    return this.failed;
  }

  /** Called once when the log fails (at once when it has failed already). */
  onFailure(listener: (err: Error) => void): void {
    this.failureListener = listener;
    if (this.failed !== null) {
      listener(this.failed);
    }
  }

  /** Number of lines written so far. */
  get lineCount(): number {
    return this.count;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** Mask these secrets in every line written from now on (file and live subscribers alike). */
  setRedactor(redactor: Redactor): void {
    this.redactor = redactor.active ? redactor : null;
  }

  /** Append one line (newlines inside `text` start new lines, each with its own timestamp). */
  write(text: string): void {
    if (this.fd === null) {
      return;
    }
    const at = this.now();
    const masked = this.redactor === null ? text : this.redactor.redact(text);
    for (const part of masked.split('\n')) {
      const line = formatLogLine(at, part);
      if (!this.append(`${line}\n`)) {
        break;
      }
      this.count += 1;
      this.recent.push(line);
      if (this.recent.length > RECENT_LINES) {
        this.recent.shift();
      }
    }
    this.notify();
  }

  /** No more lines: close the file and end every subscription once it has read everything. */
  finish(): void {
    if (this.finished) {
      return;
    }
    this.close();
    this.finished = true;
    this.notify();
  }

  /** Write all of `text` (a short write, as on a disk filling up, goes on); false once it failed. */
  private append(text: string): boolean {
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    try {
      while (offset < bytes.length && this.fd !== null) {
        offset += writeSync(this.fd, bytes, offset);
      }
      return this.fd !== null;
    } catch (err) {
      this.fail(asError(err));
      return false;
    }
  }

  private fail(err: Error): void {
    this.failed = err;
    this.close();
    this.failureListener?.(err);
  }

  private close(): void {
    if (this.fd === null) {
      return;
    }
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } catch {
      // The lines already written stay; a failing close has nothing left to lose.
    }
  }

  /** Lines from `fromSeq` (1-based) on, live until the build finishes or `signal` aborts. */
  async *lines(fromSeq = 1, signal?: AbortSignal): AsyncGenerator<ConsoleLine[]> {
    let next = Math.max(1, fromSeq);
    while (!signal?.aborted) {
      if (next <= this.count) {
        const batch = this.read(next);
        next += batch.length;
        yield batch;
        continue;
      }
      if (this.finished) {
        return;
      }
      await this.changed(signal);
    }
  }

  /** Every line from `fromSeq` up to the current end, from memory when recent enough. */
  private read(fromSeq: number): ConsoleLine[] {
    const firstRecent = this.count - this.recent.length + 1;
    const texts =
      fromSeq >= firstRecent
        ? this.recent.slice(fromSeq - firstRecent)
        : fileLines(readFileSync(this.file, 'utf8')).slice(fromSeq - 1, this.count);
    return texts.map((text, index) => ({ seq: fromSeq + index, text }));
  }

  private changed(signal?: AbortSignal): Promise<void> {
    if (!this.wake) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.wake = { promise, resolve };
    }
    const woken = this.wake.promise;
    if (!signal) {
      return woken;
    }
    return new Promise<void>((resolve) => {
      const onAbort = (): void => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      void woken.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.resolve();
  }
}

/** Lines of a finished build's log file from `fromSeq` on. */
export async function* replayLogFile(file: string, fromSeq = 1): AsyncGenerator<ConsoleLine[]> {
  const lines = fileLines(await readFile(file, 'utf8'));
  const start = Math.max(1, fromSeq);
  if (start <= lines.length) {
    yield lines.slice(start - 1).map((text, index) => ({ seq: start + index, text }));
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function fileLines(content: string): string[] {
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** Running builds' logs by build uuid, for live consoles. */
export class ConsoleRegistry {
  private readonly logs = new Map<string, BuildLog>();

  register(buildUuid: string, log: BuildLog): void {
    this.logs.set(buildUuid, log);
  }

  unregister(buildUuid: string, log: BuildLog): void {
    if (this.logs.get(buildUuid) === log) {
      this.logs.delete(buildUuid);
    }
  }

  get(buildUuid: string): BuildLog | undefined {
    return this.logs.get(buildUuid);
  }
}
