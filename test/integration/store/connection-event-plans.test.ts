/**
 * The reads of stored connection events (docs/gerrit.md#events-missed-while-no-stream-listened:
 * where a catch-up starts, a project's stored branch heads, the `ref-updated` events stored
 * since) use indexes: by connection and type the one of migration 0030, by connection alone the
 * unique (connection, delivery) one. With another connection's many newer events and many events
 * of other types beside them, no plan scans the table or reads and drops those rows.
 */
import { ConnectionEventRepository } from '../../../src/store/repositories/connection-events';
import { backends, createTestDatabase, type Backend, type TestDatabase } from '../../helpers/database';
import { captureQueries, explainPlan, walk } from '../../helpers/query-plans';

jest.setTimeout(240_000);

const OTHER_ROWS = 8_000;

describe.each(backends())('connection event reads (%s)', (backend: Backend) => {
  let db: TestDatabase;
  let headsId = 0;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    const fill = (connection: string, type: string, count: number, payload: string) =>
      db.knex.raw(
        `INSERT INTO connection_events (connection, delivery, event_type, payload, received_at)
         SELECT ?, md5(? || ? || g), ?, ?::jsonb, now() FROM generate_series(1, ?) AS g`,
        [connection, connection, type, type, payload, count],
      );
    await fill('gerrit', 'sluice-branch-heads', 1, '{"project":"org/app","heads":{}}');
    headsId = Number((await db.knex('connection_events').max('id as id'))[0].id);
    await fill('gerrit', 'comment-added', OTHER_ROWS, '{"type":"comment-added"}');
    await fill('gerrit', 'ref-updated', 3, '{"type":"ref-updated","refUpdate":{"project":"org/app"}}');
    // A connection with few events, older than another connection's many.
    await fill('review', 'patchset-created', 300, '{"type":"patchset-created"}');
    await fill('github', 'push', OTHER_ROWS, '{"ref":"refs/heads/main"}');
    await db.knex.raw('ANALYZE connection_events');
  });

  afterAll(async () => {
    await db?.destroy();
  });

  async function expectIndexed(action: () => Promise<unknown>): Promise<void> {
    const queries = (await captureQueries(db.knex, action)).filter((q) => /from "connection_events"/i.test(q.sql));
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      for (const node of walk(await explainPlan(db.knex, query))) {
        if (node['Relation Name'] !== 'connection_events') {
          continue;
        }
        const where = `${node['Node Type']} (${node['Index Name'] ?? 'no index'}) in\n${query.sql}`;
        expect({ where, seq: node['Node Type'] }).not.toEqual({ where, seq: 'Seq Scan' });
        expect({ where, dropped: (node['Rows Removed by Filter'] ?? 0) < OTHER_ROWS / 2 }).toEqual({
          where,
          dropped: true,
        });
      }
    }
  }

  it('reads by connection and type through an index', async () => {
    const events = new ConnectionEventRepository(db.knex);
    await expectIndexed(() => events.newestOfProject('gerrit', 'sluice-branch-heads', 'org/app'));
    await expectIndexed(() => events.payloadsAfter('gerrit', 'ref-updated', headsId));
    expect(await events.payloadsAfter('gerrit', 'ref-updated', headsId)).toHaveLength(3);
    expect((await events.newestOfProject('gerrit', 'sluice-branch-heads', 'org/app'))?.id).toBe(headsId);
  });

  it('reads the newest of a connection through an index, the newer rows of another connection left alone', async () => {
    const events = new ConnectionEventRepository(db.knex);
    await expectIndexed(() => events.recentPayloads('review', 200));
    expect(await events.recentPayloads('review', 200)).toHaveLength(200);
  });
});
