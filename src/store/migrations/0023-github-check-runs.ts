/**
 * The check runs Sluice created on GitHub (docs/github.md#reporters): a pipeline's later reports
 * on the same commit update its check run, also after a restart, instead of creating another.
 */
import type { Knex } from 'knex';

export const name = '0023-github-check-runs';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('github_check_runs', (t) => {
    t.text('connection').notNullable();
    t.text('repository').notNullable();
    t.text('head_sha').notNullable();
    /** The check run's name: `<tenant>/<pipeline>`. */
    t.text('name').notNullable();
    t.bigInteger('check_run_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['connection', 'repository', 'head_sha', 'name'], { constraintName: 'github_check_runs_pkey' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('github_check_runs');
}
