/** Result events (builds started, paused, completed; nodes provisioned) applied to the job they are about. */
import type { BuildResultEvent, ResultEvent } from '../../model/engine-events';
import { applyResult, type JobLocation } from '../jobs/results';
import type { PassContext } from '../pass-context';
import { untracked } from './item-changes';
import type { PipelineManager } from '../pipeline/manager';

/** Where each current build and open node request is: `build:<uuid>` and `nodes:<request id>`. */
export function locateJobs(managers: ReadonlyMap<string, PipelineManager>): Map<string, JobLocation> {
  const locations = new Map<string, JobLocation>();
  for (const manager of managers.values()) {
    // Queue by queue, not through `allItems`, which lists every item of the pipeline anew.
    for (const queue of manager.state.queues) {
      for (const item of queue.items) {
        // Looked for in the plain data (every item comes here); a location holds the tracked job,
        // which the result changes.
        for (const [index, { build, nodeRequestId }] of untracked(item).buildset.jobs.entries()) {
          if (!build && nodeRequestId === null) {
            continue;
          }
          const location = { pipeline: manager.name, queue, item, job: item.buildset.jobs[index] };
          if (build) {
            locations.set(`build:${build.uuid}`, location);
          }
          if (nodeRequestId !== null) {
            locations.set(`nodes:${nodeRequestId}`, location);
          }
        }
      }
    }
  }
  return locations;
}

/** Apply a result event; `stale` when its build or request is no longer current. */
export async function handleResult(
  ctx: PassContext,
  managers: ReadonlyMap<string, PipelineManager>,
  locations: ReadonlyMap<string, JobLocation>,
  result: BuildResultEvent,
): Promise<string> {
  const key = result.type === 'nodes-provisioned' ? `nodes:${result.requestId}` : `build:${result.buildUuid}`;
  const location = locations.get(key);
  if (!location || location.item.dequeueTime !== null) {
    if (result.type === 'nodes-provisioned') {
      releaseForgottenRequest(ctx, managers, result);
    }
    return 'stale';
  }
  const manager = managers.get(location.pipeline);
  if (!manager) {
    return 'stale';
  }
  if (result.type !== 'nodes-provisioned' && location.job.build?.uuid !== result.buildUuid) {
    return 'stale';
  }
  await applyResult(ctx, manager.config, location, result);
  return 'ok';
}

/**
 * A fulfilment no job waits for: the request was canceled after the launcher fulfilled it, or
 * its cancel was lost with a leader that died between its commit and its calls
 * (docs/gating.md#windows-and-nodes). Its nodes would stay assigned to it for good, so it is
 * canceled (again; the launcher ignores unknown ids). Not when a job holds its nodes: a repeated
 * fulfilment of a request a job already got (the built-in gateway answers each re-sent request).
 */
function releaseForgottenRequest(
  ctx: PassContext,
  managers: ReadonlyMap<string, PipelineManager>,
  event: Extract<ResultEvent, { type: 'nodes-provisioned' }>,
): void {
  const ids = new Set(event.nodes.map((node) => node.id));
  for (const manager of managers.values()) {
    for (const { item } of manager.allItems()) {
      if (item.buildset.jobs.some((job) => job.nodes.some((node) => ids.has(node.id)))) {
        return;
      }
    }
  }
  ctx.after(() => ctx.gateways.nodes.cancelRequest(ctx.tenant, event.requestId));
}
