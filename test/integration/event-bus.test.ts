/** Every bus implementation delivers across instances (as separate processes would use them). */
import { InProcessBus } from '../../subscriptions/bus/in-process';
import { PostgresBus } from '../../subscriptions/bus/pg-bus';
import { RedisBus } from '../../subscriptions/bus/redis-bus';
import { BusClosedError, type BusMessage, type EventBus } from '../../subscriptions/bus/event-bus';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { itIf, POSTGRES } from '../helpers/preconditions';

function nextMessage(bus: EventBus, topic: string): Promise<BusMessage> {
  return new Promise((resolve) => {
    const stop = bus.subscribe(topic, (message) => {
      stop();
      resolve(message);
    });
  });
}

async function crossInstanceDelivery(a: EventBus, b: EventBus): Promise<void> {
  const topic = `tenant:t-${Math.random().toString(36).slice(2)}`;
  const other = `${topic}-other`;
  const received = nextMessage(b, topic);
  const unrelated: BusMessage[] = [];
  const stopOther = b.subscribe(other, (m) => unrelated.push(m));
  await b.ready();
  await a.publish(topic, { kind: 'queue-event', data: { seq: 1, item: 'abc' } });
  expect(await received).toEqual({ kind: 'queue-event', data: { seq: 1, item: 'abc' } });
  expect(unrelated).toEqual([]);
  stopOther();
}

describe('event bus', () => {
  it('in-process: delivers to listeners of the topic only, asynchronously', async () => {
    const bus = new InProcessBus();
    await crossInstanceDelivery(bus, bus);
    const seen: BusMessage[] = [];
    const stop = bus.subscribe('t', (m) => seen.push(m));
    await bus.publish('t', { kind: 'k', data: 1 });
    expect(seen).toEqual([]); // not delivered synchronously inside publish
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([{ kind: 'k', data: 1 }]);
    stop();
    await bus.publish('t', { kind: 'k', data: 2 });
    await new Promise((r) => setImmediate(r));
    expect(seen).toHaveLength(1);
  });

  it('refuses oversized messages', async () => {
    const bus = new InProcessBus();
    await expect(bus.publish('t', { kind: 'k', data: 'x'.repeat(9000) })).rejects.toThrow(/exceeds 7900 bytes/);
  });

  it('redis: a message published by one instance reaches another', async () => {
    const a = new RedisBus('redis://127.0.0.1:6379');
    const b = new RedisBus('redis://127.0.0.1:6379');
    try {
      await crossInstanceDelivery(a, b);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('redis: a publish after close is refused as closed', async () => {
    const bus = new RedisBus('redis://127.0.0.1:6379');
    await bus.ready();
    await bus.close();
    await expect(bus.publish('t', { kind: 'k', data: 1 })).rejects.toBeInstanceOf(BusClosedError);
  });

  it("the engine's bridge: flush resolves once every delta given so far was published", async () => {
    const published: number[] = [];
    const releases: Array<() => void> = [];
    const slow: EventBus = {
      kind: 'slow',
      subscribe: () => () => undefined,
      ready: () => Promise.resolve(),
      close: () => Promise.resolve(),
      links: () => [],
      publish: (_topic, message) =>
        new Promise<void>((resolve) =>
          releases.push(() => {
            published.push((message.data as { sequence: number }).sequence);
            resolve();
          }),
        ),
    };
    const errors: unknown[] = [];
    const bridge = engineEventBusOver(slow, (err) => errors.push(err));
    for (const sequence of [1, 2]) {
      bridge.publish({ type: 'queue-delta', tenant: 't', sequence, at: '', changes: [] });
    }
    let flushed = false;
    const flushing = bridge.flush().then(() => {
      flushed = true;
    });
    while (published.length < 2) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
      expect(flushed).toBe(false);
    }
    await flushing;
    expect(published).toEqual([1, 2]);
    expect(errors).toEqual([]);
  });

  const pgOnly = itIf(POSTGRES);
  pgOnly('postgres: a publish after close is refused as closed, never handed to the ended pool', async () => {
    const database: TestDatabase = await createTestDatabase();
    const bus = new PostgresBus(database.url ?? '');
    try {
      await bus.ready();
      await bus.publish('t', { kind: 'k', data: 1 });
      await bus.close();
      await expect(bus.publish('t', { kind: 'k', data: 2 })).rejects.toBeInstanceOf(BusClosedError);
    } finally {
      await bus.close();
      await database.destroy();
    }
  });

  pgOnly('postgres: LISTEN/NOTIFY carries messages between instances', async () => {
    const database: TestDatabase = await createTestDatabase();
    const url = database.url ?? '';
    const a = new PostgresBus(url);
    const b = new PostgresBus(url);
    try {
      await crossInstanceDelivery(a, b);
    } finally {
      await a.close();
      await b.close();
      await database.destroy();
    }
  });
});
