/**
 * The SQL statements the engine sends per gated item (docs/gating.md#performance): changes go one
 * after the other through a gate with two instant jobs, each enqueued, built, merged and reported
 * before the next, and the statements of all roles (enqueue, passes, results, engine work) are
 * counted. One item at a time shares nothing between items, so the count is the per-item cost: a
 * change that adds a statement to an item's way through the gate exceeds the budget and fails here
 * with the counts by kind.
 */
import { StatementCounter } from '../../../bench/statement-counter';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const CHANGES = 6;

/**
 * Statements per item, measured with this test on each store (docs/gating.md#performance): 41 on
 * PGlite, plus half a statement, so one statement more per item fails. On PostgreSQL 47.7 to 49:
 * there wake-ups run passes that find nothing (4 statements each, 0.67 per item here), one or two
 * more or less per run, so the budget leaves room for two of them and catches two statements more
 * per item.
 */
const BUDGET: Record<string, number> = { pglite: 41.5, postgres: 50.5 };

describe.each(backends())('engine: SQL statements per gated item (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
      }),
      undefined,
      // Wake-ups only: a pass that a poll runs meanwhile would add its statements at random.
      { pollIntervalMs: 60_000 },
    );
    h.executor.auto = () => ({ result: 'SUCCESS', durationMs: 0 });
    await h.start();
  });

  afterAll(async () => {
    await h.stop();
    await db.destroy();
  });

  it('stays within the statement budget per item', async () => {
    // The first change warms what the engine reads once (estimates, state): not counted.
    for (let number = 1; number <= CHANGES + 1; number += 1) {
      h.changes.add('org/project', number);
    }
    expect(await h.enqueue('gate', 'org/project', '1,1')).toBe('ok');
    const counter = new StatementCounter(db.knex);
    counter.start();
    for (let number = 2; number <= CHANGES + 1; number += 1) {
      expect(await h.enqueue('gate', 'org/project', `${number},1`)).toBe('ok');
    }
    counter.stop();
    expect(h.merger.mergedOrder).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(h.errors).toEqual([]);
    const perItem = counter.total / CHANGES;
    if (perItem > BUDGET[backend]) {
      // The counts by kind, to see which statement was added.
      expect({ perItem, byKind: counter.perItem(CHANGES) }).toEqual({ perItem: BUDGET[backend], byKind: [] });
    }
    process.stdout.write(`${backend}: ${perItem.toFixed(2)} statements per item\n`);
  });
});
