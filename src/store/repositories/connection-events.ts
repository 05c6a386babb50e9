/** Stored webhook deliveries of code-review connections (docs/github.md#webhooks); the only code touching `connection_events`. */
import type { Knex } from 'knex';

export interface ConnectionEventRow {
  id: number;
  connection: string;
  delivery: string;
  eventType: string;
  payload: Record<string, unknown>;
}

export class ConnectionEventRepository {
  constructor(private readonly knex: Knex) {}

  /** Store a delivery; false when the connection already has one with this id (a redelivery). */
  async record(event: Omit<ConnectionEventRow, 'id'>, at: Date): Promise<boolean> {
    const inserted = await this.knex('connection_events')
      .insert({
        connection: event.connection,
        delivery: event.delivery,
        event_type: event.eventType,
        payload: JSON.stringify(event.payload),
        received_at: at,
      })
      .onConflict(['connection', 'delivery'])
      .ignore()
      .returning('id');
    return inserted.length > 0;
  }

  /** Unprocessed deliveries, oldest first. */
  async pending(limit = 50): Promise<ConnectionEventRow[]> {
    const rows = await this.knex('connection_events')
      .whereNull('processed_at')
      .orderBy('id')
      .limit(limit)
      .select<
        Array<{ id: string | number; connection: string; delivery: string; event_type: string; payload: unknown }>
      >('id', 'connection', 'delivery', 'event_type', 'payload');
    return rows.map((row) => ({
      id: Number(row.id),
      connection: row.connection,
      delivery: row.delivery,
      eventType: row.event_type,
      payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>,
    }));
  }

  async markProcessed(id: number, outcome: string, at: Date): Promise<void> {
    await this.knex('connection_events').where({ id }).update({ processed_at: at, outcome });
  }

  /** Deliveries of a connection waiting to be processed (the connection's event queue length). */
  async pendingCount(connection: string): Promise<number> {
    const row = await this.knex('connection_events')
      .where({ connection })
      .whereNull('processed_at')
      .count<{ count: string | number }>({ count: '*' })
      .first();
    return Number(row?.count ?? 0);
  }
}
