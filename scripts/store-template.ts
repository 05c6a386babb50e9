/**
 * Makes the template cluster shipped in src/store/template/ (src/store/shipped-template.ts): initdb
 * with the installed PGlite, every migration, the cluster as a brotli-compressed tarball and a
 * manifest. Run it after adding a migration or upgrading PGlite, and commit the two files (about
 * 3.5 MB; compressing takes about a minute). Templates of other PGlite versions are removed.
 *
 *   npx tsx scripts/store-template.ts           # write
 *   npx tsx scripts/store-template.ts --check   # exit 1 unless it holds every current migration
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import knexFactory from 'knex';
import ClientPgLite from 'knex-pglite';
import { migrateLatest, migrationNames } from '../src/store/migrate';
import { PGLITE_START_PARAMS, pgliteVersion } from '../src/store/pglite';
import {
  migrationSourceHash,
  readShippedManifest,
  shippedTemplateDir,
  shippedTemplateFiles,
  type ShippedManifest,
} from '../src/store/shipped-template';

const MIGRATION_SOURCES = path.join(__dirname, '..', 'src', 'store', 'migrations');

function currentManifest(size: number): ShippedManifest {
  return {
    pglite: pgliteVersion(),
    size,
    migrations: migrationNames().map((name) => ({ name, sha256: migrationSourceHash(MIGRATION_SOURCES, name) })),
  };
}

async function migratedCluster(): Promise<Uint8Array> {
  const pglite = new PGlite({ startParams: PGLITE_START_PARAMS });
  await pglite.waitReady;
  const knex = knexFactory({ client: ClientPgLite, dialect: 'postgres', connection: { pglite } as never });
  try {
    await migrateLatest(knex);
    // A checkpoint, so a store started from the dump has next to no WAL to replay: the dump is
    // taken from a running cluster, which PostgreSQL recovers from its last checkpoint.
    await pglite.query('CHECKPOINT');
    const tar = await pglite.dumpDataDir('none');
    return new Uint8Array(await tar.arrayBuffer());
  } finally {
    await knex.destroy();
  }
}

async function main(): Promise<number> {
  if (process.argv.includes('--check')) {
    const shipped = readShippedManifest();
    const expected = currentManifest(shipped?.size ?? 0);
    if (JSON.stringify(shipped) !== JSON.stringify(expected)) {
      console.error(
        shipped === undefined
          ? `no store template for PGlite ${expected.pglite}: run \`npx tsx scripts/store-template.ts\` and commit the result.`
          : `the store template holds ${shipped.migrations.length} of ${expected.migrations.length} migrations ` +
              '(or older sources): run `npx tsx scripts/store-template.ts` and commit the result.',
      );
      return 1;
    }
    console.log(`store template is up to date (PGlite ${expected.pglite}, ${expected.migrations.length} migrations).`);
    return 0;
  }
  const tar = await migratedCluster();
  const expected = currentManifest(tar.length);
  const compressed = brotliCompressSync(tar, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      // A 64 KiB window: the decoder's ring buffer stays below glibc's mmap threshold (a 16 MB
      // window, 1.5 MB instead of 3.4 MB here, left about 40 MB more resident in the server).
      [constants.BROTLI_PARAM_LGWIN]: 16,
      [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
    },
  });
  const dir = shippedTemplateDir();
  for (const old of readdirSync(dir).filter((file) => file.startsWith('pglite-'))) {
    rmSync(path.join(dir, old));
  }
  const files = shippedTemplateFiles(dir);
  writeFileSync(files.tarball, compressed);
  writeFileSync(files.manifest, `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), files.tarball)} (${compressed.length} bytes) and its manifest`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
