/**
 * The item save (src/store/repositories/item-rows.ts, and a pass's whole save,
 * src/store/repositories/state-save.ts) reads no job row of the dequeued items, which stay in
 * `queue_item_jobs` as history: the delete of the job rows it replaces finds them through
 * `queue_item_jobs_item_job_key` (docs/gating.md#performance). As a join with the items' upsert it
 * hash-joined over a scan of the whole table at every save that replaced an item's jobs (a new
 * item's with a frozen job graph, each time), in custom and generic plans alike, until the table
 * grew large enough for the planner to turn the join round. Checked with EXPLAIN ANALYZE of the
 * statements' texts as the code makes them, prepared, with generic plans forced.
 */
import type { Knex } from 'knex';
import { refChange } from '../../../src/model/changes';
import type { ItemState, JobState } from '../../../src/model/pipeline-state';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import { itemSaveStatement, type ItemSave } from '../../../src/store/repositories/item-rows';
import { stateSaveStatement } from '../../../src/store/repositories/state-save';
import { job } from '../../engine/scripted-layout';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { indexOf, walk, type PlanNode } from '../../helpers/query-plans';

jest.setTimeout(120_000);

/** Dequeued items of the history, with `JOBS` job rows each. */
const HISTORY = 2_000;
const JOBS = ['unit', 'lint', 'docs', 'build', 'deploy'];
const TENANT = 'history';
const JOB_INDEX = 'queue_item_jobs_item_job_key';

function jobState(name: string): JobState {
  return {
    ...{ job: job(name), tries: 0, build: null, retryBuilds: [], waitReason: null, waitingStatus: null },
    ...{ nodeRequestId: null, nodesReady: false, nodes: [], semaphoresHeld: [], artifacts: [] },
  };
}

/** A running item whose job graph is frozen with `jobs`. */
function item(uuid: string, jobs: string[]): ItemState {
  return {
    ...{ uuid, pipeline: 'gate', queueName: 'integrated', live: true, active: true, quiet: false },
    changes: [refChange('example.org/p', 'refs/heads/main', null, 'abc')],
    ...{ itemAhead: null, enqueueTime: '2026-01-01T00:00:00.000Z', eventId: null, eventTimestamp: null },
    ...{ triggeredBy: '', reportedStart: false, reported: false, dequeuedNeedingChange: null, failingReasons: [] },
    ...{ firstJobStartTime: null, dequeueTime: null, dequeueReason: null },
    buildset: {
      ...{ uuid: `bs-${uuid}`, historyId: null, configured: true, mergeItems: [], mergeState: 'complete' },
      ...{ files: [], unableToMerge: false, mergeError: null, configError: null, notInPipeline: false },
      ...{ jobGraphFrozen: true, jobs: jobs.map(jobState), failFast: false, result: null, startTime: null },
    },
  };
}

/** `count` dequeued items named `prefix-n`, each with a row per job of `JOBS`. */
async function dequeued(knex: Knex, prefix: string, count: number): Promise<void> {
  await knex.raw(
    `WITH items AS (
       INSERT INTO queue_items (uuid, tenant, pipeline, position, changes, state, enqueue_time, dequeue_time)
       SELECT ? || '-' || g, ?, 'gate', 0, '[]', 'dequeued', now(), now() FROM generate_series(1, ?) AS g
       RETURNING id)
     INSERT INTO queue_item_jobs (item_id, job_name) SELECT items.id, j FROM items, unnest(?::text[]) AS j`,
    [prefix, TENANT, count, JOBS],
  );
}

