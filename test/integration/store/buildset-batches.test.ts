/**
 * A pass's buildset starts in one statement (docs/gating.md#build-history), with ids reserved
 * ahead: refs shared by several buildsets of the batch or already stored are found, not inserted
 * again; each buildset gets its given id, its ref links and its `triggered` event; and on
 * PostgreSQL a ref inserted by another transaction while the statement ran is found by the
 * one-at-a-time fallback.
 */
import type { Knex } from 'knex';
import {
  createBuildsets,
  reserveHistoryIds,
  type BatchedBuildsetCreation,
} from '../../../src/store/repositories/history-batches';
import { RefRepository, toNewRefRow, type NewRef } from '../../../src/store/repositories/refs';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const AT = new Date('2026-11-30T02:00:00Z');

function change(number: number, refUrl = `https://review.example.com/${number}`): NewRef {
  return {
    project: 'org/project',
    projectCanonical: 'review.example.com/org/project',
    ref: `refs/changes/0${number}/${number}/1`,
    refUrl,
    change: number,
    patchset: '1',
    oldrev: null,
    newrev: null,
    branch: 'main',
  };
}

async function creations(knex: Knex, refSets: NewRef[][]): Promise<BatchedBuildsetCreation[]> {
  const ids = (await reserveHistoryIds(knex, { builds: 0, buildsets: refSets.length })).buildsets;
  return refSets.map((refs, index) => ({
    id: ids[index],
    uuid: `bs-${ids[index]}`,
    tenant: 't1',
    pipeline: 'gate',
    eventId: index === 0 ? 'event-1' : null,
    eventTimestamp: index === 0 ? AT : null,
    refs,
    triggeredBy: `Triggered by change ${index}`,
    at: AT,
  }));
}

async function refId(knex: Knex, number: number): Promise<number> {
  const row = await knex('refs').where({ change: number }).first('id');
  return Number(row.id);
}

describe.each(backends())('buildsets created in one statement on %s', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('reserves as many build and buildset ids as asked, in one statement', async () => {
    const taken = await reserveHistoryIds(db.knex, { builds: 3, buildsets: 1 });
    expect(taken.builds).toHaveLength(3);
    expect(taken.buildsets).toHaveLength(1);
    expect([...taken.builds].sort((a, b) => a - b)).toEqual(taken.builds);
    const next = await reserveHistoryIds(db.knex, { builds: 0, buildsets: 2 });
    expect(next.builds).toEqual([]);
    expect(next.buildsets[0]).toBeGreaterThan(taken.buildsets[0]);
  });

  it('writes the buildsets with their refs, links and events, each distinct ref once', async () => {
    // A ref stored before keeps its URL; a ref new to the batch keeps its first occurrence's.
    const stored = await new RefRepository(db.knex).getOrCreate(change(3, 'https://old.example.com/3'));
    const batch = await creations(db.knex, [
      [change(1)],
      [change(2), change(1, 'https://other.example.com/1')],
      [change(3), change(3)],
    ]);
    const written = await db.knex.transaction((trx) => createBuildsets(trx, batch));

    const [one, two, three] = [await refId(db.knex, 1), await refId(db.knex, 2), stored.id];
    expect(one).toBeLessThan(two);
    expect(written.map((created) => created.refIds)).toEqual([[one], [two, one], [three, three]]);
    expect(written.map((created) => created.record.id)).toEqual(batch.map((creation) => creation.id));
    expect(written[0].record).toMatchObject({
      uuid: batch[0].uuid,
      tenant: 't1',
      pipeline: 'gate',
      eventId: 'event-1',
      eventTimestamp: AT,
      created: AT,
      updated: AT,
      result: null,
    });
    expect(await db.knex('refs').orderBy('id').select('change', 'ref_url')).toEqual([
      { change: 3, ref_url: 'https://old.example.com/3' },
      { change: 1, ref_url: 'https://review.example.com/1' },
      { change: 2, ref_url: 'https://review.example.com/2' },
    ]);
    const links = await db.knex('buildset_refs').orderBy(['buildset_id', 'ref_id']).select('buildset_id', 'ref_id');
    expect(links.map((link) => [Number(link.buildset_id), Number(link.ref_id)])).toEqual([
      [batch[0].id, one],
      [batch[1].id, one],
      [batch[1].id, two],
      [batch[2].id, three],
    ]);
    const events = await db.knex('buildset_events').orderBy('id').select('buildset_id', 'event_type', 'description');
    expect(events.map((event) => [Number(event.buildset_id), event.event_type, event.description])).toEqual(
      batch.map((creation, index) => [creation.id, 'triggered', `Triggered by change ${index}`]),
    );
  });

  if (backend === 'postgres') {
    it('finds a ref another transaction inserted while the statement ran', async () => {
      const other = await db.knex.transaction();
      const [raced] = await other('refs')
        .insert(toNewRefRow(change(10)))
        .returning('id');
      const batch = await creations(db.knex, [[change(11), change(10)]]);
      const pending = db.knex.transaction((trx) => createBuildsets(trx, batch));
      // The statement has its snapshot and waits for the other transaction's ref.
      await waitFor(async () => {
        const waiting = await db.knex.raw(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'WITH r AS%'`,
        );
        return (waiting.rows as Array<{ n: number }>)[0].n === 1;
      });
      await other.commit();
      const [created] = await pending;
      expect(created.refIds).toEqual([await refId(db.knex, 11), Number(raced.id)]);
      const links = await db.knex('buildset_refs').where({ buildset_id: batch[0].id }).orderBy('ref_id');
      expect(links.map((link) => Number(link.ref_id))).toEqual([...created.refIds].sort((a, b) => a - b));
      expect(await db.knex('buildset_events').where({ buildset_id: batch[0].id }).select('event_type')).toEqual([
        { event_type: 'triggered' },
      ]);
    });
  }
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in 10 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
