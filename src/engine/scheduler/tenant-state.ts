/**
 * The tenant's pipeline state as the scheduler holds it between passes: loaded from the store
 * on start (and after a failed pass), saved at the end of each pass. Items mark themselves
 * changed (./item-changes.ts); a pass writes the marked, new and moved ones, and of those only
 * the ones whose JSON differs from what was last saved, and of their rows only the parts that
 * differ (src/store/repositories/item-rows.ts).
 */
import type { Knex } from 'knex';
import type { DequeueReason, ItemState, PipelineState } from '../../model/pipeline-state';
import { type EngineStateRepository, type TenantEngineRecord } from '../../store/repositories/engine-state';
import { itemTexts, sameTexts, staleParts, type ItemSave, type ItemTexts } from '../../store/repositories/item-rows';
import type { PassContext } from '../pass-context';
import { PipelineManager } from '../pipeline/manager';
import type { EngineLayout } from '../ports/layout';
import { StatusTracker, type StatusSources } from './status-tracker';
import {
  DurationSampleRepository,
  withRunsAppended,
  type SampleAppend,
} from '../../store/repositories/duration-samples';
import { estimateKeys, estimatesFrom, type EstimateLookup } from '../build-estimates';
import { sampleKeyText, type DurationSamples } from '../../model/estimates';
import { checkItemChanges, ItemChangeTracker } from './item-changes';

export class TenantState {
  readonly pipelines = new Map<string, PipelineState>();
  private loadedRecord: TenantEngineRecord | null = null;
  /** What the rows of each held item hold, as last saved or loaded. */
  private readonly itemFingerprints = new Map<string, ItemTexts>();
  /**
   * Each held item's merge list (`buildset.mergeItems`, most of its row) and its text, as last
   * made when the item was tracked (src/engine/scheduler/item-changes.ts): the list's text while
   * the item still has that list and its part of the list saw no write. Kept by item, not by
   * list: a list handed to another item, or back to this one, may have been written meanwhile
   * with no write marking this item's part of it.
   */
  private readonly mergeTexts = new Map<string, { list: object; text: string }>();
  private readonly pipelineFingerprints = new Map<string, string>();
  /** The tenant record as last saved or loaded (JSON). */
  private savedRecord: string | null = null;
  /** The stored queue and position of each item (docs/live.md#the-delta-protocol needs the stored order to be the queue order). */
  private positions = new Map<string, { queueId: number; position: number }>();
  private readonly status: StatusTracker;
  private changes = new ItemChangeTracker();
  /**
   * The samples of the keys last read (found or not) and their estimates, as committed; `pending`:
   * those of the running pass (read in it, or the committed ones with its own runs appended), kept
   * once it commits.
   */
  private estimatesRead: {
    keys: ReadonlySet<string>;
    samples: ReadonlyMap<string, DurationSamples>;
    lookup: EstimateLookup;
  } | null = null;
  private estimatesPending: TenantState['estimatesRead'] = null;
  /** Compare every held item with what was last saved at each save, and a kept merge-list text with a new one (./item-changes.ts). */
  private readonly checkUnmarked = checkItemChanges();

  constructor(
    private readonly repository: EngineStateRepository,
    private readonly tenant: string,
    private readonly sources: StatusSources & { knex: Knex },
  ) {
    this.status = new StatusTracker(sources);
  }

  /** The tenant-level record (null until loaded). */
  get record(): TenantEngineRecord | null {
    return this.loadedRecord;
  }

