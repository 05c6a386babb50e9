/**
 * The queued items of a tenant, by queue, in queue order, with their jobs. A reader that keeps
 * what it parsed (`ParsedItems`, src/engine/status-inputs.ts) reads only the rows that changed
 * since: every write of an item goes through `EngineStateRepository.saveItems`, which updates
 * the item's row (a new row version, `xmin`) whenever it writes any of the item's job rows, so an
 * item whose row version stayed has the data and jobs parsed before. After a pass that changed a
 * few items of 500 a status read parses those few instead of all (docs/live.md#status-reads-at-500-items).
 */
import type { Knex } from 'knex';
import type { ItemState, JobState } from '../../model/pipeline-state';
import { storedItems, storedJobs, storedMergeItems } from './engine-state-json';

/** Items parsed by an earlier read, by row id, with the row version they were parsed at. */
export type ParsedItems = Map<number, { version: string; item: ItemState }>;

interface IndexRow {
  id: number;
  uuid: string;
  queue_id: number;
  position: number;
  version: string | null;
}

interface DataRow {
  id: number;
  uuid: string;
  /** JSON text: `storedItemSchema`. */
  data: unknown;
  /** JSON text: the merge list. */
  merge_items: unknown;
}

interface JobRow {
  item_id: number;
  job_name: string;
  /** JSON text: `jobStateSchema`. */
  frozen: unknown;
}

/** Rows read per `IN (...)` list: well under PostgreSQL's limit of bound parameters. */
const CHUNK = 1000;

/** Queued items by queue id, in queue order; `parsed` (when given) is brought up to date. */
export async function readQueuedItems(
  trx: Knex,
  tenant: string,
  parsed?: ParsedItems,
): Promise<Map<number, ItemState[]>> {
  const queued = () => trx('queue_items').where({ tenant }).whereNull('dequeue_time');
  const index: IndexRow[] = (
    await queued()
      .orderBy([{ column: 'queue_id' }, { column: 'position' }])
      .select('id', 'uuid', 'queue_id', 'position', trx.raw(parsed ? 'xmin::text as version' : 'null as version'))
  ).map((row: IndexRow) => ({ ...row, id: Number(row.id), queue_id: Number(row.queue_id) }));
  const stale = parsed ? index.filter((row) => parsed.get(row.id)?.version !== row.version) : index;
  const fresh = new Map<number, ItemState>();
  if (stale.length === index.length) {
    // Nothing usable kept (the first read, or every item changed): one read of all, as a loader does.
    const rows: DataRow[] = await queued().select('id', 'uuid', ...dataColumns(trx));
    const jobs: JobRow[] =
      rows.length === 0
        ? []
        : await trx('queue_item_jobs')
            .whereIn('item_id', queued().select('id'))
            .orderBy('id')
            .select('item_id', 'job_name', trx.raw('frozen::text as frozen'));
    parseInto(fresh, tenant, rows, jobs);
  } else {
    for (let start = 0; start < stale.length; start += CHUNK) {
      const ids = stale.slice(start, start + CHUNK).map((row) => row.id);
      const rows: DataRow[] = await trx('queue_items')
        .whereIn('id', ids)
        .select('id', 'uuid', ...dataColumns(trx));
      const jobs: JobRow[] = await trx('queue_item_jobs')
        .whereIn('item_id', ids)
        .orderBy('id')
        .select('item_id', 'job_name', trx.raw('frozen::text as frozen'));
      parseInto(fresh, tenant, rows, jobs);
    }
  }
  const byQueue = new Map<number, ItemState[]>();
  for (const row of index) {
    const item = fresh.get(row.id) ?? parsed?.get(row.id)?.item;
    if (item === undefined) {
      throw new Error(`tenant ${tenant}: queued item ${row.uuid} was not read`);
    }
    const list = byQueue.get(row.queue_id) ?? [];
    list.push(item);
    byQueue.set(row.queue_id, list);
  }
  if (parsed) {
    const present = new Set(index.map((row) => row.id));
    for (const id of parsed.keys()) {
      if (!present.has(id)) {
        parsed.delete(id); // dequeued or gone
      }
    }
    for (const row of index) {
      const item = fresh.get(row.id);
      if (item !== undefined && row.version !== null) {
        parsed.set(row.id, { version: row.version, item });
      }
    }
  }
  return byQueue;
}

/** An item's JSON columns, as text (parsed here, through the texts remembered as valid). */
function dataColumns(trx: Knex): Knex.Raw[] {
  return [trx.raw('data::text as data'), trx.raw(`coalesce(merge_items, '[]')::text as merge_items`)];
}

function parseInto(
  into: Map<number, ItemState>,
  tenant: string,
  rows: readonly DataRow[],
  jobRows: readonly JobRow[],
): void {
  const jobsByItem = new Map<number, JobState[]>();
  for (const row of jobRows) {
    const list = jobsByItem.get(Number(row.item_id)) ?? [];
    list.push(storedJobs.read(row.frozen, () => `tenant ${tenant}, job ${row.job_name} of item ${row.item_id}`));
    jobsByItem.set(Number(row.item_id), list);
  }
  for (const row of rows) {
    const where = () => `tenant ${tenant}, item ${row.uuid}`;
    const data = storedItems.read(row.data, where);
    const mergeItems = storedMergeItems.read(row.merge_items, where);
    const jobs = jobsByItem.get(Number(row.id)) ?? [];
    into.set(Number(row.id), { ...data, buildset: { ...data.buildset, mergeItems, jobs } });
  }
}
