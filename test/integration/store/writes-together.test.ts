/**
 * Writes sent together (src/store/writes-together.ts, docs/gating.md#performance): a pass's
 * events' outcomes, work rows, system events and a build id top-up go as one statement, each
 * write done as it is on its own; too many parameters make more statements; the build id reserve
 * is filled up for the next pass with twice what the last one took.
 */
import { BuildIdReserve } from '../../../src/engine/history-writer';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { historyIdsQuery, readHistoryIds, type HistoryIdRow } from '../../../src/store/repositories/history-batches';
import { SystemEventRepository } from '../../../src/store/repositories/system-events';
import { writeTogether } from '../../../src/store/writes-together';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const AT = new Date('2026-11-30T05:00:00Z');

describe.each(backends())('writes sent together on %s', (backend) => {
  let db: TestDatabase;
  let statements: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    db.knex.on('query', (query: { sql: string }) => {
      statements.push(query.sql);
    });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('sends writes and a closing query as one statement, each write done', async () => {
    const tenant = `together-${backend}`;
    const events = new EngineEventRepository(db.knex);
    const first = await events.append({ tenant, event: { type: 'reconfigure' }, created: AT });
    const second = await events.append({ tenant, event: { type: 'reconfigure' }, created: AT });
    const data = { builds: ['a', 'b'], depth: { n: 1 } };
    statements = [];
    const rows = await db.knex.transaction((trx) =>
      writeTogether<HistoryIdRow>(
        trx,
        [
          events.outcomesWrite(
            [
              { id: first, outcome: 'ok' },
              { id: second, outcome: 'discarded' },
            ],
            AT,
          ),
          null,
          new EngineWorkRepository(trx).createWrite(
            tenant,
            [{ kind: 'report', payload: { item: 'i1', list: [1] } }],
            AT,
          ),
          new SystemEventRepository(trx).recordManyWrite([
            { tenant, eventType: 'flaky-retry', description: 'retried', eventTime: AT, data },
          ]),
        ],
        historyIdsQuery({ builds: 2, buildsets: 1 }),
      ),
    );
    expect(statements.filter((sql) => !/^(begin|commit)/i.test(sql))).toHaveLength(1);
    const ids = readHistoryIds(rows);
    expect([ids.builds.length, ids.buildsets.length]).toEqual([2, 1]);
    const marked = await db.knex('engine_events').whereIn('id', [first, second]).orderBy('id');
    expect(marked.map((row: { outcome: string; processed: Date }) => [row.outcome, row.processed.getTime()])).toEqual([
      ['ok', AT.getTime()],
      ['discarded', AT.getTime()],
    ]);
    const work = await db.knex('engine_work').where({ tenant });
    expect(
      work.map((row: { kind: string; state: string; payload: unknown }) => [row.kind, row.state, row.payload]),
    ).toEqual([['report', 'requested', { item: 'i1', list: [1] }]]);
    const system = await db.knex('system_events').where({ tenant });
    expect(system.map((row: { event_type: string; data: unknown }) => [row.event_type, row.data])).toEqual([
      ['flaky-retry', data],
    ]);
  });

  it('serialises the plain data behind each object of a work payload, not its proxy', async () => {
    // A scheduler pass hands parts of its tracked items (src/engine/scheduler/item-changes.ts):
    // every read through their proxies costs a trap; `plain` gives the data behind them.
    const tenant = `plain-payload-${backend}`;
    const targets = new WeakMap<object, object>();
    const trapped: PropertyKey[] = [];
    const behindProxy = <T extends object>(target: T): T => {
      const proxy = new Proxy(target, {
        get: (object, key, receiver) => {
          trapped.push(key);
          return Reflect.get(object, key, receiver) as unknown;
        },
      });
      targets.set(proxy, target);
      return proxy;
    };
    const items = behindProxy([{ project: 'org/app', change: 1 }, behindProxy({ project: 'org/lib', change: 2 })]);
    const write = new EngineWorkRepository(db.knex).createWrite(
      tenant,
      [{ kind: 'speculative-merge', payload: { buildsetUuid: 'b1', items } }],
      AT,
      (value) => targets.get(value) ?? value,
    );
    await writeTogether(db.knex, [write]);
    // JSON looks for `toJSON` on each value before the replacer sees it: one read of each proxy.
    expect(trapped).toEqual(['toJSON', 'toJSON']);
    const [row] = await db.knex('engine_work').where({ tenant });
    expect((row as { payload: unknown }).payload).toEqual({
      buildsetUuid: 'b1',
      items: [
        { project: 'org/app', change: 1 },
        { project: 'org/lib', change: 2 },
      ],
    });
  });

  it('makes more statements than one when the parameters would pass the limit', async () => {
    const events = new EngineEventRepository(db.knex);
    // 10,000 outcomes are 20,001 parameters each: two of them do not fit in one statement.
    const outcomes = (from: number) =>
      Array.from({ length: 10_000 }, (_, index) => ({ id: from + index, outcome: 'ok' }));
    statements = [];
    await writeTogether(db.knex, [events.outcomesWrite(outcomes(1e9), AT), events.outcomesWrite(outcomes(2e9), AT)]);
    expect(statements).toHaveLength(2);
    await expect(writeTogether(db.knex, [{ sql: 'WITH x AS (SELECT 1) SELECT 1', bindings: [] }])).rejects.toThrow(
      /may not start with WITH/,
    );
  });

  it('fills the build id reserve up to twice what was taken since the last top-up', async () => {
    const reserve = new BuildIdReserve(4);
    const take = async (count: number) => {
      const ids: number[] = [];
      for (let index = 0; index < count; index += 1) {
        ids.push(await reserve.take(db.knex));
      }
      return ids;
    };
    statements = [];
    const taken = await take(10); // three refills of a block
    expect(statements).toHaveLength(3);
    const topUp = reserve.topUp();
    expect(topUp).not.toBeNull();
    topUp?.receive(await writeTogether<HistoryIdRow>(db.knex, [], topUp.query));
    statements = [];
    const next = await take(20);
    expect(statements).toHaveLength(0);
    expect(new Set([...taken, ...next]).size).toBe(30);
    expect(next).toEqual([...next].sort((a, b) => a - b));
    expect(next[0]).toBeGreaterThan(taken[taken.length - 1]);
    // Twice the 20 taken since; then nothing more until ids are taken.
    const again = reserve.topUp();
    const rows = again === null ? [] : await writeTogether<HistoryIdRow>(db.knex, [], again.query);
    expect(readHistoryIds(rows).builds).toHaveLength(40);
    again?.receive(rows);
    expect(reserve.topUp()).toBeNull();
  });
});
