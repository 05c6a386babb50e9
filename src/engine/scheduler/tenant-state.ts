/**
 * The tenant's pipeline state as the scheduler holds it between passes: loaded from the store
 * on start (and after a failed pass), saved at the end of each pass. Fingerprints of what was
 * last saved keep the writes to what a pass changed.
 */
import type { Knex } from 'knex';
import type { ItemState, PipelineState } from '../../model/pipeline-state';
import { type EngineStateRepository, type TenantEngineRecord } from '../../store/repositories/engine-state';
import type { PassContext } from '../pass-context';
import { PipelineManager } from '../pipeline/manager';
import type { EngineLayout } from '../ports/layout';

export class TenantState {
  readonly pipelines = new Map<string, PipelineState>();
  private loadedRecord: TenantEngineRecord | null = null;
  private readonly itemFingerprints = new Map<string, string>();
  private readonly pipelineFingerprints = new Map<string, string>();

  constructor(
    private readonly repository: EngineStateRepository,
    private readonly tenant: string,
  ) {}

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
    this.itemFingerprints.clear();
    this.pipelineFingerprints.clear();
    for (const pipeline of pipelines) {
      this.pipelineFingerprints.set(pipeline.name, pipelineFingerprint(pipeline));
      for (const queue of pipeline.queues) {
        for (const item of queue.items) {
          this.itemFingerprints.set(item.uuid, JSON.stringify(item));
        }
      }
    }
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

  /** Save what the pass changed: pipelines and queues, touched and dequeued items, the tenant record. */
  async save(trx: Knex.Transaction, ctx: PassContext, managers: ReadonlyMap<string, PipelineManager>): Promise<void> {
    const record = this.loadedRecord;
    if (!record) {
      return;
    }
    for (const manager of managers.values()) {
      const fingerprint = pipelineFingerprint(manager.state);
      if (
        fingerprint !== this.pipelineFingerprints.get(manager.name) ||
        manager.state.queues.some((queue) => queue.id === 0)
      ) {
        await this.repository.savePipeline(this.tenant, manager.state, trx);
        this.pipelineFingerprints.set(manager.name, pipelineFingerprint(manager.state));
      }
    }
    const entries: Array<{ queueId: number | null; position: number; item: ItemState }> = [];
    for (const { item, queueId } of ctx.dequeued) {
      entries.push({ queueId, position: 0, item });
      this.itemFingerprints.delete(item.uuid);
    }
    for (const manager of managers.values()) {
      for (const queue of manager.state.queues) {
        for (const [position, item] of queue.items.entries()) {
          if (!ctx.touched.has(item) && this.itemFingerprints.has(item.uuid)) {
            continue;
          }
          const fingerprint = JSON.stringify(item);
          if (fingerprint === this.itemFingerprints.get(item.uuid)) {
            continue;
          }
          entries.push({ queueId: queue.id, position, item });
          this.itemFingerprints.set(item.uuid, fingerprint);
        }
      }
    }
    // Dequeued rows are written before their (dynamic) queue rows are deleted.
    await this.repository.saveItems(this.tenant, entries, trx);
    await this.repository.deleteQueues(ctx.deletedQueueIds, trx);
    record.busSequence += ctx.deltas.length;
    await this.repository.saveTenant(this.tenant, record, ctx.now, trx);
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
