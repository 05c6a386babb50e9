/**
 * The live tenant status (docs/rest.md#status-document): pipelines -> change queues -> heads -> items -> jobs,
 * with every field of both REST shapes, plus the delta `sequence` it is consistent with so a
 * client can take one snapshot and then apply `queueEvents` deltas.
 */
import type { ChangeQueueStatus, ItemStatus, JobStatus, PipelineStatus, RefStatus } from '../src/engine/status';
import type { TenantEventQueueState as TenantEventQueueStateValue } from '../src/model/pipeline-state';
import { builder } from './infra/builder';
import { NotFoundError } from './infra/errors';
import {
  loadStatusSnapshot,
  restrictToPipeline,
  sharedStatusSnapshot,
  type StatusSnapshot,
} from './infra/status-snapshot';
import { Tenant } from './tenant';

export const JobWaitReason = builder.enumType('JobWaitReason', {
  description: 'What a job that has not started yet is waiting for.',
  values: {
    WINDOW: { value: 'window', description: 'Its item is outside the active window of the queue.' },
    MERGE: { value: 'merge', description: 'The speculative merge of its item is being prepared.' },
    HOLD_FOLLOWING_CHANGES: {
      value: 'hold-following-changes',
      description: 'A job ahead holds following changes until it finishes.',
    },
    REQUIREMENTS: { value: 'requirements', description: 'Artifacts it requires are not provided yet.' },
    DEPENDENCIES: { value: 'dependencies', description: 'Jobs it depends on have not finished.' },
    SEMAPHORES: { value: 'semaphores', description: 'A semaphore it needs is held by other builds.' },
    NODES: { value: 'nodes', description: 'Its nodes are being provisioned.' },
    EXECUTOR: { value: 'executor', description: 'It is waiting for an executor to start it.' },
  } as const,
});

export const ItemWaitReason = builder.enumType('ItemWaitReason', {
  description: 'Why an item does not run jobs yet.',
  values: {
    WINDOW: { value: 'window', description: 'It is outside the active window of its queue.' },
    MERGE: { value: 'merge', description: 'Its speculative merge is being prepared.' },
  } as const,
});

export const PipelineManagerKind = builder.enumType('PipelineManagerKind', {
  description: 'How a pipeline orders and gates its items.',
  values: {
    INDEPENDENT: { value: 'independent', description: 'Each change is tested on its own.' },
    DEPENDENT: {
      value: 'dependent',
      description: 'Changes are tested speculatively on top of the ones ahead (gating).',
    },
    SERIAL: { value: 'serial', description: 'One item at a time per queue.' },
    SUPERCEDENT: { value: 'supercedent', description: 'A newer item replaces a waiting older one of the same ref.' },
  } as const,
});

export const PipelineHealth = builder.enumType('PipelineHealth', {
  description: 'State of a pipeline.',
  values: {
    NORMAL: { value: 'normal', description: 'The pipeline works normally.' },
    ERROR: { value: 'error', description: 'The pipeline has a configuration error.' },
  } as const,
});

export const EventQueueLength = builder.objectRef<{ length: number }>('EventQueueLength').implement({
  description: 'Size of a pending event queue.',
  fields: (t) => ({
    length: t.exposeInt('length', { nullable: false, description: 'Number of events waiting to be processed.' }),
  }),
});

export const TenantEventQueueState = builder.objectRef<TenantEventQueueStateValue>('TenantEventQueueState').implement({
  description: 'Whether the tenant event queues are paused or discarding (REST `state`, set by `tenantStateSet`).',
  fields: (t) => ({
    triggerQueueDiscarding: t.exposeBoolean('triggerQueueDiscarding', {
      nullable: false,
      description: 'Incoming trigger events are discarded.',
    }),
    triggerQueuePaused: t.exposeBoolean('triggerQueuePaused', {
      nullable: false,
      description: 'Trigger events are not processed.',
    }),
    resultQueuePaused: t.exposeBoolean('resultQueuePaused', {
      nullable: false,
      description: 'Result events are not processed.',
    }),
    reason: t.exposeString('reason', { description: 'Free-text reason given with the last change; null when none.' }),
  }),
});

