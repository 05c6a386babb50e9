/**
 * Fault tolerance of the database links (docs/operations.md):
 *
 * - `scheduler_leases`: one row per tenant naming the scheduler that leads it, with a fencing
 *   epoch and an expiry. A scheduler pass locks the row and compares holder and epoch inside the
 *   transaction that writes the tenant's state (docs/operations.md#leadership-model).
 * - `bus_messages`: what the PostgreSQL event bus published, kept for a few minutes so that a
 *   LISTEN connection that was down reads what it missed (docs/operations.md#event-bus-links).
 */
import type { Knex } from 'knex';

export const name = '0012-leases-and-bus-outbox';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduler_leases', (t) => {
    t.text('tenant').primary();
    t.text('holder').notNullable();
    t.bigInteger('epoch').notNullable();
    t.timestamp('acquired_at', { useTz: true }).notNullable();
    t.timestamp('renewed_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('bus_messages', (t) => {
    t.bigIncrements('id');
    t.text('topic').notNullable();
    t.text('body').notNullable();
    t.timestamp('created', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.index(['created'], 'bus_messages_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('bus_messages');
  await knex.schema.dropTable('scheduler_leases');
}
