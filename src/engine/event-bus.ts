/**
 * Typed engine deltas published after each committed scheduler pass, with a tenant-wide
 * monotonically increasing sequence number (persisted, so it keeps growing across restarts).
 * The Live subscriptions consume them; the in-process bus is the default implementation.
 */
import type { BuildResult, BuildsetResult } from '../model/results';
import type { DequeueReason, JobWaitReason } from '../model/pipeline-state';
import type { StatusChange } from './status-diff';

export type EngineDeltaBody =
  | { type: 'item-enqueued'; pipeline: string; queue: string; itemUuid: string; changeIds: string[]; live: boolean }
  | { type: 'item-moved'; pipeline: string; queue: string; itemUuid: string; itemAhead: string | null }
  | { type: 'item-dequeued'; pipeline: string; queue: string; itemUuid: string; reason: DequeueReason }
  | { type: 'item-reported'; pipeline: string; itemUuid: string; result: BuildsetResult; message: string }
  | {
      type: 'job-waiting';
      pipeline: string;
      itemUuid: string;
      job: string;
      reason: JobWaitReason;
      status: string | null;
    }
  | { type: 'job-started'; pipeline: string; itemUuid: string; job: string; buildUuid: string }
  /** A build paused after its run phase, waiting for its dependent jobs. */
  | { type: 'job-paused'; pipeline: string; itemUuid: string; job: string; buildUuid: string }
  /** A paused build resumed: every dependent job has completed. */
  | { type: 'job-resumed'; pipeline: string; itemUuid: string; job: string; buildUuid: string }
  | {
      type: 'job-completed';
      pipeline: string;
      itemUuid: string;
      job: string;
      buildUuid: string | null;
      result: BuildResult;
    }
  | { type: 'window-changed'; pipeline: string; queue: string; window: number }
  | { type: 'tenant-state-changed' }
  | { type: 'pipeline-state-changed'; pipeline: string; disabled: boolean }
  /** A buildset's history row was created (result null) or given its result. */
  | {
      type: 'buildset-changed';
      pipeline: string;
      buildsetId: number;
      buildsetUuid: string;
      result: BuildsetResult | null;
    }
  /**
   * Admin requests (enqueue, dequeue, promote) the pass handled, with the outcome it recorded
   * for each (`ok` or `error: <reason>`), so a client that asked learns what became of it.
   */
  | { type: 'management-events-processed'; events: Array<{ eventId: number; outcome: string }> }
  /**
   * What the pass changed in the tenant status, item by item and job by job, with the pass's
   * notices (docs/live.md#the-delta-protocol); always the last delta of its pass.
   */
  | { type: 'queue-delta'; changes: StatusChange[] };

export type EngineDelta = EngineDeltaBody & { tenant: string; sequence: number; at: string };

export interface EngineEventBus {
  publish(delta: EngineDelta): void;
  /** Listen to one tenant's deltas; returns the unsubscribe function. */
  subscribe(tenant: string, listener: (delta: EngineDelta) => void): () => void;
}

/** Delivers deltas synchronously to listeners in this process; a throwing listener is isolated. */
export class InProcessEventBus implements EngineEventBus {
  private readonly listeners = new Map<string, Set<(delta: EngineDelta) => void>>();

  publish(delta: EngineDelta): void {
    for (const listener of this.listeners.get(delta.tenant) ?? []) {
      try {
        listener(delta);
      } catch {
        // A subscriber's failure must not stall the engine.
      }
    }
  }

  subscribe(tenant: string, listener: (delta: EngineDelta) => void): () => void {
    const set = this.listeners.get(tenant) ?? new Set();
    set.add(listener);
    this.listeners.set(tenant, set);
    return () => {
      set.delete(listener);
    };
  }
}
