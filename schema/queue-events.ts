/**
 * Typed queue deltas (`queueEvents`). Each event names what happened and carries the current
 * state of the pipeline it touched (`pipelineStatus`), so a client applies an event by
 * replacing that pipeline in its snapshot: application is idempotent and order-tolerant.
 */
import type { EngineDelta } from '../src/engine/event-bus';
import type { DequeueReason as DequeueReasonValue } from '../src/engine/model';
import type { PipelineStatus } from '../src/engine/status';
import type { TenantEventQueueState as TenantEventQueueStateValue } from '../src/engine/model';
import type { ResnapshotReason as ResnapshotReasonValue } from './infra/live-feeds';
import { builder } from './infra/builder';
import { JobWaitReason, StatusPipeline, TenantEventQueueState } from './status';

/** State current when a delta is delivered. */
export interface CurrentState {
  /** The touched pipeline as it is now; null for tenant-level events or an unknown pipeline. */
  pipelineStatus: PipelineStatus | null;
  tenantState: TenantEventQueueStateValue | null;
}

type WithState<D> = D extends EngineDelta ? CurrentState & { delta: D } : never;

/** An engine delta with the state current when it is delivered (one member per delta type). */
export type QueueEventValue = WithState<EngineDelta>;

/** Attach the current state to a delta, keeping the delta's own type. */
export function withState(delta: EngineDelta, state: CurrentState): QueueEventValue {
  switch (delta.type) {
    case 'item-enqueued':
      return { ...state, delta };
    case 'item-moved':
      return { ...state, delta };
    case 'item-dequeued':
      return { ...state, delta };
    case 'item-reported':
      return { ...state, delta };
    case 'job-waiting':
      return { ...state, delta };
    case 'job-started':
      return { ...state, delta };
    case 'job-paused':
      return { ...state, delta };
    case 'job-resumed':
      return { ...state, delta };
    case 'job-completed':
      return { ...state, delta };
    case 'window-changed':
      return { ...state, delta };
    case 'tenant-state-changed':
      return { ...state, delta };
    case 'pipeline-state-changed':
      return { ...state, delta };
    case 'buildset-changed':
      return { ...state, delta };
  }
}

export interface ResnapshotValue {
  tenant: string;
  reason: ResnapshotReasonValue;
  sequence: number;
}

export type QueueEventItem = { kind: 'delta'; value: QueueEventValue } | { kind: 'resnapshot'; value: ResnapshotValue };

type DeltaOf<T extends EngineDelta['type']> = CurrentState & { delta: Extract<EngineDelta, { type: T }> };

export const QueueEvent = builder.interfaceRef<QueueEventValue>('QueueEvent').implement({
  description:
    "A change of a tenant's queues, numbered by a tenant-wide sequence. Apply it by replacing `pipelineStatus.name` in your snapshot.",
  resolveType: (event) => deltaTypeName(event.delta.type),
  fields: (t) => ({
    sequence: t.int({
      nullable: false,
      description: 'Tenant-wide, strictly increasing sequence number.',
      resolve: (event) => event.delta.sequence,
    }),
    tenant: t.string({ nullable: false, description: 'Tenant name.', resolve: (event) => event.delta.tenant }),
    at: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the engine made the change.',
      resolve: (event) => new Date(event.delta.at),
    }),
    pipeline: t.string({
      description: 'Pipeline concerned; null for tenant-level events.',
      resolve: (event) => ('pipeline' in event.delta ? event.delta.pipeline : null),
    }),
    pipelineStatus: t.field({
      type: StatusPipeline,
      description: 'The concerned pipeline as it is now (all its queues); null for tenant-level events.',
      resolve: (event) => event.pipelineStatus,
    }),
  }),
});

const ItemEnqueuedEvent = builder.objectRef<DeltaOf<'item-enqueued'>>('ItemEnqueued').implement({
  description: 'An item entered a queue.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    queueName: t.string({ nullable: false, description: 'Queue name.', resolve: (event) => event.delta.queue }),
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    changeIds: t.stringList({
      nullable: false,
      description: "Ids of the item's changes (`N,P` or new revision).",
      resolve: (event) => event.delta.changeIds,
    }),
    live: t.boolean({
      nullable: false,
      description: 'Whether the item is live.',
      resolve: (event) => event.delta.live,
    }),
  }),
});

