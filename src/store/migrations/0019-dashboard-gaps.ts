/**
 * What the dashboard needs beyond the reference's tables: the data a build returned
 * (docs/gating.md#build-history), and a change log of nodes and nodeset requests that live
 * subscribers follow (docs/live.md#launcher-feeds).
 */
import type { Knex } from 'knex';

export const name = '0019-dashboard-gaps';

export async function up(knex: Knex): Promise<void> {
  // Kept apart from `builds` so build lists never carry it.
  await knex.schema.createTable('build_result_data', (t) => {
    t.bigInteger('build_id').primary().references('builds.id').onDelete('CASCADE');
    t.jsonb('data').notNullable();
  });
  // One row per write of a node or nodeset request (id order = commit order, give or take the
  // transactions in flight); pruned after an hour by the launcher.
  await knex.schema.createTable('launcher_changes', (t) => {
    t.bigIncrements('id');
    /** `node` or `nodeset-request`. */
    t.text('kind').notNullable();
    t.text('uuid').notNullable();
    /** The record's tenant after the write (null: an unassigned node). */
    t.text('tenant');
    /** The node's provider (null for requests and unplaced nodes). */
    t.text('provider');
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['changed_at'], 'launcher_changes_changed_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('launcher_changes');
  await knex.schema.dropTable('build_result_data');
}
