/**
 * Durable engine work (docs/gating.md#engine-work): what a scheduler pass decided must be done
 * outside its transaction (reports to code-review systems, speculative merges, merges into a
 * branch). A pass inserts the rows with its state; its tenant's leader claims them (`epoch`:
 * the lease epoch that claimed a row, so a new leader takes over the rows of the old one),
 * records `progress` as it goes and completes each row together with the engine event that
 * brings its outcome back, exactly once.
 */
import type { Knex } from 'knex';

export const name = '0028-engine-work';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('engine_work', (t) => {
    t.bigIncrements('id').primary();
    t.text('tenant').notNullable();
    /** `report`, `speculative-merge` or `branch-merge`. */
    t.text('kind').notNullable();
    /** `requested`, `running` or `completed`. */
    t.text('state').notNullable();
    t.jsonb('payload').notNullable();
    /** What a running row already did (the changes a branch merge pushed). */
    t.jsonb('progress');
    t.bigInteger('epoch');
    t.text('outcome');
    t.timestamp('created', { useTz: true }).notNullable();
    t.timestamp('updated', { useTz: true }).notNullable();
  });
  await knex.raw(`CREATE INDEX engine_work_open ON engine_work (tenant, id) WHERE state <> 'completed'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('engine_work');
}
