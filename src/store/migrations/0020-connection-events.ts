/**
 * Webhook deliveries of code-review connections (docs/github.md#webhooks): stored before the
 * webhook is answered, unique per connection and delivery id (a redelivery is recognised),
 * and turned into trigger events by the scheduler role, which marks each row processed.
 */
import type { Knex } from 'knex';

export const name = '0020-connection-events';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('connection_events', (t) => {
    t.bigIncrements('id');
    t.text('connection').notNullable();
    t.text('delivery').notNullable();
    t.text('event_type').notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.timestamp('processed_at', { useTz: true }).nullable();
    /** What processing made of it: the trigger events submitted, or why none. */
    t.text('outcome').nullable();
    t.unique(['connection', 'delivery'], { indexName: 'connection_events_delivery_key' });
  });
  await knex.raw('CREATE INDEX connection_events_pending_idx ON connection_events (id) WHERE processed_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('connection_events');
}
