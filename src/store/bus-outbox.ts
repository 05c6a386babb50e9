/**
 * The SQL of the PostgreSQL event bus (docs/operations.md#event-bus-links). Every message is a
 * row of `bus_messages` and a NOTIFY carrying its id, in one statement: a listener that was
 * disconnected reads what it missed from the table instead of losing it. Rows are kept for
 * `BUS_RETENTION_MS` and pruned by the publishers.
 */

/** The one channel all topics travel on. */
export const BUS_CHANNEL = 'sluice_bus';

/** How long published messages stay readable for listeners that reconnect. */
export const BUS_RETENTION_MS = 10 * 60_000;

/**
 * Messages are read back from this long before the last one a listener saw: ids are taken in
 * insert order but become visible in commit order, so a lower id can commit just after a
 * higher one. The listener drops the ones it already delivered.
 */
export const CATCH_UP_SLACK_SECONDS = 30;

/** What the bus needs of a connection or pool (node-postgres `Client` and `Pool` both fit). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface StoredBusMessage {
  id: number;
  body: string;
}

/** Store a message and notify listeners with `<id> <body>`; both or neither. */
export async function storeAndNotify(db: Queryable, topic: string, body: string): Promise<void> {
  await db.query(
    `WITH stored AS (INSERT INTO bus_messages (topic, body) VALUES ($2, $3) RETURNING id)
     SELECT pg_notify($1, stored.id || ' ' || $3) FROM stored`,
    [BUS_CHANNEL, topic, body],
  );
}

/** The id and body of a notification payload (undefined when it is not one of ours). */
export function parseNotification(payload: string | undefined): StoredBusMessage | undefined {
  if (payload === undefined) {
    return undefined;
  }
  const space = payload.indexOf(' ');
  const id = Number(payload.slice(0, space));
  if (space <= 0 || !Number.isSafeInteger(id)) {
    return undefined;
  }
  return { id, body: payload.slice(space + 1) };
}

/** The database's clock (a listener notes when it started listening). */
export async function databaseClock(db: Queryable): Promise<Date> {
  const { rows } = await db.query('SELECT clock_timestamp() AS now');
  return (rows[0] as { now: Date }).now;
}

/**
 * Messages a listener may have missed, oldest first: those stored since shortly before the last
 * one it received (`lastSeenId`), or since it started listening when it received none.
 */
export async function missedMessages(
  db: Queryable,
  lastSeenId: number | null,
  listeningSince: Date,
): Promise<StoredBusMessage[]> {
  const { rows } = await db.query(
    `SELECT id, body FROM bus_messages
     WHERE created >= coalesce((SELECT created FROM bus_messages WHERE id = $1), $2::timestamptz)
                      - make_interval(secs => $3)
     ORDER BY id`,
    [lastSeenId, listeningSince, CATCH_UP_SLACK_SECONDS],
  );
  return (rows as Array<{ id: number | string; body: string }>).map((row) => ({ id: Number(row.id), body: row.body }));
}

/** Delete messages older than the retention; returns how many. */
export async function pruneMessages(db: Queryable, retentionMs: number = BUS_RETENTION_MS): Promise<number> {
  const { rows } = await db.query(
    `WITH gone AS (DELETE FROM bus_messages WHERE created < clock_timestamp() - make_interval(secs => $1) RETURNING 1)
     SELECT count(*)::int AS count FROM gone`,
    [retentionMs / 1000],
  );
  return (rows[0] as { count: number }).count;
}
