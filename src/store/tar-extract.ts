/**
 * Unpacks the tarballs PGlite writes (`dumpDataDir('none')`: ustar, directories and regular
 * files only) into a directory. Used to start a new embedded data directory from the template
 * cluster without running PGlite's own loader (pglite.ts says why).
 *
 * The tarball may arrive in chunks (a decompressing stream): file contents are written as they
 * come, so the whole cluster (about 40 MB) never sits in memory at once.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

const BLOCK = 512;

/** Write every entry of `tar` under `dir`; refuses entries that would land outside it. */
export function extractTar(tar: Uint8Array, dir: string): void {
  const extractor = new TarExtractor(dir);
  try {
    extractor.write(tar);
    extractor.end();
  } finally {
    extractor.abandon();
  }
}

/** Like extractTar, for a tarball read in chunks. */
export async function extractTarStream(chunks: AsyncIterable<Uint8Array>, dir: string): Promise<void> {
  const extractor = new TarExtractor(dir);
  try {
    for await (const chunk of chunks) {
      extractor.write(chunk);
    }
    extractor.end();
  } finally {
    extractor.abandon();
  }
}

/** A ustar reader fed with consecutive pieces of one archive. */
class TarExtractor {
  private readonly root: string;
  private readonly header = new Uint8Array(BLOCK);
  private headerFilled = 0;
  /** The file being written, the bytes of it still to come, then the padding to skip. */
  private file: { fd: number; name: string; remaining: number } | undefined;
  private skip = 0;
  private finished = false;

  constructor(dir: string) {
    this.root = path.resolve(dir);
    mkdirSync(this.root, { recursive: true });
  }

  write(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length && !this.finished) {
      if (this.file !== undefined) {
        const length = Math.min(this.file.remaining, chunk.length - offset);
        writeSync(this.file.fd, chunk, offset, length);
        offset += length;
        this.file.remaining -= length;
        if (this.file.remaining === 0) {
          closeSync(this.file.fd);
          this.file = undefined;
        }
      } else if (this.skip > 0) {
        const length = Math.min(this.skip, chunk.length - offset);
        offset += length;
        this.skip -= length;
      } else {
        const length = Math.min(BLOCK - this.headerFilled, chunk.length - offset);
        this.header.set(chunk.subarray(offset, offset + length), this.headerFilled);
        this.headerFilled += length;
        offset += length;
        if (this.headerFilled === BLOCK) {
          this.headerFilled = 0;
          this.entry(this.header);
        }
      }
    }
  }

  /** The archive is complete: a file cut short is an error. */
  end(): void {
    if (this.file !== undefined || this.skip > 0 || this.headerFilled > 0) {
      throw new Error(`tar entry "${this.file?.name ?? ''}" is truncated`);
    }
  }

  /** Close a file left open by an archive that ended early or failed. */
  abandon(): void {
    if (this.file !== undefined) {
      closeSync(this.file.fd);
      this.file = undefined;
    }
  }

  private entry(header: Uint8Array): void {
    if (header.every((byte) => byte === 0)) {
      this.finished = true; // end-of-archive marker
      return;
    }
    const name = joinName(text(header, 345, 155), text(header, 0, 100));
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    const mode = octal(header, 100, 8);
    const target = path.resolve(this.root, `.${path.posix.sep}${name}`);
    if (target !== this.root && !target.startsWith(this.root + path.sep)) {
      throw new Error(`tar entry "${name}" points outside ${this.root}`);
    }
    if (type === '5') {
      mkdirSync(target, { recursive: true, mode: mode || 0o700 });
    } else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      const fd = openSync(target, 'w', mode || 0o600);
      if (size === 0) {
        closeSync(fd);
      } else {
        this.file = { fd, name, remaining: size };
      }
      this.skip = Math.ceil(size / BLOCK) * BLOCK - size;
    } else {
      throw new Error(`tar entry "${name}" has unsupported type "${type}"`);
    }
  }
}

function text(header: Uint8Array, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
}

function octal(header: Uint8Array, start: number, length: number): number {
  const value = text(header, start, length).trim();
  return value === '' ? 0 : parseInt(value, 8);
}

function joinName(prefix: string, name: string): string {
  return prefix === '' ? name : `${prefix}/${name}`;
}
