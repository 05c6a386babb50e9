/**
 * The live tenant status: one snapshot (`Tenant.status`, with its `sequence`), then the queue
 * deltas of `queueEvents(afterSeq)` applied as they arrive (docs/live.md#building-a-live-view).
 * Every status change the page shows goes through this module, so a change of the delta feed
 * stays local to it. Tenant-level changes that no queue delta carries (pausing the event queues,
 * a reconfiguration) arrive as system events and trigger a new snapshot. Applying a delta replaces the touched pipeline but keeps the objects of
 * items and queues that did not change, so memoized rows keyed by item skip re-rendering.
 */
import { request, subscribe, onConnectionChange, RequestError } from '../api/client';
import {
  QueueDeltasDocument,
  StatusSnapshotDocument,
  TenantLevelEventsDocument,
  type QueueDeltasSubscription,
  type StatusPipelineFieldsFragment,
  type StatusItemFieldsFragment,
  type TenantQueueStateFieldsFragment,
} from '../generated/graphql';

export type PipelineStatus = StatusPipelineFieldsFragment;
export type QueueStatus = PipelineStatus['changeQueues'][number];
export type ItemStatus = StatusItemFieldsFragment;
export type JobStatus = ItemStatus['jobs'][number];
export type TenantQueueState = TenantQueueStateFieldsFragment;

export interface StatusView {
  /** Sequence of the last delta applied (or of the snapshot). */
  sequence: number;
  pipelines: readonly PipelineStatus[];
  state: TenantQueueState | null;
  eventQueues: { trigger: number; management: number; result: number };
  lastReconfiguredAt: string | null;
  /** Live deltas are flowing (false while reconnecting or re-reading the snapshot). */
  live: boolean;
  error: RequestError | null;
}

const EMPTY: StatusView = {
  sequence: -1,
  pipelines: [],
  state: null,
  eventQueues: { trigger: 0, management: 0, result: 0 },
  lastReconfiguredAt: null,
  live: false,
  error: null,
};

type Delta = QueueDeltasSubscription['queueEvents'];

/** Keep `previous` where `next` is equal to it (compared by value), so unchanged parts keep their identity. */
function reuse<T>(previous: T | undefined, next: T, signature: (value: T) => string): T {
  return previous !== undefined && signature(previous) === signature(next) ? previous : next;
}

const itemSignature = (item: ItemStatus): string => JSON.stringify(item);

/** `next` with the unchanged items and queues of `previous` kept as they were. */
export function reconcilePipeline(previous: PipelineStatus | undefined, next: PipelineStatus): PipelineStatus {
  if (previous === undefined) {
    return next;
  }
  const oldItems = new Map<string, ItemStatus>();
  for (const queue of previous.changeQueues) {
    for (const head of queue.heads) {
      for (const item of head) {
        oldItems.set(item.id, item);
      }
    }
  }
  let changed = false;
  const queues = next.changeQueues.map((queue, index) => {
    const heads = queue.heads.map((head) => head.map((item) => reuse(oldItems.get(item.id), item, itemSignature)));
    const old = previous.changeQueues[index];
    const same =
      old !== undefined &&
      old.name === queue.name &&
      old.window === queue.window &&
      old.branch === queue.branch &&
      old.heads.length === heads.length &&
      old.heads.every((head, h) => head.length === heads[h].length && head.every((item, i) => item === heads[h][i]));
    changed ||= !same;
    return same ? old : { ...queue, heads };
  });
  const { changeQueues: _a, ...restNext } = next;
  const { changeQueues: _b, ...restOld } = previous;
  if (
    !changed &&
    queues.length === previous.changeQueues.length &&
    JSON.stringify(restNext) === JSON.stringify(restOld)
  ) {
    return previous;
  }
  return { ...next, changeQueues: queues };
}

/** Apply one delta to a view; returns the same object when nothing changed. */
export function applyDelta(view: StatusView, delta: Delta): StatusView {
  if (delta.__typename === 'ResnapshotRequired' || delta.sequence <= view.sequence) {
    return view;
  }
  let next: StatusView = { ...view, sequence: delta.sequence };
  if ('pipelineStatus' in delta && delta.pipelineStatus) {
    const status = delta.pipelineStatus;
    const index = view.pipelines.findIndex((p) => p.name === status.name);
    const pipelines = [...view.pipelines];
    if (index < 0) {
      pipelines.push(status);
    } else {
      pipelines[index] = reconcilePipeline(view.pipelines[index], status);
    }
    next = { ...next, pipelines };
  }
  if (delta.__typename === 'TenantStateChanged' && delta.state) {
    next = { ...next, state: delta.state };
  }
  return next;
}

