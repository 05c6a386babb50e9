/**
 * How queued items are written (`EngineStateRepository.saveItems`): an item's row in
 * `queue_items` and one row per job in `queue_item_jobs`. The JSON texts of an item's parts
 * (`itemTexts`) are what its rows hold; the scheduler keeps the ones it last saved and asks for
 * only the parts that changed since (docs/gating.md#performance): an item's merge list, most of
 * its row, is rewritten only when the item was prepared again, and a job's row only when that
 * job changed. The item's row itself is rewritten with any change, so its row version (`xmin`,
 * ./queued-items.ts) moves whenever any of its rows did.
 */
import type { ItemState, JobState } from '../../model/pipeline-state';
import { jobKey } from '../../model/pipeline-state';

/** The JSON texts an item's rows hold. */
export interface ItemTexts {
  /** `queue_items.data`: the item and its buildset, without the buildset's merge list and jobs. */
  data: string;
  /** `queue_items.merge_items`: the buildset's merge list. */
  mergeItems: string;
  /** `queue_item_jobs.frozen` of each job, in the buildset's order. */
  jobs: Array<{ key: string; frozen: string }>;
}

/** An item to write, in its queue (null: none) at its stored position. */
export interface ItemSave {
  queueId: number | null;
  position: number;
  item: ItemState;
  /** Its texts, when the caller made them already (`itemTexts(item)`). */
  texts?: ItemTexts;
  /**
   * Which parts the stored rows lack: the merge list, and the jobs (by key) whose rows are out
   * of date; a job the item no longer has must not have a row. Absent: everything is written
   * again and the item's job rows are replaced.
   */
  stale?: { mergeItems: boolean; jobs: ReadonlySet<string> };
}

/** The texts of an item's rows; `mergeItemsText`: the text of its merge list, when the caller knows it. */
export function itemTexts(item: ItemState, mergeItemsText?: string): ItemTexts {
  const { buildset, ...rest } = item;
  const { jobs, mergeItems, ...buildsetRest } = buildset;
  return {
    data: JSON.stringify({ ...rest, buildset: buildsetRest }),
    mergeItems: mergeItemsText ?? JSON.stringify(mergeItems),
    jobs: jobs.map((job) => ({ key: jobKey(job), frozen: JSON.stringify(job) })),
  };
}

/** Same texts: the stored rows of one are the rows of the other. */
export function sameTexts(a: ItemTexts, b: ItemTexts): boolean {
  return (
    a.data === b.data &&
    a.mergeItems === b.mergeItems &&
    a.jobs.length === b.jobs.length &&
    a.jobs.every((job, index) => job.key === b.jobs[index].key && job.frozen === b.jobs[index].frozen)
  );
}

/**
 * What rows of `stored` (the texts last saved) `now` needs: undefined when the job rows are to
 * be replaced (the jobs are others, or in another order: rows are read in the order of their ids).
 */
export function staleParts(stored: ItemTexts, now: ItemTexts): ItemSave['stale'] {
  const sameJobs =
    stored.jobs.length === now.jobs.length && stored.jobs.every((job, index) => job.key === now.jobs[index].key);
  if (!sameJobs && stored.jobs.length > 0) {
    return undefined;
  }
  const jobs = new Set(
    now.jobs.filter((job, index) => !sameJobs || job.frozen !== stored.jobs[index].frozen).map((job) => job.key),
  );
  return { mergeItems: stored.mergeItems !== now.mergeItems, jobs };
}

const ITEM_COLUMNS = [
  'uuid',
  'tenant',
  'pipeline',
  'queue_id',
  'position',
  'item_ahead_uuid',
  'changes',
  'live',
  'active',
  'state',
  'buildset_uuid',
  'failing_reasons',
  'job_graph',
  'event_id',
  'enqueue_time',
  'dequeue_time',
  'dequeue_reason',
  'data',
] as const;

