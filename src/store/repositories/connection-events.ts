/** Stored webhook deliveries of code-review connections (docs/github.md#webhooks); the only code touching `connection_events`. */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export interface ConnectionEventRow {
  id: number;
  connection: string;
  delivery: string;
  eventType: string;
  payload: Record<string, unknown>;
}

/**
 * Unprocessed deliveries, of the given connections only when given (each driver's intake takes
 * its own connections'), received before a time when given (a Gerrit connection's `event_delay`).
 */
function pendingOf(
  query: Knex.QueryBuilder,
  of: { connections?: readonly string[]; receivedBefore?: Date },
): Knex.QueryBuilder {
  query.whereNull('processed_at');
  if (of.connections !== undefined) {
    query.whereIn('connection', [...of.connections]);
  }
  if (of.receivedBefore !== undefined) {
    query.where('received_at', '<=', of.receivedBefore);
  }
  return query;
}

type StoredRow = { id: string | number; connection: string; delivery: string; event_type: string; payload: unknown };

/** The oldest unprocessed delivery's row (of these connections, received before that time). */
function oldest(knex: Knex, of: { connections?: readonly string[]; receivedBefore?: Date }) {
  return pendingOf(knex('connection_events'), of)
    .orderBy('id')
    .first<StoredRow | undefined>('id', 'connection', 'delivery', 'event_type', 'payload');
}

function rowOf(row: StoredRow | undefined): ConnectionEventRow | null {
  if (row === undefined) {
    return null;
  }
  return {
    ...pickFields(row, ['id', 'connection', 'delivery', 'eventType']),
    id: Number(row.id),
    payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>,
  };
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

  /**
   * The oldest unprocessed delivery, locked until `trx` ends, or null. Without SKIP LOCKED on
   * purpose: a second process waits for the first one's delivery instead of taking a later one,
   * so deliveries are turned into events one at a time and in the order they arrived; when the
   * first commits, the waiting lock finds the row processed and the next call takes the next one.
   */
  async lockOldestPending(
    trx: Knex.Transaction,
    of: { connections?: readonly string[]; receivedBefore?: Date } = {},
  ): Promise<ConnectionEventRow | null> {
    return rowOf(await oldest(trx, of).forUpdate());
  }

  /** The oldest unprocessed delivery, not locked (read ahead of the transaction that locks it), or null. */
  async oldestPending(
    of: { connections?: readonly string[]; receivedBefore?: Date } = {},
  ): Promise<ConnectionEventRow | null> {
    return rowOf(await oldest(this.knex, of));
  }

  /** The payloads of a connection's newest stored deliveries, newest first. */
  async recentPayloads(connection: string, limit: number): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ payload: unknown }> = await this.knex('connection_events')
      .where({ connection })
      .orderBy('id', 'desc')
      .limit(limit)
      .select('payload');
    return rows.map(
      (row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>,
    );
  }

  /**
   * The newest stored event of a type whose payload names this `project` (a Gerrit connection's
   * branch heads, docs/gerrit.md#events-missed-while-no-stream-listened), or null.
   */
  async newestOfProject(
    connection: string,
    eventType: string,
    project: string,
  ): Promise<{ id: number; payload: Record<string, unknown> } | null> {
    const row = await this.knex('connection_events')
      .where({ connection, event_type: eventType })
      .whereRaw("payload->>'project' = ?", [project])
      .orderBy('id', 'desc')
      .first<StoredRow | undefined>('id', 'connection', 'delivery', 'event_type', 'payload');
    const found = rowOf(row);
    return found === null ? null : { id: found.id, payload: found.payload };
  }

  /**
   * Run `action` in a transaction that holds the connection's lock on branch updates (a Gerrit
   * stream storing a `ref-updated` and a catch-up comparing branch heads take turns:
   * docs/gerrit.md#events-missed-while-no-stream-listened), with a repository on that transaction.
   */
  async withRefLock<T>(connection: string, action: (locked: ConnectionEventRepository) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`sluice-ref-updates:${connection}`]);
      return action(new ConnectionEventRepository(trx));
    });
  }

  /** The newest stored `ref-updated` of a project's ref (any of `refNames`, its spellings), or null. */
  async newestRefUpdate(
    connection: string,
    project: string,
    refNames: readonly string[],
  ): Promise<Record<string, unknown> | null> {
    const row = await this.knex('connection_events')
      .where({ connection, event_type: 'ref-updated' })
      .whereRaw("payload->'refUpdate'->>'project' = ?", [project])
      .whereRaw(`payload->'refUpdate'->>'refName' IN (${refNames.map(() => '?').join(', ')})`, [...refNames])
      .orderBy('id', 'desc')
      .first<StoredRow | undefined>('id', 'connection', 'delivery', 'event_type', 'payload');
    return rowOf(row)?.payload ?? null;
  }

  /** The payloads of a type stored after an event (by id), oldest first. */
  async payloadsAfter(connection: string, eventType: string, afterId: number): Promise<Array<Record<string, unknown>>> {
    const rows: StoredRow[] = await this.knex('connection_events')
      .where({ connection, event_type: eventType })
      .where('id', '>', afterId)
      .orderBy('id')
      .select('id', 'connection', 'delivery', 'event_type', 'payload');
    return rows.map((row) => (rowOf(row) as ConnectionEventRow).payload);
  }

  /** Whether deliveries (of these connections, when given) wait to be processed. */
  async anyPending(connections?: readonly string[]): Promise<boolean> {
    return (await pendingOf(this.knex('connection_events'), { connections }).first('id')) !== undefined;
  }

  async markProcessed(id: number, outcome: string, at: Date, trx: Knex = this.knex): Promise<void> {
    await trx('connection_events').where({ id }).update({ processed_at: at, outcome });
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