const ItemMovedEvent = builder.objectRef<DeltaOf<'item-moved'>>('ItemMoved').implement({
  description: 'An item got a new item ahead (an item ahead left, or a reorder).',
  interfaces: [QueueEvent],
  fields: (t) => ({
    queueName: t.string({ nullable: false, description: 'Queue name.', resolve: (event) => event.delta.queue }),
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    itemAhead: t.string({
      description: 'Uuid of the new item ahead; null at the head.',
      resolve: (event) => event.delta.itemAhead,
    }),
  }),
});

const DequeueReasonKind = builder.enumType('DequeueReasonKind', {
  description: 'Why an item left its pipeline.',
  values: {
    REPORTED: { value: 'reported', description: 'It completed and was reported.' },
    DEQUEUED_BY_ADMIN: { value: 'dequeued-by-admin', description: 'An administrator dequeued it.' },
    SUPERSEDED: { value: 'superseded', description: 'A newer item replaced it.' },
    NEW_PATCHSET: { value: 'new-patchset', description: 'A new patchset of its change was uploaded.' },
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
      description: 'Explanation (DEPENDENCY_DEQUEUED, REQUIREMENTS_NOT_MET, TOO_MANY_DEPENDENCIES, RECONFIGURATION).',
      resolve: (reason) => ('message' in reason ? reason.message : null),
    }),
  }),
});

const ItemDequeuedEvent = builder.objectRef<DeltaOf<'item-dequeued'>>('ItemDequeued').implement({
  description: 'An item left its queue.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    queueName: t.string({ nullable: false, description: 'Queue name.', resolve: (event) => event.delta.queue }),
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    reason: t.field({
      type: DequeueReason,
      nullable: false,
      description: 'Why it left.',
      resolve: (event) => event.delta.reason,
    }),
  }),
});

const ItemReportedEvent = builder.objectRef<DeltaOf<'item-reported'>>('ItemReported').implement({
  description: "An item's result was reported.",
  interfaces: [QueueEvent],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    result: t.string({
      nullable: false,
      description: 'Buildset result (SUCCESS, FAILURE, MERGE_CONFLICT...).',
      resolve: (event) => event.delta.result,
    }),
    message: t.string({ nullable: false, description: 'Report text.', resolve: (event) => event.delta.message }),
  }),
});

const JobWaitingEvent = builder.objectRef<DeltaOf<'job-waiting'>>('JobWaiting').implement({
  description: 'A job is waiting, or waits for something else now.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    job: t.string({ nullable: false, description: 'Job name.', resolve: (event) => event.delta.job }),
    waitingFor: t.field({
      type: JobWaitReason,
      nullable: false,
      description: 'What it waits for.',
      resolve: (event) => event.delta.reason,
    }),
    waitingStatus: t.string({ description: 'The REST `waiting_status` text.', resolve: (event) => event.delta.status }),
  }),
});

const JobStartedEvent = builder.objectRef<DeltaOf<'job-started'>>('JobStarted').implement({
  description: 'A build of a job started.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    job: t.string({ nullable: false, description: 'Job name.', resolve: (event) => event.delta.job }),
    buildUuid: t.string({ nullable: false, description: 'Build uuid.', resolve: (event) => event.delta.buildUuid }),
  }),
});

const JobPausedEvent = builder.objectRef<DeltaOf<'job-paused'>>('JobPaused').implement({
  description:
    'A build paused after its run phase (it returned `pause`): its dependent jobs may start now, it keeps its nodes and resumes when they have all completed.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    job: t.string({ nullable: false, description: 'Job name.', resolve: (event) => event.delta.job }),
    buildUuid: t.string({ nullable: false, description: 'Build uuid.', resolve: (event) => event.delta.buildUuid }),
  }),
});

const JobResumedEvent = builder.objectRef<DeltaOf<'job-resumed'>>('JobResumed').implement({
  description: 'A paused build resumed (its post-run steps run next): every job depending on it has completed.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    job: t.string({ nullable: false, description: 'Job name.', resolve: (event) => event.delta.job }),
    buildUuid: t.string({ nullable: false, description: 'Build uuid.', resolve: (event) => event.delta.buildUuid }),
  }),
});

