/**
 * A new layout for the tenant (docs/gating.md#reconfiguration): pipelines that vanished lose their items
 * and queues, disabled pipelines are enabled again, queues take over their pipeline's new
 * configuration, items of projects that left the tenant or over its dependency limit leave.
 */
import type { PipelineState } from '../../model/pipeline-state';
import type { EngineStateRepository, TenantEngineRecord } from '../../store/repositories/engine-state';
import type { PassContext } from '../pass-context';
import { PipelineManager } from '../pipeline/manager';
import type { EngineLayout, EnginePipeline } from '../ports/layout';

/** Reconcile the held state with a layout it has not seen yet; false when it has. */
export async function reconcileLayout(
  ctx: PassContext,
  layout: EngineLayout,
  managers: ReadonlyMap<string, PipelineManager>,
  pipelines: Map<string, PipelineState>,
  record: TenantEngineRecord,
  repository: EngineStateRepository,
): Promise<boolean> {
  if (record.layoutUuid === layout.uuid) {
    return false;
  }
  for (const [name, state] of pipelines) {
    if (managers.has(name)) {
      continue;
    }
    // A removed pipeline: cancel everything and forget its queues.
    const orphan = new PipelineManager(removedPipelineConfig(name), state, layout);
    for (const { queue, item } of orphan.allItems()) {
      await orphan.removeItem(ctx, queue, item, { kind: 'reconfiguration', message: `Pipeline ${name} was removed` });
    }
    await repository.deleteQueues(
      state.queues.map((queue) => queue.id).filter((id) => id !== 0),
      ctx.trx,
    );
    pipelines.delete(name);
  }
  for (const manager of managers.values()) {
    // A new layout re-enables a pipeline disabled after consecutive failures (docs/gating.md#runtime-state).
    if (record.layoutUuid !== null && (manager.state.disabled || manager.state.consecutiveFailures > 0)) {
      manager.state.disabled = false;
      manager.state.consecutiveFailures = 0;
      ctx.publish({ type: 'pipeline-state-changed', pipeline: manager.name, disabled: false });
    }
    manager.reconfigureQueues();
    for (const { queue, item } of manager.allItems()) {
      if (!layout.projects.has(item.changes[0].project)) {
        await manager.removeItem(ctx, queue, item, {
          kind: 'reconfiguration',
          message: `Project ${item.changes[0].project} is no longer in the tenant`,
        });
      }
    }
    await manager.enforceDependencyLimit(ctx);
  }
  record.layoutUuid = layout.uuid;
  record.lastReconfigured = layout.loadedAt;
  return true;
}

/** A stand-in configuration for a pipeline that left the layout (only used to cancel its items). */
function removedPipelineConfig(name: string): EnginePipeline {
  const none = { connections: [], submit: false, imageValidated: false };
  return {
    name,
    description: null,
    manager: 'independent',
    precedence: 'normal',
    triggers: [],
    window: {
      window: 0,
      floor: 1,
      ceiling: null,
      increaseType: 'linear',
      increaseFactor: 1,
      decreaseType: 'exponential',
      decreaseFactor: 2,
    },
    supercedes: [],
    dequeueOnNewPatchset: false,
    flakyRetries: 0,
    flakyThreshold: null,
    ignoreDependencies: true,
    disableAfterConsecutiveFailures: null,
    require: [],
    reject: [],
    allowOtherConnections: true,
    reporters: {
      enqueue: none,
      start: none,
      success: none,
      failure: none,
      'merge-conflict': none,
      'config-error': none,
      'no-jobs': none,
      disabled: none,
      dequeue: none,
    },
    messages: {
      success: '',
      failure: '',
      start: '',
      mergeConflict: '',
      dequeue: 'Build canceled.',
      noJobs: '',
      footer: '',
    },
  };
}
