/**
 * What travels on the event bus for live views. Every message is small: queue deltas carry the
 * engine's delta (ids and a few fields); subscribers load current objects (status, builds,
 * buildsets, system events) through the schema when a delta arrives.
 */
import type { EngineDelta } from '../../src/engine/event-bus';
import type { JsonValue } from '../bus/event-bus';
import { isPlainObject } from '../../src/model/value-checks';

export const LIVE_MESSAGE_KINDS = {
  queueDelta: 'queue-delta',
  /** State visible in the status that changed outside a scheduler pass (tenant event-queue state). */
  statusChanged: 'status-changed',
} as const;

export type LiveMessageKind = (typeof LIVE_MESSAGE_KINDS)[keyof typeof LIVE_MESSAGE_KINDS];

const DELTA_TYPES: ReadonlySet<string> = new Set<EngineDelta['type']>([
  'item-enqueued',
  'item-moved',
  'item-dequeued',
  'item-reported',
  'job-waiting',
  'job-started',
  'job-paused',
  'job-resumed',
  'job-completed',
  'window-changed',
  'tenant-state-changed',
  'pipeline-state-changed',
  'buildset-changed',
]);

/** Whether bus data is an engine delta (messages come from other processes, so check the envelope). */
export function isEngineDelta(data: JsonValue): data is JsonValue & EngineDelta {
  return (
    isPlainObject(data) &&
    typeof data.type === 'string' &&
    DELTA_TYPES.has(data.type) &&
    typeof data.tenant === 'string' &&
    typeof data.sequence === 'number' &&
    Number.isInteger(data.sequence) &&
    typeof data.at === 'string'
  );
}
