/**
 * PostgreSQL LISTEN/NOTIFY bus: the fallback for several processes when only PostgreSQL is
 * shared. All topics travel on one channel; a dedicated connection listens. Faults
 * (docs/operations.md#event-bus-links): the publisher pool survives dropped connections and a
 * publish is retried while PostgreSQL is away; the LISTEN connection is re-opened with backoff
 * and then reads the messages stored while it was down, so none is lost or delivered twice.
 */
import pg from 'pg';
import {
  BUS_CHANNEL,
  databaseClock,
  missedMessages,
  parseNotification,
  pruneMessages,
  storeAndNotify,
  type StoredBusMessage,
} from '../../src/store/bus-outbox';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  isConnectionError,
  LinkTracker,
  REAL_TIMERS,
  Reconnector,
  type BackoffPolicy,
  type LinkState,
  type Timers,
} from '../../src/store/links';
import {
  BusClosedError,
  ListenerSet,
  decodeMessage,
  encodeMessage,
  type BusListener,
  type BusMessage,
  type EventBus,
} from './event-bus';

export interface PostgresBusOptions {
  /** `application_name` prefix of the bus's sessions (`<name>:bus-listen`, `<name>:bus-publish`). */
  applicationName?: string;
  /** Reconnect and publish-retry timers (tests pass manual ones). */
  timers?: Timers;
  backoff?: BackoffPolicy;
  /** How long a publish keeps retrying while PostgreSQL is away before it fails. */
  publishRetryMs?: number;
  /** Minimum time between two prunings of old messages. */
  pruneIntervalMs?: number;
  /** Told about connection problems (logging); never about each delivered message. */
  onError?: (error: unknown, link: string) => void;
}

/** Ids of delivered messages are remembered this long, to drop them when a catch-up reads them again. */
const SEEN_RETENTION_MS = 120_000;

interface ListenConnection {
  client: pg.Client;
}

export class PostgresBus implements EventBus {
  readonly kind = 'postgres';
  private readonly publisher: pg.Pool;
  private readonly listeners = new ListenerSet();
  private readonly listen: Reconnector<ListenConnection>;
  readonly listenLink = new LinkTracker('bus.listen', false);
  readonly publishLink = new LinkTracker('bus.publish', true);
  private readonly timers: Timers;
  private readonly backoff: BackoffPolicy;
  private readonly publishRetryMs: number;
  private readonly pruneIntervalMs: number;
  private lastPrune = 0;
  private closed = false;
  /** Publishes waiting for PostgreSQL to come back. */
  private retrying = 0;
  /** Set while the publisher pool is checked after a publish gave up. */
  private watching = false;
  /** Ids delivered recently, with when they were. */
  private readonly seen = new Map<number, number>();
  private lastSeenId: number | null = null;
  /** When the first LISTEN connection started listening (database clock). */
  private listeningSince: Date | null = null;
  /** Notifications that arrive while a catch-up read is under way, delivered after it in id order. */
  private held: StoredBusMessage[] | null = null;
  /** Publish retries sleeping, each with the function that wakes it (close wakes them all). */
  private readonly retryTimers = new Map<unknown, () => void>();

  constructor(
    private readonly url: string,
    private readonly options: PostgresBusOptions = {},
  ) {
    const name = options.applicationName ?? 'sluice';
    this.timers = options.timers ?? REAL_TIMERS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.publishRetryMs = options.publishRetryMs ?? 30_000;
    this.pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
    this.lastPrune = Date.now(); // the first pruning waits an interval: a start is busy enough
    this.publisher = new pg.Pool({
      connectionString: url,
      max: 2,
      application_name: `${name}:bus-publish`,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    // An idle publisher session that is terminated emits here; the pool drops it and opens
    // another for the next publish. Without this listener the process would exit.
    this.publisher.on('error', (error) => {
      options.onError?.(error, this.publishLink.state.name);
    });
    this.listen = new Reconnector<ListenConnection>({
      connect: () => this.openListener(`${name}:bus-listen`),
      dispose: (connection) => this.disposeListener(connection),
      link: this.listenLink,
      timers: this.timers,
      backoff: this.backoff,
      onAttemptFailed: (error) => options.onError?.(error, this.listenLink.state.name),
    });
    this.listen.start();
  }

  async publish(topic: string, message: BusMessage): Promise<void> {
    if (this.closed) {
      throw new BusClosedError(); // never handed to the ended pool ("Cannot use a pool after calling end")
    }
    const body = encodeMessage(topic, message);
    const giveUpAt = Date.now() + this.publishRetryMs;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await storeAndNotify(this.publisher, topic, body);
        if (this.retrying === 0) {
          this.publishLink.up(); // no other publish is still waiting for PostgreSQL
        }
        this.pruneNow();
        return;
      } catch (error) {
        if (this.closed || !isConnectionError(error)) {
          throw error;
        }
        this.publishLink.down(error);
        if (Date.now() >= giveUpAt) {
          void this.watchPublisher(); // the link comes up again once PostgreSQL answers
          throw error;
        }
        this.retrying += 1;
        try {
          await this.sleep(backoffDelay(this.backoff, attempt));
        } finally {
          this.retrying -= 1;
        }
      }
    }
  }