export const StatusRef = builder.objectRef<RefStatus>('StatusRef').implement({
  description: 'One change (or ref update) of a queue item.',
  fields: (t) => ({
    id: t.exposeString('id', {
      nullable: false,
      description: '`<number>,<patchset>` for changes; the new revision for ref updates.',
    }),
    url: t.exposeString('url', { description: 'Web URL of the change or commit.' }),
    ref: t.exposeString('ref', { description: 'Git ref.' }),
    project: t.exposeString('project', { nullable: false, description: 'Short project name.' }),
    projectCanonical: t.exposeString('projectCanonical', {
      nullable: false,
      description: 'Canonical project name (host/org/project).',
    }),
    owner: t.exposeString('owner', { description: 'Owner of the change, when known.' }),
  }),
});

export const StatusJob = builder.objectRef<JobStatus>('StatusJob').implement({
  description: 'A job of a queue item as the status shows it. Times are computed when the status is produced.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Job name.' }),
    dependencies: t.exposeStringList('dependencies', {
      nullable: false,
      description: 'Names of the jobs it depends on (hard and soft).',
    }),
    elapsedTime: t.exposeFloat('elapsedTime', {
      description: 'Milliseconds since the build started (or its duration when finished); null before it starts.',
    }),
    remainingTime: t.exposeFloat('remainingTime', {
      description: 'Estimated milliseconds left; 0 when finished; null without an estimate.',
    }),
    url: t.exposeString('url', {
      description:
        'Relative dashboard link to the live log (`stream/<uuid>?logfile=console.log`); null before a build exists.',
    }),
    fingerUrl: t.exposeString('fingerUrl', { description: 'Build URL reported by the executor.' }),
    reportUrl: t.exposeString('reportUrl', { description: 'Link to the build page; null before a build exists.' }),
    result: t.exposeString('result', {
      description: 'Raw build result (SUCCESS, FAILURE...); null while running or waiting.',
    }),
    voting: t.exposeBoolean('voting', { nullable: false, description: 'Whether the result counts for the item.' }),
    uuid: t.exposeString('uuid', { description: 'Build uuid; null before a build exists.' }),
    executeTime: t.exposeFloat('executeTime', { description: 'Epoch seconds when the build was requested.' }),
    startTime: t.exposeFloat('startTime', { description: 'Epoch seconds when the build started.' }),
    endTime: t.exposeFloat('endTime', { description: 'Epoch seconds when the build ended.' }),
    estimatedTime: t.exposeFloat('estimatedTime', {
      description: 'Estimated duration in seconds (average of recent successful builds).',
    }),
    pipeline: t.exposeString('pipeline', { description: 'Pipeline name, once a build exists.' }),
    canceled: t.exposeBoolean('canceled', { description: 'The build was canceled; null without a build.' }),
    paused: t.exposeBoolean('paused', { description: 'The build is paused; null without a build.' }),
    preFail: t.exposeBoolean('preFail', { description: 'The build is failing before it ended; null without a build.' }),
    retry: t.exposeBoolean('retry', { description: 'The build will be retried; null without a build.' }),
    tries: t.exposeInt('tries', { nullable: false, description: 'Attempts so far (0 before the first build).' }),
    queued: t.exposeBoolean('queued', {
      nullable: false,
      description: 'Requirements are satisfied and nodes are (being) requested.',
    }),
    waitingStatus: t.exposeString('waitingStatus', {
      description: 'Why the job waits, as the REST status says it (`dependencies: a, b`...); null once started.',
    }),
    waitingFor: t.field({
      type: JobWaitReason,
      description: 'What the job waits for; null once started.',
      resolve: (job) => job.waitingFor,
    }),
    nodeLabels: t.exposeStringList('nodeLabels', { nullable: false, description: 'Labels of the nodes the job uses.' }),
  }),
});