/** One tenant's live status as an external store for React's useSyncExternalStore. */
export class LiveStatus {
  private view: StatusView = EMPTY;
  private readonly listeners = new Set<() => void>();
  private stopDeltas: (() => void) | undefined;
  private stopTenantEvents: (() => void) | undefined;
  private stopWatchingConnection: (() => void) | undefined;
  private running = false;
  private snapshotting: Promise<void> | undefined;
  private snapshotAgain = false;

  constructor(private readonly tenant: string) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.start();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.stop();
      }
    };
  };

  readonly getSnapshot = (): StatusView => this.view;

  private set(view: StatusView): void {
    if (view !== this.view) {
      this.view = view;
      this.listeners.forEach((listener) => listener());
    }
  }

  private start(): void {
    this.running = true;
    // After a dropped connection, resume from the last delta applied rather than the first subscription's.
    this.stopWatchingConnection = onConnectionChange((connected) => {
      if (!this.running) {
        return;
      }
      this.set({ ...this.view, live: connected });
      if (!connected) {
        this.followDeltas();
      }
    });
    void this.resnapshot().then(() => this.followDeltas());
    this.stopTenantEvents = subscribe(
      TenantLevelEventsDocument,
      { tenant: this.tenant },
      { next: () => void this.resnapshot(), error: () => undefined },
    );
  }

  private stop(): void {
    this.running = false;
    this.stopDeltas?.();
    this.stopDeltas = undefined;
    this.stopTenantEvents?.();
    this.stopWatchingConnection?.();
  }

  /** Read the whole status again; deltas keep being applied on top of it. A request while a read runs reads once more after it. */
  private resnapshot(): Promise<void> {
    if (this.snapshotting !== undefined) {
      this.snapshotAgain = true;
      return this.snapshotting;
    }
    this.snapshotting = this.readSnapshot().finally(() => {
      this.snapshotting = undefined;
      if (this.snapshotAgain) {
        this.snapshotAgain = false;
        void this.resnapshot();
      }
    });
    return this.snapshotting;
  }

  private async readSnapshot(): Promise<void> {
    try {
      const data = await request(StatusSnapshotDocument, { tenant: this.tenant });
      if (data.tenant?.__typename !== 'Tenant') {
        throw new RequestError(
          data.tenant && 'message' in data.tenant ? data.tenant.message : 'Tenant not found',
          'NOT_FOUND',
        );
      }
      const status = data.tenant.status;
      if (status?.__typename !== 'TenantStatus') {
        throw new RequestError(status && 'message' in status ? status.message : 'No status', 'NOT_FOUND');
      }
      const previous = new Map(this.view.pipelines.map((p) => [p.name, p]));
      this.set({
        // Read before the content: deltas after it are applied again, which is idempotent.
        sequence: status.sequence,
        pipelines: status.pipelines.map((p) => reconcilePipeline(previous.get(p.name), p)),
        state: status.state,
        eventQueues: {
          trigger: status.triggerEventQueue.length,
          management: status.managementEventQueue.length,
          result: status.resultEventQueue.length,
        },
        lastReconfiguredAt: status.lastReconfiguredAt ?? null,
        live: this.view.live,
        error: null,
      });
    } catch (err) {
      this.set({ ...this.view, error: err instanceof RequestError ? err : new RequestError(String(err)) });
    }
  }

  private followDeltas(): void {
    this.stopDeltas?.();
    if (!this.running) {
      return;
    }
    this.stopDeltas = subscribe(
      QueueDeltasDocument,
      { tenant: this.tenant, afterSeq: this.view.sequence < 0 ? null : this.view.sequence },
      {
        next: (data) => {
          const delta = data.queueEvents;
          if (delta.__typename === 'ResnapshotRequired') {
            void this.resnapshot();
            return;
          }
          this.set(applyDelta(this.view, delta));
        },
        error: (error) => this.set({ ...this.view, live: false, error }),
      },
    );
  }
}

const stores = new Map<string, LiveStatus>();

/** The shared live status of a tenant (one subscription however many components read it). */
export function liveStatus(tenant: string): LiveStatus {
  let store = stores.get(tenant);
  if (store === undefined) {
    store = new LiveStatus(tenant);
    stores.set(tenant, store);
  }
  return store;
}
