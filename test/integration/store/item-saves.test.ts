/**
 * An item's save writes only the parts of its rows that changed (src/store/repositories/item-rows.ts):
 * its merge list only when it was prepared again, a job's row only when that job changed, and
 * its job rows replaced when its jobs are others. The scheduler asks for exactly the parts a
 * pass changed (src/engine/scheduler/tenant-state.ts), and an item stored before its merge list
 * had a column of its own loads with it. A pass's save writes items, pipelines, deleted queues and
 * the tenant row in one statement (src/store/repositories/state-save.ts).
 */
import type { ItemState } from '../../../src/model/pipeline-state';
import { migrateLatest, migrateUpTo } from '../../../src/store/migrate';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import type { ItemSave } from '../../../src/store/repositories/item-rows';
import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline } from '../../engine/scripted-layout';
import { backends, createTestDatabase } from '../../helpers/database';

describe('store: item saves', () => {
  const scenarios = engineScenarios();

  /** A gate of two changes whose builds run: items with a merge list and two jobs. */
  async function runningGate() {
    const h = await scenarios.harness({
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
    });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await h.settle();
    return h;
  }

  async function storedItems(tenant: string): Promise<ItemState[]> {
    const [gate] = await new EngineStateRepository(scenarios.db.knex).loadPipelines(tenant);
    return gate.queues.flatMap((queue) => queue.items);
  }

  /** Row id and row version of each job row of an item, by job name. */
  async function jobRows(uuid: string): Promise<Record<string, { id: number; version: string }>> {
    const knex = scenarios.db.knex;
    const rows: Array<{ job_name: string; id: string; version: string }> = await knex('queue_item_jobs')
      .join('queue_items', 'queue_items.id', 'queue_item_jobs.item_id')
      .where('queue_items.uuid', uuid)
      .select('job_name', 'queue_item_jobs.id', knex.raw('queue_item_jobs.xmin::text as version'));
    return Object.fromEntries(rows.map((row) => [row.job_name, { id: Number(row.id), version: row.version }]));
  }

  async function save(tenant: string, item: ItemState, stale: ItemSave['stale']): Promise<void> {
    const [{ queue_id: queueId, position }] = await scenarios.db
      .knex('queue_items')
      .where({ uuid: item.uuid })
      .select('queue_id', 'position');
    await scenarios.db.knex.transaction((trx) =>
      new EngineStateRepository(scenarios.db.knex).saveItems(
        tenant,
        [{ queueId: Number(queueId), position, item, stale }],
        trx,
      ),
    );
  }

  it('keeps the stored merge list and the rows of unchanged jobs', async () => {
    const h = await runningGate();
    await h.stop();
    const [, second] = await storedItems(h.tenant);
    expect(second.buildset.mergeItems.map((merge) => merge.number)).toEqual([1, 2]);
    const before = await jobRows(second.uuid);
    second.buildset.mergeItems = [];
    second.quiet = true;
    second.buildset.jobs[1].tries = 7;
    await save(h.tenant, second, { mergeItems: false, jobs: new Set() });
    const [, kept] = await storedItems(h.tenant);
    expect(kept.quiet).toBe(true);
    expect(kept.buildset.mergeItems.map((merge) => merge.number)).toEqual([1, 2]);
    expect(kept.buildset.jobs[1].tries).toBe(1);
    expect(await jobRows(second.uuid)).toEqual(before);

    await save(h.tenant, second, { mergeItems: true, jobs: new Set(['lint']) });
    const [, written] = await storedItems(h.tenant);
    expect(written.buildset.mergeItems).toEqual([]);
    expect(written.buildset.jobs.map((state) => [state.job.name, state.tries])).toEqual([
      ['unit', 1],
      ['lint', 7],
    ]);
    const after = await jobRows(second.uuid);
    expect(after.unit).toEqual(before.unit);
    expect(after.lint.id).toBe(before.lint.id);
    expect(after.lint.version).not.toBe(before.lint.version);
  });

  it('replaces the job rows of an item whose jobs are others, a job of the same name included', async () => {
    const h = await runningGate();
    await h.stop();
    const [first] = await storedItems(h.tenant);
    const [unit, lint] = first.buildset.jobs;
    const docs = { ...structuredClone(unit), job: { ...unit.job, name: 'docs' } };
    first.buildset.jobs = [lint, docs];
    await save(h.tenant, first, undefined);
    const [replaced] = await storedItems(h.tenant);
    expect(replaced.buildset.jobs.map((state) => state.job.name)).toEqual(['lint', 'docs']);
    expect(Object.keys(await jobRows(first.uuid)).sort()).toEqual(['docs', 'lint']);
  });

  it('writes dequeued items, a new one included, with their queue deleted in the same statement', async () => {
    const h = await runningGate();
    await h.stop();
    const knex = scenarios.db.knex;
    const repository = new EngineStateRepository(knex);
    const [first, second] = await storedItems(h.tenant);
    const [{ queue_id: queueId }] = await knex('queue_items').where({ uuid: first.uuid }).select('queue_id');
    const queue = Number(queueId);
    // A change enqueued into the queue and dequeued in the same pass: its row is new.
    const added: ItemState = { ...structuredClone(second), uuid: `${second.uuid}-added` };
    const at = new Date();
    for (const item of [first, added]) {
      item.dequeueTime = at.toISOString();
      item.dequeueReason = { kind: 'dequeued-by-admin', by: null };
    }
    const record = await repository.loadTenant(h.tenant);
    record.busSequence += 5;
    await knex.transaction((trx) =>
      repository.saveChanges(
        h.tenant,
        {
          items: [first, added].map((item) => ({ queueId: queue, position: 0, item })),
          pipelines: [],
          deletedQueueIds: [queue],
          record,
          at,
        },
        trx,
      ),
    );
    expect(await knex('change_queues').where({ id: queue })).toEqual([]);
    const rows: Array<{ uuid: string; queue_id: unknown; state: string }> = await knex('queue_items')
      .whereIn('uuid', [first.uuid, second.uuid, added.uuid])
      .orderBy('id')
      .select('uuid', 'queue_id', 'state');
    // The item not written lost its queue to the delete (migration 0006), the others were written without.
    expect(rows).toEqual([
      { uuid: first.uuid, queue_id: null, state: 'dequeued' },
      { uuid: second.uuid, queue_id: null, state: expect.any(String) },
      { uuid: added.uuid, queue_id: null, state: 'dequeued' },
    ]);
    expect((await repository.loadTenant(h.tenant)).busSequence).toBe(record.busSequence);
  });

  it("writes a pipeline's counters and the order and windows of its queues with the items", async () => {
    const h = await runningGate();
    await h.stop();
    const repository = new EngineStateRepository(scenarios.db.knex);
    const [gate] = await repository.loadPipelines(h.tenant);
    const [queue] = gate.queues;
    gate.state = 'error';
    gate.disabled = true;
    gate.consecutiveFailures = 3;
    queue.window = 7;
    queue.params = { ...queue.params, floor: 2, ceiling: 9 };
    const [first] = queue.items;
    first.quiet = true;
    await scenarios.db.knex.transaction((trx) =>
      repository.saveChanges(
        h.tenant,
        {
          items: [{ queueId: queue.id, position: 0, item: first }],
          pipelines: [gate],
          deletedQueueIds: [],
          record: null,
          at: new Date(),
        },
        trx,
      ),
    );
    const [stored] = await repository.loadPipelines(h.tenant);
    expect(stored).toMatchObject({ state: 'error', disabled: true, consecutiveFailures: 3 });
    expect(stored.queues.map(({ id, window, params }) => ({ id, window, params }))).toEqual([
      { id: queue.id, window: 7, params: queue.params },
    ]);
    expect(stored.queues[0].items[0].quiet).toBe(true);
  });

  it('has a pass write only the jobs it changed, and the merge list only when the item is prepared', async () => {
    const h = await runningGate();
    const saves: ItemSave[] = [];
    const original = EngineStateRepository.prototype.saveChanges;
    const saveChanges = jest.spyOn(EngineStateRepository.prototype, 'saveChanges').mockImplementation(function (
      this: EngineStateRepository,
      tenant,
      changes,
      trx,
    ) {
      saves.push(...changes.items);
      return original.call(this, tenant, changes, trx);
    });
    try {
      const [params] = h.executor.find('lint', 2);
      await h.executor.complete(params.buildUuid, { result: 'SUCCESS' });
      await h.settle();
    } finally {
      saveChanges.mockRestore();
    }
    const second = saves.filter((entry) => entry.item.changes[0].number === 2);
    expect(second.length).toBeGreaterThan(0);
    for (const entry of second) {
      expect(entry.stale?.mergeItems).toBe(false);
      expect([...(entry.stale?.jobs ?? [])]).toEqual(['lint']);
    }
    const [, stored] = await storedItems(h.tenant);
    expect(stored.buildset.jobs.map((state) => state.build?.result ?? null)).toEqual([null, 'SUCCESS']);
  });

  it('updates the rows of an item in place where the table is full (room is left on each page, 0037)', async () => {
    const h = await runningGate();
    await h.stop();
    const [, second] = await storedItems(h.tenant);
    const knex = scenarios.db.knex;
    const repository = new EngineStateRepository(knex);
    const [{ queue_id: queueId }] = await knex('queue_items').where({ uuid: second.uuid }).select('queue_id');
    // Enough items, written one after another, to fill several pages of both tables.
    const copies = Array.from({ length: 24 }, (_, index) => ({
      ...structuredClone(second),
      uuid: `copy-${index}`,
      buildset: { ...structuredClone(second.buildset), uuid: `copy-buildset-${index}` },
    }));
    await knex.transaction((trx) =>
      repository.saveItems(
        h.tenant,
        copies.map((item, index) => ({ queueId: Number(queueId), position: 10 + index, item })),
        trx,
      ),
    );
    const copy = copies[8];
    /** The pages holding the copy's item row and its job rows. */
    const pages = async (): Promise<string[]> => {
      const rows: Array<{ page: string }> = await knex
        .select(knex.raw(`(ctid::text::point)[0]::int::text AS page`))
        .from('queue_items')
        .where({ uuid: copy.uuid })
        .unionAll((union) =>
          union
            .select(knex.raw(`(j.ctid::text::point)[0]::int::text`))
            .from('queue_item_jobs as j')
            .join('queue_items as i', 'i.id', 'j.item_id')
            .where('i.uuid', copy.uuid),
        );
      return rows.map((row) => row.page);
    };
    const before = await pages();
    copy.quiet = true;
    copy.buildset.jobs[0].tries = 2;
    copy.buildset.jobs[1].tries = 2;
    await knex.transaction((trx) =>
      repository.saveItems(
        h.tenant,
        [
          {
            queueId: Number(queueId),
            position: 18,
            item: copy,
            stale: { mergeItems: false, jobs: new Set(['unit', 'lint']) },
          },
        ],
        trx,
      ),
    );
    // Updated in place (HOT: no index entry written), each row version on its page.
    expect(await pages()).toEqual(before);
  });
});

