/**
 * A load of a tenant's pipelines outside a transaction reads its queued items in one snapshot
 * (src/store/repositories/engine-state.ts, `loadPipelines`): the items' index and their rows are
 * two statements (src/store/repositories/queued-items.ts), and a pass committing a dequeue between
 * them failed the load with "queued item ... was not read" (seen in CI, a randomized gate test).
 * Here the dequeue is committed right after the index read, on both stores: on PostgreSQL through
 * another connection before the load goes on, on PGlite queued for its one connection ahead of
 * the load's next statement.
 */
import type { Knex } from 'knex';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';

/**
 * `knex` (and its transactions) running `afterFirst` once the first read of `table` through it
 * answered, before the caller sees that answer.
 */
function afterFirstRead(knex: Knex, table: string, afterFirst: () => Promise<void>): Knex {
  let done = false;
  const watch = <T extends Knex>(target: T): T =>
    new Proxy(target, {
      apply(callee, self, args: unknown[]) {
        const builder = Reflect.apply(callee, self, args) as Knex.QueryBuilder;
        if (done || args[0] !== table) {
          return builder;
        }
        done = true;
        const then = builder.then.bind(builder);
        return Object.assign(builder, {
          then: (resolve: (rows: unknown) => unknown, reject: (error: unknown) => unknown) =>
            then(async (rows: unknown) => {
              await afterFirst();
              return rows;
            }).then(resolve, reject),
        });
      },
      get(object, property, receiver) {
        if (property === 'transaction') {
          return (work: (trx: Knex.Transaction) => Promise<unknown>, config?: Knex.TransactionConfig) =>
            object.transaction((trx) => work(watch(trx)), config);
        }
        return Reflect.get(object, property, receiver) as unknown;
      },
    });
  return watch(knex);
}

describe.each(backends())('a load of queued items outside a transaction (%s)', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('reads the index and the rows in one snapshot while a dequeue commits between them', async () => {
    const h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('unit')] } },
      }),
    );
    await h.start();
    try {
      h.changes.add('org/project', 1);
      h.changes.add('org/project', 2);
      await h.patchsetCreated('org/project', 1);
      await h.patchsetCreated('org/project', 2);
      await h.settle();
    } finally {
      await h.stop();
    }
    const [first] = await db.knex('queue_items').where({ tenant: h.tenant }).orderBy('id').select('uuid');
    let dequeue: Promise<unknown> | null = null;
    const knex = afterFirstRead(db.knex, 'queue_items', async () => {
      // Sent now (a builder runs once asked for its result); on PGlite it waits for the one connection.
      dequeue = db
        .knex('queue_items')
        .where({ uuid: first.uuid })
        .update({ dequeue_time: new Date() })
        .then((count) => count);
      if (backend === 'postgres') {
        await dequeue; // committed before the load's next statement
      }
    });
    const pipelines = await new EngineStateRepository(knex).loadPipelines(h.tenant);
    await dequeue;
    expect(dequeue).not.toBeNull();
    const items = pipelines.flatMap((state) => state.queues.flatMap((queue) => queue.items));
    // As the snapshot began: both items, the first not yet dequeued.
    expect(items.map((item) => item.changes[0].number)).toEqual([1, 2]);
    const dequeued = await db.knex('queue_items').where({ uuid: first.uuid }).first('dequeue_time');
    expect(dequeued?.dequeue_time).not.toBeNull();
  });
});
