/**
 * The live fan-out of one process: it listens to each watched tenant's bus topic once, keeps a
 * replay buffer of queue deltas, and hands every local subscriber its own bounded queue. One
 * slow subscriber only ever loses its own backlog (and is told to re-snapshot); the engine and
 * the other subscribers never wait for it.
 */
import type { EngineDelta } from '../../src/engine/event-bus';
import type { LauncherChangeRecord } from '../../src/store/repositories/launcher-changes';
import type {
  LauncherChangeItem,
  LiveFeeds,
  QueueFeedEvent,
  StatusTick,
  SystemEventItem,
} from '../../schema/infra/live-feeds';
import { tenantTopic, type BusMessage, type EventBus } from '../bus/event-bus';
import { BoundedQueue } from './bounded-queue';
import { LIVE_MESSAGE_KINDS, PartAssembler, isEngineDelta } from './messages';
import { ReplayBuffer } from './replay-buffer';
import { SystemEventFeed, type SystemEventStore } from './system-event-feed';
import { TableFeed, type TableFeedStore } from './table-feed';

export interface LiveHubOptions {
  /** Deltas kept per tenant for `afterSeq` resumption. */
  replayCapacity: number;
  /** Deltas queued per queue-event subscriber before it is told to re-snapshot. */
  subscriberCapacity: number;
  /** Minimum time between two status emissions to one subscriber, in ms. */
  statusIntervalMs: number;
  /** How often system events are looked for while someone subscribes to them (changes wake the reader sooner). */
  systemEventPollMs: number;
  /** How often the change log of nodes and nodeset requests is read while someone follows it (changes wake it sooner). */
  launcherChangePollMs: number;
}

/** What the hub reads from the store. */
export interface LiveStore {
  /** The highest delta sequence the store has committed for a tenant. */
  committedSequence(tenant: string): Promise<number>;
  /** The system events table; without it `systemEvents` is not served. */
  systemEvents: SystemEventStore | null;
  /** The change log of nodes and nodeset requests; without it `launcherChanges` is not served. */
  launcherChanges?: TableFeedStore<LauncherChangeRecord> | null;
}

/** Every launcher-change subscriber gets every change; the subscription picks its tenant's. */
const ALL = '*';

export const DEFAULT_LIVE_HUB_OPTIONS: LiveHubOptions = {
  replayCapacity: 10_000,
  subscriberCapacity: 1_000,
  // A whole status per push: at most one per 2 s keeps following with tenantStatus below the
  // cost of polling (docs/live.md#bytes-to-follow); queueEvents follows every change.
  statusIntervalMs: 2000,
  systemEventPollMs: 1000,
  launcherChangePollMs: 1000,
};

interface DeltaSubscriber {
  queue: BoundedQueue<QueueFeedEvent>;
  /** Delta types this subscriber receives (all when null); the others only move its watermark. */
  types: ReadonlySet<string> | null;
  /** Highest sequence handed to this subscriber. */
  watermark: number;
  /** Live deltas held back while the replay is being prepared. */
  pending: EngineDelta[] | null;
}

interface StatusSubscriber {
  queue: BoundedQueue<StatusTick>;
  lastEmit: number;
  timer: NodeJS.Timeout | null;
}

class TenantChannel {
  readonly replay: ReplayBuffer<EngineDelta>;
  readonly deltaSubscribers = new Set<DeltaSubscriber>();
  readonly statusSubscribers = new Set<StatusSubscriber>();
  /** Bumped on every change that can alter the status. */
  version = 0;
  /** The tick of the current version, shared by all status subscribers. */
  tick: StatusTick;
  readonly sharedValues = new Map<string, { version: number; value: Promise<unknown> }>();
  /** Set while status ticks wait for the current burst of changes to end. */
  ticksPending: NodeJS.Immediate | null = null;
  /** Deltas that arrive in parts. */
  readonly parts = new PartAssembler();
  unsubscribe: () => void = () => undefined;

  constructor(
    readonly tenant: string,
    replayCapacity: number,
  ) {
    this.replay = new ReplayBuffer(replayCapacity);
    this.tick = { shared: true, tenant, version: 0 };
  }
}

/** Implements the schema's `LiveFeeds` over an `EventBus`. */
export class LiveHub implements LiveFeeds {
  private readonly channels = new Map<string, TenantChannel>();
  private readonly options: LiveHubOptions;
  private readonly systemEventFeed: SystemEventFeed | null;
  private readonly launcherChangeFeed: TableFeed<LauncherChangeRecord, LauncherChangeItem> | null;
  private closed = false;

