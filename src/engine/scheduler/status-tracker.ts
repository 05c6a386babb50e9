/**
 * The status as the last committed pass left it (docs/live.md#the-delta-protocol), kept by the
 * scheduler so each pass can publish what it changed: a projection of the stored status, the
 * diff of the next pass against it, and the commit that makes the next projection current once
 * the pass's transaction has committed. After a failed pass (or a restart) the scheduler
 * reloads the store and the tracker starts again from what the store holds.
 */
import type { DequeueReason, PipelineState } from '../../model/pipeline-state';
import type { TenantEngineRecord } from '../../store/repositories/engine-state';
import type { EngineLayout } from '../ports/layout';
import { itemFields } from '../status';
import { diffStatus, type ProjectedItem, type StatusChange, type StatusProjection } from '../status-diff';

/**
 * The projection of what the store holds: layout pipelines in order, each with its stored state.
 * Item fields are recomputed only for the items the pass wrote (`written`); the others are
 * stored unchanged, so their fields are those of the previous projection.
 */
function project(
  layout: EngineLayout,
  pipelines: ReadonlyMap<string, PipelineState>,
  record: TenantEngineRecord,
  webRoot: string | null,
  previous: StatusProjection | null,
  written: ReadonlySet<string> | null,
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
        for (const item of queue.items) {
          const kept = written?.has(item.uuid) ? undefined : previous?.items.get(item.uuid);
          items.set(item.uuid, {
            pipeline: config.name,
            queue: queue.id,
            fields: kept?.fields ?? itemFields(item, webRoot),
          });
        }
        return {
          fields: { key: queue.id, name: queue.name, branch: queue.branch, window: queue.window },
          items: queue.items.map((item) => item.uuid),
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

  constructor(private readonly webRoot: () => string | null) {}

  /** Forget everything (the held state was reloaded from the store). */
  reset(): void {
    this.committed = null;
    this.pending = null;
  }

  /** Before a pass: take the held state (as loaded from the store) as the baseline when there is none. */
  baseline(layout: EngineLayout, pipelines: ReadonlyMap<string, PipelineState>, record: TenantEngineRecord): void {
    if (this.committed === null) {
      this.committed = project(layout, pipelines, record, this.webRoot(), null, null);
    }
  }

  /** At the end of a pass, once its writes are done: what changed; current after `commit`. */
  changes(
    layout: EngineLayout,
    pipelines: ReadonlyMap<string, PipelineState>,
    record: TenantEngineRecord,
    written: ReadonlySet<string>,
    dequeueReasons: ReadonlyMap<string, DequeueReason>,
  ): StatusChange[] {
    const next = project(layout, pipelines, record, this.webRoot(), this.committed, written);
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
