/**
 * Engine -> event bus glue: the engine publishes its deltas to an `EngineEventBus`; this one
 * forwards them to the (possibly cross-process) `EventBus` on the tenant's topic, where every
 * process's `LiveHub` fans them out to its subscribers.
 */
import type { EngineDelta, EngineEventBus } from '../../src/engine/event-bus';
import { tenantTopic, type EventBus, type JsonValue } from '../bus/event-bus';
import { LIVE_MESSAGE_KINDS, isEngineDelta } from './messages';

/** An `EngineEventBus` over the service's `EventBus`; publish failures go to `onError`, never to the engine. */
export function engineEventBusOver(
  bus: EventBus,
  onError: (error: unknown, delta: EngineDelta) => void,
): EngineEventBus {
  // Publish one at a time: a pooled bus could otherwise reorder deltas, and subscribers treat a
  // jump in the sequence as lost deltas.
  let previous: Promise<void> = Promise.resolve();
  return {
    publish(delta) {
      const data = JSON.parse(JSON.stringify(delta)) as JsonValue;
      previous = previous
        .then(() => bus.publish(tenantTopic(delta.tenant), { kind: LIVE_MESSAGE_KINDS.queueDelta, data }))
        .catch((error: unknown) => onError(error, delta));
    },
    subscribe(tenant, listener) {
      return bus.subscribe(tenantTopic(tenant), (message) => {
        if (
          message.kind === LIVE_MESSAGE_KINDS.queueDelta &&
          isEngineDelta(message.data) &&
          message.data.tenant === tenant
        ) {
          listener(message.data);
        }
      });
    },
  };
}