export const StatusItem = builder.objectRef<ItemStatus>('StatusItem').implement({
  description: 'One queue entry: a change (or several in a dependency cycle) being tested.',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: false, description: 'Item uuid.' }),
    active: t.exposeBoolean('active', {
      nullable: false,
      description: 'The item is inside the active window (its jobs may run).',
    }),
    live: t.exposeBoolean('live', {
      nullable: false,
      description: 'False for items present only as context for a change behind them.',
    }),
    refs: t.field({
      type: [StatusRef],
      nullable: false,
      description: 'The changes of the item.',
      resolve: (item) => item.refs,
    }),
    itemAhead: t.exposeString('itemAhead', { description: 'Uuid of the item ahead in the queue.' }),
    itemsBehind: t.exposeStringList('itemsBehind', {
      nullable: false,
      description: 'Uuids of the items directly behind.',
    }),
    failingReasons: t.exposeStringList('failingReasons', {
      nullable: false,
      description: 'Why the item is failing; empty when it is fine.',
    }),
    zuulRef: t.exposeString('zuulRef', { description: '`Z` + buildset uuid once the buildset is configured.' }),
    enqueueTime: t.exposeFloat('enqueueTime', {
      nullable: false,
      description: 'Epoch milliseconds when the item was enqueued.',
    }),
    enqueuedAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the item was enqueued.',
      resolve: (item) => new Date(item.enqueueTime),
    }),
    jobs: t.field({
      type: [StatusJob],
      nullable: false,
      description: 'Jobs of the frozen job graph (empty before freezing and for non-live items).',
      resolve: (item) => item.jobs,
    }),
    remainingTime: t.exposeFloat('remainingTime', {
      description: 'Estimated milliseconds until the item completes; null unless every job has started.',
    }),
    waitingFor: t.field({
      type: ItemWaitReason,
      description: 'Why the item does not run jobs yet; null when it does.',
      resolve: (item) => item.waitingFor,
    }),
  }),
});

export const StatusChangeQueue = builder.objectRef<ChangeQueueStatus>('StatusChangeQueue').implement({
  description: 'A change queue of a pipeline.',
  fields: (t) => ({
    key: t.exposeInt('key', {
      nullable: false,
      description: 'Identifies the queue within the tenant while it exists; queue deltas name queues by it.',
    }),
    name: t.exposeString('name', {
      nullable: false,
      description: 'Queue name (shared queue name, or generated for independent pipelines).',
    }),
    window: t.exposeInt('window', { nullable: false, description: 'Current active window (0 = unlimited).' }),
    branch: t.exposeString('branch', { description: 'Branch of a per-branch queue.' }),
    items: t.field({
      type: [StatusItem],
      nullable: false,
      description:
        'The items in queue order: the order queue deltas place items in (`heads` gives the same items as chains).',
      resolve: (queue) => queue.items,
    }),
    heads: t.field({
      type: t.listRef(t.listRef(StatusItem, { nullable: false }), { nullable: false }),
      nullable: false,
      description: 'The queue split into chains: a chain starts at every item without an item ahead.',
      resolve: (queue) => queue.heads,
    }),
  }),
});

export const StatusPipeline = builder.objectRef<PipelineStatus>('StatusPipeline').implement({
  description: 'A pipeline and its queues.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Pipeline name.' }),
    description: t.exposeString('description', { description: 'Description from the configuration.' }),
    state: t.field({
      type: PipelineHealth,
      nullable: false,
      description: 'Pipeline state.',
      resolve: (pipeline) => pipeline.state,
    }),
    manager: t.field({
      type: PipelineManagerKind,
      nullable: false,
      description: 'Manager kind.',
      resolve: (pipeline) => pipelineManagerKind(pipeline.manager),
    }),
    triggers: t.stringList({
      nullable: false,
      description: 'Driver name of each trigger.',
      resolve: (pipeline) => pipeline.triggers.map((trigger) => trigger.driver),
    }),
    disabled: t.exposeBoolean('disabled', {
      nullable: false,
      description: 'Disabled after too many consecutive failures.',
    }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', {
      nullable: false,
      description: 'Consecutive failed reports.',
    }),
    changeQueues: t.field({
      type: [StatusChangeQueue],
      nullable: false,
      description: 'Every change queue, including empty ones (the current REST shape lists only non-empty queues).',
      resolve: (pipeline) => pipeline.changeQueues,
    }),
    triggerEvents: t.exposeInt('triggerEvents', {
      nullable: false,
      description:
        'Pending trigger events whose type, connection and (when the event names them) ref and branch match a trigger of the pipeline.',
    }),
    resultEvents: t.exposeInt('resultEvents', {
      nullable: false,
      description: "Pending result events for builds and node requests of the pipeline's items.",
    }),
    managementEvents: t.exposeInt('managementEvents', {
      nullable: false,
      description: 'Pending management events (enqueue, dequeue, promote, supersede) naming the pipeline.',
    }),
  }),
});

