/**
 * What travels on the event bus for live views: the engine's deltas (ids and a few fields, and
 * one status delta per pass with what changed); subscribers load current objects (status,
 * builds, buildsets, system events) through the schema when a delta arrives. A delta larger
 * than a bus message (a status delta of a pass that changed many items) travels in parts.
 */
import type { EngineDelta } from '../../src/engine/event-bus';
import { MAX_MESSAGE_BYTES, type BusMessage, type JsonValue } from '../bus/event-bus';
import { isPlainObject } from '../../src/model/value-checks';

export const LIVE_MESSAGE_KINDS = {
  queueDelta: 'queue-delta',
  /** One part of a delta too large for one message (base64 of its JSON). */
  queueDeltaPart: 'queue-delta-part',
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
  'management-events-processed',
  'queue-delta',
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
    typeof data.at === 'string' &&
    (data.type !== 'queue-delta' || Array.isArray(data.changes)) &&
    (data.type !== 'management-events-processed' || Array.isArray(data.events))
  );
}

/** Bytes of JSON per part: base64 makes 4/3 of it, the envelope stays well under the bus limit. */
const PART_BYTES = Math.floor(((MAX_MESSAGE_BYTES - 400) * 3) / 4);

/** The bus messages that carry a delta: one, or parts when it is too large for one. */
export function deltaMessages(delta: EngineDelta): BusMessage[] {
  const json = JSON.stringify(delta);
  const bytes = Buffer.from(json);
  if (bytes.length <= PART_BYTES) {
    return [{ kind: LIVE_MESSAGE_KINDS.queueDelta, data: JSON.parse(json) as JsonValue }];
  }
  const count = Math.ceil(bytes.length / PART_BYTES);
  const messages: BusMessage[] = [];
  for (let index = 0; index < count; index += 1) {
    const chunk = bytes.subarray(index * PART_BYTES, (index + 1) * PART_BYTES).toString('base64');
    messages.push({
      kind: LIVE_MESSAGE_KINDS.queueDeltaPart,
      data: { tenant: delta.tenant, sequence: delta.sequence, index, count, chunk },
    });
  }
  return messages;
}

/**
 * Reassembles deltas sent in parts, one at a time per tenant (the engine publishes in order). A
 * part of another delta before the last one arrived drops the incomplete one: the sequence gap
 * that follows tells subscribers to re-snapshot.
 */
export class PartAssembler {
  private sequence = -1;
  private chunks: string[] = [];

  /** The delta once its last part arrived; null before, or for a malformed part. */
  add(data: JsonValue): (JsonValue & EngineDelta) | null {
    if (
      !isPlainObject(data) ||
      typeof data.sequence !== 'number' ||
      typeof data.index !== 'number' ||
      typeof data.count !== 'number' ||
      typeof data.chunk !== 'string'
    ) {
      return null;
    }
    if (data.index === 0 || data.sequence !== this.sequence || data.index !== this.chunks.length) {
      this.sequence = data.sequence;
      this.chunks = [];
      if (data.index !== 0) {
        return null;
      }
    }
    this.chunks.push(data.chunk);
    if (this.chunks.length < data.count) {
      return null;
    }
    const json = Buffer.concat(this.chunks.map((chunk) => Buffer.from(chunk, 'base64'))).toString('utf8');
    this.chunks = [];
    this.sequence = -1;
    try {
      const delta = JSON.parse(json) as JsonValue;
      return isEngineDelta(delta) ? delta : null;
    } catch {
      return null;
    }
  }
}
