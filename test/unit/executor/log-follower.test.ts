/**
 * followLogFile (src/executor/log-follower.ts): a growing job-output.txt read from a byte offset,
 * whole lines only, from a given sequence number on, ending once the build has ended.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConsoleLine } from '../../../src/executor/build-log';
import { followLogFile } from '../../../src/executor/log-follower';

describe('followLogFile', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-follow-'));
    file = path.join(dir, 'job-output.txt');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Reads batches until the generator ends, running `onBatch` after each one. */
  async function collect(
    lines: AsyncGenerator<ConsoleLine[]>,
    onBatch: (all: ConsoleLine[]) => void = () => undefined,
  ): Promise<ConsoleLine[]> {
    const all: ConsoleLine[] = [];
    for await (const batch of lines) {
      all.push(...batch);
      onBatch(all);
    }
    return all;
  }

  it('follows appended lines, holds back an unfinished line and ends after the build ended', async () => {
    writeFileSync(file, 'one\ntwo\nthr');
    let ended = false;
    const seen = await collect(
      followLogFile(file, 1, { ended: async () => ended, pollMs: 5, endCheckEvery: 1 }),
      (all) => {
        if (all.length === 2) {
          expect(all.map((line) => line.text)).toEqual(['one', 'two']);
          appendFileSync(file, 'ee\nfour\n');
        }
        if (all.length === 4) {
          appendFileSync(file, 'five without newline');
          ended = true;
        }
      },
    );
    expect(seen).toEqual([
      { seq: 1, text: 'one' },
      { seq: 2, text: 'two' },
      { seq: 3, text: 'three' },
      { seq: 4, text: 'four' },
      { seq: 5, text: 'five without newline' },
    ]);
  });

  it('starts at a sequence number and reads lines longer than a chunk whole', async () => {
    const long = 'x'.repeat(200 * 1024);
    writeFileSync(file, `a\nb\n${long}\nc\n`);
    const seen = await collect(followLogFile(file, 3, { ended: async () => true, pollMs: 5 }));
    expect(seen.map((line) => [line.seq, line.text.length])).toEqual([
      [3, long.length],
      [4, 1],
    ]);
  });

  it('stops when aborted while waiting for more', async () => {
    writeFileSync(file, 'only\n');
    const stop = new AbortController();
    const seen = await collect(followLogFile(file, 1, { ended: async () => false, pollMs: 5 }, stop.signal), () =>
      stop.abort(),
    );
    expect(seen).toEqual([{ seq: 1, text: 'only' }]);
  });
});