/** The plan of `sql` run as a prepared statement with a generic plan, rolled back. */
async function genericPlan(knex: Knex, sql: string, bindings: readonly string[]): Promise<PlanNode> {
  let parameter = 0;
  const text = sql.replace(/\?/g, () => `$${++parameter}`);
  expect(parameter).toBe(bindings.length);
  let plan: PlanNode | undefined;
  await knex
    .transaction(async (trx) => {
      await trx.raw(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await trx.raw(`PREPARE item_save AS ${text}`);
      // EXECUTE's arguments as literals: an EXPLAIN takes no parameters of its own.
      const literals = bindings.map((binding) => `'${binding.replace(/'/g, "''")}'`).join(', ');
      const result = await trx.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE item_save(${literals})`);
      plan = (result.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
      await trx.raw(`DEALLOCATE item_save`);
      throw new Error('rolled back');
    })
    .catch((error: Error) => {
      if (error.message !== 'rolled back') {
        throw error;
      }
    });
  return plan as PlanNode;
}

describe.each(backends())('the item save with a long history (%s)', (backend: Backend) => {
  let db: TestDatabase;

  // A database of its own for each case: the statistics are those of its own history.
  beforeEach(async () => {
    db = await createTestDatabase({ backend });
  });

  afterEach(async () => {
    await db?.destroy();
  });

  /**
   * Saves a new item and replaces the jobs of a stored one, through both statements: neither scans
   * a table, and the delete reads the job rows of its items alone through the unique index.
   */
  async function expectIndexedSave(): Promise<void> {
    const repository = new EngineStateRepository(db.knex);
    const stored = item('stored', ['unit', 'lint']);
    await db.knex.transaction((trx) =>
      repository.saveItems(TENANT, [{ queueId: null, position: 0, item: stored }], trx),
    );
    const saves: ItemSave[] = [
      { queueId: null, position: 0, item: item('stored', ['unit', 'docs']) },
      { queueId: null, position: 1, item: item('new', JOBS) },
    ];
    // A pass's save, with the tenant row as usual.
    const record = await repository.loadTenant(TENANT);
    const state = stateSaveStatement(TENANT, {
      items: saves,
      pipelines: [],
      deletedQueueIds: [],
      record,
      at: new Date(),
    });
    if (state === null) {
      throw new Error('a pass with items to save has a statement');
    }
    for (const { sql, bindings } of [itemSaveStatement(TENANT, saves), state]) {
      const nodes = [...walk(await genericPlan(db.knex, sql, bindings))];
      const where = nodes
        .map((node) => `${node['Node Type']} (${node['Relation Name'] ?? node['Index Name'] ?? '-'})`)
        .join(', ');
      const read = (node: PlanNode) => (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0);
      const jobRows = nodes.filter((node) => node.Alias === 'd' && node['Node Type'].endsWith('Scan'));
      expect({ where, seq: nodes.filter((node) => node['Node Type'] === 'Seq Scan').length }).toEqual({
        where,
        seq: 0,
      });
      expect({ where, index: jobRows.map(indexOf) }).toEqual({ where, index: [JOB_INDEX] });
      expect({ where, handful: jobRows.map((node) => read(node) <= JOBS.length) }).toEqual({ where, handful: [true] });
    }
    await db.knex.transaction((trx) => repository.saveItems(TENANT, saves, trx));
    const rows: Array<{ uuid: string; job_name: string }> = await db
      .knex('queue_item_jobs')
      .join('queue_items', 'queue_items.id', 'queue_item_jobs.item_id')
      .whereIn('queue_items.uuid', ['stored', 'new'])
      .orderBy('queue_item_jobs.id')
      .select('uuid', 'job_name');
    expect(rows.map((row) => `${row.uuid} ${row.job_name}`)).toEqual([
      ...['stored unit', 'stored docs'],
      ...JOBS.map((name) => `new ${name}`),
    ]);
    const [{ n }] = await db.knex('queue_item_jobs').count({ n: '*' });
    expect(Number(n)).toBe(HISTORY * JOBS.length + 7);
  }

  it('with statistics of the history, reads only the job rows of the saved items', async () => {
    await dequeued(db.knex, 'old', HISTORY);
    await db.knex.raw('ANALYZE queue_items, queue_item_jobs');
    await expectIndexedSave();
  });

  it("with statistics taken while the table held one item's job rows, reads only those of the saved items", async () => {
    await dequeued(db.knex, 'first', 1);
    await db.knex.raw('ANALYZE queue_items, queue_item_jobs');
    await dequeued(db.knex, 'old', HISTORY - 1);
    await expectIndexedSave();
  });
});