const ITEM_RECORD = `ord int, uuid text, tenant text, pipeline text, queue_id bigint, "position" int,
  item_ahead_uuid text, changes jsonb, live boolean, active boolean, state text, buildset_uuid text,
  failing_reasons jsonb, job_graph jsonb, event_id text, enqueue_time timestamptz, dequeue_time timestamptz,
  dequeue_reason text, data jsonb, merge_items jsonb`;

const JOB_COLUMNS = [
  'job_name',
  'state',
  'waiting_status',
  'build_uuid',
  'tries',
  'result',
  'nodeset_request_uuid',
  'frozen',
] as const;

const JOB_RECORD = `ord int, item_uuid text, job_name text, state text, waiting_status text, build_uuid text,
  tries int, result text, nodeset_request_uuid text, frozen jsonb`;

const quoted = (column: string): string => `"${column}"`;

/** The item rows of `jsonb_to_recordset(?)`, inserted or updated (a merge list sent as null keeps the stored one). */
export const UPSERT_ITEMS = `INSERT INTO queue_items AS q (${ITEM_COLUMNS.map(quoted).join(', ')}, merge_items)
    SELECT ${ITEM_COLUMNS.map((column) => `v.${quoted(column)}`).join(', ')}, v.merge_items
    FROM jsonb_to_recordset(?::jsonb) AS v(${ITEM_RECORD}) ORDER BY v.ord
    ON CONFLICT (uuid) DO UPDATE SET ${ITEM_COLUMNS.filter((column) => column !== 'uuid')
      .map((column) => `${quoted(column)} = excluded.${quoted(column)}`)
      .join(', ')}, merge_items = coalesce(excluded.merge_items, q.merge_items)`;

/**
 * After `saved` (the items' upsert returning their ids): the job rows of the items whose jobs are
 * replaced (`?`, their uuids) are deleted as `cleared`, then the jobs' rows (`?`) are inserted or
 * updated, in order. The jobs' write waits for the delete (it reads its count): it may put back a
 * job of the same name, which the deleted row, gone for this transaction, does not stand in the
 * way of.
 *
 * The delete looks the rows up by their items' ids, an array made first, through
 * `queue_item_jobs_item_job_key`. As a join with `saved` (`USING saved`), which the planner takes
 * for 100 rows, it hash-joined over a scan of the whole table, which keeps the job rows of the
 * dequeued items, in custom and generic plans alike until the table was large enough to turn the
 * join round (docs/gating.md#performance, test/integration/store/item-save-plans.test.ts).
 */
export const CLEAR_JOBS = `DELETE FROM queue_item_jobs AS d
    WHERE d.item_id = ANY (ARRAY(SELECT saved.id FROM saved WHERE saved.uuid IN (SELECT jsonb_array_elements_text(?::jsonb))))
    RETURNING d.id`;
export const WRITE_JOBS = `INSERT INTO queue_item_jobs AS j (item_id, ${JOB_COLUMNS.map(quoted).join(', ')})
    SELECT saved.id, ${JOB_COLUMNS.map((column) => `w.${quoted(column)}`).join(', ')}
    FROM jsonb_to_recordset(?::jsonb) AS w(${JOB_RECORD}) JOIN saved ON saved.uuid = w.item_uuid
    WHERE (SELECT count(*) FROM cleared) >= 0
    ORDER BY w.ord
    ON CONFLICT (item_id, job_name) DO UPDATE SET ${JOB_COLUMNS.filter((column) => column !== 'job_name')
      .map((column) => `${quoted(column)} = excluded.${quoted(column)}`)
      .join(', ')}`;

