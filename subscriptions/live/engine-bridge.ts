/**
 * Engine -> event bus glue: the engine publishes its deltas to an `EngineEventBus`; this one
 * forwards them to the (possibly cross-process) `EventBus` on the tenant's topic, where every
 * process's `LiveHub` fans them out to its subscribers.
 */
import type { EngineDelta, EngineEventBus } from '../../src/engine/event-bus';
import { tenantTopic, type EventBus, type JsonValue } from '../bus/event-bus';
import { LIVE_MESSAGE_KINDS, PartAssembler, deltaMessages, isEngineDelta } from './messages';

/** The engine's bus over the service's bus; `flush` resolves once every delta given so far was published (or failed). */
export interface EngineEventBridge extends EngineEventBus {
  flush(): Promise<void>;
}

/**
 * An `EngineEventBus` over the service's `EventBus`; publish failures go to `onError`, never to
 * the engine. A shutdown flushes it before it closes the bus (docs/operations.md#shutdown).
 */
export function engineEventBusOver(
  bus: EventBus,
  onError: (error: unknown, delta: EngineDelta) => void,
): EngineEventBridge {
  // Publish one at a time: a pooled bus could otherwise reorder deltas, and subscribers treat a
  // jump in the sequence as lost deltas.
  let previous: Promise<void> = Promise.resolve();
  return {
    publish(delta) {
      const messages = deltaMessages(delta);
      previous = previous
        .then(async () => {
          for (const message of messages) {
            await bus.publish(tenantTopic(delta.tenant), message);
          }
        })
        .catch((error: unknown) => onError(error, delta));
    },
    flush: () => previous,
    subscribe(tenant, listener) {
      const parts = new PartAssembler();
      return bus.subscribe(tenantTopic(tenant), (message) => {
        const data: JsonValue | null =
          message.kind === LIVE_MESSAGE_KINDS.queueDeltaPart ? parts.add(message.data) : message.data;
        if (
          (message.kind === LIVE_MESSAGE_KINDS.queueDelta || message.kind === LIVE_MESSAGE_KINDS.queueDeltaPart) &&
          data !== null &&
          isEngineDelta(data) &&
          data.tenant === tenant
        ) {
          listener(data);
        }
      });
    },
  };
}
