/**
 * Opening the embedded PGlite store with a small footprint (docs/configuration.md#embedded-database):
 *
 * - PostgreSQL runs with 16 MB of shared buffers instead of PGlite's 128 MB: the WebAssembly
 *   memory behind the buffers is touched (resident) as soon as the server starts, and a
 *   single-session store gains nothing from a large buffer pool.
 * - A new cluster is not made by running initdb in the serving process: initdb's WebAssembly
 *   instances stay resident afterwards (several hundred MB) and it takes most of a fresh start.
 *   Instead a pristine cluster is made once per PGlite version, in a child process, kept as a
 *   tarball in a cache directory and unpacked into every new data directory (or in-memory store).
 * - PostgreSQL's WebAssembly is compiled by V8's baseline compiler only (Liftoff), without the
 *   optimizing tier: optimizing its hot functions in background threads left 40-70 MB of freed
 *   compiler memory resident in malloc's per-thread arenas and cost more CPU than it saved on
 *   this store's short queries (measured in docs/configuration.md#embedded-database).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import ClientPgLite from 'knex-pglite';
import { parseTemplateTree, TemplateMemoryFS, type TemplateTree } from './pglite-memory';
import { extractTar, extractTarStream } from './tar-extract';

/** A template cluster: a tarball, whole or as a stream of its bytes, or already parsed. */
export type TemplateData = Uint8Array | AsyncIterable<Uint8Array> | TemplateTree;

/** Start-up options of every embedded store (PGlite's defaults plus the buffer size above). */
export const PGLITE_START_PARAMS: string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
/** Start-up options added for a store in memory. */
const IN_MEMORY_PARAMS: string[] = ['-c', 'synchronous_commit=off'];

const PGLITE_MAIN = require.resolve('@electric-sql/pglite');
const NODE_MODULES = PGLITE_MAIN.slice(
  0,
  PGLITE_MAIN.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length,
);

/** The installed PGlite version: a template is only valid for the version that made it. */
export function pgliteVersion(): string {
  const file = path.join(NODE_MODULES, '@electric-sql', 'pglite', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * Where templates are kept: `$SLUICE_CACHE_DIR`, else `node_modules/.cache/sluice` next to the
 * installed PGlite (removed with node_modules, as caches there are).
 */
export function templateCacheDir(): string {
  return process.env.SLUICE_CACHE_DIR ?? path.join(NODE_MODULES, '.cache', 'sluice');
}

/** A file of the cache directory, or of the temporary directory when the cache cannot be written. */
function cacheFile(name: string): string[] {
  return [path.join(templateCacheDir(), name), path.join(os.tmpdir(), `sluice-cache-${os.userInfo().uid}`, name)];
}

/** Read the first of `files` that exists; undefined when none does. */
async function readFirst(files: string[]): Promise<Buffer | undefined> {
  for (const file of files) {
    try {
      return await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw err;
      }
    }
  }
  return undefined;
}

/** Write `data` to the first of `files` whose directory is writable; whole or not at all (rename). */
function writeCacheFile(files: string[], data: Uint8Array): void {
  let lastError: unknown;
  for (const file of files) {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(draft, data);
      renameSync(draft, file);
      return;
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/** The cached template (a tarball) called `name`, made by `make` (and stored) when missing. */
export async function cachedTemplate(name: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const files = cacheFile(name);
  let data: Uint8Array | undefined = await readFirst(files);
  if (data === undefined) {
    data = await make();
    try {
      writeCacheFile(files, data);
    } catch {
      // Neither directory is writable: this start goes on, the next one makes the template again.
    }
  }
  return data;
}

// Run by a child process: initdb in memory, the cluster as a tar in the file named by argv[3]
// (through a file, not a pipe, so the parent holds one copy). Plain JavaScript, so it runs the
// same under tsx, jest and a compiled build.
const INITDB_SCRIPT = `
const { PGlite } = require(process.argv[1]);
const { writeFileSync } = require('node:fs');
(async () => {
  const db = new PGlite({ startParams: JSON.parse(process.argv[2]) });
  await db.waitReady;
  const tar = await db.dumpDataDir('none');
  await db.close();
  writeFileSync(process.argv[3], Buffer.from(await tar.arrayBuffer()));
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;

/** A pristine cluster (initdb only) for the installed PGlite version, as a tarball. */
export function pristineTemplate(): Promise<Uint8Array> {
  return cachedTemplate(`pglite-${pgliteVersion()}.tar`, async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-initdb-'));
    try {
      const output = path.join(scratch, 'cluster.tar');
      await promisify(execFile)(process.execPath, [
        '-e',
        INITDB_SCRIPT,
        PGLITE_MAIN,
        JSON.stringify(PGLITE_START_PARAMS),
        output,
      ]);
      return await readFile(output);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}

/**
 * Compile WebAssembly with the baseline compiler only, from now on in this process (a V8 flag
 * read when a module is compiled; the embedded store is the process's only large module).
 */
export function useBaselineWasmCompiler(): void {
  v8.setFlagsFromString('--liftoff-only');
}

export interface PgliteOpenOptions {
  /** The cluster's directory; in memory when absent. */
  dataDir?: string;
  /** The cluster a new store starts from; defaults to `pristineTemplate()`. */
  template?: () => Promise<TemplateData>;
}

/**
 * Open an embedded cluster. A new data directory is unpacked from the template first (into a
 * draft directory renamed into place, so an interrupted start leaves no half cluster); an
 * in-memory store loads the template through PGlite.
 */
export async function openPglite(options: PgliteOpenOptions): Promise<PGlite> {
  const template = options.template ?? pristineTemplate;
  const { dataDir } = options;
  useBaselineWasmCompiler();
  let fs: TemplateMemoryFS | undefined;
  if (dataDir === undefined) {
    const data = await template();
    fs = new TemplateMemoryFS(isTemplateTree(data) ? data : parseTemplateTree(await wholeTarball(data)));
  } else if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} is not empty but holds no PGlite database (no PG_VERSION): move it away`);
    }
    const draft = `${dataDir}.new-${process.pid}`;
    rmSync(draft, { recursive: true, force: true });
    const data = await template();
    if (isTemplateTree(data)) {
      writeTemplateTree(data, draft);
    } else if (ArrayBuffer.isView(data)) {
      extractTar(data, draft);
    } else {
      await extractTarStream(data, draft);
    }
    rmSync(dataDir, { recursive: true, force: true }); // an empty directory
    renameSync(draft, dataDir);
  }
  // In memory nothing outlives the process, so a commit need not wait for its WAL to be written
  // (docs/configuration.md#embedded-database): about 0.4 ms less per transaction. On disk it
  // waits, so a killed process loses no commit.
  const startParams = dataDir === undefined ? [...PGLITE_START_PARAMS, ...IN_MEMORY_PARAMS] : PGLITE_START_PARAMS;
  const db = new PGlite({ dataDir, fs, startParams });
  await db.waitReady;
  return db;
}