const JobCompletedEvent = builder.objectRef<DeltaOf<'job-completed'>>('JobCompleted').implement({
  description: 'A job completed (with or without a build).',
  interfaces: [QueueEvent],
  fields: (t) => ({
    itemId: t.string({ nullable: false, description: 'Item uuid.', resolve: (event) => event.delta.itemUuid }),
    job: t.string({ nullable: false, description: 'Job name.', resolve: (event) => event.delta.job }),
    buildUuid: t.string({
      description: 'Build uuid; null when the job completed without a build (skipped...).',
      resolve: (event) => event.delta.buildUuid,
    }),
    result: t.string({ nullable: false, description: 'Build result.', resolve: (event) => event.delta.result }),
  }),
});

const WindowChangedEvent = builder.objectRef<DeltaOf<'window-changed'>>('WindowChanged').implement({
  description: 'The active window of a queue changed.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    queueName: t.string({ nullable: false, description: 'Queue name.', resolve: (event) => event.delta.queue }),
    window: t.int({ nullable: false, description: 'New window.', resolve: (event) => event.delta.window }),
  }),
});

const TenantStateChangedEvent = builder.objectRef<DeltaOf<'tenant-state-changed'>>('TenantStateChanged').implement({
  description: 'The tenant event-queue state changed.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    state: t.field({
      type: TenantEventQueueState,
      description: 'The state now.',
      resolve: (event) => event.tenantState,
    }),
  }),
});

const PipelineStateChangedEvent = builder
  .objectRef<DeltaOf<'pipeline-state-changed'>>('PipelineStateChanged')
  .implement({
    description: 'A pipeline was disabled or enabled.',
    interfaces: [QueueEvent],
    fields: (t) => ({
      disabled: t.boolean({
        nullable: false,
        description: 'Whether the pipeline is disabled now.',
        resolve: (event) => event.delta.disabled,
      }),
    }),
  });

const BuildsetChangedEvent = builder.objectRef<DeltaOf<'buildset-changed'>>('BuildsetChanged').implement({
  description: 'A buildset was recorded in the build history, or recorded with its result.',
  interfaces: [QueueEvent],
  fields: (t) => ({
    buildsetUuid: t.string({
      nullable: false,
      description: 'Buildset uuid (`Buildset.uuid`).',
      resolve: (event) => event.delta.buildsetUuid,
    }),
    result: t.string({
      description: 'Buildset result (SUCCESS, MERGE_CONFLICT...); null when it was just created.',
      resolve: (event) => event.delta.result,
    }),
  }),
});

const ResnapshotReason = builder.enumType('ResnapshotReason', {
  description: 'Why the client must take a new status snapshot.',
  values: {
    REPLAY_UNAVAILABLE: {
      value: 'REPLAY_UNAVAILABLE',
      description: 'The deltas after `afterSeq` are no longer in the replay buffer.',
    },
    SLOW_CONSUMER: { value: 'SLOW_CONSUMER', description: 'The client did not keep up; its backlog was dropped.' },
    SEQUENCE_GAP: { value: 'SEQUENCE_GAP', description: 'This server missed deltas (event bus interruption).' },
  } as const,
});

export const ResnapshotRequired = builder.objectRef<ResnapshotValue>('ResnapshotRequired').implement({
  description:
    'Deltas were lost for this subscriber: query `status` again and apply deltas with a higher sequence than its `sequence`.',
  fields: (t) => ({
    tenant: t.exposeString('tenant', { nullable: false, description: 'Tenant name.' }),
    cause: t.field({
      type: ResnapshotReason,
      nullable: false,
      description: 'Why deltas were lost.',
      resolve: (value) => value.reason,
    }),
    sequence: t.exposeInt('sequence', { nullable: false, description: 'Deltas up to this sequence may be missing.' }),
  }),
});

export const QueueEventOrResnapshot = builder.unionType('QueueEventOrResnapshot', {
  description: 'A queue delta, or a request to take a new snapshot.',
  types: [
    ItemEnqueuedEvent,
    ItemMovedEvent,
    ItemDequeuedEvent,
    ItemReportedEvent,
    JobWaitingEvent,
    JobStartedEvent,
    JobPausedEvent,
    JobResumedEvent,
    JobCompletedEvent,
    WindowChangedEvent,
    TenantStateChangedEvent,
    PipelineStateChangedEvent,
    BuildsetChangedEvent,
    ResnapshotRequired,
  ],
  resolveType: (value) => ('delta' in value ? deltaTypeName(value.delta.type) : 'ResnapshotRequired'),
});

/** GraphQL type name of a delta type (`item-enqueued` -> `ItemEnqueued`). */
function deltaTypeName(type: EngineDelta['type']): string {
  return type
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
