/**
 * Status deltas (docs/live.md#the-delta-protocol): what changed in a tenant's status between two
 * scheduler passes, at the level of pipelines, queues, items and jobs. The scheduler keeps a
 * projection of the status as the store holds it after each committed pass (the stored fields
 * of docs/live.md#times: no clock-derived times, nothing derived from other items) and diffs
 * the next one against it. Applying the changes in order to a status snapshot taken at the
 * previous pass gives the status of this pass exactly.
 */
import { defaultEventQueues, type DequeueReason, type TenantEventQueueState } from '../model/pipeline-state';
import type { BuildsetResult } from '../model/results';
import type { ItemFields, JobFields, PipelineStatus } from './status';

/** Pipeline-level fields of the status (its queues and event counters aside). */
export type PipelineFields = Pick<
  PipelineStatus,
  'name' | 'description' | 'state' | 'manager' | 'triggers' | 'disabled' | 'consecutiveFailures'
>;

export interface QueueFields {
  key: number;
  name: string;
  branch: string | null;
  window: number;
}

/** Item fields that an `item-changed` change carries (position and item ahead travel in `item-moved`). */
export const ITEM_CHANGE_FIELDS = [
  'active',
  'live',
  'refs',
  'failingReasons',
  'zuulRef',
  'enqueueTime',
  'waitingFor',
  'jobs',
] as const;
export type ItemChangeField = (typeof ITEM_CHANGE_FIELDS)[number];

export type JobEvent = 'started' | 'paused' | 'resumed' | 'completed' | 'waiting' | 'changed';

export type StatusChange =
  | { kind: 'tenant'; state: TenantEventQueueState; lastReconfigured: number | null }
  | ({ kind: 'pipeline'; index: number } & PipelineFields)
  | { kind: 'pipeline-removed'; pipeline: string }
  | ({ kind: 'queue'; pipeline: string; index: number } & QueueFields)
  | { kind: 'queue-removed'; pipeline: string; queue: number }
  | { kind: 'item-enqueued'; pipeline: string; queue: number; position: number; item: ItemFields }
  | {
      kind: 'item-moved';
      pipeline: string;
      queue: number;
      itemId: string;
      position: number;
      itemAhead: string | null;
    }
  | { kind: 'item-dequeued'; pipeline: string; queue: number; itemId: string; reason: DequeueReason | null }
  | ({
      kind: 'item-changed';
      pipeline: string;
      itemId: string;
      changed: ItemChangeField[];
    } & Omit<ItemFields, 'id' | 'itemAhead' | 'jobs'> & { jobs: JobFields[] | null })
  | { kind: 'job-changed'; pipeline: string; itemId: string; event: JobEvent; changed: string[]; job: JobFields }
  /** Notices: no effect on the status. */
  | { kind: 'item-reported'; pipeline: string; itemId: string; result: BuildsetResult; message: string }
  | { kind: 'buildset-changed'; pipeline: string; buildsetUuid: string; result: BuildsetResult | null };

export type StatusChangeKind = StatusChange['kind'];

export interface ProjectedQueue {
  fields: QueueFields;
  /** Item uuids in queue order. */
  items: string[];
}

export interface ProjectedPipeline {
  fields: PipelineFields;
  queues: ProjectedQueue[];
}

export interface ProjectedItem {
  pipeline: string;
  queue: number;
  fields: ItemFields;
}

/** The stored part of a tenant status, as the diff needs it. */
export interface StatusProjection {
  tenant: { state: TenantEventQueueState; lastReconfigured: number | null };
  pipelines: ProjectedPipeline[];
  items: Map<string, ProjectedItem>;
}

const EMPTY_PROJECTION: StatusProjection = {
  tenant: {
    state: defaultEventQueues(),
    lastReconfigured: null,
  },
  pipelines: [],
  items: new Map(),
};

