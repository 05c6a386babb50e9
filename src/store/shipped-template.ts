/**
 * The migrated template cluster shipped in the repository (docs/configuration.md#embedded-database).
 *
 * A new embedded data directory of `sluice serve` starts from a cluster on which initdb and the
 * migrations have already run, so neither runs on a first start (together they were most of its
 * time). The cluster lives in `src/store/template/` as a brotli-compressed tarball beside a
 * manifest naming the PGlite version that made it and the migrations applied to it; it is made
 * by `scripts/store-template.ts`.
 *
 * It is used only for the PGlite version it was made with, and only while the migrations it holds
 * are the first ones of the current list, in order: the start then applies the rest, as on any
 * existing store. Otherwise a new store starts from the pristine cluster (pglite.ts) and runs every
 * migration. Applied migrations are recognised by name, as knex does on every existing database;
 * test/integration/store/shipped-template.test.ts checks that each one's source is still the one the
 * template was made from, and that the result equals a store migrated from scratch.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createBrotliDecompress } from 'node:zlib';
import { migrationNames } from './migrate';
import { pgliteVersion, pristineTemplate, type TemplateData } from './pglite';

export interface ShippedManifest {
  /** The PGlite version whose initdb made the cluster. */
  pglite: string;
  /** Size of the uncompressed tarball in bytes. */
  size: number;
  /** The migrations applied to it, in order, with the SHA-256 of each one's source file. */
  migrations: Array<{ name: string; sha256: string }>;
}

/** Below glibc's initial mmap threshold (128 KiB). */
const CHUNK = 64 * 1024;

/** The template directory: beside this module, or in the sources when running a compiled build. */
export function shippedTemplateDir(): string {
  const candidates = [
    path.join(__dirname, 'template'),
    path.resolve(__dirname, '..', '..', '..', 'src', 'store', 'template'),
  ];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0];
}

export function shippedTemplateFiles(
  dir = shippedTemplateDir(),
  version = pgliteVersion(),
): {
  manifest: string;
  tarball: string;
} {
  return { manifest: path.join(dir, `pglite-${version}.json`), tarball: path.join(dir, `pglite-${version}.tar.br`) };
}

/** The manifest of the template for the installed PGlite version; undefined when there is none. */
export function readShippedManifest(dir?: string): ShippedManifest | undefined {
  const { manifest } = shippedTemplateFiles(dir);
  if (!existsSync(manifest)) {
    return undefined;
  }
  return JSON.parse(readFileSync(manifest, 'utf8')) as ShippedManifest;
}

/** True when the template's migrations are the first ones of `current`, in order. */
export function templateFits(manifest: ShippedManifest, current: string[] = migrationNames()): boolean {
  return (
    manifest.pglite === pgliteVersion() &&
    manifest.migrations.length <= current.length &&
    manifest.migrations.every((migration, index) => migration.name === current[index])
  );
}

/**
 * The shipped cluster, as a stream of its uncompressed tarball, when it fits the installed PGlite
 * and migrations; else (or with `SLUICE_SHIPPED_TEMPLATE=off`) undefined.
 *
 * Streamed in small pieces straight into the new data directory: holding the decompressed
 * cluster, or brotli's window, in one large buffer left tens of MB of freed memory resident for
 * the life of the process (glibc raises its mmap threshold to the largest block freed, and later
 * allocations of that size stay in its heap).
 */
export function shippedTemplate(dir?: string): AsyncIterable<Uint8Array> | undefined {
  if (process.env.SLUICE_SHIPPED_TEMPLATE === 'off') {
    return undefined;
  }
  const manifest = readShippedManifest(dir);
  if (manifest === undefined || !templateFits(manifest)) {
    return undefined;
  }
  const source = createReadStream(shippedTemplateFiles(dir).tarball, { highWaterMark: CHUNK });
  const decompress = createBrotliDecompress({ chunkSize: CHUNK });
  source.on('error', (err) => decompress.destroy(err));
  return source.pipe(decompress);
}

/** The cluster a new store of `sluice serve` starts from: the shipped one when it fits, else the pristine one. */
export async function serviceTemplate(dir?: string): Promise<TemplateData> {
  return shippedTemplate(dir) ?? pristineTemplate();
}

/** SHA-256 of a migration's source file (`src/store/migrations/<name>.ts`), as the manifest records it. */
export function migrationSourceHash(sourceDir: string, name: string): string {
  return createHash('sha256')
    .update(readFileSync(path.join(sourceDir, `${name}.ts`)))
    .digest('hex');
}
