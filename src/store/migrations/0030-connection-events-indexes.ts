/**
 * Stored connection events are read by connection and type, newest first or after an id (a
 * project's stored branch heads and the `ref-updated` events stored since,
 * docs/gerrit.md#events-missed-while-no-stream-listened: src/store/repositories/connection-events.ts
 * `newestOfProject`, `payloadsAfter`): an index on (connection, event type, id) so that neither
 * reads the connection's events of every other type. A read by connection alone (`recentPayloads`)
 * has the unique (connection, delivery) index.
 */
import type { Knex } from 'knex';

export const name = '0030-connection-events-indexes';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX connection_events_type_idx ON connection_events (connection, event_type, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS connection_events_type_idx');
}
