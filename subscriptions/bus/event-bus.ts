/**
 * The event bus carries "something changed" notifications from the process that changed the
 * store to every process that serves subscribers. Messages are small (ids and minimal state):
 * subscribers resolve the current objects through the schema. Topics are coarse, per tenant
 * (`tenant:<name>`), and listeners filter in memory.
 */
import type { LinkState } from '../../src/store/links';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface BusMessage {
  /** Kind of change, e.g. `queue-event`, `build-updated`, `system-event`. */
  kind: string;
  data: JsonValue;
}

export type BusListener = (message: BusMessage) => void;

export interface EventBus {
  /** Deliver `message` to every listener of `topic` in every process sharing this bus. */
  publish(topic: string, message: BusMessage): Promise<void>;
  /** Listen to `topic`; returns a function that stops listening. */
  subscribe(topic: string, listener: BusListener): () => void;
  /** Resolves once the bus can deliver messages published from now on (subscriptions are active). */
  ready(): Promise<void>;
  close(): Promise<void>;
  /** The state of the bus's connections, for `/health/ready` (docs/operations.md#health). */
  links(): LinkState[];
  /** `in-process`, `redis` or `postgres`. */
  readonly kind: string;
}

/** A publish after `close`: refused, never handed to a closed connection (docs/operations.md#shutdown). */
export class BusClosedError extends Error {
  constructor() {
    super('the event bus is closed');
    this.name = 'BusClosedError';
  }
}

export function tenantTopic(tenant: string): string {
  return `tenant:${tenant}`;
}

/** Largest message any bus accepts (PostgreSQL NOTIFY allows just under 8000 bytes). */
export const MAX_MESSAGE_BYTES = 7900;

export function encodeMessage(topic: string, message: BusMessage): string {
  const text = JSON.stringify({ topic, kind: message.kind, data: message.data });
  if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) {
    throw new Error(
      `bus message for ${topic} (${message.kind}) exceeds ${MAX_MESSAGE_BYTES} bytes; publish ids, not objects`,
    );
  }
  return text;
}

export function decodeMessage(text: string): { topic: string; message: BusMessage } | undefined {
  try {
    const parsed = JSON.parse(text) as { topic?: unknown; kind?: unknown; data?: JsonValue };
    if (typeof parsed.topic !== 'string' || typeof parsed.kind !== 'string') {
      return undefined;
    }
    return { topic: parsed.topic, message: { kind: parsed.kind, data: parsed.data ?? null } };
  } catch {
    return undefined;
  }
}

/** Fan-out of decoded messages to local listeners; shared by every implementation. */
export class ListenerSet {
  private readonly byTopic = new Map<string, Set<BusListener>>();

  add(topic: string, listener: BusListener): { first: boolean; remove: () => boolean } {
    let set = this.byTopic.get(topic);
    const first = set === undefined;
    if (!set) {
      set = new Set();
      this.byTopic.set(topic, set);
    }
    set.add(listener);
    return {
      first,
      remove: () => {
        const current = this.byTopic.get(topic);
        current?.delete(listener);
        if (current && current.size === 0) {
          this.byTopic.delete(topic);
          return true;
        }
        return false;
      },
    };
  }

  deliver(topic: string, message: BusMessage): void {
    for (const listener of [...(this.byTopic.get(topic) ?? [])]) {
      try {
        listener(message);
      } catch {
        // A faulty listener must not stop delivery to the others.
      }
    }
  }

  topics(): string[] {
    return [...this.byTopic.keys()];
  }
}
