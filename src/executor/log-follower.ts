/**
 * Follows the `job-output.txt` of a build that runs in another executor process, through the
 * log root the processes share (docs/operations.md#console-streams-across-processes): reads what
 * the executor has written from a byte offset, in chunks of at most 64 KiB, and looks again every
 * `pollMs` while the build runs. Memory stays bounded by one chunk and one unfinished line,
 * whatever the size of the log. The executor writes every line synchronously before it stores the
 * build's end, so once `ended()` is true one last read has every line.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { ConsoleLine } from './build-log';

const CHUNK_BYTES = 64 * 1024;

export interface LogFollowOptions {
  /** The build has ended (its request is no longer running): the file is complete. */
  ended(): Promise<boolean>;
  /** Milliseconds between looks at a file that has not grown (default 250). */
  pollMs?: number;
  /** Look at `ended()` only every this many idle looks (default 4: once a second). */
  endCheckEvery?: number;
}

/** The lines of `file` from `fromSeq` (1-based) on, live until the build ends or `signal` aborts. */
export async function* followLogFile(
  file: string,
  fromSeq: number,
  options: LogFollowOptions,
  signal?: AbortSignal,
): AsyncGenerator<ConsoleLine[]> {
  const handle = await open(file, 'r');
  try {
    const reader = new LineReader(handle, Math.max(1, fromSeq));
    let idle = 0;
    while (!signal?.aborted) {
      const batch = await reader.readAvailable();
      if (batch.length > 0) {
        idle = 0;
        yield batch;
        continue;
      }
      idle += 1;
      if (idle % (options.endCheckEvery ?? 4) === 0 && (await options.ended())) {
        const rest = await reader.readAll();
        if (rest.length > 0 && !signal?.aborted) {
          yield rest;
        }
        return;
      }
      await pause(options.pollMs ?? 250, signal);
    }
  } finally {
    await handle.close();
  }
}

/** Whole lines of a growing file, read from a byte offset; an unfinished last line waits for its newline. */
class LineReader {
  private offset = 0;
  private partial = '';
  private seq = 0;
  private readonly buffer = Buffer.alloc(CHUNK_BYTES);
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly handle: FileHandle,
    private readonly fromSeq: number,
  ) {}

  /** The complete lines of the next chunk (empty when the file has not grown). */
  async readAvailable(): Promise<ConsoleLine[]> {
    while (true) {
      const { bytesRead } = await this.handle.read(this.buffer, 0, CHUNK_BYTES, this.offset);
      if (bytesRead === 0) {
        return [];
      }
      this.offset += bytesRead;
      const lines = this.split(this.decoder.decode(this.buffer.subarray(0, bytesRead), { stream: true }));
      if (lines.length > 0) {
        return lines;
      }
      // Only lines before `fromSeq`, or one line longer than a chunk so far: read on.
    }
  }

  /** Everything up to the end of the file, the last line even without its newline. */
  async readAll(): Promise<ConsoleLine[]> {
    const lines: ConsoleLine[] = [];
    for (let batch = await this.readAvailable(); batch.length > 0; batch = await this.readAvailable()) {
      lines.push(...batch);
    }
    const last = this.partial + this.decoder.decode();
    this.partial = '';
    if (last !== '') {
      this.seq += 1;
      if (this.seq >= this.fromSeq) {
        lines.push({ seq: this.seq, text: last });
      }
    }
    return lines;
  }

  private split(text: string): ConsoleLine[] {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    const lines: ConsoleLine[] = [];
    for (const part of parts) {
      this.seq += 1;
      if (this.seq >= this.fromSeq) {
        lines.push({ seq: this.seq, text: part });
      }
    }
    return lines;
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