/** The parameters of `UPSERT_ITEMS`, `CLEAR_JOBS` and `WRITE_JOBS` for `saves` (JSON texts). */
export function itemWriteBindings(tenant: string, saves: readonly ItemSave[]): [string, string, string] {
  const items: string[] = [];
  const jobs: string[] = [];
  const replaced: string[] = [];
  for (const [ord, save] of saves.entries()) {
    const { item } = save;
    const texts = save.texts ?? itemTexts(item);
    items.push(itemRecord(tenant, ord, save, texts));
    if (save.stale === undefined) {
      replaced.push(item.uuid);
    }
    for (const [index, job] of item.buildset.jobs.entries()) {
      const text = texts.jobs[index];
      if (save.stale === undefined || save.stale.jobs.has(text.key)) {
        jobs.push(jobRecord(jobs.length, item.uuid, job, text.frozen));
      }
    }
  }
  return [`[${items.join(',')}]`, JSON.stringify(replaced), `[${jobs.join(',')}]`];
}

/**
 * The statement that writes items and the jobs they need, in one round trip: the items' upsert
 * alone when no job row is written or replaced, else with the job writes.
 */
export function itemSaveStatement(tenant: string, saves: readonly ItemSave[]): { sql: string; bindings: string[] } {
  const [items, replaced, jobs] = itemWriteBindings(tenant, saves);
  if (jobs === '[]' && replaced === '[]') {
    return { sql: UPSERT_ITEMS, bindings: [items] };
  }
  return {
    sql: `WITH saved AS (${UPSERT_ITEMS} RETURNING q.id, q.uuid),
      cleared AS (${CLEAR_JOBS})
      ${WRITE_JOBS}`,
    bindings: [items, replaced, jobs],
  };
}

/** An item's record for the statement, its JSON parts spliced in as they are. */
function itemRecord(tenant: string, ord: number, save: ItemSave, texts: ItemTexts): string {
  const { item, queueId, position } = save;
  const { buildset } = item;
  const scalars = JSON.stringify({
    ord,
    uuid: item.uuid,
    tenant,
    pipeline: item.pipeline,
    queue_id: queueId === 0 ? null : queueId,
    position,
    item_ahead_uuid: item.itemAhead,
    changes: item.changes,
    live: item.live,
    active: item.active,
    state: itemStateName(item),
    buildset_uuid: buildset.uuid,
    failing_reasons: item.failingReasons,
    job_graph: buildset.jobGraphFrozen ? buildset.jobs.map((job) => job.job.name) : null,
    event_id: item.eventId,
    enqueue_time: item.enqueueTime,
    dequeue_time: item.dequeueTime,
    dequeue_reason: item.dequeueReason?.kind ?? null,
  });
  const mergeItems = save.stale === undefined || save.stale.mergeItems ? texts.mergeItems : 'null';
  return `{"data":${texts.data},"merge_items":${mergeItems},${scalars.slice(1)}`;
}

function jobRecord(ord: number, itemUuid: string, job: JobState, frozen: string): string {
  const scalars = JSON.stringify({
    ord,
    item_uuid: itemUuid,
    job_name: jobKey(job),
    state: jobStateName(job),
    waiting_status: job.waitingStatus,
    build_uuid: job.build?.uuid ?? null,
    tries: job.tries,
    result: job.build?.result ?? null,
    nodeset_request_uuid: job.nodeRequestId,
  });
  return `{"frozen":${frozen},${scalars.slice(1)}`;
}

function itemStateName(item: ItemState): string {
  if (item.dequeueTime !== null) {
    return 'dequeued';
  }
  if (!item.active) {
    return 'waiting';
  }
  if (item.buildset.mergeState === 'new') {
    return 'merging';
  }
  if (!item.buildset.jobGraphFrozen) {
    return 'configuring';
  }
  return item.buildset.jobs.every((job) => job.build?.result) ? 'complete' : 'running';
}

function jobStateName(job: JobState): string {
  if (!job.build) {
    return job.nodeRequestId !== null ? 'queued' : 'waiting';
  }
  if (job.build.result !== null) {
    return 'completed';
  }
  return job.build.startTime !== null ? 'running' : 'requested';
}
