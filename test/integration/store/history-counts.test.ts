/**
 * Maintained per-tenant counts (migration 0017, docs/rest.md#history-pages-on-a-shared-store):
 * an unfiltered count equals `count(*)` after inserts, deletes, truncation, folds and concurrent
 * writers, on both stores.
 */
import { fillBuildHistory } from '../../../bench/history-data';
import { BuildRepository } from '../../../src/store/repositories/builds';
import { BuildsetRepository } from '../../../src/store/repositories/buildsets';
import { HistoryCountRepository } from '../../../src/store/repositories/history-counts';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';

describe.each(backends())('maintained history counts (%s)', (backend: Backend) => {
  let db: TestDatabase;
  let builds: BuildRepository;
  let buildsets: BuildsetRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    builds = new BuildRepository(db.knex);
    buildsets = new BuildsetRepository(db.knex);
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function exactCount(table: 'builds' | 'buildsets', tenant: string): Promise<number> {
    const [row] = await db.knex(table).where({ tenant }).count({ count: '*' });
    return Number(row?.count ?? 0);
  }

  async function expectCountsExact(tenants: string[]): Promise<void> {
    for (const tenant of tenants) {
      expect(await builds.count(tenant, {})).toBe(await exactCount('builds', tenant));
      expect(await buildsets.count(tenant, {})).toBe(await exactCount('buildsets', tenant));
    }
  }

  it('counts each tenant on its own and follows inserts, deletes and folds', async () => {
    await fillBuildHistory(db.knex, { tenant: 'alpha', builds: 300, buildsPerBuildset: 3, chunk: 7 });
    await fillBuildHistory(db.knex, { tenant: 'beta', builds: 40, buildsPerBuildset: 4 });
    await expectCountsExact(['alpha', 'beta', 'nobody']);
    expect(await builds.count('alpha', {})).toBe(300);
    expect(await buildsets.count('beta', {})).toBe(10);
    expect(await builds.count('nobody', { project: [] })).toBe(0);

    // More than the fold threshold of single-row statements, then a read folds them.
    for (let index = 0; index < 70; index += 1) {
      await db
        .knex('builds')
        .whereIn('id', db.knex('builds').where({ tenant: 'alpha' }).max('id'))
        .del();
    }
    await expectCountsExact(['alpha']);
    const [pending] = await db
      .knex('history_count_deltas')
      .where({ tenant: 'alpha', kind: 'builds' })
      .count({ n: '*' });
    expect(Number(pending?.n)).toBe(0);
    expect(await builds.count('alpha', {})).toBe(230);
  });

  it('a filtered count still counts the filter, not the tenant', async () => {
    const all = await builds.count('alpha', {});
    const failures = await builds.count('alpha', { result: ['FAILURE'] });
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(all);
    expect(failures).toBe(
      Number((await db.knex('builds').where({ tenant: 'alpha', result: 'FAILURE' }).count({ n: '*' }))[0]?.n),
    );
  });

  it('truncation resets the counts', async () => {
    await db.knex.raw('TRUNCATE builds, buildsets CASCADE');
    await expectCountsExact(['alpha', 'beta']);
    expect(await builds.count('alpha', {})).toBe(0);
  });

  it('concurrent writers and folds add every row exactly once', async () => {
    await fillBuildHistory(db.knex, { tenant: 'seed', builds: 10, buildsPerBuildset: 2 });
    const columns = Object.keys(await db.knex('builds').columnInfo()).filter(
      (column) => !['id', 'tenant', 'uuid'].includes(column),
    );
    const list = columns.join(', ');
    const counts = new HistoryCountRepository(db.knex);
    // Each writer copies the seed's 10 builds into its tenant, 5 times, each time in a transaction.
    const writers = Array.from({ length: 6 }, async (_, writer) => {
      for (let round = 0; round < 5; round += 1) {
        await db.knex.transaction(async (trx) => {
          await trx.raw(
            `INSERT INTO builds (tenant, uuid, ${list})
             SELECT ?, md5(random()::text || id), ${list} FROM builds WHERE tenant = 'seed'`,
            [`gamma-${writer % 2}`],
          );
        });
      }
    });
    const folds = Array.from({ length: 3 }, async () => {
      for (let round = 0; round < 10; round += 1) {
        await counts.fold('gamma-0', 'builds');
        await counts.fold('gamma-1', 'builds');
      }
    });
    await Promise.all([...writers, ...folds]);
    await expectCountsExact(['gamma-0', 'gamma-1', 'seed']);
    expect(await builds.count('gamma-0', {})).toBe(150);
  });
});
