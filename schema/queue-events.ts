/**
 * Queue deltas (`queueEvents`, docs/live.md#the-delta-protocol): one `QueueDelta` per scheduler
 * pass that changed the status, numbered by the tenant-wide delta sequence, carrying only what
 * changed (schema/queue-changes.ts); or a request to take a new snapshot.
 */
import type { EngineDelta } from '../src/engine/event-bus';
import type { StatusChange } from '../src/engine/status-diff';
import type { ResnapshotReason as ResnapshotReasonValue } from './infra/live-feeds';
import { builder } from './infra/builder';
import { QueueChange, type QueueChangeValue } from './queue-changes';

/** A queue delta as delivered: shared by every subscriber with the same filters and interest. */
export interface QueueDeltaValue {
  readonly shared: true;
  /** Only the subscription's event selection matters when executing it, not its root arguments. */
  readonly rootArgumentsResolved: true;
  readonly delta: Extract<EngineDelta, { type: 'queue-delta' }>;
  /** The delta's changes that pass the subscriber's filters, in order. */
  readonly changes: readonly StatusChange[];
}

export interface ResnapshotValue {
  tenant: string;
  reason: ResnapshotReasonValue;
  sequence: number;
}

export const QueueDelta = builder.objectRef<QueueDeltaValue>('QueueDelta').implement({
  description:
    'What one scheduler pass changed in the status of a tenant. Apply `changes` in order to a snapshot whose `sequence` is lower (docs/live.md#applying-changes); the result is the status at this `sequence`.',
  fields: (t) => ({
    sequence: t.int({
      nullable: false,
      description: 'Tenant-wide, strictly increasing sequence number: the status after this delta has this sequence.',
      resolve: (value) => value.delta.sequence,
    }),
    tenant: t.string({ nullable: false, description: 'Tenant name.', resolve: (value) => value.delta.tenant }),
    at: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the engine made the change (job times in the changes are computed at this time).',
      resolve: (value) => new Date(value.delta.at),
    }),
    changes: t.field({
      type: [QueueChange],
      nullable: false,
      description:
        'The changes, in the order to apply them. Changes of fields your subscription does not select are left out.',
      resolve: (value): QueueChangeValue[] => {
        const atMs = Date.parse(value.delta.at);
        return value.changes.map((change) => ({ change, atMs }));
      },
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

export type QueueEventItem = QueueDeltaValue | (ResnapshotValue & { kind: 'resnapshot' });

export const QueueEventOrResnapshot = builder.unionType('QueueEventOrResnapshot', {
  description: 'A queue delta, or a request to take a new snapshot.',
  types: [QueueDelta, ResnapshotRequired],
  resolveType: (value) => ('delta' in value ? 'QueueDelta' : 'ResnapshotRequired'),
});
