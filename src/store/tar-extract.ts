/**
 * Unpacks the tarballs PGlite writes (`dumpDataDir('none')`: ustar, directories and regular
 * files only) into a directory. Used to start a new embedded data directory from the template
 * cluster without running PGlite's own loader (pglite.ts says why).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const BLOCK = 512;

/** Write every entry of `tar` under `dir`; refuses entries that would land outside it. */
export function extractTar(tar: Uint8Array, dir: string): void {
  const root = path.resolve(dir);
  mkdirSync(root, { recursive: true });
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) {
      break; // end-of-archive marker
    }
    const name = joinName(text(header, 345, 155), text(header, 0, 100));
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    const mode = octal(header, 100, 8);
    const target = path.resolve(root, `.${path.posix.sep}${name}`);
    if (target !== root && !target.startsWith(root + path.sep)) {
      throw new Error(`tar entry "${name}" points outside ${root}`);
    }
    const body = offset + BLOCK;
    if (type === '5') {
      mkdirSync(target, { recursive: true, mode: mode || 0o700 });
    } else if (type === '0') {
      if (body + size > tar.length) {
        throw new Error(`tar entry "${name}" is truncated`);
      }
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, tar.subarray(body, body + size), { mode: mode || 0o600 });
    } else {
      throw new Error(`tar entry "${name}" has unsupported type "${type}"`);
    }
    offset = body + Math.ceil(size / BLOCK) * BLOCK;
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
