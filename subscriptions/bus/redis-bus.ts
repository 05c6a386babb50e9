/**
 * Redis pub/sub bus for several processes. Two connections: a subscriber connection cannot
 * publish. One Redis channel per topic, subscribed while at least one local listener needs it.
 */
import Redis from 'ioredis';
import { LinkTracker, type LinkState } from '../../src/store/links';
import {
  BusClosedError,
  ListenerSet,
  decodeMessage,
  encodeMessage,
  type BusListener,
  type BusMessage,
  type EventBus,
} from './event-bus';

/** The default prefix of the Redis channels (`redis.channelPrefix`). */
export const DEFAULT_CHANNEL_PREFIX = 'sluice:';

export class RedisBus implements EventBus {
  readonly kind = 'redis';
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new ListenerSet();
  private pending: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly publishLink = new LinkTracker('bus.redis-publish', false);
  private readonly subscribeLink = new LinkTracker('bus.redis-subscribe', false);

  /** `channelPrefix` keeps deployments that share one Redis server apart (pub/sub ignores database numbers). */
  constructor(
    url: string,
    private readonly channelPrefix = DEFAULT_CHANNEL_PREFIX,
  ) {
    const options = { lazyConnect: false, maxRetriesPerRequest: 3 };
    this.publisher = new Redis(url, options);
    this.subscriber = new Redis(url, options);
    this.subscriber.on('message', (channel: string, text: string) => {
      const decoded = decodeMessage(text);
      if (decoded && channel === this.channelPrefix + decoded.topic) {
        this.listeners.deliver(decoded.topic, decoded.message);
      }
    });
    // Connection errors are retried by ioredis; keep them from crashing the process.
    // Their state is reported to /health/ready (docs/operations.md#health).
    for (const [connection, tracker] of [
      [this.publisher, this.publishLink],
      [this.subscriber, this.subscribeLink],
    ] as const) {
      connection.on('error', (error: unknown) => tracker.down(error));
      connection.on('ready', () => tracker.up());
      connection.on('end', () => tracker.down(new Error('connection closed')));
    }
  }

  async publish(topic: string, message: BusMessage): Promise<void> {
    if (this.closed) {
      throw new BusClosedError();
    }
    await this.publisher.publish(this.channelPrefix + topic, encodeMessage(topic, message));
  }

  subscribe(topic: string, listener: BusListener): () => void {
    const { first, remove } = this.listeners.add(topic, listener);
    if (first) {
      this.pending = this.pending
        .then(() => this.subscriber.subscribe(this.channelPrefix + topic))
        .catch(() => undefined);
    }
    return () => {
      if (remove()) {
        this.pending = this.pending
          .then(() => this.subscriber.unsubscribe(this.channelPrefix + topic))
          .catch(() => undefined);
      }
    };
  }

  /** ioredis reconnects by itself (and subscribes again); a connection is up in its `ready` state. */
  links(): LinkState[] {
    return [this.publishLink.state, this.subscribeLink.state];
  }

  async ready(): Promise<void> {
    await this.pending;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pending;
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