  constructor(
    private readonly bus: EventBus,
    private readonly store: LiveStore,
    options: Partial<LiveHubOptions> = {},
    private readonly now: () => number = Date.now,
    onError: (error: unknown) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_LIVE_HUB_OPTIONS, ...options };
    this.systemEventFeed = store.systemEvents
      ? new SystemEventFeed(store.systemEvents, { pollIntervalMs: this.options.systemEventPollMs }, now, onError)
      : null;
    this.launcherChangeFeed = store.launcherChanges
      ? new TableFeed<LauncherChangeRecord, LauncherChangeItem>(
          store.launcherChanges,
          {
            keysOf: () => [ALL],
            item: (change) => ({ kind: 'change', change }),
            overflow: () => ({ kind: 'overflow' }),
          },
          { pollIntervalMs: this.options.launcherChangePollMs },
          now,
          onError,
        )
      : null;
  }

  /** Start listening to a tenant now, so its replay buffer fills before the first subscriber. */
  watch(tenant: string): void {
    this.channel(tenant);
  }

  async queueEvents(
    tenant: string,
    afterSeq: number | null,
    types?: ReadonlyArray<EngineDelta['type']>,
  ): Promise<AsyncIterableIterator<QueueFeedEvent>> {
    const channel = this.channel(tenant);
    const subscriber: DeltaSubscriber = {
      types: types ? new Set(types) : null,
      watermark: afterSeq ?? -1,
      pending: afterSeq === null ? null : [],
      queue: new BoundedQueue<QueueFeedEvent>({
        capacity: this.options.subscriberCapacity,
        onOverflow: (_backlog, incoming) => [
          {
            kind: 'resnapshot',
            reason: 'SLOW_CONSUMER',
            tenant,
            sequence: incoming.kind === 'delta' ? incoming.delta.sequence : incoming.sequence,
          },
        ],
        onClose: () => channel.deltaSubscribers.delete(subscriber),
      }),
    };
    channel.deltaSubscribers.add(subscriber);
    if (afterSeq === null) {
      return subscriber.queue;
    }
    // Listen first, then read what the store committed: nothing can fall between the two.
    await this.bus.ready();
    const committed = await this.store.committedSequence(tenant);
    const missed = channel.replay.since(afterSeq, committed);
    if (missed === null) {
      subscriber.queue.push({ kind: 'resnapshot', reason: 'REPLAY_UNAVAILABLE', tenant, sequence: committed });
      subscriber.watermark = Math.max(subscriber.watermark, committed);
    } else {
      for (const delta of missed) {
        this.deliver(subscriber, delta);
      }
    }
    for (const delta of subscriber.pending ?? []) {
      this.deliver(subscriber, delta);
    }
    subscriber.pending = null;
    return subscriber.queue;
  }

  statusChanges(tenant: string): AsyncIterableIterator<StatusTick> {
    const channel = this.channel(tenant);
    const subscriber: StatusSubscriber = {
      lastEmit: this.now(),
      timer: null,
      queue: new BoundedQueue<StatusTick>({
        capacity: 1,
        onOverflow: (_backlog, incoming) => [incoming],
        onClose: () => {
          if (subscriber.timer) {
            clearTimeout(subscriber.timer);
          }
          channel.statusSubscribers.delete(subscriber);
        },
      }),
    };
    channel.statusSubscribers.add(subscriber);
    subscriber.queue.push(channel.tick);
    return subscriber.queue;
  }

  systemEvents(tenant: string): Promise<AsyncIterableIterator<SystemEventItem>> {
    if (!this.systemEventFeed) {
      return Promise.reject(new Error('System events are not available in this process'));
    }
    this.channel(tenant); // the tenant's changes wake the reader
    return this.systemEventFeed.subscribe(tenant);
  }

  launcherChanges(): Promise<AsyncIterableIterator<LauncherChangeItem>> {
    if (!this.launcherChangeFeed) {
      return Promise.reject(new Error('Node and nodeset request changes are not available in this process'));
    }
    return this.launcherChangeFeed.subscribe(ALL);
  }

  shared<T>(tenant: string, key: string, load: () => Promise<T>): Promise<T> {
    const channel = this.channel(tenant);
    const cached = channel.sharedValues.get(key);
    if (cached && cached.version === channel.version) {
      return cached.value as Promise<T>;
    }
    const value = load();
    channel.sharedValues.set(key, { version: channel.version, value });
    value.catch(() => channel.sharedValues.delete(key));
    return value;
  }

  async statusChanged(tenant: string): Promise<void> {
    await this.bus.publish(tenantTopic(tenant), { kind: LIVE_MESSAGE_KINDS.statusChanged, data: null });
  }

  /** Subscriber counts (benchmarks, diagnostics). */
  stats(): { tenants: number; deltaSubscribers: number; statusSubscribers: number; systemEventSubscribers: number } {
    let deltaSubscribers = 0;
    let statusSubscribers = 0;
    for (const channel of this.channels.values()) {
      deltaSubscribers += channel.deltaSubscribers.size;
      statusSubscribers += channel.statusSubscribers.size;
    }
    return {
      tenants: this.channels.size,
      deltaSubscribers,
      statusSubscribers,
      systemEventSubscribers: this.systemEventFeed?.subscriberTotal() ?? 0,
    };
  }

  /** End every subscription and stop listening to the bus. */
  close(): void {
    this.closed = true;
    this.systemEventFeed?.close();
    this.launcherChangeFeed?.close();
    for (const channel of this.channels.values()) {
      channel.unsubscribe();
      if (channel.ticksPending) {
        clearImmediate(channel.ticksPending);
      }
      for (const subscriber of [...channel.deltaSubscribers]) {
        subscriber.queue.close();
      }
      for (const subscriber of [...channel.statusSubscribers]) {
        subscriber.queue.close();
      }
    }
    this.channels.clear();
  }

  /** The channel of a tenant; its bus topic stays subscribed so the replay buffer keeps filling. */
  private channel(tenant: string): TenantChannel {
    const existing = this.channels.get(tenant);
    if (existing) {
      return existing;
    }
    const channel = new TenantChannel(tenant, this.options.replayCapacity);
    if (!this.closed) {
      channel.unsubscribe = this.bus.subscribe(tenantTopic(tenant), (message) =>
        this.receive(tenant, channel, message),
      );
    }
    this.channels.set(tenant, channel);
    return channel;
  }

  private receive(tenant: string, channel: TenantChannel, message: BusMessage): void {
    switch (message.kind) {
      case LIVE_MESSAGE_KINDS.queueDelta:
      case LIVE_MESSAGE_KINDS.queueDeltaPart: {
        const delta = message.kind === LIVE_MESSAGE_KINDS.queueDelta ? message.data : channel.parts.add(message.data);
        if (delta === null) {
          return;
        }
        if (!isEngineDelta(delta) || delta.tenant !== tenant) {
          return;
        }
        if (!channel.replay.push(delta)) {
          return; // duplicate
        }
        for (const subscriber of channel.deltaSubscribers) {
          if (subscriber.pending) {
            subscriber.pending.push(delta);
          } else {
            this.deliver(subscriber, delta);
          }
        }
        this.changed(channel);
        return;
      }
      case LIVE_MESSAGE_KINDS.statusChanged:
        this.changed(channel);
        return;
      default:
        return;
    }
  }

  private deliver(subscriber: DeltaSubscriber, delta: EngineDelta): void {
    if (delta.sequence <= subscriber.watermark) {
      return;
    }
    if (subscriber.watermark >= 0 && delta.sequence !== subscriber.watermark + 1) {
      // This process missed deltas in between (bus loss): the client cannot stay consistent.
      subscriber.queue.push({
        kind: 'resnapshot',
        reason: 'SEQUENCE_GAP',
        tenant: delta.tenant,
        sequence: delta.sequence - 1,
      });
    }
    subscriber.watermark = delta.sequence;
    if (subscriber.types === null || subscriber.types.has(delta.type)) {
      subscriber.queue.push({ kind: 'delta', delta });
    }
  }

  /**
   * A status-relevant change: bump the version, and schedule the status ticks once the burst
   * of messages it belongs to is in (a scheduler pass publishes several deltas back to back;
   * ticking on the first would send every subscriber the same status twice).
   */
  private changed(channel: TenantChannel): void {
    void this.systemEventFeed?.nudge(); // a change often comes with system events
    void this.launcherChangeFeed?.nudge(); // and with node requests
    channel.version += 1;
    channel.tick = { shared: true, tenant: channel.tenant, version: channel.version };
    if (channel.ticksPending) {
      return;
    }
    channel.ticksPending = setImmediate(() => {
      channel.ticksPending = null;
      this.scheduleTicks(channel);
    });
  }

  /** Emit to each status subscriber now, or when its coalescing interval has passed. */
  private scheduleTicks(channel: TenantChannel): void {
    const now = this.now();
    for (const subscriber of channel.statusSubscribers) {
      if (subscriber.timer) {
        continue; // a tick is already scheduled and will carry the latest version
      }
      const wait = subscriber.lastEmit + this.options.statusIntervalMs - now;
      if (wait <= 0) {
        this.tick(channel, subscriber);
      } else {
        subscriber.timer = setTimeout(() => this.tick(channel, subscriber), wait);
      }
    }
  }

  private tick(channel: TenantChannel, subscriber: StatusSubscriber): void {
    subscriber.timer = null;
    subscriber.lastEmit = this.now();
    subscriber.queue.replace(channel.tick);
  }
}
