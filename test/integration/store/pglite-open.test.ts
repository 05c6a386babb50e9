/**
 * Opening the embedded store (src/store/pglite.ts): a new data directory is unpacked from the
 * cached template and reopened as it is afterwards; the store runs with small shared buffers; a
 * directory that is not a cluster is refused rather than overwritten; a delete answers with the
 * count of deleted rows, as on PostgreSQL.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirectoryInUseError } from '../../../src/store/data-dir-lock';
import { openDatabase } from '../../../src/store/database';
import { migrateLatest } from '../../../src/store/migrate';
import { cachedTemplate, openPglite } from '../../../src/store/pglite';

describe('embedded store opening', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-pglite-open-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('unpacks a new data directory from the template, keeps its data and reopens it', async () => {
    const dataDir = path.join(dir, 'data', 'pgdata');
    const first = openDatabase({ kind: 'pglite', dataDir });
    try {
      await migrateLatest(first.knex);
      await first.knex.raw('CREATE TABLE kept (note text)');
      await first.knex('kept').insert({ note: 'still here' });
      expect((await first.knex.raw('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }]);
      // On disk a commit waits for its WAL, so a killed process loses none.
      expect((await first.knex.raw('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'on' }]);
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(path.join(dir, 'data'))).toEqual(['pgdata']); // no draft left behind

    const again = openDatabase({ kind: 'pglite', dataDir });
    try {
      expect((await again.knex('kept').select('note')).map((row: { note: string }) => row.note)).toEqual([
        'still here',
      ]);
      expect(await migrateLatest(again.knex)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('is held by one store at a time: another is refused, naming the directory and the holder, until the first closes', async () => {
    const dataDir = path.join(dir, 'held', 'pgdata');
    const first = openDatabase({ kind: 'pglite', dataDir });
    const second = openDatabase({ kind: 'pglite', dataDir, log: () => undefined });
    try {
      await first.knex.raw('select 1');
      const refused = await second.knex.raw('select 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(DataDirectoryInUseError);
      expect(refused).toMatchObject({ directory: dataDir, pid: process.pid });
      await first.close();
      expect((await second.knex.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('commits in memory without waiting for the WAL, and dumps every commit after a checkpoint', async () => {
    const pglite = await openPglite({});
    try {
      expect((await pglite.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }]);
      await pglite.query('CREATE TABLE kept (note text)');
      await pglite.query(`INSERT INTO kept VALUES ('committed')`);
      await pglite.query('CHECKPOINT');
      const dumped = await openPglite({
        template: async () => new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()),
      });
      try {
        expect((await dumped.query('SELECT note FROM kept')).rows).toEqual([{ note: 'committed' }]);
      } finally {
        await dumped.close();
      }
    } finally {
      await pglite.close();
    }
  });

  it('answers a delete with the count of deleted rows, as on PostgreSQL', async () => {
    const db = openDatabase({ kind: 'pglite' });
    try {
      await db.knex.raw('CREATE TABLE counted (id int PRIMARY KEY)');
      await db.knex.raw('INSERT INTO counted SELECT generate_series(1, 10)');
      expect(await db.knex('counted').where('id', '<', 4).delete()).toBe(3);
      expect(await db.knex('counted').where('id', '>', 100).delete()).toBe(0);
      expect(await db.knex('counted').where('id', 5).delete().returning('id')).toEqual([{ id: 5 }]);
      expect(await db.knex('counted').where('id', 6).update({ id: 60 })).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('refuses a non-empty directory that holds no cluster', async () => {
    const dataDir = path.join(dir, 'not-a-cluster');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'precious.txt'), 'mine');
    await expect(openPglite({ dataDir })).rejects.toThrow('is not empty but holds no PGlite database');
    expect(readdirSync(dataDir)).toEqual(['precious.txt']);
  });

  it('makes a missing template once and reads it from the cache afterwards', async () => {
    const previous = process.env.SLUICE_CACHE_DIR;
    process.env.SLUICE_CACHE_DIR = path.join(dir, 'cache');
    try {
      let made = 0;
      const make = async (): Promise<Uint8Array> => {
        made += 1;
        return new Uint8Array([1, 2, 3]);
      };
      expect(Array.from(await cachedTemplate('t.tar', make))).toEqual([1, 2, 3]);
      expect(Array.from(await cachedTemplate('t.tar', make))).toEqual([1, 2, 3]);
      expect(made).toBe(1);
      expect(readdirSync(path.join(dir, 'cache'))).toEqual(['t.tar']);
    } finally {
      if (previous === undefined) {
        delete process.env.SLUICE_CACHE_DIR;
      } else {
        process.env.SLUICE_CACHE_DIR = previous;
      }
    }
  });
});
