/**
 * The changes a queue delta carries (docs/live.md#the-delta-protocol): one object per pipeline,
 * queue, item or job that changed, with only the changed thing's state. Applied in order to a
 * status snapshot they give the status of the delta's `sequence` (docs/live.md#applying-changes).
 */
import type { DequeueReason as DequeueReasonValue } from '../src/model/pipeline-state';
import { jobWithTimes, type ItemFields, type JobStatus } from '../src/engine/status';
import type { StatusChange } from '../src/engine/status-diff';
import { builder } from './infra/builder';
import {
  ItemWaitReason,
  PipelineHealth,
  PipelineManagerKind,
  StatusJob,
  StatusRef,
  TenantEventQueueState,
  pipelineManagerKind,
} from './status';

/** A change with the time of its delta (job times are computed at that time). */
export interface QueueChangeValue<C extends StatusChange = StatusChange> {
  change: C;
  atMs: number;
}

type ChangeOf<K extends StatusChange['kind']> = QueueChangeValue<Extract<StatusChange, { kind: K }>>;

const JOB_EVENT_TYPES = {
  started: 'JobStarted',
  paused: 'JobPaused',
  resumed: 'JobResumed',
  completed: 'JobCompleted',
  waiting: 'JobWaiting',
  changed: 'JobChanged',
} as const;

const CHANGE_TYPES = {
  tenant: 'TenantChanged',
  pipeline: 'PipelineChanged',
  'pipeline-removed': 'PipelineRemoved',
  queue: 'QueueChanged',
  'queue-removed': 'QueueRemoved',
  'item-enqueued': 'ItemEnqueued',
  'item-moved': 'ItemMoved',
  'item-dequeued': 'ItemDequeued',
  'item-changed': 'ItemChanged',
  'item-reported': 'ItemReported',
  'buildset-changed': 'BuildsetChanged',
} as const;

/** GraphQL type name of a change. */
export function changeTypeName(change: StatusChange): string {
  return change.kind === 'job-changed' ? JOB_EVENT_TYPES[change.event] : CHANGE_TYPES[change.kind];
}

/** Every concrete change type name (for selection analysis). */
export const CHANGE_TYPE_NAMES: readonly string[] = [...Object.values(CHANGE_TYPES), ...Object.values(JOB_EVENT_TYPES)];

export const JOB_CHANGE_TYPE_NAMES: readonly string[] = Object.values(JOB_EVENT_TYPES);

const jobsAt = (jobs: ItemFields['jobs'], atMs: number): JobStatus[] => jobs.map((job) => jobWithTimes(job, atMs));

export const QueueChange = builder.interfaceRef<QueueChangeValue>('QueueChange').implement({
  description: 'One change of a queue delta (docs/live.md#the-delta-protocol).',
  resolveType: (value) => changeTypeName(value.change),
  fields: (t) => ({
    pipeline: t.string({
      description: 'Pipeline concerned; null for tenant-level changes.',
      resolve: (value) =>
        value.change.kind === 'tenant' ? null : 'pipeline' in value.change ? value.change.pipeline : value.change.name,
    }),
  }),
});

builder.objectRef<ChangeOf<'tenant'>>('TenantChanged').implement({
  description: 'The tenant event-queue state or the time of its last reconfiguration changed.',
  interfaces: [QueueChange],
  fields: (t) => ({
    eventQueueState: t.field({
      type: TenantEventQueueState,
      nullable: false,
      description: "The event-queue state now (the status's `state`).",
      resolve: (value) => value.change.state,
    }),
    lastReconfigured: t.float({
      description: 'Epoch milliseconds of the last (re)configuration.',
      resolve: (value) => value.change.lastReconfigured,
    }),
    lastReconfiguredAt: t.field({
      type: 'DateTime',
      description: 'When the tenant was last (re)configured.',
      resolve: (value) => (value.change.lastReconfigured === null ? null : new Date(value.change.lastReconfigured)),
    }),
  }),
});

