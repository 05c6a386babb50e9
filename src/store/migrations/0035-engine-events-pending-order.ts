/**
 * The order of a tenant's pending events (docs/gating.md#what-is-kept-of-engine-events): the
 * reads of pending events order by `(id + 0)`, which this partial index of unprocessed events
 * provides and the primary key cannot. Ordered by `id`, statistics taken while many events were
 * pending made the planner walk the primary key and drop every processed event on the way, each
 * pass. It takes the place of `engine_events_tenant_pending_idx` (tenant, id): it serves the same
 * look-ups by tenant.
 */
import type { Knex } from 'knex';

export const name = '0035-engine-events-pending-order';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX engine_events_pending_order ON engine_events (tenant, (id + 0)) WHERE processed IS NULL`,
  );
  await knex.raw(`DROP INDEX IF EXISTS engine_events_tenant_pending_idx`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX engine_events_tenant_pending_idx ON engine_events (tenant, id) WHERE processed IS NULL`);
  await knex.raw(`DROP INDEX IF EXISTS engine_events_pending_order`);
}
