/**
 * Unpacks the tarballs PGlite writes (`dumpDataDir('none')`: ustar, directories and regular
 * files only) into a directory, with node-tar (`tar`). Used to start a new embedded data
 * directory from the template cluster without running PGlite's own loader (pglite.ts says why).
 *
 * The tarball may arrive in chunks (a decompressing stream): file contents are written as they
 * come, so the whole cluster (about 40 MB) never sits in memory at once. Every problem fails
 * the extraction: an entry that would land outside the directory, a truncated archive or any entry other
 * than a directory or regular file (links, devices) fails the extraction instead of being skipped.
 */
import { mkdirSync, Stats } from 'node:fs';
import path from 'node:path';
import { Unpack, UnpackSync, type ReadEntry, type TarOptionsWithAliases } from 'tar';

type TarOptions = TarOptionsWithAliases;

/**
 * What node-tar is told for every extraction, and the first problem it met: an entry type
 * refused here or a warning of node-tar's (a path with `..`, a bad checksum, a cut archive; only
 * its notes, such as the leading slash it strips, are not problems).
 */
function unpackOptions(dir: string): { options: TarOptions; refused: () => Error | undefined } {
  let refused: Error | undefined;
  const root = path.resolve(dir);
  mkdirSync(root, { recursive: true });
  const options: TarOptions = {
    cwd: root,
    onwarn: (code: string, message: string) => {
      if (code !== 'TAR_ENTRY_INFO') {
        refused ??= explain(Object.assign(new Error(message), { code }), dir);
      }
    },
    // Entries name their paths from the archive's root: a leading slash is relative to `root`.
    preservePaths: false,
    filter: (name: string, entry: ReadEntry | Stats) => {
      const type = entry instanceof Stats ? undefined : entry.type;
      if (type === 'File' || type === 'OldFile' || type === 'Directory') {
        return true;
      }
      refused ??= new Error(`tar entry "${name}" has unsupported type "${String(type)}"`);
      return false;
    },
  };
  return { options, refused: () => refused };
}

/** node-tar's refusals (a path with `..`, a cut archive) in this module's words. */
function explain(err: unknown, dir: string): Error {
  const error = err instanceof Error ? err : new Error(String(err));
  const code = (error as { code?: string }).code;
  if (/'\.\.'/.test(error.message)) {
    return new Error(`a tar entry points outside ${path.resolve(dir)}: ${error.message}`);
  }
  if (code === 'TAR_BAD_ARCHIVE' || /truncated/i.test(error.message)) {
    return new Error(`tar archive is truncated: ${error.message}`);
  }
  return error;
}

/** Write every entry of `tar` under `dir`; refuses entries that would land outside it. */
export function extractTar(tar: Uint8Array, dir: string): void {
  const { options, refused } = unpackOptions(dir);
  // In strict mode node-tar reports a bad entry as an 'error' event, even when synchronous.
  let failed: unknown;
  const unpack = new UnpackSync(options);
  unpack.on('error', (err: unknown) => (failed ??= err));
  try {
    unpack.end(Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength));
  } catch (err) {
    failed ??= err;
  }
  if (failed !== undefined) {
    throw explain(failed, dir);
  }
  const error = refused();
  if (error !== undefined) {
    throw error;
  }
}

/** Like extractTar, for a tarball read in chunks. */
export async function extractTarStream(chunks: AsyncIterable<Uint8Array>, dir: string): Promise<void> {
  const { options, refused } = unpackOptions(dir);
  const unpack = new Unpack(options);
  const done = new Promise<void>((resolve, reject) => {
    unpack.on('close', () => resolve());
    unpack.on('error', (err: unknown) => reject(explain(err, dir)));
  });
  // A failed extraction rejects `done` while chunks are still being written.
  done.catch(() => undefined);
  for await (const chunk of chunks) {
    if (!unpack.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
      await new Promise<void>((resolve) => unpack.once('drain', () => resolve()));
    }
  }
  unpack.end();
  await done;
  const error = refused();
  if (error !== undefined) {
    throw error;
  }
}
