/**
 * Starting an in-memory embedded store from a template cluster
 * (docs/configuration.md#in-memory-stores).
 *
 * PGlite's own loader (its `loadDataDir` option) reads the tarball from a Blob as a stream and
 * joins the pieces, untars it into copies, and for each of the cluster's ~1,300 files looks up
 * every parent directory again, then the file, then sets its times: about 200 ms of CPU per store
 * on this project's 2-core machine, paid by every test file that opens one. Here a tarball is
 * parsed once into a `TemplateTree` (reusable by any number of stores) and written into the new
 * store's memory file system before PostgreSQL starts: each directory made once, each file
 * written once. The result is the same cluster: the template's directories and file contents.
 */
import { MemoryFS } from '@electric-sql/pglite';
import { Parser, type ReadEntry } from 'tar';

/** A cluster's directories and files, paths relative to its data directory. */
export interface TemplateTree {
  /** Every directory, each after its parent. */
  directories: string[];
  files: Array<{ path: string; data: Uint8Array }>;
}

/** Where PGlite keeps its cluster when PGlite does not say (its `PGDATA` in version 0.5). */
const DEFAULT_PGDATA = '/pglite/data';

/** A tarball as PGlite's `dumpDataDir('none')` writes it: directories and regular files only. */
export function parseTemplateTree(tarball: Uint8Array): TemplateTree {
  const directories = new Set<string>();
  const files: TemplateTree['files'] = [];
  let failure: Error | undefined;
  const addParents = (relative: string): void => {
    const parts = relative.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      directories.add(parts.slice(0, depth).join('/'));
    }
  };
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const relative = relativePath(entry.path);
      if (relative === undefined) {
        failure ??= new Error(`template tar entry "${entry.path}" points outside the cluster`);
        entry.resume();
        return;
      }
      if (entry.type === 'Directory') {
        if (relative !== '') {
          addParents(relative);
          directories.add(relative);
        }
        entry.resume();
        return;
      }
      if (entry.type !== 'File' && entry.type !== 'OldFile') {
        failure ??= new Error(`template tar entry "${entry.path}" has unsupported type "${entry.type}"`);
        entry.resume();
        return;
      }
      addParents(relative);
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        const data = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        files.push({ path: relative, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
      });
    },
  });
  parser.on('error', (err: Error) => (failure ??= err));
  parser.on('warn', (code: string, message: string) => {
    if (code !== 'TAR_ENTRY_INFO') {
      failure ??= new Error(`template tarball: ${message}`);
    }
  });
  // node-tar parses a whole buffer synchronously: every entry has ended when end() returns.
  parser.end(Buffer.from(tarball.buffer, tarball.byteOffset, tarball.byteLength));
  if (failure !== undefined) {
    throw failure;
  }
  if (!files.some((file) => file.path === 'PG_VERSION')) {
    throw new Error('the template tarball holds no PG_VERSION: it is not a PGlite cluster');
  }
  // Sorted by path, a directory comes after its parent.
  return { directories: [...directories].sort(), files };
}

/** A tar entry's path relative to the cluster, without leading or trailing slashes; undefined above it. */
function relativePath(entryPath: string): string | undefined {
  const parts = entryPath.split('/').filter((part) => part !== '' && part !== '.');
  return parts.includes('..') ? undefined : parts.join('/');
}

/**
 * PGlite's in-memory file system, filled with `tree` once the WebAssembly module exists and
 * before PGlite looks for a cluster (its `initialSyncFs` step).
 */
export class TemplateMemoryFS extends MemoryFS {
  constructor(private readonly tree: TemplateTree) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    if (this.pg === undefined) {
      throw new Error('TemplateMemoryFS: initialSyncFs before init');
    }
    const mod = this.pg.Module;
    const fs = mod.FS;
    const pgdata = (mod as { ENV?: Record<string, string> }).ENV?.PGDATA ?? DEFAULT_PGDATA;
    fs.mkdirTree(pgdata);
    for (const directory of this.tree.directories) {
      fs.mkdir(`${pgdata}/${directory}`);
    }
    for (const file of this.tree.files) {
      // writeFile copies: the tree stays pristine for the next store.
      fs.writeFile(`${pgdata}/${file.path}`, file.data);
    }
  }
}
