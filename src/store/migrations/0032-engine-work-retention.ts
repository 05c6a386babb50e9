/**
 * The retention of completed engine work (docs/gating.md#engine-work): the runner deletes a
 * tenant's completed rows by age, in batches, over this index of completed rows only.
 */
import type { Knex } from 'knex';

export const name = '0032-engine-work-retention';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX engine_work_completed ON engine_work (tenant, updated) WHERE state = 'completed'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX IF EXISTS engine_work_completed`);
}