  /** Replace what is held with what the store holds. */
  async load(): Promise<void> {
    const pipelines = await this.repository.loadPipelines(this.tenant);
    this.pipelines.clear();
    for (const pipeline of pipelines) {
      this.pipelines.set(pipeline.name, pipeline);
    }
    this.loadedRecord = await this.repository.loadTenant(this.tenant);
    this.savedRecord = JSON.stringify(this.loadedRecord);
    this.positions = await this.repository.loadItemPositions(this.tenant);
    this.status.reset();
    this.estimatesRead = null;
    this.estimatesPending = null;
    this.itemFingerprints.clear();
    this.pipelineFingerprints.clear();
    this.changes = new ItemChangeTracker();
    this.mergeTexts.clear();
    for (const pipeline of pipelines) {
      this.pipelineFingerprints.set(pipeline.name, pipelineFingerprint(pipeline));
      for (const queue of pipeline.queues) {
        queue.items = queue.items.map((item) => {
          const texts = itemTexts(item);
          this.itemFingerprints.set(item.uuid, texts);
          this.mergeTexts.set(item.uuid, { list: item.buildset.mergeItems, text: texts.mergeItems });
          return this.changes.track(item);
        });
      }
    }
  }

  /**
   * An item to save, with the parts its stored rows lack (all of them for an item not saved or
   * loaded here). `kept`: the text of its merge list as last made, when nothing was written into
   * the list since (made again under the check of unmarked items, which then compares the two).
   */
  private itemSave(
    queueId: number | null,
    position: number,
    item: ItemState,
    kept?: string,
  ): ItemSave & { texts: ItemTexts; keptStale: boolean } {
    const texts = itemTexts(item, this.checkUnmarked ? undefined : kept);
    const stored = this.itemFingerprints.get(item.uuid);
    const keptStale = kept !== undefined && kept !== texts.mergeItems;
    return { queueId, position, item, texts, stale: stored && staleParts(stored, texts), keptStale };
  }

  /** A manager for every pipeline of the layout (pipelines new to the layout start empty). */
  managers(layout: EngineLayout): Map<string, PipelineManager> {
    const managers = new Map<string, PipelineManager>();
    for (const config of layout.pipelines) {
      let state = this.pipelines.get(config.name);
      if (!state) {
        state = { name: config.name, state: 'normal', disabled: false, consecutiveFailures: 0, queues: [] };
        this.pipelines.set(config.name, state);
      }
      managers.set(config.name, new PipelineManager(config, state, layout));
    }
    return managers;
  }

  /** Before a pass changes anything: the status the next status delta is computed against. */
  async statusBaseline(layout: EngineLayout): Promise<void> {
    if (this.loadedRecord && !this.status.hasBaseline()) {
      const estimates = await this.estimates(this.sources.knex, { readAgain: true });
      this.estimatesRead = this.estimatesPending;
      this.estimatesPending = null;
      this.status.baseline(layout, this.pipelines, this.loadedRecord, estimates);
    }
  }

  /**
   * The build-time estimates of the held state's started builds (src/engine/build-estimates.ts).
   * Read again only when asked to or a key is new: the duration samples of a tenant change only
   * with the passes of its scheduler (src/engine/pass-context.ts collects them), which append the
   * `runs` they wrote to the samples kept as the store does (`withRunsAppended`), and a new lead
   * starts from a fresh load.
   */
  private async estimates(
    knex: Knex,
    change: { readAgain: true } | { runs: readonly SampleAppend[] },
  ): Promise<EstimateLookup> {
    const keys = estimateKeys(this.pipelines.values(), 'started');
    const texts = new Set(keys.map(sampleKeyText));
    let kept = 'readAgain' in change ? null : this.estimatesRead;
    if (kept !== null && 'runs' in change && change.runs.length > 0) {
      const samples = withRunsAppended(kept.samples, kept.keys, change.runs);
      kept = { keys: kept.keys, samples, lookup: estimatesFrom(samples).estimatedTime };
    }
    if (kept !== null && [...texts].every((text) => kept.keys.has(text))) {
      this.estimatesPending = kept;
      return kept.lookup;
    }
    // Read in the pass's transaction, the samples include the runs it wrote.
    const samples = keys.length === 0 ? new Map() : await new DurationSampleRepository(knex).read(this.tenant, keys);
    this.estimatesPending = { keys: texts, samples, lookup: estimatesFrom(samples).estimatedTime };
    return this.estimatesPending.lookup;
  }