builder.objectRef<ChangeOf<'pipeline'>>('PipelineChanged').implement({
  description:
    'A pipeline appeared, moved in the layout order or changed state: put it at `index` in the list of pipelines (keeping its queues) with these fields.',
  interfaces: [QueueChange],
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Pipeline name.', resolve: (value) => value.change.name }),
    index: t.int({
      nullable: false,
      description: 'Its index in the list of pipelines.',
      resolve: (v) => v.change.index,
    }),
    description: t.string({ description: 'Description.', resolve: (value) => value.change.description }),
    state: t.field({
      type: PipelineHealth,
      nullable: false,
      description: 'Pipeline state.',
      resolve: (value) => value.change.state,
    }),
    manager: t.field({
      type: PipelineManagerKind,
      nullable: false,
      description: 'Manager kind.',
      resolve: (value) => pipelineManagerKind(value.change.manager),
    }),
    triggers: t.stringList({
      nullable: false,
      description: 'Driver name of each trigger.',
      resolve: (value) => value.change.triggers.map((trigger) => trigger.driver),
    }),
    disabled: t.boolean({ nullable: false, description: 'Disabled.', resolve: (value) => value.change.disabled }),
    consecutiveFailures: t.int({
      nullable: false,
      description: 'Consecutive failed reports.',
      resolve: (value) => value.change.consecutiveFailures,
    }),
  }),
});

builder.objectRef<ChangeOf<'pipeline-removed'>>('PipelineRemoved').implement({
  description: 'A pipeline left the layout (its queues and items went before it).',
  interfaces: [QueueChange],
  fields: () => ({}),
});

builder.objectRef<ChangeOf<'queue'>>('QueueChanged').implement({
  description:
    "A queue appeared, moved or changed (name, branch, window): put it at `index` in its pipeline's queues (keeping its items) with these fields.",
  interfaces: [QueueChange],
  fields: (t) => ({
    queue: t.int({
      nullable: false,
      description: 'Queue key (`StatusChangeQueue.key`).',
      resolve: (v) => v.change.key,
    }),
    index: t.int({
      nullable: false,
      description: "Its index in the pipeline's queues.",
      resolve: (v) => v.change.index,
    }),
    name: t.string({ nullable: false, description: 'Queue name.', resolve: (value) => value.change.name }),
    branch: t.string({ description: 'Branch of a per-branch queue.', resolve: (value) => value.change.branch }),
    window: t.int({ nullable: false, description: 'Active window (0 = unlimited).', resolve: (v) => v.change.window }),
  }),
});

builder.objectRef<ChangeOf<'queue-removed'>>('QueueRemoved').implement({
  description: 'A queue went away (its items left before it).',
  interfaces: [QueueChange],
  fields: (t) => ({
    queue: t.int({ nullable: false, description: 'Queue key.', resolve: (value) => value.change.queue }),
  }),
});

/** An item as deltas carry it. */
export const QueueItem = builder.objectRef<QueueChangeValue & { item: ItemFields }>('QueueItem').implement({
  description:
    'A queue item with the `StatusItem` fields that are stored: `itemsBehind` and `remainingTime` are derived from the other items and the clock (docs/live.md#applying-changes).',
  fields: (t) => ({
    id: t.string({ nullable: false, description: 'Item uuid.', resolve: (value) => value.item.id }),
    active: t.boolean({ nullable: false, description: 'Inside the active window.', resolve: (v) => v.item.active }),
    live: t.boolean({ nullable: false, description: 'Live item.', resolve: (value) => value.item.live }),
    refs: t.field({
      type: [StatusRef],
      nullable: false,
      description: 'The changes of the item.',
      resolve: (value) => value.item.refs,
    }),
    itemAhead: t.string({ description: 'Uuid of the item ahead.', resolve: (value) => value.item.itemAhead }),
    failingReasons: t.stringList({
      nullable: false,
      description: 'Why the item is failing.',
      resolve: (value) => value.item.failingReasons,
    }),
    zuulRef: t.string({ description: '`Z` + buildset uuid once configured.', resolve: (value) => value.item.zuulRef }),
    enqueueTime: t.float({
      nullable: false,
      description: 'Epoch milliseconds when enqueued.',
      resolve: (value) => value.item.enqueueTime,
    }),
    enqueuedAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the item was enqueued.',
      resolve: (value) => new Date(value.item.enqueueTime),
    }),
    waitingFor: t.field({
      type: ItemWaitReason,
      description: 'Why the item does not run jobs yet.',
      resolve: (value) => value.item.waitingFor,
    }),
    jobs: t.field({
      type: [StatusJob],
      nullable: false,
      description: 'Jobs; times as at the delta.',
      resolve: (value) => jobsAt(value.item.jobs, value.atMs),
    }),
  }),
});

