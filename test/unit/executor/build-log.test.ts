import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildLog, formatLogLine, replayLogFile, type ConsoleLine } from '../../../src/executor/build-log';
import {
  buildLogDir,
  buildLogRelativePath,
  buildLogUrl,
  resolveInside,
  UnsafePathError,
} from '../../../src/executor/log-paths';

async function collect(iterable: AsyncIterable<ConsoleLine[]>): Promise<ConsoleLine[]> {
  const lines: ConsoleLine[] = [];
  for await (const batch of iterable) {
    lines.push(...batch);
  }
  return lines;
}

describe('BuildLog', () => {
  let dir: string;
  const at = new Date('2026-11-22T01:02:03.456Z');

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-log-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('timestamps every line and writes it to the file at once', () => {
    const log = new BuildLog(path.join(dir, 'sub/job-output.txt'), () => at);
    log.write('one');
    log.write('two\nthree');
    expect(readFileSync(path.join(dir, 'sub/job-output.txt'), 'utf8')).toBe(
      '2026-11-22 01:02:03.456 | one\n2026-11-22 01:02:03.456 | two\n2026-11-22 01:02:03.456 | three\n',
    );
    expect(log.lineCount).toBe(3);
    expect(formatLogLine(at, 'x')).toBe('2026-11-22 01:02:03.456 | x');
  });

  it('lets subscribers start at an offset and follow live until the build finishes', async () => {
    const log = new BuildLog(path.join(dir, 'job-output.txt'), () => at);
    log.write('a');
    log.write('b');
    const following = collect(log.lines(2));
    log.write('c');
    await new Promise((resolve) => setImmediate(resolve));
    log.write('d');
    log.finish();
    expect((await following).map((l) => [l.seq, l.text.slice(26)])).toEqual([
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
    ]);
  });

  it('catches a slow subscriber up from the file once lines left the in-memory window', async () => {
    const log = new BuildLog(path.join(dir, 'job-output.txt'), () => at);
    for (let i = 1; i <= 2500; i++) {
      log.write(`line ${i}`);
    }
    log.finish();
    const lines = await collect(log.lines(1));
    expect(lines).toHaveLength(2500);
    expect(lines[0]).toEqual({ seq: 1, text: '2026-11-22 01:02:03.456 | line 1' });
    expect(lines[2499].seq).toBe(2500);
    expect((await collect(replayLogFile(log.file, 2499))).map((l) => l.seq)).toEqual([2499, 2500]);
  });

  it('ends a subscription when its signal aborts', async () => {
    const log = new BuildLog(path.join(dir, 'job-output.txt'), () => at);
    const controller = new AbortController();
    const following = collect(log.lines(1, controller.signal));
    log.write('only');
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect((await following).map((l) => l.seq)).toEqual([1]);
    log.finish();
  });
});

describe('log paths', () => {
  it('places a build under <tenant>/<2 chars>/<uuid>/ and builds its URL', () => {
    expect(buildLogRelativePath('example', 'ab12cd')).toBe('example/ab/ab12cd/');
    expect(buildLogDir('/srv/logs', 'example', 'ab12cd')).toBe('/srv/logs/example/ab/ab12cd');
    expect(buildLogUrl('https://logs.example.com', 'example', 'ab12cd')).toBe(
      'https://logs.example.com/example/ab/ab12cd/',
    );
    expect(buildLogUrl(undefined, 'example', 'ab12cd')).toBeNull();
  });

  it('refuses tenants and uuids that would leave the log directory', () => {
    expect(() => buildLogRelativePath('..', 'ab12cd')).toThrow(UnsafePathError);
    expect(() => buildLogRelativePath('a/b', 'ab12cd')).toThrow(UnsafePathError);
    expect(() => buildLogRelativePath('example', '../../x')).toThrow(UnsafePathError);
  });

  it('resolves paths inside a root only', () => {
    expect(resolveInside('/srv/logs', 'a/./b.txt')).toBe('/srv/logs/a/b.txt');
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a\\..\\x', 'a\u0000b']) {
      expect(() => resolveInside('/srv/logs', bad)).toThrow(UnsafePathError);
    }
  });
});
