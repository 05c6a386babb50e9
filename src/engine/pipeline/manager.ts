/**
 * One pipeline's manager (docs/gating.md#managers, docs/gating.md#enqueue, docs/gating.md#queue-pass,
 * docs/gating.md#windows, docs/gating.md#speculative-gating-in-a-dependent-queue, docs/gating.md#reporting,
 * docs/gating.md#leaving-a-pipeline): the pipeline's configuration and state with its manager kind's strategy, and the
 * operations the scheduler asks of it. Each operation lives in its own module of this folder.
 */
import type { ChangeInfo } from '../../model/changes';
import type { DequeueReason, ItemState, PipelineState, QueueState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import type { EngineLayout, EnginePipeline } from '../ports/layout';
import { dequeueUnmetRequirements, removeAbandonedChange } from './change-updates';
import { removeChangedCycles } from './cycle-updates';
import { addChange } from './enqueue';
import { enforceDependencyLimit, removeItem, removeOldPatchsets } from './leaving';
import { promote } from './promote';
import { processQueues } from './queue-pass';
import { allItems } from './queues';
import { strategyFor } from './strategies';
import type { AddChangeOptions, AddChangeResult, ManagedPipeline, ManagerStrategy } from './types';

export class PipelineManager implements ManagedPipeline {
  readonly strategy: ManagerStrategy;

  constructor(
    readonly config: EnginePipeline,
    readonly state: PipelineState,
    readonly layout: EngineLayout,
  ) {
    this.strategy = strategyFor(config.manager);
  }

  get name(): string {
    return this.config.name;
  }

  /** Every live and non-live item of the pipeline, queue by queue. */
  allItems(): Array<{ queue: QueueState; item: ItemState }> {
    return allItems(this);
  }

  /** Enqueue a change and, unless ignored, the changes it needs (docs/gating.md#enqueue). */
  addChange(ctx: PassContext, change: ChangeInfo, options: AddChangeOptions): Promise<AddChangeResult> {
    return addChange(this, ctx, change, options);
  }

  /** Repeat queue passes until nothing changes (docs/gating.md#event-processing); true when anything did. */
  processQueues(ctx: PassContext): Promise<boolean> {
    return processQueues(this, ctx);
  }

  /** Cancel an item's jobs, record DEQUEUED and take it out (docs/gating.md#leaving-a-pipeline). */
  removeItem(ctx: PassContext, queue: QueueState, item: ItemState, reason: DequeueReason): Promise<boolean> {
    return removeItem(this, ctx, queue, item, reason);
  }

  /**
   * Remove live items holding an older patchset of the change (dequeue-on-new-patchset); the other
   * members of a removed cycle item are enqueued again as they are now, requirements not checked,
   * as an admin enqueue is (the reference's re-enqueue, docs/gating.md#dependency-cycles).
   */
  async removeOldPatchsets(ctx: PassContext, change: ChangeInfo): Promise<void> {
    await this.enqueueAgain(ctx, await removeOldPatchsets(this, ctx, change));
  }

  /**
   * Items whose dependency cycle gained or lost a change, read again for an event of `change`,
   * leave; their changes are enqueued again as they are now (docs/gating.md#dependency-cycles).
   */
  async removeChangedCycles(ctx: PassContext, change: ChangeInfo): Promise<void> {
    await this.enqueueAgain(ctx, await removeChangedCycles(this, ctx, change));
  }

  /** Enqueue changes again as they are now (merged ones left out), as an admin enqueue: the reference's re-enqueue. */
  private async enqueueAgain(ctx: PassContext, changes: readonly ChangeInfo[]): Promise<void> {
    for (const other of changes) {
      const current = other.number === null ? null : await ctx.gateways.changes.getChange(other.project, other.number);
      if (current === null || current.merged) {
        continue;
      }
      await addChange(this, ctx, current, {
        live: true,
        quiet: false,
        eventId: null,
        eventTimestamp: ctx.nowIso(),
        ignoreRequirements: true,
      });
    }
  }

  /** Live items holding an abandoned (closed) change leave. */
  removeAbandonedChange(ctx: PassContext, change: ChangeInfo): Promise<void> {
    return removeAbandonedChange(this, ctx, change);
  }

  /** Live items holding the change leave when it, as just read, no longer meets the requirements. */
  dequeueUnmetRequirements(ctx: PassContext, change: ChangeInfo): Promise<void> {
    return dequeueUnmetRequirements(this, ctx, change);
  }

  /** After a new layout: items over the tenant's `max-dependencies` leave. */
  enforceDependencyLimit(ctx: PassContext): Promise<void> {
    return enforceDependencyLimit(this, ctx);
  }

  /** After a new layout: the queues take over what they keep from the pipeline's configuration. */
  reconfigureQueues(): void {
    for (const queue of this.state.queues) {
      this.strategy.reconfigureQueue(queue, this.config);
    }
  }

  /** Promote items to the head of their queues; returns how many running builds were restarted. */
  promote(ctx: PassContext, items: Array<{ queue: QueueState; item: ItemState }>): Promise<number> {
    return promote(this, ctx, items);
  }
}