builder.objectRef<ChangeOf<'item-enqueued'>>('ItemEnqueued').implement({
  description: 'An item entered a queue: insert it at `position`.',
  interfaces: [QueueChange],
  fields: (t) => ({
    queue: t.int({ nullable: false, description: 'Queue key.', resolve: (value) => value.change.queue }),
    position: t.int({ nullable: false, description: 'Its index in the queue.', resolve: (v) => v.change.position }),
    item: t.field({
      type: QueueItem,
      nullable: false,
      description: 'The item.',
      resolve: (value) => ({ ...value, item: value.change.item }),
    }),
  }),
});

builder.objectRef<ChangeOf<'item-moved'>>('ItemMoved').implement({
  description: 'An item changed place or item ahead: take it out and insert it at `position`.',
  interfaces: [QueueChange],
  fields: (t) => ({
    queue: t.int({ nullable: false, description: 'Queue key.', resolve: (value) => value.change.queue }),
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (value) => value.change.itemId }),
    position: t.int({ nullable: false, description: 'Its index in the queue.', resolve: (v) => v.change.position }),
    itemAhead: t.string({ description: 'Uuid of its item ahead now.', resolve: (value) => value.change.itemAhead }),
  }),
});

const DequeueReasonKind = builder.enumType('DequeueReasonKind', {
  description: 'Why an item left its pipeline.',
  values: {
    REPORTED: { value: 'reported', description: 'It completed and was reported.' },
    DEQUEUED_BY_ADMIN: { value: 'dequeued-by-admin', description: 'An administrator dequeued it.' },
    SUPERSEDED: { value: 'superseded', description: 'A newer item replaced it.' },
    NEW_PATCHSET: { value: 'new-patchset', description: 'A new patchset of its change was uploaded.' },
    CYCLE_CHANGED: {
      value: 'cycle-changed',
      description: 'Its dependency cycle gained or lost a change; its changes were enqueued again.',
    },
    CHANGE_ABANDONED: { value: 'change-abandoned', description: 'Its change was abandoned (closed without merging).' },
    DEPENDENCY_DEQUEUED: { value: 'dependency-dequeued', description: 'A change it needs left the pipeline.' },
    REQUIREMENTS_NOT_MET: {
      value: 'requirements-not-met',
      description: "Before merging, its change no longer met the pipeline's require/reject conditions.",
    },
    TOO_MANY_DEPENDENCIES: {
      value: 'too-many-dependencies',
      description: "Its change depends on more changes than the tenant's max-dependencies allows.",
    },
    NON_LIVE_NO_ITEMS_BEHIND: {
      value: 'non-live-no-items-behind',
      description: 'A non-live item without items behind it.',
    },
    RECONFIGURATION: { value: 'reconfiguration', description: 'A reconfiguration removed it.' },
    PROMOTED: { value: 'promoted', description: 'It was re-enqueued by a promote.' },
  } as const,
});

const DequeueReason = builder.objectRef<DequeueReasonValue>('DequeueReason').implement({
  description: 'Why an item left its pipeline, with the details of that reason.',
  fields: (t) => ({
    kind: t.field({
      type: DequeueReasonKind,
      nullable: false,
      description: 'Kind of reason.',
      resolve: (reason) => reason.kind,
    }),
    result: t.string({
      description: 'Buildset result (REPORTED).',
      resolve: (reason) => (reason.kind === 'reported' ? reason.result : null),
    }),
    by: t.string({
      description: 'Who dequeued it (DEQUEUED_BY_ADMIN) or which item superseded it (SUPERSEDED).',
      resolve: (reason) => (reason.kind === 'dequeued-by-admin' || reason.kind === 'superseded' ? reason.by : null),
    }),
    patchset: t.string({
      description: 'The new patchset (NEW_PATCHSET).',
      resolve: (reason) => (reason.kind === 'new-patchset' ? reason.patchset : null),
    }),
    message: t.string({
      description:
        'Explanation (CYCLE_CHANGED, CHANGE_ABANDONED, DEPENDENCY_DEQUEUED, REQUIREMENTS_NOT_MET, TOO_MANY_DEPENDENCIES, RECONFIGURATION).',
      resolve: (reason) => ('message' in reason ? reason.message : null),
    }),
  }),
});

builder.objectRef<ChangeOf<'item-dequeued'>>('ItemDequeued').implement({
  description: 'An item left its queue: remove it.',
  interfaces: [QueueChange],
  fields: (t) => ({
    queue: t.int({ nullable: false, description: 'Queue key.', resolve: (value) => value.change.queue }),
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (value) => value.change.itemId }),
    reason: t.field({
      type: DequeueReason,
      description: 'Why it left its pipeline; null when it moved to another queue (an `ItemEnqueued` follows).',
      resolve: (value) => value.change.reason,
    }),
  }),
});

