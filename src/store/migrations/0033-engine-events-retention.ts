/**
 * The retention of processed engine events (docs/gating.md#what-is-kept-of-engine-events): events
 * processed more than a day ago are deleted in batches, oldest first, over this index of
 * processed events only.
 */
import type { Knex } from 'knex';

export const name = '0033-engine-events-retention';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX engine_events_processed ON engine_events (processed) WHERE processed IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX IF EXISTS engine_events_processed`);
}
