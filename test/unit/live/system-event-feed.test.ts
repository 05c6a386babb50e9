/** SystemEventFeed: every event once, in order, across pages, late commits and slow consumers (in-memory table). */
import type { SystemEventRecord } from '../../../src/store/repositories/system-events';
import type { SystemEventItem } from '../../../schema/infra/live-feeds';
import { SystemEventFeed, type SystemEventStore } from '../../../subscriptions/live/system-event-feed';

/** A system_events table whose rows can be inserted invisible (transaction not committed yet). */
class MemoryEvents implements SystemEventStore {
  private readonly rows: Array<SystemEventRecord & { visible: boolean }> = [];
  reads: number[] = [];

  insert(tenant: string, visible = true): number {
    const id = this.rows.length + 1;
    this.rows.push({
      id,
      eventId: `e${id}`,
      tenant,
      eventType: 'enqueued',
      eventTime: new Date(0),
      description: `event ${id}`,
      data: null,
      visible,
    });
    return id;
  }

  commit(id: number): void {
    const row = this.rows[id - 1];
    if (row) {
      row.visible = true;
    }
  }

  async listAfter(afterId: number, limit: number): Promise<SystemEventRecord[]> {
    this.reads.push(afterId);
    return this.rows.filter((row) => row.visible && row.id > afterId).slice(0, limit);
  }

  async latestId(): Promise<number> {
    return this.rows.length;
  }
}

/** Ids of the events queued so far (without waiting for more). */
async function drain(iterator: AsyncIterableIterator<SystemEventItem>, count: number): Promise<Array<number | string>> {
  const ids: Array<number | string> = [];
  for (let index = 0; index < count; index += 1) {
    const next = await iterator.next();
    if (next.done) {
      break;
    }
    ids.push(next.value.kind === 'event' ? next.value.tick.record.id : next.value.kind);
  }
  return ids;
}

describe('SystemEventFeed', () => {
  let table: MemoryEvents;
  let now: number;
  let feed: SystemEventFeed;

  beforeEach(() => {
    table = new MemoryEvents();
    now = 0;
    feed = new SystemEventFeed(table, { pageSize: 200, holeGraceMs: 1000, pollIntervalMs: 60_000 }, () => now);
  });

  afterEach(() => {
    feed.close();
  });

  it('delivers every event of the tenant after subscribing, in order, however many arrive between two reads', async () => {
    table.insert('t1'); // before the subscription
    const events = await feed.subscribe('t1');
    const written: number[] = [];
    for (let index = 0; index < 450; index += 1) {
      written.push(table.insert('t1'));
      table.insert('t2');
    }
    await feed.nudge();
    expect(await drain(events, 450)).toEqual(written);
    await feed.nudge(); // nothing new: nothing delivered twice
    written.push(table.insert('t1'));
    await feed.nudge();
    expect(await drain(events, 1)).toEqual(written.slice(-1));
  });

  it('delivers a row that becomes visible after a higher id, once', async () => {
    const events = await feed.subscribe('t1');
    const first = table.insert('t1');
    const late = table.insert('t1', false);
    const third = table.insert('t1');
    await feed.nudge();
    expect(await drain(events, 2)).toEqual([first, third]);
    table.commit(late);
    await feed.nudge();
    await feed.nudge();
    const fourth = table.insert('t1');
    await feed.nudge();
    expect(await drain(events, 2)).toEqual([late, fourth]);
  });

  it('gives up an id that never appears after the grace period and stops re-reading below it', async () => {
    await feed.subscribe('t1');
    table.insert('t1');
    const rolledBack = table.insert('t1', false);
    table.insert('t1');
    await feed.nudge();
    await feed.nudge();
    expect(table.reads.slice(-1)).toEqual([rolledBack - 1]); // still waiting for it
    now = 1000;
    await feed.nudge(); // the grace period has passed: the floor moves over it
    await feed.nudge();
    expect(table.reads.slice(-1)).toEqual([rolledBack + 1]);
  });

  it('ends a subscriber that falls too far behind with an overflow, not a silent gap', async () => {
    const small = new SystemEventFeed(table, { subscriberCapacity: 3, pollIntervalMs: 60_000 }, () => now);
    try {
      const events = await small.subscribe('t1');
      for (let index = 0; index < 5; index += 1) {
        table.insert('t1');
      }
      await small.nudge();
      expect(await drain(events, 1)).toEqual(['overflow']);
    } finally {
      small.close();
    }
  });

  it('counts a subscriber once its starting point is known, so every event after that reaches it', async () => {
    let startingPoint: () => void = () => undefined;
    const latest = table.latestId.bind(table);
    table.latestId = () => new Promise<number>((resolve) => (startingPoint = () => void latest().then(resolve)));
    const subscribing = feed.subscribe('t1');
    expect(feed.subscriberTotal()).toBe(0); // an event written now may become the starting point
    startingPoint();
    const events = await subscribing;
    expect(feed.subscriberTotal()).toBe(1);
    const next = table.insert('t1');
    await feed.nudge();
    expect(await drain(events, 1)).toEqual([next]);
  });

  it('stops reading when the last subscriber leaves and starts from the newest event again', async () => {
    const events = await feed.subscribe('t1');
    table.insert('t1');
    await events.return?.();
    const readsBefore = table.reads.length;
    await feed.nudge();
    expect(table.reads.length).toBe(readsBefore);
    const again = await feed.subscribe('t1');
    const next = table.insert('t1');
    await feed.nudge();
    expect(await drain(again, 1)).toEqual([next]);
  });
});
