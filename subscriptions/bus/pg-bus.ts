/**
 * PostgreSQL LISTEN/NOTIFY bus: the fallback for several processes when only PostgreSQL is
 * shared. All topics travel on one channel; a dedicated connection listens.
 */
import pg from 'pg';
import {
  ListenerSet,
  decodeMessage,
  encodeMessage,
  type BusListener,
  type BusMessage,
  type EventBus,
} from './event-bus';

const CHANNEL = 'sluice_bus';

export class PostgresBus implements EventBus {
  readonly kind = 'postgres';
  private readonly listener: pg.Client;
  private readonly publisher: pg.Pool;
  private readonly listeners = new ListenerSet();
  private readonly connected: Promise<void>;

  constructor(url: string) {
    this.listener = new pg.Client({ connectionString: url });
    this.publisher = new pg.Pool({ connectionString: url, max: 2 });
    this.listener.on('notification', (note) => {
      const decoded = note.payload === undefined ? undefined : decodeMessage(note.payload);
      if (decoded) {
        this.listeners.deliver(decoded.topic, decoded.message);
      }
    });
    this.listener.on('error', () => undefined);
    this.connected = this.listener
      .connect()
      .then(() => this.listener.query(`LISTEN ${CHANNEL}`))
      .then(() => undefined);
    this.connected.catch(() => undefined);
  }

  async publish(topic: string, message: BusMessage): Promise<void> {
    await this.publisher.query('SELECT pg_notify($1, $2)', [CHANNEL, encodeMessage(topic, message)]);
  }

  subscribe(topic: string, listener: BusListener): () => void {
    const { remove } = this.listeners.add(topic, listener);
    return () => {
      remove();
    };
  }

  ready(): Promise<void> {
    return this.connected;
  }

  async close(): Promise<void> {
    await this.connected.catch(() => undefined);
    await this.listener.end().catch(() => undefined);
    await this.publisher.end();
  }
}