builder.objectRef<ChangeOf<'item-changed'>>('ItemChanged').implement({
  description:
    'Fields of an item changed (`changed` names them): set them. `jobs` is set only when the list of jobs changed (its job graph was frozen).',
  interfaces: [QueueChange],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (value) => value.change.itemId }),
    changed: t.stringList({
      nullable: false,
      description: 'Names of the fields that changed.',
      resolve: (value) => value.change.changed,
    }),
    active: t.boolean({ nullable: false, description: 'Inside the active window.', resolve: (v) => v.change.active }),
    live: t.boolean({ nullable: false, description: 'Live item.', resolve: (value) => value.change.live }),
    refs: t.field({
      type: [StatusRef],
      nullable: false,
      description: 'The changes of the item.',
      resolve: (value) => value.change.refs,
    }),
    failingReasons: t.stringList({
      nullable: false,
      description: 'Why the item is failing.',
      resolve: (value) => value.change.failingReasons,
    }),
    zuulRef: t.string({
      description: '`Z` + buildset uuid once configured.',
      resolve: (value) => value.change.zuulRef,
    }),
    enqueueTime: t.float({
      nullable: false,
      description: 'Epoch milliseconds when enqueued.',
      resolve: (value) => value.change.enqueueTime,
    }),
    enqueuedAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the item was enqueued.',
      resolve: (value) => new Date(value.change.enqueueTime),
    }),
    waitingFor: t.field({
      type: ItemWaitReason,
      description: 'Why the item does not run jobs yet.',
      resolve: (value) => value.change.waitingFor,
    }),
    jobs: t.field({
      type: [StatusJob],
      description: 'The whole list of jobs when it changed; null otherwise.',
      resolve: (value) => (value.change.jobs === null ? null : jobsAt(value.change.jobs, value.atMs)),
    }),
  }),
});

export const JobChange = builder.interfaceRef<ChangeOf<'job-changed'>>('JobChange').implement({
  description: "A job of an item changed: replace the item's job of that name with `job`.",
  interfaces: [QueueChange],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (value) => value.change.itemId }),
    changed: t.stringList({
      nullable: false,
      description: 'Names of the `StatusJob` fields that changed.',
      resolve: (value) => value.change.changed,
    }),
    job: t.field({
      type: StatusJob,
      nullable: false,
      description: 'The job now (times as at the delta).',
      resolve: (value) => jobWithTimes(value.change.job, value.atMs),
    }),
  }),
});

const JOB_EVENT_DESCRIPTIONS: Record<keyof typeof JOB_EVENT_TYPES, string> = {
  started: 'A build of the job started.',
  paused: 'The build paused after its run phase, waiting for its dependent jobs.',
  resumed: 'The paused build resumed: every job depending on it completed.',
  completed: 'The job completed (with or without a build).',
  waiting: 'The job waits for something else now.',
  changed: 'Other fields of the job changed (build requested, nodes requested, tries...).',
};

for (const [event, name] of Object.entries(JOB_EVENT_TYPES) as Array<[keyof typeof JOB_EVENT_TYPES, string]>) {
  builder.objectRef<ChangeOf<'job-changed'>>(name).implement({
    description: JOB_EVENT_DESCRIPTIONS[event],
    interfaces: [QueueChange, JobChange],
    isTypeOf: (value) => (value as ChangeOf<'job-changed'>).change.event === event,
    fields: () => ({}),
  });
}

builder.objectRef<ChangeOf<'item-reported'>>('ItemReported').implement({
  description: "A notice: an item's result was reported (no change of the status).",
  interfaces: [QueueChange],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (value) => value.change.itemId }),
    result: t.string({
      description: 'Buildset result (SUCCESS, FAILURE, MERGE_CONFLICT...); never null here.',
      resolve: (value) => value.change.result,
    }),
    message: t.string({ nullable: false, description: 'Report text.', resolve: (value) => value.change.message }),
  }),
});

builder.objectRef<ChangeOf<'buildset-changed'>>('BuildsetChanged').implement({
  description: 'A notice: a buildset was recorded in the build history, or recorded with its result.',
  interfaces: [QueueChange],
  fields: (t) => ({
    buildsetUuid: t.string({
      nullable: false,
      description: 'Buildset uuid (`Buildset.uuid`).',
      resolve: (value) => value.change.buildsetUuid,
    }),
    result: t.string({
      description: 'Buildset result; null when it was just created.',
      resolve: (value) => value.change.result,
    }),
  }),
});