function same(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Where the entries of `after` go, as a sequence of "put this id at this index" steps applied
 * to `before` without the ids that left: in ascending index, each step removes the id (when
 * present) and inserts it at its index. Ids that keep their place get no step unless
 * `changedInPlace` says so. The same rule applies on the client (docs/live.md#applying-changes).
 */
export function placements(
  before: readonly string[],
  after: readonly string[],
  changedInPlace: (id: string) => boolean,
): Array<{ id: string; index: number; added: boolean }> {
  const remaining = new Set(after);
  const current = before.filter((id) => remaining.has(id));
  const present = new Set(current);
  const steps: Array<{ id: string; index: number; added: boolean }> = [];
  after.forEach((id, index) => {
    if (!present.has(id)) {
      current.splice(index, 0, id);
      present.add(id);
      steps.push({ id, index, added: true });
    } else if (current[index] !== id) {
      current.splice(current.indexOf(id), 1);
      current.splice(index, 0, id);
      steps.push({ id, index, added: false });
    } else if (changedInPlace(id)) {
      steps.push({ id, index, added: false });
    }
  });
  return steps;
}

function jobEvent(before: JobFields, after: JobFields): JobEvent {
  if (before.result === null && after.result !== null) {
    return 'completed';
  }
  if (after.startTime !== null && (before.startTime === null || before.uuid !== after.uuid)) {
    return 'started';
  }
  if (before.paused !== true && after.paused === true) {
    return 'paused';
  }
  if (before.paused === true && after.paused !== true && after.result === null) {
    return 'resumed';
  }
  if (
    after.startTime === null &&
    (before.waitingFor !== after.waitingFor || before.waitingStatus !== after.waitingStatus)
  ) {
    return 'waiting';
  }
  return 'changed';
}

function changedKeys<T extends object>(before: T, after: T, keys: readonly (keyof T)[]): Array<keyof T> {
  return keys.filter((key) => !same(before[key], after[key]));
}

const JOB_KEYS: ReadonlyArray<keyof JobFields> = [
  'name',
  'dependencies',
  'url',
  'fingerUrl',
  'reportUrl',
  'result',
  'voting',
  'uuid',
  'executeTime',
  'startTime',
  'endTime',
  'estimatedTime',
  'pipeline',
  'canceled',
  'paused',
  'preFail',
  'retry',
  'tries',
  'queued',
  'waitingStatus',
  'waitingFor',
  'nodeLabels',
  'retryReason',
  'flakyRetries',
  'quarantined',
];

/** Item and job changes of an item present before and after. */
function itemChanges(pipeline: string, before: ItemFields, after: ItemFields): StatusChange[] {
  const jobNames = (item: ItemFields): string => item.jobs.map((job) => job.name).join('\n');
  const jobListChanged = jobNames(before) !== jobNames(after);
  const changed: ItemChangeField[] = ITEM_CHANGE_FIELDS.filter((key) =>
    key === 'jobs' ? jobListChanged : !same(before[key], after[key]),
  );
  const changes: StatusChange[] = [];
  if (changed.length > 0) {
    changes.push({
      kind: 'item-changed',
      pipeline,
      itemId: after.id,
      changed,
      active: after.active,
      live: after.live,
      refs: after.refs,
      failingReasons: after.failingReasons,
      zuulRef: after.zuulRef,
      enqueueTime: after.enqueueTime,
      waitingFor: after.waitingFor,
      jobs: jobListChanged ? after.jobs : null,
    });
  }
  if (!jobListChanged) {
    after.jobs.forEach((job, index) => {
      const previous = before.jobs[index];
      const keys = changedKeys(previous, job, JOB_KEYS);
      if (keys.length > 0) {
        const event = jobEvent(previous, job);
        changes.push({ kind: 'job-changed', pipeline, itemId: after.id, event, changed: keys, job });
      }
    });
  }
  return changes;
}

/**
 * The changes from `before` to `after`, in the order a client applies them: the tenant, items
 * that left, removed queues and pipelines, pipelines and queues put in place, items put in
 * place (ascending position per queue), then item and job field changes.
 */
export function diffStatus(
  before: StatusProjection | null,
  after: StatusProjection,
  dequeueReasons: ReadonlyMap<string, DequeueReason>,
): StatusChange[] {
  const previous = before ?? EMPTY_PROJECTION;
  const changes: StatusChange[] = [];
  if (!same(previous.tenant, after.tenant)) {
    changes.push({ kind: 'tenant', state: after.tenant.state, lastReconfigured: after.tenant.lastReconfigured });
  }
  // Items that left their queue (or moved to another queue: they leave, then enter the new one).
  for (const [uuid, item] of previous.items) {
    const now = after.items.get(uuid);
    if (!now || now.queue !== item.queue) {
      changes.push({
        kind: 'item-dequeued',
        pipeline: item.pipeline,
        queue: item.queue,
        itemId: uuid,
        reason: now ? null : (dequeueReasons.get(uuid) ?? null),
      });
    }
  }
  const afterPipelines = new Map(after.pipelines.map((pipeline) => [pipeline.fields.name, pipeline]));
  const beforePipelines = new Map(previous.pipelines.map((pipeline) => [pipeline.fields.name, pipeline]));
  for (const pipeline of previous.pipelines) {
    const kept = afterPipelines.get(pipeline.fields.name);
    const keptQueues = new Set(kept?.queues.map((queue) => queue.fields.key));
    for (const queue of pipeline.queues) {
      if (!keptQueues.has(queue.fields.key)) {
        changes.push({ kind: 'queue-removed', pipeline: pipeline.fields.name, queue: queue.fields.key });
      }
    }
    if (!kept) {
      changes.push({ kind: 'pipeline-removed', pipeline: pipeline.fields.name });
    }
  }
  const pipelineSteps = placements(
    previous.pipelines.map((pipeline) => pipeline.fields.name),
    after.pipelines.map((pipeline) => pipeline.fields.name),
    (name) => !same(beforePipelines.get(name)?.fields, afterPipelines.get(name)?.fields),
  );
  for (const step of pipelineSteps) {
    changes.push({ kind: 'pipeline', index: step.index, ...(afterPipelines.get(step.id) as ProjectedPipeline).fields });
  }
  const fieldChanges: StatusChange[] = [];
  for (const pipeline of after.pipelines) {
    const name = pipeline.fields.name;
    const old = beforePipelines.get(name);
    const oldQueues = new Map(old?.queues.map((queue) => [String(queue.fields.key), queue]));
    const newQueues = new Map(pipeline.queues.map((queue) => [String(queue.fields.key), queue]));
    const queueSteps = placements(
      old?.queues.map((queue) => String(queue.fields.key)) ?? [],
      pipeline.queues.map((queue) => String(queue.fields.key)),
      (key) => !same(oldQueues.get(key)?.fields, newQueues.get(key)?.fields),
    );
    for (const step of queueSteps) {
      changes.push({
        kind: 'queue',
        pipeline: name,
        index: step.index,
        ...(newQueues.get(step.id) as ProjectedQueue).fields,
      });
    }
    for (const queue of pipeline.queues) {
      const key = queue.fields.key;
      const oldOrder = oldQueues.get(String(key))?.items ?? [];
      const itemSteps = placements(oldOrder, queue.items, (uuid) => {
        const was = previous.items.get(uuid);
        return was !== undefined && was.fields.itemAhead !== after.items.get(uuid)?.fields.itemAhead;
      });
      for (const step of itemSteps) {
        const item = (after.items.get(step.id) as ProjectedItem).fields;
        const was = previous.items.get(step.id);
        if (step.added || !was || was.queue !== key) {
          changes.push({ kind: 'item-enqueued', pipeline: name, queue: key, position: step.index, item });
        } else {
          changes.push({
            kind: 'item-moved',
            pipeline: name,
            queue: key,
            itemId: step.id,
            position: step.index,
            itemAhead: item.itemAhead,
          });
        }
      }
      for (const uuid of queue.items) {
        const was = previous.items.get(uuid);
        const now = after.items.get(uuid) as ProjectedItem;
        if (was && was.queue === key && was.fields !== now.fields) {
          fieldChanges.push(...itemChanges(name, was.fields, now.fields));
        }
      }
    }
  }
  changes.push(...fieldChanges);
  return changes;
}
