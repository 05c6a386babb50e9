/**
 * The migrated template shipped in src/store/template/ (src/store/shipped-template.ts): it is made
 * from the current migration sources, a store started from it equals one migrated from scratch,
 * a template short of the latest migrations gets them at start, one that does not fit is not
 * used, and `sluice serve` on the quickstart starts from it with every migration and the example
 * tenant.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Knex } from 'knex';
import knexFactory from 'knex';
import ClientPgLite from 'knex-pglite';
import { openDatabase } from '../../../src/store/database';
import { migrateLatest, migrateUpTo, migrationNames, migrationsComplete } from '../../../src/store/migrate';
import { openPglite, pgliteVersion } from '../../../src/store/pglite';
import {
  migrationSourceHash,
  readShippedManifest,
  serviceTemplate,
  shippedTemplate,
  shippedTemplateFiles,
  templateFits,
  type ShippedManifest,
} from '../../../src/store/shipped-template';
import { createTestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/pg-faults';
import { quickstartCopy } from '../../helpers/quickstart-copy';
import { startServe } from '../../helpers/serve-process';

const MIGRATION_SOURCES = path.resolve(__dirname, '../../../src/store/migrations');
const REGENERATE = 'run `npx tsx scripts/store-template.ts` and commit the result';

/** Everything the migrations define, and how many rows each table holds. */
async function catalog(knex: Knex): Promise<unknown> {
  const rows = async (sql: string): Promise<unknown[]> => ((await knex.raw(sql)) as { rows: unknown[] }).rows;
  return {
    columns: await rows(`SELECT table_name, column_name, data_type, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`),
    indexes: await rows(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
    constraints: await rows(`SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`),
    triggers: await rows(`SELECT tgrelid::regclass::text AS rel, tgname, pg_get_triggerdef(oid) AS def
      FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`),
    functions: await rows(`SELECT proname, md5(prosrc) AS source FROM pg_proc
      WHERE pronamespace = 'public'::regnamespace ORDER BY 1, 2`),
    counts: await rows(`SELECT table_name, (xpath('/row/c/text()',
        query_to_xml(format('SELECT count(*) AS c FROM %I', table_name), false, true, '')))[1]::text AS count
      FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`),
    migrations: await rows('SELECT name FROM sluice_migrations ORDER BY id'),
  };
}

describe('shipped store template', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-shipped-template-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is made by the installed PGlite from the current sources of the migrations it holds', () => {
    const manifest = readShippedManifest();
    if (manifest === undefined) {
      throw new Error(`no store template for PGlite ${pgliteVersion()}: ${REGENERATE}`);
    }
    expect(templateFits(manifest)).toBe(true);
    for (const migration of manifest.migrations) {
      const current = migrationSourceHash(MIGRATION_SOURCES, migration.name);
      if (current !== migration.sha256) {
        throw new Error(`migration ${migration.name} changed since the store template was made: ${REGENERATE}`);
      }
    }
  });

  it('starts a store equal to one migrated from scratch', async () => {
    const fromTemplate = openDatabase({
      kind: 'pglite',
      dataDir: path.join(dir, 'shipped'),
      template: serviceTemplate,
    });
    const fromScratch = await createTestDatabase({ backend: 'pglite' });
    try {
      const shipped = readShippedManifest()?.migrations.map((migration) => migration.name) ?? [];
      expect(await migrateLatest(fromTemplate.knex)).toEqual(
        migrationNames().filter((name) => !shipped.includes(name)),
      );
      expect(await migrationsComplete(fromTemplate.knex)).toBe(true);
      expect(await catalog(fromTemplate.knex)).toEqual(await catalog(fromScratch.knex));
    } finally {
      await fromTemplate.close();
      await fromScratch.destroy();
    }
  });

  it('applies the migrations a template lacks at start, and ignores a template that does not fit', async () => {
    const names = migrationNames();
    const held = names.slice(0, -2);
    const templateDir = path.join(dir, 'short');
    const files = shippedTemplateFiles(templateDir);
    const pglite = await openPglite({});
    const knex = knexFactory({ client: ClientPgLite, dialect: 'postgres', connection: { pglite } as never });
    try {
      await migrateUpTo(knex, held[held.length - 1] ?? '');
      const tar = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
      mkdirSync(templateDir, { recursive: true });
      writeFileSync(files.tarball, brotliCompressSync(tar, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }));
    } finally {
      await knex.destroy();
    }
    const manifest: ShippedManifest = {
      pglite: pgliteVersion(),
      size: 0,
      migrations: held.map((name) => ({ name, sha256: migrationSourceHash(MIGRATION_SOURCES, name) })),
    };
    writeFileSync(files.manifest, JSON.stringify(manifest));

    const store = openDatabase({
      kind: 'pglite',
      dataDir: path.join(dir, 'short-store'),
      template: () => serviceTemplate(templateDir),
    });
    try {
      expect(await migrateLatest(store.knex)).toEqual(names.slice(-2));
    } finally {
      await store.close();
    }

    // Not used: another PGlite version, a migration list that is not a prefix of the current one,
    // or SLUICE_SHIPPED_TEMPLATE=off.
    expect(templateFits({ ...manifest, pglite: '0.0.1' })).toBe(false);
    expect(templateFits({ ...manifest, migrations: [{ name: 'renamed', sha256: '' }, ...manifest.migrations] })).toBe(
      false,
    );
    expect(templateFits({ ...manifest, migrations: [...manifest.migrations.slice(1)] })).toBe(false);
    expect(shippedTemplate(templateDir)).toBeDefined();
    writeFileSync(files.manifest, JSON.stringify({ ...manifest, pglite: '0.0.1' }));
    expect(shippedTemplate(templateDir)).toBeUndefined();
    writeFileSync(files.manifest, JSON.stringify(manifest));
    process.env.SLUICE_SHIPPED_TEMPLATE = 'off';
    try {
      expect(shippedTemplate(templateDir)).toBeUndefined();
    } finally {
      delete process.env.SLUICE_SHIPPED_TEMPLATE;
    }
  });

  it('starts `sluice serve` on the quickstart with every migration and the example tenant', async () => {
    const copy = quickstartCopy();
    try {
      const serve = await startServe(path.join(copy, 'examples', 'quickstart', 'sluice.yaml'), { PORT: '0' });
      try {
        await eventually('the process ready', async () => (await serve.ready()).status === 200, 60_000, 100);
        const tenants = (await (await fetch(`${serve.base}/api/tenants`)).json()) as Array<{ name: string }>;
        expect(tenants.map((tenant) => tenant.name)).toEqual(['example']);
      } finally {
        await serve.stop();
      }
      const store = openDatabase({ kind: 'pglite', dataDir: path.join(copy, 'data', 'pgdata') });
      try {
        const applied = (await store.knex('sluice_migrations').orderBy('id').pluck('name')) as string[];
        expect(applied).toEqual(migrationNames());
      } finally {
        await store.close();
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
