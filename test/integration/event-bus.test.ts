/** Every bus implementation delivers across instances (as separate processes would use them). */
import { InProcessBus } from '../../subscriptions/bus/in-process';
import { PostgresBus } from '../../subscriptions/bus/pg-bus';
import { RedisBus } from '../../subscriptions/bus/redis-bus';
import type { BusMessage, EventBus } from '../../subscriptions/bus/event-bus';
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

  const pgOnly = itIf(POSTGRES);
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
