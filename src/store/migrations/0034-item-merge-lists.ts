/**
 * An item's merge list (the changes its speculative merge is made of, those of the items ahead
 * included) in a column of its own, apart from the rest of the item's data: it is most of an
 * item's row and changes only when the item is prepared again, so a save that leaves it as it
 * is keeps the stored value instead of rewriting it (docs/gating.md#performance). The column
 * takes nulls: a save sends null for "keep the stored list", and PostgreSQL checks NOT NULL
 * before an insert turns into an update. No row is ever left with null.
 */
import type { Knex } from 'knex';

export const name = '0034-item-merge-lists';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE queue_items ADD COLUMN merge_items jsonb`);
  await knex.raw(
    `UPDATE queue_items
     SET merge_items = coalesce(data->'buildset'->'mergeItems', '[]'::jsonb), data = data #- '{buildset,mergeItems}'
     WHERE true`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `UPDATE queue_items SET data = jsonb_set(data, '{buildset,mergeItems}', merge_items) WHERE data ? 'buildset'`,
  );
  await knex.raw(`ALTER TABLE queue_items DROP COLUMN merge_items`);
}
