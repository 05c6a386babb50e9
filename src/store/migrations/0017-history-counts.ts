/**
 * Maintained counts of each tenant's builds and buildsets (docs/rest.md#history-pages-on-a-shared-store),
 * so an unfiltered `totalCount` costs a key lookup instead of a scan of the tenant's rows.
 *
 * Statement triggers append one delta row per tenant and statement to `history_count_deltas`;
 * nothing ever updates a shared counter row while a writer's transaction is open, so concurrent
 * writers never wait for each other or deadlock on it. Readers add the deltas to the folded
 * totals in `history_counts` and fold them in from time to time (`HistoryCountRepository`).
 */
import type { Knex } from 'knex';

export const name = '0017-history-counts';

/** The counted tables; the kind is the table name. */
const COUNTED = ['builds', 'buildsets'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history_counts', (t) => {
    t.text('tenant').notNullable();
    t.text('kind').notNullable();
    t.bigInteger('count').notNullable();
    t.primary(['tenant', 'kind']);
  });
  await knex.schema.createTable('history_count_deltas', (t) => {
    t.bigIncrements('id');
    t.text('tenant').notNullable();
    t.text('kind').notNullable();
    t.bigInteger('delta').notNullable();
    t.index(['tenant', 'kind'], 'history_count_deltas_tenant_kind_idx');
  });
  await knex.raw(`
    CREATE FUNCTION history_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO history_count_deltas (tenant, kind, delta)
        SELECT tenant, TG_TABLE_NAME, count(*) FROM inserted_rows GROUP BY tenant;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION history_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO history_count_deltas (tenant, kind, delta)
        SELECT tenant, TG_TABLE_NAME, -count(*) FROM deleted_rows GROUP BY tenant;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION history_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM history_count_deltas WHERE kind = TG_TABLE_NAME;
      DELETE FROM history_counts WHERE kind = TG_TABLE_NAME;
      RETURN NULL;
    END $$`);
  for (const table of COUNTED) {
    await knex.raw(`CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION history_count_inserted()`);
    await knex.raw(`CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION history_count_deleted()`);
    await knex.raw(`CREATE TRIGGER ${table}_count_truncate AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION history_count_truncated()`);
    await knex.raw(
      `INSERT INTO history_counts (tenant, kind, count) SELECT tenant, ?, count(*) FROM ${table} GROUP BY tenant`,
      [table],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of COUNTED) {
    for (const suffix of ['insert', 'delete', 'truncate']) {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_count_${suffix} ON ${table}`);
    }
  }
  for (const fn of ['history_count_inserted', 'history_count_deleted', 'history_count_truncated']) {
    await knex.raw(`DROP FUNCTION IF EXISTS ${fn}()`);
  }
  await knex.schema.dropTableIfExists('history_count_deltas');
  await knex.schema.dropTableIfExists('history_counts');
}
