/**
 * Group commit of engine events (docs/gating.md#performance): appends made at the same time
 * outside a transaction are written by one multi-row insert, each caller getting its own id once
 * it committed (or the statement's error); appends in a caller's transaction keep their own
 * statement. Run on both stores.
 */
import type { Knex } from 'knex';
import { StatementCounter } from '../../../bench/statement-counter';
import type { ResultEvent } from '../../../src/model/engine-events';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const created = new Date('2026-01-01T00:00:00Z');

function started(buildUuid: string): ResultEvent {
  return { type: 'build-started', buildUuid, startTime: created.toISOString() };
}

describe.each(backends())('engine event group commit (%s)', (backend) => {
  let db: TestDatabase;
  let events: EngineEventRepository;
  let counter: StatementCounter;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    events = new EngineEventRepository(db.knex);
    counter = new StatementCounter(db.knex);
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function stored(tenant: string): Promise<Array<{ id: number; buildUuid: unknown }>> {
    return (await events.list(tenant, 'result')).map((row) => ({ id: row.id, buildUuid: row.payload.buildUuid }));
  }

  function inserts(): number {
    return counter.perItem(1).find(([kind]) => kind === 'insert engine_events')?.[1] ?? 0;
  }

  it('writes appends made together in one statement, each caller with its own id, in call order', async () => {
    const uuids = ['a', 'b', 'c', 'd', 'e'];
    counter.start();
    const ids = await Promise.all(
      uuids.map((uuid) => events.append({ tenant: 'together', event: started(uuid), created })),
    );
    counter.stop();
    expect(inserts()).toBe(1);
    expect(new Set(ids).size).toBe(uuids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(await stored('together')).toEqual(uuids.map((uuid, index) => ({ id: ids[index], buildUuid: uuid })));
  });

  it('writes appends that arrive while a statement is out together in the next one', async () => {
    const later: Array<Promise<number>> = [];
    const onQuery = (query: { sql: string }) => {
      if (later.length === 0 && /^insert into engine_events\b/i.test(query.sql)) {
        for (const uuid of ['y', 'z', 'w']) {
          later.push(events.append({ tenant: 'meanwhile', event: started(uuid), created }));
        }
      }
    };
    db.knex.on('query', onQuery);
    counter.start();
    const first = await events.append({ tenant: 'meanwhile', event: started('x'), created });
    const rest = await Promise.all(later);
    counter.stop();
    db.knex.removeListener('query', onQuery);
    expect(inserts()).toBe(2);
    expect(await stored('meanwhile')).toEqual([
      { id: first, buildUuid: 'x' },
      ...['y', 'z', 'w'].map((uuid, index) => ({ id: rest[index], buildUuid: uuid })),
    ]);
  });

  it('fails every append of a statement that failed, and stores none of them', async () => {
    const outcomes = await Promise.allSettled([
      events.append({ tenant: 'failing', event: started('good'), created }),
      // A tenant the column refuses (NOT NULL): the statement fails as a whole.
      events.append({ tenant: null as unknown as string, event: started('bad'), created }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await stored('failing')).toEqual([]);
    // The next append is written on its own, unaffected.
    const id = await events.append({ tenant: 'failing', event: started('after'), created });
    expect(await stored('failing')).toEqual([{ id, buildUuid: 'after' }]);
  });

  it("keeps a caller's transaction: its appends made together are still one statement each", async () => {
    counter.start();
    await db.knex.transaction(async (trx: Knex.Transaction) => {
      await Promise.all(
        ['t1', 't2'].map((uuid) => events.append({ tenant: 'in-trx', event: started(uuid), created }, trx)),
      );
    });
    counter.stop();
    expect(inserts()).toBe(2);
    expect((await stored('in-trx')).map((row) => row.buildUuid)).toEqual(['t1', 't2']);
  });
});
