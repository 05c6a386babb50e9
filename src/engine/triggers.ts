/**
 * The pipeline trigger filters that decide which pipelines a trigger event enters
 * (docs/gating.md#event-processing, docs/project-configuration.md#triggers-reporters-and-requirements,
 * docs/gating.md#sluices-own-rules for the git driver).
 */
import type { ChangeInfo } from '../model/changes';
import type { TriggerEvent } from '../model/engine-events';
import type { EngineLayout, EnginePipeline, RefFilter } from './ports/layout';

/** What the trigger filters look at in an event. */
type TriggerFields = Pick<TriggerEvent, 'type' | 'ref' | 'branch' | 'pipeline' | 'parentPipeline'> &
  Partial<TriggerEvent>;

/** `undefined` = not known yet (the event's change is not resolved): any filter may match. */
function filtersMatch(filters: readonly RefFilter[], value: string | null | undefined): boolean {
  if (filters.length === 0 || value === undefined) {
    return true;
  }
  if (value === null) {
    return false;
  }
  const positive = filters.filter((filter) => !filter.negate);
  const negative = filters.filter((filter) => filter.negate);
  if (negative.some((filter) => filter.pattern.test(value))) {
    return false;
  }
  return positive.length === 0 || positive.some((filter) => filter.pattern.test(value));
}

/**
 * Whether an event (with its resolved change) matches one of the pipeline's triggers. A git
 * event comes from the connection of its project and only that connection's triggers see it.
 */
export function pipelineMatches(
  pipeline: EnginePipeline,
  event: TriggerEvent,
  change: ChangeInfo,
  connection: string,
  now: Date,
): boolean {
  return triggersMatch(pipeline, event, connection, change.ref, change.branch, { change, now });
}

/**
 * Whether a pending event may enter a pipeline, judged from its payload alone: the ref and
 * branch are taken from the event when it names them and count as matching otherwise (a new
 * patchset's target branch is only known once the change is read).
 */
export function mayEnterPipeline(pipeline: EnginePipeline, event: TriggerFields, connection: string): boolean {
  const ref = event.ref ?? (event.branch !== undefined ? `refs/heads/${event.branch}` : undefined);
  const branch =
    event.branch ??
    (ref === undefined ? undefined : ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null);
  return triggersMatch(pipeline, event, connection, ref, branch, undefined);
}

function triggersMatch(
  pipeline: EnginePipeline,
  event: TriggerFields,
  connection: string,
  ref: string | undefined,
  branch: string | null | undefined,
  judged: { change: ChangeInfo; now: Date } | undefined,
): boolean {
  return pipeline.triggers.some((trigger) => {
    switch (trigger.driver) {
      case 'github':
        return trigger.connection === connection && trigger.matches(event as TriggerEvent, judged);
      case 'git':
        if (trigger.connection !== connection || !trigger.events.includes(event.type)) {
          return false;
        }
        if (event.type === 'ref-updated') {
          return filtersMatch(trigger.refs, ref) && filtersMatch(trigger.branches, branch);
        }
        return filtersMatch(trigger.branches, branch);
      case 'timer':
        return event.type === 'timer' && event.pipeline === pipeline.name;
      case 'zuul':
        if (
          event.type !== 'parent-change-enqueued' &&
          event.type !== 'project-change-merged' &&
          event.type !== 'image-build' &&
          event.type !== 'image-validate'
        ) {
          return false;
        }
        if (!trigger.events.includes(event.type)) {
          return false;
        }
        if (event.type === 'parent-change-enqueued' && trigger.pipelines.length > 0) {
          return event.parentPipeline !== undefined && trigger.pipelines.includes(event.parentPipeline);
        }
        return true;
    }
  });
}

/** Whether any pipeline has a zuul-driver trigger for this event type. */
export function pipelinesListen(
  layout: EngineLayout,
  eventType: 'parent-change-enqueued' | 'project-change-merged',
): boolean {
  return layout.pipelines.some((pipeline) =>
    pipeline.triggers.some((trigger) => trigger.driver === 'zuul' && trigger.events.includes(eventType)),
  );
}