  /** After a publish gave up: check the publisher pool with backoff until it answers (or the bus closes). */
  private async watchPublisher(): Promise<void> {
    if (this.watching) {
      return;
    }
    this.watching = true;
    try {
      for (let attempt = 0; !this.closed; attempt += 1) {
        await this.sleep(backoffDelay(this.backoff, attempt));
        try {
          await this.publisher.query('SELECT 1');
          if (this.retrying === 0) {
            this.publishLink.up();
          }
          return;
        } catch (error) {
          if (!this.closed) {
            this.publishLink.down(error);
          }
        }
      }
    } finally {
      this.watching = false;
    }
  }

  subscribe(topic: string, listener: BusListener): () => void {
    const { remove } = this.listeners.add(topic, listener);
    return () => {
      remove();
    };
  }

  /** Resolves once the LISTEN connection is open (at once while it is). */
  ready(): Promise<void> {
    return this.listen.ready();
  }

  links(): LinkState[] {
    return [this.listenLink.state, this.publishLink.state];
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [timer, wake] of this.retryTimers) {
      this.timers.clearTimeout(timer);
      wake(); // the retry sees the bus closed and fails
    }
    this.retryTimers.clear();
    await this.listen.close();
    await this.publisher.end().catch(() => undefined);
  }

  private async openListener(applicationName: string): Promise<ListenConnection> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: applicationName,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    const connection: ListenConnection = { client };
    let failure: unknown = null;
    client.on('error', (error) => {
      failure ??= error;
      this.listen.lost(connection, error);
    });
    client.on('end', () => {
      failure ??= new Error('LISTEN connection ended');
      this.listen.lost(connection, failure);
    });
    client.on('notification', (note) => {
      if (note.channel === BUS_CHANNEL) {
        this.received(parseNotification(note.payload));
      }
    });
    try {
      await client.connect();
      // The session's last statement stays `LISTEN ...` (the catch-up reads through the pool),
      // so operators can tell this session apart in pg_stat_activity.
      await client.query(`LISTEN ${BUS_CHANNEL}`);
      this.held = [];
      const since = this.listeningSince;
      if (since === null) {
        this.listeningSince = await databaseClock(this.publisher);
      } else {
        for (const message of await missedMessages(this.publisher, this.lastSeenId, since)) {
          this.held.push(message);
        }
      }
      if (failure !== null) {
        throw failure;
      }
      this.releaseHeld();
      return connection;
    } catch (error) {
      this.held = null;
      await this.disposeListener(connection);
      throw error;
    }
  }

  private async disposeListener(connection: ListenConnection): Promise<void> {
    connection.client.removeAllListeners('notification');
    await connection.client.end().catch(() => undefined);
  }

  /** A notification: delivered now, or held while a catch-up read is under way. */
  private received(message: StoredBusMessage | undefined): void {
    if (message === undefined) {
      return;
    }
    if (this.held !== null) {
      this.held.push(message);
      return;
    }
    this.deliver(message);
  }

  /**
   * Deliver what was held during a catch-up, in id order. What was delivered before is dropped
   * first, all at once: delivering prunes old ids, which must not let a repeat through.
   */
  private releaseHeld(): void {
    const fresh = new Map<number, StoredBusMessage>();
    for (const message of this.held ?? []) {
      if (!this.seen.has(message.id)) {
        fresh.set(message.id, message);
      }
    }
    this.held = null;
    for (const message of [...fresh.values()].sort((a, b) => a.id - b.id)) {
      this.deliver(message);
    }
  }

  /** Deliver a message unless it was delivered already. */
  private deliver(message: StoredBusMessage): void {
    if (this.seen.has(message.id)) {
      return;
    }
    const now = Date.now();
    this.seen.set(message.id, now);
    this.lastSeenId = Math.max(this.lastSeenId ?? message.id, message.id);
    this.forgetOldIds(now);
    const decoded = decodeMessage(message.body);
    if (decoded) {
      this.listeners.deliver(decoded.topic, decoded.message);
    }
  }

  private forgetOldIds(now: number): void {
    // Map iteration follows insertion order, which is delivery order: stop at the first recent one.
    for (const [id, at] of this.seen) {
      if (now - at < SEEN_RETENTION_MS) {
        return;
      }
      this.seen.delete(id);
    }
  }

  private pruneNow(): void {
    const now = Date.now();
    if (this.closed || now - this.lastPrune < this.pruneIntervalMs) {
      return;
    }
    this.lastPrune = now;
    pruneMessages(this.publisher).catch((error: unknown) => this.options.onError?.(error, this.publishLink.state.name));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(() => {
        this.retryTimers.delete(timer);
        resolve();
      }, ms);
      this.retryTimers.set(timer, resolve);
    });
  }
}
