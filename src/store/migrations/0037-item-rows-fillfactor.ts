/**
 * Room on each page for the next version of an item's rows (docs/gating.md#performance). A pass
 * rewrites an item's row and the rows of its changed jobs, about four times per item in a gate;
 * with full pages each new version went to another page and wrote an entry into every index of its
 * table. With half of each page kept free at insert, a version whose indexed columns are the same
 * (a job's row always; an item's unless it moved) stays on its page as a heap-only tuple: no index
 * entry, less WAL, and the dead versions are pruned from the page as it is read. Pages written
 * before this migration keep their fill until rewritten.
 */
import type { Knex } from 'knex';

export const name = '0037-item-rows-fillfactor';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE queue_items SET (fillfactor = 50)`);
  await knex.raw(`ALTER TABLE queue_item_jobs SET (fillfactor = 50)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE queue_items RESET (fillfactor)`);
  await knex.raw(`ALTER TABLE queue_item_jobs RESET (fillfactor)`);
}
