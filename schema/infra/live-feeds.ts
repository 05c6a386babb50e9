/**
 * The port through which subscription fields reach live data. `subscriptions/live` implements
 * it over the event bus; the schema only sees these feeds.
 */
import type { EngineDelta } from '../../src/engine/event-bus';
import type { LauncherChangeRecord } from '../../src/store/repositories/launcher-changes';
import type { SystemEventRecord } from '../../src/store/repositories/system-events';

/** Why a queue-event stream asks the client to take a new snapshot. */
export type ResnapshotReason = 'REPLAY_UNAVAILABLE' | 'SLOW_CONSUMER' | 'SEQUENCE_GAP';

export type QueueFeedEvent =
  | { kind: 'delta'; delta: EngineDelta }
  | { kind: 'resnapshot'; reason: ResnapshotReason; tenant: string; sequence: number };

/** A status change of a tenant: one object per tenant state version, shared by every subscriber (its execution result may be shared too). */
export interface StatusTick {
  readonly shared: true;
  readonly tenant: string;
  readonly version: number;
}

/** A system event as delivered: one object per event, shared by every subscriber of its tenant. */
export interface SystemEventTick {
  readonly shared: true;
  readonly record: SystemEventRecord;
}

/** An event, or the sign that this subscriber fell too far behind and lost events. */
export type SystemEventItem = { kind: 'event'; tick: SystemEventTick } | { kind: 'overflow'; tenant: string };

/** A write of a node or nodeset request (any tenant), or the sign that this subscriber fell too far behind. */
export type LauncherChangeItem = { kind: 'change'; change: LauncherChangeRecord } | { kind: 'overflow' };

export interface LiveFeeds {
  /**
   * Engine deltas of a tenant (all types, or only `types`). With `afterSeq`, first the deltas
   * after it (from the replay buffer) or a resnapshot event when they are no longer available,
   * then live deltas.
   */
  queueEvents(
    tenant: string,
    afterSeq: number | null,
    types?: ReadonlyArray<EngineDelta['type']>,
  ): Promise<AsyncIterableIterator<QueueFeedEvent>>;
  /**
   * Coalesced "the status changed" ticks: one at once, then at most one per interval while
   * changes happen. A slow consumer only ever has the latest tick pending.
   */
  statusChanges(tenant: string): AsyncIterableIterator<StatusTick>;
  /** Every system event of a tenant recorded from now on, once each, in the order they become visible. */
  systemEvents(tenant: string): Promise<AsyncIterableIterator<SystemEventItem>>;
  /** Every write of a node or nodeset request from now on (all tenants), once each, in the order they become visible. */
  launcherChanges(): Promise<AsyncIterableIterator<LauncherChangeItem>>;
  /** Load a value once per tenant state version and share it between all subscribers. */
  shared<T>(tenant: string, key: string, load: () => Promise<T>): Promise<T>;
  /** Tell every process that a tenant's status changed outside a scheduler pass. */
  statusChanged(tenant: string): Promise<void>;
}
