/**
 * Event ids (docs/gating.md#event-ids): trigger events and admin enqueues get a 32-hex id when
 * stored, kept when they already have one; other events get none.
 */
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

describe('engine event ids', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('gives enqueuing events an id when they are stored', async () => {
    const events = new EngineEventRepository(db.knex);
    const created = new Date('2026-01-01T00:00:00Z');
    const project = 'git.example.local/example/hello';
    await events.append({
      tenant: 'ids',
      created,
      event: { type: 'patchset-created', project, change: 1, patchset: '1' },
    });
    await events.append({
      tenant: 'ids',
      created,
      event: { type: 'timer', project, pipeline: 'periodic', eventId: 'kept' },
    });
    await events.append({
      tenant: 'ids',
      created,
      event: { type: 'enqueue', pipeline: 'gate', project, change: 1, by: null },
    });
    await events.append({
      tenant: 'ids',
      created,
      event: { type: 'dequeue', pipeline: 'gate', project, change: 1, by: null },
    });
    await events.append({ tenant: 'ids', created, event: { type: 'build-started', buildUuid: 'b', startTime: 'now' } });
    const pending = await events.pending('ids', 10);
    const ids = pending.map((record) =>
      record.valid && 'eventId' in record.event ? (record.event.eventId ?? null) : null,
    );
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[1]).toBe('kept');
    expect(ids[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[2]);
    expect(ids.slice(3)).toEqual([null, null]);
  });
});
