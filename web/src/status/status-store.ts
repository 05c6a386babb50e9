/**
 * The live tenant status: one snapshot (`Tenant.status`, with its `sequence`), then the queue
 * deltas of `queueEvents(afterSeq)` applied as they arrive (docs/live.md#building-a-live-view,
 * web/src/status/apply-delta.ts). Every status change the page shows goes through this module,
 * so a change of the delta feed stays local to it. Tenant-level changes that no delta carries
 * (a reconfiguration's new pipelines and event counters) arrive as system events and trigger a
 * new snapshot. A delta replaces only the items, queues and pipelines it changes; the others
 * keep their objects, so memoized rows keyed by item skip re-rendering.
 */
import { request, subscribe, onConnectionChange, RequestError } from '../api/client';
import {
  QueueDeltasDocument,
  StatusEstimatesDocument,
  StatusSnapshotDocument,
  TenantLevelEventsDocument,
  type StatusPipelineFieldsFragment,
  type StatusItemFieldsFragment,
  type TenantQueueStateFieldsFragment,
} from '../generated/graphql';
import { Backoff } from '../api/backoff';
import { applyDelta, chains, type LiveDelta, type LiveModel, type LivePipeline } from './apply-delta';
import { NO_ESTIMATES, estimateKeys, estimateTable, type EstimateTable } from './estimates';

export type ItemStatus = StatusItemFieldsFragment;
export type JobStatus = ItemStatus['jobs'][number];
type SnapshotQueue = StatusPipelineFieldsFragment['changeQueues'][number];
export type QueueStatus = Omit<SnapshotQueue, 'items'> & { items: readonly ItemStatus[]; heads: ItemStatus[][] };
export type PipelineStatus = Omit<StatusPipelineFieldsFragment, 'changeQueues'> & { changeQueues: QueueStatus[] };
export type TenantQueueState = TenantQueueStateFieldsFragment;

export interface StatusView {
  /** Sequence of the last delta applied (or of the snapshot). */
  sequence: number;
  pipelines: readonly PipelineStatus[];
  state: TenantQueueState | null;
  eventQueues: { trigger: number; management: number; result: number };
  lastReconfiguredAt: string | null;
  /** The estimates of the items' jobs and items (docs/analytics.md#job-estimates). */
  estimates: EstimateTable;
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
  estimates: NO_ESTIMATES,
  live: false,
  error: null,
};

/** Estimates are read again this long after a job completes, and at most this often (they move slowly). */
const ESTIMATE_REFRESH_MS = 5_000;

/** Change types after which the history behind the estimates has grown. */
const HISTORY_CHANGES = new Set(['JobCompleted', 'ItemReported']);

/** The most keys one estimates query asks for (the server's limit). */
const MAX_KEYS = 500;

/** The page's pipeline of a model pipeline: its queues with their chains (memoized per object). */
const viewOf = new WeakMap<LivePipeline, PipelineStatus>();

function pipelineView(pipeline: LivePipeline): PipelineStatus {
  let view = viewOf.get(pipeline);
  if (view === undefined) {
    const typed = pipeline as unknown as Omit<PipelineStatus, 'changeQueues'> & { changeQueues: SnapshotQueue[] };
    view = {
      ...typed,
      changeQueues: typed.changeQueues.map((queue) => ({ ...queue, heads: chains(queue.items) })),
    };
    viewOf.set(pipeline, view);
  }
  return view;
}

/** The model of the view (what deltas apply to). */
function modelOf(view: StatusView): LiveModel {
  return {
    sequence: view.sequence,
    tenant: { state: view.state, lastReconfiguredAt: view.lastReconfiguredAt },
    pipelines: view.pipelines as unknown as LivePipeline[],
  };
}

/** Apply one delta to a view; returns the same object when nothing changed. */
export function applyStatusDelta(view: StatusView, delta: LiveDelta): StatusView {
  const model = modelOf(view);
  const next = applyDelta(model, delta);
  if (next === model) {
    return view;
  }
  const unchanged = new Set(view.pipelines);
  return {
    ...view,
    sequence: next.sequence,
    pipelines: next.pipelines.map((pipeline) =>
      unchanged.has(pipeline as unknown as PipelineStatus)
        ? (pipeline as unknown as PipelineStatus)
        : pipelineView(pipeline),
    ),
    state: (next.tenant.state as TenantQueueState | null) ?? null,
    lastReconfiguredAt: (next.tenant.lastReconfiguredAt as string | null | undefined) ?? null,
  };
}

