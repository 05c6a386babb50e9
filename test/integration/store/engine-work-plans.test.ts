/**
 * The statements that look for a tenant's open engine work (the work runner's claim, a pass's
 * withdrawal of speculative merges, the list of open work) read the partial index of open rows
 * under a generic plan, whatever the number of completed rows kept (a day of them,
 * docs/gating.md#engine-work). With the states bound as parameters, the generic plan could not
 * prove the rows open and read every completed row of the table: on a busy gate the claim, run
 * before every round of the work runner, scanned the day's work each time.
 */
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainGenericPlan, walk, type PlanNode } from '../../helpers/query-plans';

jest.setTimeout(120_000);

const COMPLETED = 3_000;
const TENANT = 'plans';
const now = new Date('2026-06-01T00:00:00Z');

describe.each(backends())('open engine work reads (%s)', (backend: Backend) => {
  let db: TestDatabase;
  let work: EngineWorkRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    work = new EngineWorkRepository(db.knex);
    // A day of a busy gate's work, completed, then a little open work of each kind.
    await db.knex.raw(
      `INSERT INTO engine_work (tenant, kind, state, payload, outcome, epoch, created, updated)
       SELECT ?, 'speculative-merge', 'completed', jsonb_build_object('buildsetUuid', 'done-' || n), 'merged', 1, ?, ?
       FROM generate_series(1, ?) AS n`,
      [TENANT, now, now, COMPLETED],
    );
    await work.create(
      TENANT,
      [
        { kind: 'report', payload: { buildsetUuid: 'open-1' } },
        { kind: 'speculative-merge', payload: { buildsetUuid: 'open-2' } },
      ],
      now,
      db.knex,
    );
    await db.knex.raw('ANALYZE engine_work');
  });

  afterAll(async () => {
    await db?.destroy();
  });

  /** Every plan of the statements `action` sends to engine_work: no completed row is read. */
  async function expectOpenIndex(action: () => Promise<unknown>): Promise<void> {
    const queries = (await captureQueries(db.knex, action)).filter((query) => /"?engine_work"?/i.test(query.sql));
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      const nodes: PlanNode[] = [...walk(await explainGenericPlan(db.knex, query))];
      const scans = nodes.filter((node) => node['Relation Name'] === 'engine_work');
      const where = `${nodes.map((node) => `${node['Node Type']} (${node['Index Name'] ?? '-'})`).join(', ')} in\n${query.sql}`;
      expect({ where, seq: scans.some((node) => node['Node Type'] === 'Seq Scan') }).toEqual({ where, seq: false });
      const dropped = scans.reduce((sum, node) => sum + (node['Rows Removed by Filter'] ?? 0), 0);
      expect({ where, droppedUnderTen: dropped < 10 }).toEqual({ where, droppedUnderTen: true });
      expect({ where, open: nodes.some((node) => node['Index Name'] === 'engine_work_open') }).toEqual({
        where,
        open: true,
      });
    }
  }

  it('the work runner claims its work from the open rows', async () => {
    await expectOpenIndex(() => work.claim(TENANT, 1, now, 50));
  });

  it('the claim starts at the oldest open row, found by a plain index scan', async () => {
    // A bitmap scan never marks the index entries of rows completed since the last vacuum dead,
    // so every claim would read all of them again; a plain index scan marks them as it passes.
    const queries = (await captureQueries(db.knex, () => work.claim(TENANT, 2, now, 50))).filter((query) =>
      /engine_work/i.test(query.sql),
    );
    expect(queries).toHaveLength(1);
    const nodes = [...walk(await explainGenericPlan(db.knex, queries[0]))];
    const plain = nodes.filter(
      (node) => node['Index Name'] === 'engine_work_open' && /^Index (Only )?Scan$/.test(node['Node Type']),
    );
    expect(plain.length).toBeGreaterThan(0);
  });

  it('a pass withdraws speculative merges from the open rows', async () => {
    await expectOpenIndex(() =>
      db.knex.transaction((trx) => work.withdrawMerges(TENANT, ['open-2', 'done-7'], now, trx)),
    );
  });

  it('the open work is listed from the open rows', async () => {
    await expectOpenIndex(() => work.open(TENANT));
  });
});
