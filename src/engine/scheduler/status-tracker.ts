/**
 * The status as the last committed pass left it (docs/live.md#the-delta-protocol), kept by the
 * scheduler so each pass can publish what it changed: a projection of the stored status, the
 * diff of the next pass against it, and the commit that makes the next projection current once
 * the pass's transaction has committed. After a failed pass (or a restart) the scheduler
 * reloads the store and the tracker starts again from what the store holds.
 */
import type { ChangeInfo } from '../../model/changes';
import type { DequeueReason, ItemState, PipelineState } from '../../model/pipeline-state';
import type { TenantEngineRecord } from '../../store/repositories/engine-state';
import type { EstimateLookup } from '../build-estimates';
import { projectName, type EngineLayout } from '../ports/layout';
import { itemFields, type ItemFields, type StatusContext } from '../status';
import { diffStatus, type ProjectedItem, type StatusChange, type StatusProjection } from '../status-diff';
import { untracked } from './item-changes';

/** What item fields read besides the stored state, as `Engine.status` has them. */
export interface StatusSources {
  webRoot: () => string | null;
  changeUrl?: (change: ChangeInfo) => string | null;
}

/** What a pass wrote: its items, and the estimates of all started builds (null: none were read, none changed). */
interface PassWrites {
  written: ReadonlySet<string>;
  estimates: EstimateLookup | null;
}

/** Whether the estimate of a started job of `item` is no longer the one in its fields. */
function estimateChanged(fields: ItemFields, item: ItemState, estimates: EstimateLookup): boolean {
  return fields.jobs.some((job) => job.startTime !== null && job.estimatedTime !== estimates(item, job.name));
}

/**
 * The projection of what the store holds: layout pipelines in order, each with its stored state.
 * Item fields are recomputed only for the items the pass wrote and those whose estimates
 * changed; the others are stored unchanged, so their fields are those of the previous projection.
 */
function project(
  layout: EngineLayout,
  pipelines: ReadonlyMap<string, PipelineState>,
  record: TenantEngineRecord,
  context: StatusContext,
  previous: StatusProjection | null,
  writes: PassWrites | null,
): StatusProjection {
  const items = new Map<string, ProjectedItem>();
  const projected = layout.pipelines.map((config) => {
    const state = pipelines.get(config.name);
    return {
      fields: {
        name: config.name,
        description: config.description,
        state: state?.state ?? 'normal',
        manager: config.manager,
        triggers: config.triggers.map((trigger) => ({ driver: trigger.driver })),
        disabled: state?.disabled ?? false,
        consecutiveFailures: state?.consecutiveFailures ?? 0,
      },
      queues: (state?.queues ?? []).map((queue) => {
        const order: string[] = [];
        for (const tracked of queue.items) {
          // Only read: the plain data behind tracked items (./item-changes.ts).
          const item = untracked(tracked);
          order.push(item.uuid);
          let kept = writes?.written.has(item.uuid) ? undefined : previous?.items.get(item.uuid);
          if (kept && writes?.estimates && estimateChanged(kept.fields, item, writes.estimates)) {
            kept = undefined;
          }
          // An item kept where it was keeps its entry (the diff then skips it on identity).
          items.set(
            item.uuid,
            kept?.pipeline === config.name && kept.queue === queue.id
              ? kept
              : { pipeline: config.name, queue: queue.id, fields: kept?.fields ?? itemFields(item, context) },
          );
        }
        return {
          fields: { key: queue.id, name: queue.name, branch: queue.branch, window: queue.window },
          items: order,
        };
      }),
    };
  });
  return {
    tenant: {
      state: { ...record.eventQueues },
      lastReconfigured: record.lastReconfigured === null ? null : record.lastReconfigured.getTime(),
    },
    pipelines: projected,
    items,
  };
}

export class StatusTracker {
  private committed: StatusProjection | null = null;
  private pending: StatusProjection | null = null;

  constructor(private readonly sources: StatusSources) {}

  /** Whether a baseline is held (none after a reset). */
  hasBaseline(): boolean {
    return this.committed !== null;
  }

  private context(layout: EngineLayout, estimates: EstimateLookup | null): StatusContext {
    return {
      webRoot: this.sources.webRoot(),
      changeUrl: this.sources.changeUrl,
      projectName: (canonicalName) => projectName(layout, canonicalName),
      estimatedTime: estimates ?? undefined,
    };
  }

  /** Forget everything (the held state was reloaded from the store). */
  reset(): void {
    this.committed = null;
    this.pending = null;
  }

  /** Before a pass: take the held state (as loaded from the store) as the baseline when there is none. */
  baseline(
    layout: EngineLayout,
    pipelines: ReadonlyMap<string, PipelineState>,
    record: TenantEngineRecord,
    estimates: EstimateLookup,
  ): void {
    if (this.committed === null) {
      this.committed = project(layout, pipelines, record, this.context(layout, estimates), null, null);
    }
  }

  /** At the end of a pass, once its writes are done: what changed; current after `commit`. */
  changes(
    layout: EngineLayout,
    pipelines: ReadonlyMap<string, PipelineState>,
    record: TenantEngineRecord,
    writes: PassWrites,
    dequeueReasons: ReadonlyMap<string, DequeueReason>,
  ): StatusChange[] {
    const context = this.context(layout, writes.estimates);
    const next = project(layout, pipelines, record, context, this.committed, writes);
    this.pending = next;
    return diffStatus(this.committed, next, dequeueReasons);
  }

  /** The pass committed: its projection is the baseline of the next one. */
  commit(): void {
    if (this.pending !== null) {
      this.committed = this.pending;
      this.pending = null;
    }
  }
}