/**
 * One tenant's live status as an external store for React's useSyncExternalStore. It reads the
 * snapshot first and subscribes only once the tenant is readable; a tenant that does not exist
 * (or cannot be read) and a subscription that ends with an error are tried again after a growing
 * pause (api/backoff.ts), never at once: an open page costs the server at most one attempt per
 * pause.
 */
export class LiveStatus {
  private view: StatusView = EMPTY;
  private readonly listeners = new Set<() => void>();
  private stopDeltas: (() => void) | undefined;
  private stopTenantEvents: (() => void) | undefined;
  private stopWatchingConnection: (() => void) | undefined;
  private running = false;
  private snapshotting: Promise<void> | undefined;
  private snapshotAgain = false;
  /** The last snapshot read found the tenant and its status. */
  private readable = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly backoff = new Backoff();
  private estimateTimer: ReturnType<typeof setTimeout> | undefined;

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
      if (!connected && this.stopDeltas !== undefined) {
        this.followDeltas();
      }
    });
    void this.connect();
  }

  private stop(): void {
    this.running = false;
    this.unfollow();
    clearTimeout(this.retry);
    this.retry = undefined;
    this.stopWatchingConnection?.();
    clearTimeout(this.estimateTimer);
    this.estimateTimer = undefined;
  }

  /** Read the snapshot; then follow the tenant live, or try again after a pause when it cannot be read. */
  private async connect(): Promise<void> {
    await this.resnapshot();
    if (!this.running) {
      return;
    }
    if (!this.readable) {
      this.later();
      return;
    }
    this.stopTenantEvents = subscribe(
      TenantLevelEventsDocument,
      { tenant: this.tenant },
      { next: () => void this.resnapshot(), error: (error) => this.lost(error) },
    );
    this.followDeltas();
  }

  private unfollow(): void {
    this.stopDeltas?.();
    this.stopDeltas = undefined;
    this.stopTenantEvents?.();
    this.stopTenantEvents = undefined;
  }

  /** A subscription ended with an error: say so, drop both, and start again after a pause. */
  private lost(error: RequestError): void {
    this.unfollow();
    this.set({ ...this.view, live: false, error });
    this.later();
  }

  private later(): void {
    if (this.retry !== undefined || !this.running) {
      return;
    }
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.running) {
        void this.connect();
      }
    }, this.backoff.next());
  }

  /** Read the estimates again a little later (once for any number of completions meanwhile). */
  private refreshEstimatesSoon(): void {
    if (this.estimateTimer !== undefined || !this.running) {
      return;
    }
    this.estimateTimer = setTimeout(() => {
      void this.refreshEstimates().finally(() => {
        this.estimateTimer = undefined;
      });
    }, ESTIMATE_REFRESH_MS);
  }

  private async refreshEstimates(): Promise<void> {
    const keys = estimateKeys(this.view.pipelines).slice(0, MAX_KEYS);
    try {
      const data = await request(StatusEstimatesDocument, { tenant: this.tenant, keys });
      const list = data.tenant?.__typename === 'Tenant' ? data.tenant.estimates : null;
      if (list?.__typename === 'EstimateList' && this.running) {
        this.set({ ...this.view, estimates: estimateTable(list.estimates) });
      }
    } catch {
      // The ranges keep the previous estimates; the next completion tries again.
    }
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
        throw new RequestError(`There is no tenant ${this.tenant} here.`, 'NOT_FOUND');
      }
      const status = data.tenant.status;
      if (status?.__typename !== 'TenantStatus') {
        throw new RequestError(status && 'message' in status ? status.message : 'No status', 'NOT_FOUND');
      }
      this.readable = true;
      this.set({
        // The snapshot and its sequence are read together: deltas after it apply on top.
        sequence: status.sequence,
        pipelines: status.pipelines.map((p) => pipelineView(p as unknown as LivePipeline)),
        state: status.state,
        eventQueues: {
          trigger: status.triggerEventQueue.length,
          management: status.managementEventQueue.length,
          result: status.resultEventQueue.length,
        },
        lastReconfiguredAt: status.lastReconfiguredAt ?? null,
        estimates: estimateTable(status.estimates),
        live: this.view.live,
        error: null,
      });
    } catch (err) {
      this.readable = false;
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
          this.backoff.reset();
          const delta = data.queueEvents;
          if (delta.__typename === 'ResnapshotRequired') {
            void this.resnapshot();
            return;
          }
          this.set(applyStatusDelta(this.view, delta as unknown as LiveDelta));
          if (delta.changes.some((change) => HISTORY_CHANGES.has(change.__typename))) {
            this.refreshEstimatesSoon();
          }
        },
        error: (error) => this.lost(error),
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
