/**
 * Pending-event counters of the status document (docs/rest.md#status-document: `trigger_events`,
 * `management_events`, `result_events` per pipeline, queue lengths per tenant). Sluice keeps one
 * durable queue per tenant, so a pending event is attributed to the pipelines it concerns:
 * management events by the pipeline they name, result events by the pipeline holding the build
 * or node request, trigger events by the pipelines whose triggers may take them (judged from the
 * event itself, before its change is read).
 */
import type { PendingEventRouting } from '../store/repositories/engine-events';
import { findProject, type EngineLayout } from './ports/layout';
import type { PipelineState } from '../model/pipeline-state';
import { isTriggerEventType } from '../model/engine-events';
import { mayEnterPipeline } from './triggers';

export interface EventCounts {
  trigger: number;
  management: number;
  result: number;
}

export interface PendingEventCounts {
  tenant: EventCounts;
  pipelines: Map<string, EventCounts>;
}

function zero(): EventCounts {
  return { trigger: 0, management: 0, result: 0 };
}

/** Which pipeline holds each build and node request (current and retried builds). */
function resultOwners(states: readonly PipelineState[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const state of states) {
    for (const queue of state.queues) {
      for (const item of queue.items) {
        for (const job of item.buildset.jobs) {
          for (const build of [job.build, ...job.retryBuilds]) {
            if (build) {
              owners.set(`build:${build.uuid}`, state.name);
            }
          }
          if (job.nodeRequestId !== null) {
            owners.set(`nodes:${job.nodeRequestId}`, state.name);
          }
        }
      }
    }
  }
  return owners;
}

/** Count pending events for the tenant and for each pipeline of the layout. */
export function countPendingEvents(
  layout: EngineLayout,
  states: readonly PipelineState[],
  pending: readonly PendingEventRouting[],
  now: Date,
): PendingEventCounts {
  const tenant = zero();
  const pipelines = new Map(layout.pipelines.map((pipeline) => [pipeline.name, zero()]));
  const owners = resultOwners(states);
  for (const event of pending) {
    tenant[event.category] += 1;
    if (event.category === 'management') {
      const counts = event.pipeline === null ? undefined : pipelines.get(event.pipeline);
      if (counts) {
        counts.management += 1;
      }
    } else if (event.category === 'result') {
      const key =
        event.requestId !== null && event.eventType === 'nodes-provisioned'
          ? `nodes:${event.requestId}`
          : `build:${event.buildUuid ?? ''}`;
      const counts = pipelines.get(owners.get(key) ?? '');
      if (counts) {
        counts.result += 1;
      }
    } else if (isTriggerEventType(event.eventType)) {
      const fields = {
        type: event.eventType,
        ...(event.ref !== null ? { ref: event.ref } : {}),
        ...(event.branch !== null ? { branch: event.branch } : {}),
        ...(event.pipeline !== null ? { pipeline: event.pipeline } : {}),
        ...(event.parentPipeline !== null ? { parentPipeline: event.parentPipeline } : {}),
      };
      const connection = findProject(layout, event.project ?? '')?.connection ?? '';
      for (const pipeline of layout.pipelines) {
        if (mayEnterPipeline(pipeline, fields, connection, now)) {
          (pipelines.get(pipeline.name) as EventCounts).trigger += 1;
        }
      }
    }
  }
  return { tenant, pipelines };
}
