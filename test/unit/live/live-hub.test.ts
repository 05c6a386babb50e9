/** LiveHub fan-out: replay, gaps, slow consumers and status coalescing (in-process bus, fake timers). */
import type { EngineDelta } from '../../../src/engine/event-bus';
import { InProcessBus } from '../../../subscriptions/bus/in-process';
import { engineEventBusOver } from '../../../subscriptions/live/engine-bridge';
import { deltaMessages } from '../../../subscriptions/live/messages';
import { MAX_MESSAGE_BYTES } from '../../../subscriptions/bus/event-bus';
import { LiveHub } from '../../../subscriptions/live/live-hub';
import { ReplayBuffer } from '../../../subscriptions/live/replay-buffer';
import type { QueueFeedEvent } from '../../../schema/infra/live-feeds';

function delta(sequence: number, tenant = 't1'): EngineDelta {
  return {
    type: 'window-changed',
    pipeline: 'gate',
    queue: 'q',
    window: sequence,
    tenant,
    sequence,
    at: '2026-01-01T00:00:00.000Z',
  };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const values: T[] = [];
  for (let i = 0; i < count; i += 1) {
    const next = await iterator.next();
    if (next.done) {
      break;
    }
    values.push(next.value);
  }
  return values;
}

function sequences(events: QueueFeedEvent[]): Array<number | string> {
  return events.map((event) => (event.kind === 'delta' ? event.delta.sequence : `${event.reason}@${event.sequence}`));
}

describe('ReplayBuffer', () => {
  it('keeps a contiguous, bounded run and reports what it cannot replay', () => {
    const buffer = new ReplayBuffer<{ sequence: number }>(3);
    for (const sequence of [1, 2, 3, 4]) {
      buffer.push({ sequence });
    }
    expect(buffer.push({ sequence: 4 })).toBe(false);
    expect(buffer.since(1, 4)?.map((item) => item.sequence)).toEqual([2, 3, 4]);
    expect(buffer.since(0, 4)).toBeNull();
    expect(buffer.since(4, 4)).toEqual([]);
    buffer.push({ sequence: 7 }); // a jump: only 7 onwards is known
    expect(buffer.since(4, 7)).toBeNull();
    expect(buffer.since(6, 7)?.map((item) => item.sequence)).toEqual([7]);
  });
});