describe.each(backends())('store on %s: items stored before 0034', (backend) => {
  it('loads an item whose merge list was in its data, with that list', async () => {
    const db = await createTestDatabase({ backend, migrate: false });
    try {
      await migrateUpTo(db.knex, '0033-engine-events-retention');
      const mergeItem = {
        project: 'example.com/org/project',
        branch: 'main',
        ref: 'refs/changes/1',
        number: 1,
        patchset: '1',
        oldrev: null,
        newrev: 'abc',
        connection: 'git',
        mergeMode: 'merge',
        buildsetUuid: 'b1',
      };
      await db.knex('queue_items').insert({
        uuid: 'i1',
        tenant: 't',
        pipeline: 'gate',
        position: 0,
        changes: JSON.stringify([]),
        enqueue_time: new Date(),
        dequeue_time: new Date(),
        data: JSON.stringify({ uuid: 'i1', buildset: { uuid: 'b1', mergeItems: [mergeItem] } }),
      });
      await migrateLatest(db.knex);
      const [row] = await db.knex('queue_items').where({ uuid: 'i1' }).select('data', 'merge_items');
      expect(row.merge_items).toEqual([mergeItem]);
      expect(row.data).toEqual({ uuid: 'i1', buildset: { uuid: 'b1' } });
    } finally {
      await db.destroy();
    }
  });
});