  /** The pass committed: what it saved is the baseline of the next status delta. */
  statusCommitted(): void {
    this.status.commit();
    if (this.estimatesPending !== null) {
      this.estimatesRead = this.estimatesPending;
      this.estimatesPending = null;
    }
  }

  /**
   * Save what the pass changed: its status delta (docs/live.md#the-delta-protocol) joins its
   * deltas and the tenant record takes their sequence numbers, then pipelines and queues, changed
   * and dequeued items, deleted queues and the tenant record are written in one statement.
   */
  async save(
    trx: Knex.Transaction,
    ctx: PassContext,
    managers: ReadonlyMap<string, PipelineManager>,
    layout: EngineLayout,
  ): Promise<void> {
    const record = this.loadedRecord;
    this.estimatesPending = null;
    if (!record) {
      return;
    }
    const pipelines: PipelineState[] = [];
    let savedApart = false;
    for (const manager of managers.values()) {
      const fingerprint = pipelineFingerprint(manager.state);
      if (manager.state.queues.some((queue) => queue.id === 0)) {
        // Its new queues' ids, which their items' rows need, come from their insert.
        await this.repository.savePipeline(this.tenant, manager.state, trx);
        this.pipelineFingerprints.set(manager.name, pipelineFingerprint(manager.state));
        savedApart = true;
      } else if (fingerprint !== this.pipelineFingerprints.get(manager.name)) {
        pipelines.push(manager.state);
        this.pipelineFingerprints.set(manager.name, fingerprint);
      }
    }
    const entries: ItemSave[] = [];
    for (const { item, queueId } of ctx.dequeued) {
      entries.push(this.itemSave(queueId, 0, this.changes.plain(item)));
      this.itemFingerprints.delete(item.uuid);
      this.mergeTexts.delete(item.uuid);
    }
    const unmarked: string[] = [];
    for (const manager of managers.values()) {
      for (const queue of manager.state.queues) {
        let position = -1;
        for (let index = 0; index < queue.items.length; index += 1) {
          const item = queue.items[index];
          const plain = this.changes.plain(item);
          const uuid = plain.uuid;
          const storedAt = this.positions.get(uuid);
          position = nextPosition(storedAt, queue.id, position);
          const moved = position !== storedAt?.position;
          // An item not tracked yet is new in this pass (or a copy put in its place); one without
          // a fingerprint left a queue and came back.
          const tracked = this.changes.isTracked(item) && this.itemFingerprints.has(uuid);
          const marked = !tracked || this.changes.changed(uuid);
          if (!moved && !marked && !this.checkUnmarked) {
            continue;
          }
          const list = plain.buildset.mergeItems;
          // Tracked since its text was made, with no write into it: the text is the list's.
          const made = tracked && !this.changes.mergeItemsChanged(uuid) ? this.mergeTexts.get(uuid) : undefined;
          const kept = made?.list === list ? made.text : undefined;
          const save = this.itemSave(queue.id, position, plain, kept);
          if (marked || moved) {
            // Tracked again: what the pass attached through plain references is known from now on.
            queue.items[index] = this.changes.track(item, kept !== undefined);
            this.mergeTexts.set(uuid, { list, text: save.texts.mergeItems });
          }
          if (save.keptStale) {
            unmarked.push(uuid);
          }
          const stored = this.itemFingerprints.get(uuid);
          if (!moved && stored && sameTexts(stored, save.texts)) {
            continue;
          }
          if (!moved && !marked) {
            unmarked.push(uuid);
          }
          entries.push(save);
          this.itemFingerprints.set(uuid, save.texts);
          this.positions.set(uuid, { queueId: queue.id, position });
        }
      }
    }
    if (unmarked.length > 0) {
      throw new Error(
        `items of tenant ${this.tenant} changed without being marked changed: ${unmarked.join(', ')} ` +
          '(a write src/engine/scheduler/item-changes.ts did not see)',
      );
    }
    this.changes.clear();
    for (const { item } of ctx.dequeued) {
      this.positions.delete(item.uuid);
    }
    const written = new Set(entries.map((entry) => entry.item.uuid));
    const runs = ctx.samples.taken();
    if (written.size === 0 && ctx.samples.recorded) {
      // No delta to estimate now: the samples kept are stale once this pass commits.
      this.estimatesRead = null;
    }
    // Estimates change only with the history a pass writes, and such a pass writes items too. The
    // pass's samples were written before the save (`PassContext.flush`, src/engine/scheduler/pass.ts),
    // so a read here sees them, as do the kept samples with the pass's runs appended.
    const estimates = written.size === 0 ? null : await this.estimates(trx, { runs });
    this.publishStatusDelta(ctx, layout, written, estimates);
    record.busSequence += ctx.deltas.length;
    // A pass that changed nothing leaves the tenant row as it is: its row version is the version of
    // the stored state that status reads keep what they parsed by (src/engine/status-inputs.ts).
    const wrote =
      savedApart ||
      pipelines.length > 0 ||
      entries.length > 0 ||
      ctx.deletedQueueIds.length > 0 ||
      ctx.deltas.length > 0;
    const saved = JSON.stringify(record);
    const tenantRow = wrote || saved !== this.savedRecord ? record : null;
    // One statement for all of it (src/store/repositories/state-save.ts), none for nothing.
    await this.repository.saveChanges(
      this.tenant,
      { items: entries, pipelines, deletedQueueIds: ctx.deletedQueueIds, record: tenantRow, at: ctx.now },
      trx,
    );
    this.savedRecord = saved;
  }

