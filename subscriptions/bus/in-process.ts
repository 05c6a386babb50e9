/** The default bus: one process, no infrastructure. Delivery is asynchronous like the others. */
import type { LinkState } from '../../src/store/links';
import { ListenerSet, encodeMessage, type BusListener, type BusMessage, type EventBus } from './event-bus';

export class InProcessBus implements EventBus {
  readonly kind = 'in-process';
  private readonly listeners = new ListenerSet();

  async publish(topic: string, message: BusMessage): Promise<void> {
    encodeMessage(topic, message); // same size rule as the distributed buses
    // Deliver after the publisher's current work, as a network bus would.
    setImmediate(() => this.listeners.deliver(topic, message));
  }

  subscribe(topic: string, listener: BusListener): () => void {
    const { remove } = this.listeners.add(topic, listener);
    return () => {
      remove();
    };
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  links(): LinkState[] {
    return []; // nothing to lose
  }
}