function isTemplateTree(data: TemplateData): data is TemplateTree {
  return !ArrayBuffer.isView(data) && 'directories' in data && Array.isArray(data.directories);
}

/** A parsed template written out as a directory (`dir` must not exist yet). */
function writeTemplateTree(tree: TemplateTree, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const directory of tree.directories) {
    mkdirSync(path.join(dir, directory));
  }
  for (const file of tree.files) {
    writeFileSync(path.join(dir, file.path), file.data);
  }
}

async function wholeTarball(data: Uint8Array | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  // isView, not instanceof: a tarball may come from another realm (a jest worker's cache).
  if (ArrayBuffer.isView(data)) {
    return data;
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of data) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What knex hands a client's `processResponse`, as far as a delete needs. */
interface PgliteQuery {
  method?: string;
  output?: unknown;
  returning?: unknown;
  response: { affectedRows?: number };
}

type PgliteQueryHandler = (this: unknown, obj: PgliteQuery, runner: unknown) => unknown;

/**
 * knex's PGlite client, opening the cluster when knex first connects rather than when it is
 * constructed (the template is read asynchronously). PGlite has one session, so every
 * connection knex asks for is the same instance.
 */
export class LazyPgliteClient extends ClientPgLite {
  private opening: Promise<PGlite> | undefined;

  _driver(): void {
    // Nothing to load eagerly: see _acquireOnlyConnection.
  }

  _acquireOnlyConnection(): Promise<PGlite> {
    const { open } = (this as unknown as { config: { connection: { open: () => Promise<PGlite> } } }).config.connection;
    if (this.opening === undefined) {
      const opening = open();
      this.opening = opening;
      // A failed open is not kept: the next query tries again (docs/operations.md#database-links).
      opening.catch(() => {
        if (this.opening === opening) {
          this.opening = undefined;
        }
      });
    }
    return this.opening;
  }

  /**
   * The count of deleted rows for a delete, as on PostgreSQL: knex-pglite names a delete's
   * command `DEL` (its knex method, upper-cased), which knex's PostgreSQL client does not read as
   * a delete, so it handed back PGlite's whole result instead (`{ rows, affectedRows, ... }`).
   */
  processResponse(obj: PgliteQuery, runner: unknown): unknown {
    if (obj.method === 'del' && obj.output === undefined && obj.returning === undefined) {
      return obj.response.affectedRows ?? 0;
    }
    // knex's typings leave the client's own processResponse out.
    const inherited = (ClientPgLite.prototype as unknown as { processResponse: PgliteQueryHandler }).processResponse;
    return inherited.call(this, obj, runner);
  }

  /** knex hands out the one session only while it is open; a closed instance is opened again. */
  override validateConnection(connection: PGlite): Promise<boolean> {
    if (connection.closed) {
      this.opening = undefined;
      return Promise.resolve(false);
    }
    return Promise.resolve(true);
  }
}
