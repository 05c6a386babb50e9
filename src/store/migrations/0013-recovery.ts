/**
 * Durable source state (docs/operations.md#durable-source-state): the refs each git poller last
 * reported, per connection and project, with a generation that every save advances. A poll writes
 * its trigger events and the new refs in one transaction, so a restart reports what moved while
 * Sluice was down exactly once, and two pollers of one connection never report a move twice.
 */
import type { Knex } from 'knex';

export const name = '0013-recovery';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('git_poller_state', (t) => {
    t.text('connection').notNullable();
    t.text('project').notNullable();
    /** `{ "<ref>": "<sha>" }` for branches, tags and change refs. */
    t.jsonb('refs').notNullable();
    t.bigInteger('generation').notNullable().defaultTo(1);
    t.timestamp('updated', { useTz: true }).notNullable();
    t.primary(['connection', 'project']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('git_poller_state');
}
