/**
 * After a restart the new leader sends again what its predecessor may not have: builds without
 * a result and open node requests (both idempotent on the other side), and resume requests of
 * paused builds. A node request whose fulfilment is already waiting to be applied was sent: it
 * is not sent again, so a gateway that answers every call (the built-in one) does not fulfil it
 * twice at each takeover (docs/operations.md#takeovers-under-repeated-kills).
 */
import type { PipelineState } from '../../model/pipeline-state';
import { buildParams, nodeRequest } from '../jobs/build-params';
import type { EngineGateways } from '../pass-context';
import type { EngineLayout } from '../ports/layout';

export async function resubmitOutstandingWork(
  tenant: string,
  layout: EngineLayout,
  pipelines: ReadonlyMap<string, PipelineState>,
  gateways: EngineGateways,
  answered: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const pipelineConfig of layout.pipelines) {
    const state = pipelines.get(pipelineConfig.name);
    for (const queue of state?.queues ?? []) {
      for (const item of queue.items) {
        for (const job of item.buildset.jobs) {
          if (job.build && job.build.result === null) {
            await gateways.executor.startBuild(buildParams(tenant, pipelineConfig, item, job));
            if (job.build.resumeRequested === true) {
              // The resume may not have reached the executor before the restart.
              await gateways.executor.resumeBuild(tenant, job.build.uuid);
            }
          } else if (!job.build && job.nodeRequestId !== null && !answered.has(job.nodeRequestId)) {
            await gateways.nodes.requestNodes(nodeRequest(tenant, pipelineConfig, item, job, job.nodeRequestId));
          }
        }
      }
    }
  }
}