  /** The pass's status changes and notices as one `queue-delta`, the last delta of the pass. */
  private publishStatusDelta(
    ctx: PassContext,
    layout: EngineLayout,
    written: ReadonlySet<string>,
    estimates: EstimateLookup | null,
  ): void {
    const record = this.loadedRecord;
    if (!record) {
      return;
    }
    const reasons = new Map<string, DequeueReason>();
    for (const { item } of ctx.dequeued) {
      if (item.dequeueReason) {
        reasons.set(item.uuid, item.dequeueReason);
      }
    }
    const changes = this.status.changes(layout, this.pipelines, record, { written, estimates }, reasons);
    for (const delta of ctx.deltas) {
      if (delta.type === 'item-reported') {
        const { pipeline, itemUuid, result, message } = delta;
        changes.push({ kind: 'item-reported', pipeline, itemId: itemUuid, result, message });
      } else if (delta.type === 'buildset-changed') {
        const { pipeline, buildsetUuid, result } = delta;
        changes.push({ kind: 'buildset-changed', pipeline, buildsetUuid, result });
      }
    }
    if (changes.length > 0) {
      ctx.publish({ type: 'queue-delta', changes });
    }
  }
}

function pipelineFingerprint(pipeline: PipelineState): string {
  return JSON.stringify({
    state: pipeline.state,
    disabled: pipeline.disabled,
    failures: pipeline.consecutiveFailures,
    queues: pipeline.queues.map((queue) => [
      queue.id,
      queue.name,
      queue.branch,
      queue.window,
      queue.projects,
      queue.params,
    ]),
  });
}

/**
 * The stored position of an item, given the one of the item before it in its queue. Positions only
 * order the items (loading sorts by them), so an item keeps its stored one while that one is higher
 * than the position of the item before it; the others (new items, items moved forward or from
 * another queue) get the next number. Removing items rewrites nothing; a promote rewrites the items
 * it overtook.
 */
function nextPosition(
  stored: { queueId: number; position: number } | undefined,
  queueId: number,
  previous: number,
): number {
  return stored !== undefined && stored.queueId === queueId && stored.position > previous
    ? stored.position
    : previous + 1;
}