export function pipelineManagerKind(manager: string): 'independent' | 'dependent' | 'serial' | 'supercedent' {
  switch (manager) {
    case 'dependent':
    case 'serial':
    case 'supercedent':
      return manager;
    default:
      return 'independent';
  }
}

/** Items of a snapshot whose refs include the change (`N,P`, or a new revision), in status order. */
export function itemsOfChange(snapshot: StatusSnapshot, change: string): ItemStatus[] {
  return snapshot.status.pipelines.flatMap((pipeline) =>
    pipeline.changeQueues.flatMap((queue) =>
      queue.heads.flatMap((chain) => chain.filter((item) => item.refs.some((ref) => ref.id === change))),
    ),
  );
}

export const TenantStatus = builder.objectRef<StatusSnapshot>('TenantStatus').implement({
  description: 'The live status of a tenant, consistent with delta `sequence`.',
  fields: (t) => ({
    tenant: t.string({ nullable: false, description: 'Tenant name.', resolve: (snapshot) => snapshot.status.tenant }),
    sequence: t.exposeInt('sequence', {
      nullable: false,
      description:
        'Sequence number of the last queue delta reflected; subscribe to `queueEvents(afterSeq: sequence)` to follow changes.',
    }),
    producedAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the status was computed: job and item times are as of this instant.',
      resolve: (snapshot) => new Date(snapshot.producedAt),
    }),
    zuulVersion: t.string({
      nullable: false,
      description: 'Server version (REST `zuul_version`).',
      resolve: (snapshot) => snapshot.status.zuulVersion,
    }),
    triggerEventQueue: t.field({
      type: EventQueueLength,
      nullable: false,
      description: 'Pending trigger events of the tenant.',
      resolve: (snapshot) => snapshot.status.triggerEventQueue,
    }),
    managementEventQueue: t.field({
      type: EventQueueLength,
      nullable: false,
      description: 'Pending management events of the tenant.',
      resolve: (snapshot) => snapshot.status.managementEventQueue,
    }),
    resultEventQueue: t.field({
      type: EventQueueLength,
      nullable: false,
      description: 'Pending result events of the tenant.',
      resolve: (snapshot) => snapshot.status.resultEventQueue,
    }),
    state: t.field({
      type: TenantEventQueueState,
      nullable: false,
      description: 'Pause and discard state of the event queues.',
      resolve: (snapshot) => snapshot.status.state,
    }),
    lastReconfigured: t.float({
      description: 'Epoch milliseconds of the last (re)configuration; null before the first.',
      resolve: (snapshot) => snapshot.status.lastReconfigured,
    }),
    lastReconfiguredAt: t.field({
      type: 'DateTime',
      description: 'When the tenant was last (re)configured.',
      resolve: (snapshot) =>
        snapshot.status.lastReconfigured === null ? null : new Date(snapshot.status.lastReconfigured),
    }),
    pipelines: t.field({
      type: [StatusPipeline],
      nullable: false,
      description: 'Pipelines in layout order.',
      resolve: (snapshot) => snapshot.status.pipelines,
    }),
    changeItems: t.field({
      type: [StatusItem],
      nullable: false,
      description: 'Items (of every pipeline and queue) one of whose refs has this id; REST `status/change/{change}`.',
      args: { change: t.arg.string({ required: true, description: '`<number>,<patchset>` or a new revision.' }) },
      resolve: (snapshot, { change }) => itemsOfChange(snapshot, change),
    }),
  }),
});

builder.objectField(Tenant, 'status', (t) =>
  t.field({
    type: TenantStatus,
    description: 'The live status of the tenant; a NotFoundError when the engine has no layout for it.',
    args: { pipeline: t.arg.string({ description: 'Only this pipeline.' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (tenant, { pipeline }, ctx) => {
      const snapshot = await (ctx.sharedReads ? sharedStatusSnapshot : loadStatusSnapshot)(ctx.services, tenant.name);
      if (!snapshot) {
        throw new NotFoundError('Tenant', tenant.name, 'Tenant not loaded');
      }
      return restrictToPipeline(snapshot, pipeline);
    },
  }),
);
