/**
 * Engine state additions: queue order and window parameters on change queues, a per-tenant
 * delta sequence for the event bus, and a due time on engine events (retries, timers).
 */
import type { Knex } from 'knex';

export const name = '0006-engine-state';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_queues', (t) => {
    t.integer('position').notNullable().defaultTo(0);
    t.text('branch');
    t.boolean('dynamic').notNullable().defaultTo(false);
    t.jsonb('window_params').notNullable().defaultTo('{}');
  });
  // Dequeued items outlive their (dynamic) queue so that "why did my change leave" stays answerable.
  await knex.schema.alterTable('queue_items', (t) => {
    t.dropForeign(['queue_id']);
  });
  await knex.schema.alterTable('queue_items', (t) => {
    t.bigInteger('queue_id').nullable().alter();
    t.foreign('queue_id').references('change_queues.id').onDelete('SET NULL');
    t.index(['tenant', 'pipeline'], 'queue_items_active_idx', { predicate: knex.whereNull('dequeue_time') });
    t.index(['tenant', 'dequeue_time'], 'queue_items_dequeued_idx');
  });
  await knex.schema.alterTable('tenant_state', (t) => {
    t.bigInteger('bus_sequence').notNullable().defaultTo(0);
    t.jsonb('timer_state').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('engine_events', (t) => {
    t.index(['tenant', 'id'], 'engine_events_tenant_pending_idx', { predicate: knex.whereNull('processed') });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('engine_events', (t) => {
    t.dropIndex([], 'engine_events_tenant_pending_idx');
  });
  await knex.schema.alterTable('tenant_state', (t) => {
    t.dropColumn('bus_sequence');
    t.dropColumn('timer_state');
  });
  await knex.schema.alterTable('queue_items', (t) => {
    t.dropIndex([], 'queue_items_active_idx');
    t.dropIndex([], 'queue_items_dequeued_idx');
  });
  await knex.schema.alterTable('change_queues', (t) => {
    t.dropColumn('position');
    t.dropColumn('branch');
    t.dropColumn('dynamic');
    t.dropColumn('window_params');
  });
}
