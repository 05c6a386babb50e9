/**
 * History pages on a shared store (docs/rest.md#history-pages-on-a-shared-store): with another
 * tenant's newer rows on top, the plan of every history list query scans only the asking
 * tenant's rows. Checked with EXPLAIN ANALYZE on the SQL the repositories really send: no
 * sequential or primary-key scan of a history table, and no scan that reads and drops the other
 * tenant's rows (before, `builds?limit=50` walked the primary key backward through all of them).
 */
import { fillBuildHistory } from '../../../bench/history-data';
import { BuildTimeRepository } from '../../../src/store/repositories/build-times';
import { BuildRepository, type BuildFilter } from '../../../src/store/repositories/builds';
import { BuildsetRepository, type BuildsetFilter } from '../../../src/store/repositories/buildsets';
import { SystemEventRepository } from '../../../src/store/repositories/system-events';
import { createTestDatabase, defaultBackend, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainPlan, walk } from '../../helpers/query-plans';

// Filling tens of thousands of builds under a loaded machine.
jest.setTimeout(240_000);

// One store per run: PostgreSQL when DATABASE_URL is set (CI), else PGlite. Both run the same
// planner; filling 42,000 rows into PGlite as well doubled the file's time for no new fact.

const HISTORY_TABLES = new Set(['builds', 'buildsets', 'system_events']);
const NEWER_ROWS_OF_OTHER_TENANT = 6_000;

describe.each([defaultBackend()])(
  'history list plans on a store shared by unbalanced tenants (%s)',
  (backend: Backend) => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase({ backend });
      await fillBuildHistory(db.knex, { tenant: 'quiet', builds: 15_000 });
      await fillBuildHistory(db.knex, { tenant: 'noisy', builds: NEWER_ROWS_OF_OTHER_TENANT });
      const events = (tenant: string, count: number) =>
        db.knex.raw(
          `INSERT INTO system_events (event_id, tenant, event_type, event_time, description)
         SELECT md5(? || g), ?, 'tenant-reconfigured', now(), 'event ' || g FROM generate_series(1, ?) AS g`,
          [tenant, tenant, count],
        );
      await events('quiet', 15_000);
      await events('noisy', NEWER_ROWS_OF_OTHER_TENANT);
      await db.knex.raw('ANALYZE');
    });

    afterAll(async () => {
      await db.destroy();
    });

    async function expectTenantScoped(action: () => Promise<unknown>): Promise<void> {
      const queries = await captureQueries(db.knex, action);
      const history = queries.filter((query) => /from "(builds|buildsets|system_events)"/i.test(query.sql));
      expect(history.length).toBeGreaterThan(0);
      for (const query of history) {
        const plan = await explainPlan(db.knex, query);
        for (const node of walk(plan)) {
          if (node['Relation Name'] === undefined || !HISTORY_TABLES.has(node['Relation Name'])) {
            continue;
          }
          const where = `${node['Node Type']} on ${node['Relation Name']} (${node['Index Name'] ?? 'no index'}) in\n${query.sql}`;
          expect({ where, seq: node['Node Type'] }).not.toEqual({ where, seq: 'Seq Scan' });
          // The primary key may find a row by its id (the inner side of a join), never walk the rows in id order.
          const keyed = /\bid = /.test(String(node['Index Cond'] ?? ''));
          expect({ where, index: keyed ? 'by id' : node['Index Name'] }).not.toEqual({
            where,
            index: `${node['Relation Name']}_pkey`,
          });
          expect({ where, dropped: (node['Rows Removed by Filter'] ?? 0) < NEWER_ROWS_OF_OTHER_TENANT }).toEqual({
            where,
            dropped: true,
          });
        }
      }
    }

    const newest = { limit: 50, offset: 0, fromEnd: false };

    /** Each filter's page is tenant-scoped and finds as many rows as given. */
    async function expectFilteredPages<Filter>(
      list: (filter: Filter) => Promise<unknown[]>,
      filters: ReadonlyArray<[Filter, number]>,
    ): Promise<void> {
      for (const [filter, found] of filters) {
        await expectTenantScoped(() => list(filter));
        expect({ filter, found: (await list(filter)).length }).toEqual({ filter, found });
      }
    }

    it('builds: newest page, a result filter, a deep page, the oldest page', async () => {
      const builds = new BuildRepository(db.knex);
      await expectTenantScoped(() => builds.list('quiet', {}, newest));
      await expectTenantScoped(() => builds.list('quiet', { result: ['SUCCESS'] }, newest));
      await expectTenantScoped(() => builds.list('quiet', { complete: true }, { ...newest, offset: 500 }));
      await expectTenantScoped(() => builds.list('quiet', {}, { ...newest, fromEnd: true }));
      expect(await builds.list('quiet', {}, newest)).toHaveLength(50);
    });

    it('builds and buildsets filtered by a text column, exactly and by a wildcard prefix', async () => {
      // One index per column serves both (migration 0038, docs/rest.md#history-pages-on-a-shared-store).
      // A value no row has makes a plan without the column's index read every row of the tenant.
      const builds = new BuildRepository(db.knex);
      const filters: Array<[BuildFilter, number]> = [
        [{ project: ['org/project-7'] }, 50],
        [{ project: ['org/absent'] }, 0],
        [{ project: ['org/absent*'] }, 0],
        [{ project: ['review.example.com/org/absent'] }, 0],
        [{ project: ['review.example.com/org/absent*'] }, 0],
        [{ pipeline: ['ga*'] }, 50],
        [{ pipeline: ['absent'] }, 0],
        [{ pipeline: ['absent*'] }, 0],
        [{ branch: ['absent'] }, 0],
        [{ branch: ['absent*'] }, 0],
        [{ jobName: ['job-3'] }, 50],
        [{ jobName: ['absent'] }, 0],
        [{ jobName: ['absent*'] }, 0],
      ];
      await expectFilteredPages((filter) => builds.list('quiet', filter, newest), filters);
      const buildsets = new BuildsetRepository(db.knex);
      const buildsetFilters: Array<[BuildsetFilter, number]> = [
        [{ pipeline: ['che*'] }, 50],
        [{ pipeline: ['absent'] }, 0],
        [{ pipeline: ['absent*'] }, 0],
        [{ project: ['org/absent'] }, 0],
        [{ project: ['org/absent*'] }, 0],
        [{ branch: ['absent*'] }, 0],
      ];
      await expectFilteredPages((filter) => buildsets.list('quiet', filter, newest), buildsetFilters);
    });

    it('buildsets and the badge lookup', async () => {
      const buildsets = new BuildsetRepository(db.knex);
      await expectTenantScoped(() => buildsets.list('quiet', {}, newest));
      await expectTenantScoped(() => buildsets.list('quiet', { complete: true }, newest));
      await expectTenantScoped(() => buildsets.newestComplete('quiet', {}));
    });

    it('build times', async () => {
      const buildTimes = new BuildTimeRepository(db.knex);
      await expectTenantScoped(() => buildTimes.listBuildTimes('quiet', {}, newest));
    });

    it('system events', async () => {
      const events = new SystemEventRepository(db.knex);
      await expectTenantScoped(() => events.listPage('quiet', {}, newest));
    });

    it('an unfiltered count reads the maintained count, not the rows', async () => {
      const builds = new BuildRepository(db.knex);
      const queries = await captureQueries(db.knex, () => builds.count('quiet', {}));
      expect(queries.map((query) => query.sql).join('\n')).not.toMatch(/from "builds"/i);
      expect(await builds.count('quiet', {})).toBe(15_000);
    });
  },
);
