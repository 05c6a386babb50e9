import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractTar, extractTarStream } from '../../../src/store/tar-extract';

/** One ustar header block for `name`, with its checksum (a link names `linkTarget`). */
function header(name: string, type: '0' | '5' | '2', size: number, mode = 0o600, linkTarget = ''): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 'utf8');
  block.write(`${mode.toString(8).padStart(7, '0')}\0`, 100, 'ascii');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write(type, 156, 'ascii');
  block.write(linkTarget, 157, 'utf8');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  // The checksum is the sum of the header's bytes with its own field read as spaces.
  block.fill(0x20, 148, 156);
  const sum = block.reduce((total, byte) => total + byte, 0);
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function file(name: string, content: string): Buffer {
  const body = Buffer.from(content);
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([header(name, '0', body.length), padded]);
}

const END = Buffer.alloc(1024);

/** `data` in pieces of the given sizes, round and round. */
async function* pieces(data: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  for (let offset = 0, i = 0; offset < data.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    yield data.subarray(offset, offset + size);
    offset += size;
  }
}

describe('extractTar', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-tar-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes directories and files (leading slashes are relative to the target)', () => {
    const tar = Buffer.concat([
      header('/base', '5', 0, 0o750),
      file('/base/1', 'x'.repeat(700)),
      file('PG_VERSION', '17\n'),
      END,
    ]);
    extractTar(tar, dir);
    expect(readFileSync(path.join(dir, 'base', '1'), 'utf8')).toBe('x'.repeat(700));
    expect(readFileSync(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(statSync(path.join(dir, 'base', '1')).mode & 0o777).toBe(0o600);
  });

  it('refuses entries outside the target, truncated entries and other entry types', () => {
    expect(() => extractTar(Buffer.concat([file('../escape', 'x'), END]), dir)).toThrow('points outside');
    expect(() => extractTar(header('big', '0', 4096), dir)).toThrow('is truncated');
    expect(() => extractTar(Buffer.concat([header('link', '2', 0, 0o777, 'PG_VERSION'), END]), dir)).toThrow(
      'unsupported type "SymbolicLink"',
    );
  });

  it('unpacks the same archive arriving in pieces that cut headers, contents and padding', async () => {
    const tar = Buffer.concat([
      header('/base', '5', 0, 0o750),
      file('/base/1', 'x'.repeat(700)),
      file('/base/empty', ''),
      file('PG_VERSION', '17\n'),
      END,
    ]);
    await extractTarStream(pieces(tar, [7, 1000, 1, 511, 513]), dir);
    expect(readFileSync(path.join(dir, 'base', '1'), 'utf8')).toBe('x'.repeat(700));
    expect(readFileSync(path.join(dir, 'base', 'empty'), 'utf8')).toBe('');
    expect(readFileSync(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    await expect(extractTarStream(pieces(tar.subarray(0, 1200), [100]), path.join(dir, 'cut'))).rejects.toThrow(
      'is truncated',
    );
  });
});