describe('LiveHub', () => {
  let bus: InProcessBus;
  let committed: number;
  let hub: LiveHub;

  beforeEach(() => {
    bus = new InProcessBus();
    committed = 0;
    hub = new LiveHub(
      bus,
      { committedSequence: async () => committed, systemEvents: null },
      { replayCapacity: 100, subscriberCapacity: 10, statusIntervalMs: 250 },
    );
    hub.watch('t1');
  });

  afterEach(() => {
    hub.close();
  });

  function publish(...deltas: EngineDelta[]): void {
    const engineBus = engineEventBusOver(bus, (error) => {
      throw error;
    });
    for (const entry of deltas) {
      committed = Math.max(committed, entry.sequence);
      engineBus.publish(entry);
    }
  }

  it('replays missed deltas after afterSeq, then continues live, never twice', async () => {
    publish(delta(1), delta(2), delta(3));
    await flush();
    const feed = await hub.queueEvents('t1', 1);
    publish(delta(4));
    await flush();
    expect(sequences(await take(feed, 3))).toEqual([2, 3, 4]);
  });

  it('asks for a re-snapshot when the deltas after afterSeq are gone, and on a sequence gap', async () => {
    committed = 10;
    const feed = await hub.queueEvents('t1', 2);
    publish(delta(11), delta(13));
    await flush();
    expect(sequences(await take(feed, 4))).toEqual(['REPLAY_UNAVAILABLE@10', 11, 'SEQUENCE_GAP@12', 13]);
  });

  it('bounds a stalled subscriber (drop to a re-snapshot marker) without slowing the others or the publisher', async () => {
    const stalled = await hub.queueEvents('t1', null);
    const healthy = await hub.queueEvents('t1', null);
    const received: number[] = [];
    const reading = (async () => {
      for await (const event of healthy) {
        if (event.kind === 'delta') {
          received.push(event.delta.sequence);
          if (event.delta.sequence === 50) {
            return;
          }
        }
      }
    })();
    for (let sequence = 1; sequence <= 50; sequence += 1) {
      publish(delta(sequence));
    }
    await flush();
    await reading;
    expect(received).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    // The stalled one holds at most its capacity (10): a marker for what it lost, then the newest deltas.
    expect(sequences(await take(stalled, 10))).toEqual(['SLOW_CONSUMER@41', 42, 43, 44, 45, 46, 47, 48, 49, 50]);
  });

  it('coalesces status ticks: one at once, then at most one per interval, always the latest', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      let now = 0;
      const timedHub = new LiveHub(
        bus,
        { committedSequence: async () => committed, systemEvents: null },
        { statusIntervalMs: 250 },
        () => now,
      );
      const ticks = timedHub.statusChanges('t1');
      expect((await take(ticks, 1)).map((tick) => tick.version)).toEqual([0]);
      publish(delta(1), delta(2), delta(3));
      await flush();
      now = 100;
      jest.advanceTimersByTime(100);
      const pending = ticks.next();
      now = 250;
      jest.advanceTimersByTime(150);
      expect((await pending).value).toEqual({ shared: true, tenant: 't1', version: 3 });
      timedHub.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('sends one status tick for a burst of changes, carrying the last of them', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      let now = 0;
      const timedHub = new LiveHub(
        bus,
        { committedSequence: async () => committed, systemEvents: null },
        { statusIntervalMs: 250 },
        () => now,
      );
      const ticks = timedHub.statusChanges('t1');
      expect((await take(ticks, 1)).map((tick) => tick.version)).toEqual([0]);
      now = 1000; // well past the interval: the burst is sent at once, but only once
      const emitted: number[] = [];
      const reading = (async () => {
        for await (const tick of ticks) {
          emitted.push(tick.version);
        }
      })();
      publish(delta(1), delta(2), delta(3));
      await flush();
      jest.advanceTimersByTime(1000);
      await flush();
      expect(emitted).toEqual([3]);
      timedHub.close();
      await reading;
    } finally {
      jest.useRealTimers();
    }
  });

  it('carries a status delta larger than a bus message in parts, reassembled intact, and filters by delta type', async () => {
    const feed = await hub.queueEvents('t1', null, ['queue-delta']);
    const changes = Array.from({ length: 400 }, (_, index) => ({
      kind: 'item-reported' as const,
      pipeline: 'gate',
      itemId: `item-${index}`.padEnd(32, 'x'),
      result: 'SUCCESS' as const,
      message: `Build succeeded ✓ ${index}`,
    }));
    const big: EngineDelta = {
      type: 'queue-delta',
      changes,
      tenant: 't1',
      sequence: 2,
      at: '2026-01-01T00:00:00.000Z',
    };
    expect(JSON.stringify(big).length).toBeGreaterThan(3 * MAX_MESSAGE_BYTES);
    publish(delta(1), big, delta(3));
    await flush();
    const [received] = await take(feed, 1);
    expect(received).toEqual({ kind: 'delta', delta: big });
    publish({ ...delta(4), type: 'queue-delta', changes: [] } as EngineDelta);
    await flush();
    expect(sequences(await take(feed, 1))).toEqual([4]);
  });

  it('drops a delta whose parts are incomplete and reports the gap', async () => {
    const feed = await hub.queueEvents('t1', 0, ['queue-delta', 'window-changed']);
    const changes = Array.from({ length: 400 }, (_, index) => ({
      kind: 'queue-removed' as const,
      pipeline: 'gate'.repeat(10),
      queue: index,
    }));
    const big: EngineDelta = {
      type: 'queue-delta',
      changes,
      tenant: 't1',
      sequence: 2,
      at: '2026-01-01T00:00:00.000Z',
    };
    const messages = deltaMessages(big);
    expect(messages.length).toBeGreaterThan(1);
    publish(delta(1));
    for (const message of messages.slice(0, -1)) {
      await bus.publish('tenant:t1', message); // the last part is lost
    }
    committed = 3;
    publish(delta(3));
    await flush();
    expect(sequences(await take(feed, 3))).toEqual([1, 'SEQUENCE_GAP@2', 3]);
  });

  it('shares one load per state version', async () => {
    let loads = 0;
    const load = async (): Promise<number> => {
      loads += 1;
      return loads;
    };
    expect(await Promise.all([hub.shared('t1', 'k', load), hub.shared('t1', 'k', load)])).toEqual([1, 1]);
    publish(delta(1));
    await flush();
    expect(await hub.shared('t1', 'k', load)).toBe(2);
  });
});
