/**
 * Which pipelines a trigger event enters (docs/gating.md#event-processing,
 * docs/project-configuration.md#triggers-reporters-and-requirements): each pipeline trigger,
 * compiled by its driver, judges the event with its ref, branch and (once read) change.
 */
import type { ChangeInfo } from '../model/changes';
import type { TriggerEvent } from '../model/engine-events';
import type { EngineLayout, EnginePipeline, TriggerSubject } from './ports/layout';

/**
 * Whether an event (with its resolved change) matches one of the pipeline's triggers.
 * `connection` is the connection of the event's project: a git or GitHub trigger takes only its
 * own connection's events.
 */
export function pipelineMatches(
  pipeline: EnginePipeline,
  event: TriggerEvent,
  change: ChangeInfo,
  connection: string,
  now: Date,
): boolean {
  return triggersMatch(pipeline, event, connection, change.ref, change.branch, change, now);
}

/**
 * Whether a pending event may enter a pipeline, judged from its payload alone: the ref and
 * branch are taken from the event when it names them and count as matching otherwise (a new
 * patchset's target branch is only known once the change is read).
 */
export function mayEnterPipeline(
  pipeline: EnginePipeline,
  event: TriggerSubject['event'],
  connection: string,
  now: Date,
): boolean {
  const ref = event.ref ?? (event.branch !== undefined ? `refs/heads/${event.branch}` : undefined);
  const branch =
    event.branch ??
    (ref === undefined ? undefined : ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null);
  return triggersMatch(pipeline, event, connection, ref, branch, undefined, now);
}

function triggersMatch(
  pipeline: EnginePipeline,
  event: TriggerSubject['event'],
  connection: string,
  ref: string | undefined,
  branch: string | null | undefined,
  change: ChangeInfo | undefined,
  now: Date,
): boolean {
  const subject: TriggerSubject = { event, pipeline: pipeline.name, connection, ref, branch, change, now };
  return pipeline.triggers.some((trigger) => trigger.matches(subject));
}

/** Whether any pipeline has a trigger for this event type (the zuul driver's, docs/gating.md#enqueue steps 14–15). */
export function pipelinesListen(
  layout: EngineLayout,
  eventType: 'parent-change-enqueued' | 'project-change-merged',
): boolean {
  return layout.pipelines.some((pipeline) => pipeline.triggers.some((trigger) => trigger.events.includes(eventType)));
}
