/**
 * The PostgreSQL event bus under connection faults (docs/operations.md#event-bus-links): a
 * terminated publisher session costs nothing (the process lives on, later messages flow), and a
 * terminated LISTEN session is opened again with backoff and delivers what was published while
 * it was down, once each and in order; a status delta too large for one message travels in parts
 * that survive that catch-up (docs/live.md#the-delta-protocol).
 */
import type { BusMessage } from '../../../subscriptions/bus/event-bus';
import { deltaMessages, PartAssembler } from '../../../subscriptions/live/messages';
import type { EngineDelta } from '../../../src/engine/event-bus';
import { PostgresBus } from '../../../subscriptions/bus/pg-bus';
import type { LinkState } from '../../../src/store/links';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { ManualTimers, TcpProxy, terminateSessions } from '../../helpers/pg-faults';
import { describeIf, POSTGRES } from '../../helpers/preconditions';

const withPostgres = describeIf(POSTGRES);

/** Collects a topic's messages; `count(n)` resolves once n have arrived. */
function collect(bus: PostgresBus, topic: string): { messages: BusMessage[]; count(n: number): Promise<void> } {
  const messages: BusMessage[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  bus.subscribe(topic, (message) => {
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (messages.length >= waiter.n) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return {
    messages,
    count: (n) =>
      messages.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
  };
}

/** Resolves with the next state of `bus.listen` whose `up` is `up`. */
function nextListenState(bus: PostgresBus, up: boolean): Promise<LinkState> {
  return new Promise((resolve) => {
    const stop = bus.listenLink.onChange((state) => {
      if (state.up === up) {
        stop();
        resolve(state);
      }
    });
  });
}

const message = (n: number): BusMessage => ({ kind: 'queue-event', data: { n } });

/** A status delta of a pass that changed many items: several bus messages' worth of JSON. */
function largeDelta(sequence: number): EngineDelta {
  const changes = Array.from({ length: 120 }, (_, index) => ({
    kind: 'item-changed',
    pipeline: 'gate',
    itemId: `item-${sequence}-${index}`,
    fields: { failingReasons: [`reason ${index} `.repeat(12)] },
  }));
  return { type: 'queue-delta', tenant: 'parts', sequence, at: new Date(0).toISOString(), changes } as EngineDelta;
}

withPostgres('PostgreSQL event bus under connection faults', () => {
  let database: TestDatabase;
  const buses: PostgresBus[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterEach(async () => {
    for (const bus of buses.splice(0)) {
      await bus.close();
    }
  });

  afterAll(async () => {
    await database.destroy();
  });

  it('survives a terminated publisher session: no crash, later messages still flow', async () => {
    const url = database.url ?? '';
    const publisherErrors: unknown[] = [];
    let sawError: () => void = () => undefined;
    const errorSeen = new Promise<void>((resolve) => (sawError = resolve));
    const publisher = new PostgresBus(url, {
      applicationName: 'publisher-test',
      onError: (error) => {
        publisherErrors.push(error);
        sawError();
      },
    });
    const listener = new PostgresBus(url);
    buses.push(publisher, listener);
    const topic = 'tenant:publisher-fault';
    const received = collect(listener, topic);
    await listener.ready();

    await publisher.publish(topic, message(1));
    await received.count(1);
    // The publisher's idle pooled session is terminated, as a PostgreSQL restart or an operator would.
    expect(await terminateSessions(database.knex, `query LIKE '%pg_notify%'`)).toBe(1);
    await errorSeen;
    expect(String(publisherErrors[0])).toMatch(/terminat/i);

    await publisher.publish(topic, message(2));
    await received.count(2);
    expect(received.messages).toEqual([message(1), message(2)]);
    expect(publisher.links().every((link) => link.up)).toBe(true);
  });

  it('reopens a terminated LISTEN session with backoff and delivers what it missed, once, in order', async () => {
    const timers = new ManualTimers();
    const bus = new PostgresBus(database.url ?? '', { timers });
    buses.push(bus);
    const topic = 'tenant:listen-fault';
    const received = collect(bus, topic);
    await bus.ready();
    expect(bus.links().map((link) => [link.name, link.up])).toEqual([
      ['bus.listen', true],
      ['bus.publish', true],
    ]);

    await bus.publish(topic, message(1));
    await received.count(1);

    const down = nextListenState(bus, false);
    expect(await terminateSessions(database.knex, `query = 'LISTEN sluice_bus'`)).toBe(1);
    const state = await down;
    expect(state.error).toMatch(/terminat|ended/i);
    // While the session is down (the reconnect waits for the test's timer), messages are published.
    await bus.publish(topic, message(2));
    await bus.publish(topic, message(3));
    await timers.waitForTimer();
    expect(timers.requested[0]).toBeGreaterThanOrEqual(100); // the first backoff step
    expect(received.messages).toHaveLength(1);

    const up = nextListenState(bus, true);
    timers.fireAll();
    await up;
    await received.count(3);
    await bus.publish(topic, message(4));
    await received.count(4);
    // Message 1 was read again by the catch-up (it is within its window) and not delivered twice.
    expect(received.messages).toEqual([message(1), message(2), message(3), message(4)]);
  });

  it('a publish that gave up leaves bus.publish down until PostgreSQL answers again', async () => {
    const proxy = await TcpProxy.start(database.url ?? '');
    const bus = new PostgresBus(proxy.url(database.url ?? ''), {
      publishRetryMs: 0,
      backoff: { initialMs: 10, maxMs: 50, factor: 2, jitter: 0 },
    });
    buses.push(bus);
    try {
      await bus.ready();
      await bus.publish('tenant:cut', message(1));
      await proxy.cut();
      await expect(bus.publish('tenant:cut', message(2))).rejects.toThrow();
      expect(bus.publishLink.state).toMatchObject({ up: false });
      const up = new Promise<void>((resolve) => bus.publishLink.onChange((state) => state.up && resolve()));
      await proxy.restore();
      await up; // no publish needed: the pool is checked until it answers
      await bus.ready();
      expect(bus.links().every((link) => link.up)).toBe(true);
    } finally {
      await proxy.cut();
    }
  });

  it('keeps retrying to connect with growing, capped delays while PostgreSQL refuses', async () => {
    const timers = new ManualTimers();
    // A port nothing listens on: every attempt is refused at once.
    const bus = new PostgresBus('postgres://postgres@127.0.0.1:1/none', { timers });
    buses.push(bus);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await timers.waitForTimer();
      timers.fireAll();
    }
    await timers.waitForTimer();
    const delays = timers.requested.slice(0, 6);
    for (let index = 1; index < delays.length; index += 1) {
      expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1] ?? 0);
    }
    expect(delays[5]).toBeLessThanOrEqual(2000 * 1.2);
    expect(bus.links()[0]).toMatchObject({ name: 'bus.listen', up: false });
    expect(bus.links()[0]?.error).toMatch(/ECONNREFUSED/);
  });

  it('reassembles status deltas whose parts were published while the LISTEN session was down', async () => {
    const timers = new ManualTimers();
    const bus = new PostgresBus(database.url ?? '', { timers });
    buses.push(bus);
    const topic = 'tenant:parts';
    const received = collect(bus, topic);
    await bus.ready();
    const [first, second] = [largeDelta(1), largeDelta(2)];
    const firstParts = deltaMessages(first);
    const secondParts = deltaMessages(second);
    expect(firstParts.length).toBeGreaterThan(2);
    for (const part of firstParts) {
      await bus.publish(topic, part);
    }
    await received.count(firstParts.length);

    const down = nextListenState(bus, false);
    expect(await terminateSessions(database.knex, `query = 'LISTEN sluice_bus'`)).toBe(1);
    await down;
    for (const part of secondParts) {
      await bus.publish(topic, part);
    }
    await timers.waitForTimer();
    const up = nextListenState(bus, true);
    timers.fireAll();
    await up;
    await received.count(firstParts.length + secondParts.length);

    // The catch-up read the first delta's parts again: they were not delivered twice.
    expect(received.messages).toHaveLength(firstParts.length + secondParts.length);
    const parts = new PartAssembler();
    const deltas = received.messages.map((part) => parts.add(part.data)).filter((delta) => delta !== null);
    expect(deltas).toEqual([first, second]);
  });
});
