/**
 * Config errors: keep the full source context (canonical project name, connection) and the
 * position of each error in its layout, so listings follow layout error order even when rows
 * survive a reconfiguration.
 */
import type { Knex } from 'knex';

export const name = '0002-config-error-context';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('config_errors', (t) => {
    t.text('project_canonical_name');
    t.text('connection_name');
    t.integer('position').notNullable().defaultTo(0);
    t.index(['tenant', 'position'], 'config_errors_position_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('config_errors', (t) => {
    t.dropIndex(['tenant', 'position'], 'config_errors_position_idx');
    t.dropColumn('position');
    t.dropColumn('connection_name');
    t.dropColumn('project_canonical_name');
  });
}
