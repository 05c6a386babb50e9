/**
 * What a scheduler pass saves at its end (`EngineStateRepository.saveChanges`), in one statement
 * (docs/gating.md#performance): the items and their job rows (./item-rows.ts), the changed
 * pipelines' counters and queues, the deleted (dynamic) queues and the tenant row, each a
 * data-modifying `WITH` entry (the last one the statement itself) reading its rows from one JSON
 * parameter. Only the parts with something to write are in it: an empty part still costs the
 * server the opening of its table and indexes at each run.
 *
 * The entries see one snapshot and run in no set order unless one reads another's result, so none
 * may depend on another's rows: the job rows depend on the items' and wait for them
 * (./item-rows.ts), and the queues' delete waits for the items too, as the dequeued rows were
 * written before their (dynamic) queue rows were deleted when these were statements of their own.
 * An item dequeued from a queue the statement deletes is written with no queue: the row it would
 * reference is gone by the time its foreign key is checked, at the end of the statement (the
 * delete sets it to null anyway, migration 0006). The rows of existing queues are only updated
 * here: a new queue takes its id from a statement of its own, before its items are written
 * (`savePipeline`).
 */
import type { PipelineState } from '../../model/pipeline-state';
import type { TenantEngineRecord } from './engine-state';
import { CLEAR_JOBS, UPSERT_ITEMS, WRITE_JOBS, itemWriteBindings, type ItemSave } from './item-rows';

/** What a pass changed, to be written together. */
export interface StateChanges {
  items: readonly ItemSave[];
  /** Pipelines whose counters or queues changed; all their queues have ids. */
  pipelines: readonly PipelineState[];
  deletedQueueIds: readonly number[];
  /** The tenant row to write (null: left as it is), at `at`. */
  record: TenantEngineRecord | null;
  at: Date;
}

const PIPELINE_WRITE = `INSERT INTO pipeline_state AS p (tenant, pipeline, state, disabled, consecutive_failures)
    SELECT v.tenant, v.pipeline, v.state, v.disabled, v.consecutive_failures
    FROM jsonb_to_recordset(?::jsonb) AS v(tenant text, pipeline text, state text, disabled boolean, consecutive_failures int)
    ON CONFLICT (tenant, pipeline) DO UPDATE SET state = excluded.state, disabled = excluded.disabled,
      consecutive_failures = excluded.consecutive_failures`;

const QUEUE_COLUMNS = [
  'tenant',
  'pipeline',
  'name',
  'window',
  'window_floor',
  'window_ceiling',
  'projects',
  'position',
  'branch',
  'dynamic',
  'window_params',
] as const;

const QUEUE_WRITE = `UPDATE change_queues AS c SET ${QUEUE_COLUMNS.map((column) => `"${column}" = v."${column}"`).join(', ')}
    FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, tenant text, pipeline text, name text, "window" int,
      window_floor int, window_ceiling int, projects jsonb, "position" int, branch text, dynamic boolean,
      window_params jsonb)
    WHERE c.id = v.id`;

const QUEUE_DELETE = `DELETE FROM change_queues WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)`;
/** With items written: waits for their write (it reads its count), so dequeued rows are written first. */
const QUEUE_DELETE_AFTER_ITEMS = `${QUEUE_DELETE} AND (SELECT count(*) FROM saved) >= 0`;

const TENANT_COLUMNS = [
  'tenant',
  'trigger_queue_discarding',
  'trigger_queue_paused',
  'result_queue_paused',
  'reason',
  'layout_uuid',
  'last_reconfigured',
  'bus_sequence',
  'timer_state',
  'updated',
] as const;

const TENANT_WRITE = `INSERT INTO tenant_state AS s (${TENANT_COLUMNS.join(', ')})
    SELECT ${TENANT_COLUMNS.map((column) => `v.${column}`).join(', ')}
    FROM jsonb_to_recordset(?::jsonb) AS v(tenant text, trigger_queue_discarding boolean, trigger_queue_paused boolean,
      result_queue_paused boolean, reason text, layout_uuid text, last_reconfigured timestamptz, bus_sequence bigint,
      timer_state jsonb, updated timestamptz)
    ON CONFLICT (tenant) DO UPDATE SET ${TENANT_COLUMNS.filter((column) => column !== 'tenant')
      .map((column) => `${column} = excluded.${column}`)
      .join(', ')}`;

/** One write of the statement: a `WITH` entry, or the statement itself when last. */
interface Part {
  name: string;
  sql: string;
  bindings: string[];
}

/**
 * The statement writing `changes`, of the parts it needs: its text is one of a few whatever is
 * written (its parameters are JSON texts). `fixed`: of the usual ones (items, the tenant row), to
 * be prepared; with pipelines or deleted queues, rare, it is not.
 */
export function stateSaveStatement(
  tenant: string,
  changes: StateChanges,
): { sql: string; bindings: string[]; fixed: boolean } | null {
  const deleted = new Set(changes.deletedQueueIds);
  const parts: Part[] = [];
  if (changes.items.length > 0) {
    const [items, replaced, jobs] = itemWriteBindings(tenant, withoutDeletedQueues(changes.items, deleted));
    parts.push({ name: 'saved', sql: `${UPSERT_ITEMS} RETURNING q.id, q.uuid`, bindings: [items] });
    if (jobs !== '[]' || replaced !== '[]') {
      parts.push({ name: 'cleared', sql: CLEAR_JOBS, bindings: [replaced] });
      parts.push({ name: 'jobs', sql: WRITE_JOBS, bindings: [jobs] });
    }
  }
  const fixed = changes.pipelines.length === 0 && deleted.size === 0;
  if (changes.pipelines.length > 0) {
    parts.push({ name: 'pipelines', sql: PIPELINE_WRITE, bindings: [JSON.stringify(pipelineRows(tenant, changes))] });
    const queues = queueRows(tenant, changes).filter((queue) => !deleted.has(queue.id));
    parts.push({ name: 'queues', sql: QUEUE_WRITE, bindings: [JSON.stringify(queues)] });
  }
  if (deleted.size > 0) {
    const sql = changes.items.length > 0 ? QUEUE_DELETE_AFTER_ITEMS : QUEUE_DELETE;
    parts.push({ name: 'deleted', sql, bindings: [JSON.stringify([...deleted])] });
  }
  if (changes.record !== null) {
    parts.push({
      name: 'tenant',
      sql: TENANT_WRITE,
      bindings: [JSON.stringify([tenantRow(tenant, changes.record, changes.at)])],
    });
  }
  const last = parts.pop();
  if (last === undefined) {
    return null;
  }
  const ahead = parts.map((part) => `${part.name} AS (${part.sql})`);
  return {
    sql: ahead.length === 0 ? last.sql : `WITH ${ahead.join(',\n      ')}\n    ${last.sql}`,
    bindings: [...parts.flatMap((part) => part.bindings), ...last.bindings],
    fixed,
  };
}

function pipelineRows(tenant: string, changes: StateChanges): object[] {
  return changes.pipelines.map((pipeline) => pipelineRow(tenant, pipeline));
}

function queueRows(tenant: string, changes: StateChanges): Array<{ id: number }> {
  return changes.pipelines.flatMap((pipeline) =>
    pipeline.queues.map((queue, position) => ({ id: queue.id, ...queueRow(tenant, pipeline, queue, position) })),
  );
}

/** A pipeline's `pipeline_state` row. */
export function pipelineRow(tenant: string, pipeline: PipelineState): Record<string, unknown> {
  return {
    tenant,
    pipeline: pipeline.name,
    state: pipeline.state,
    disabled: pipeline.disabled,
    consecutive_failures: pipeline.consecutiveFailures,
  };
}

/** A queue's `change_queues` row without its id (`projects` as JSON data: bound directly it goes as text). */
export function queueRow(
  tenant: string,
  pipeline: PipelineState,
  queue: PipelineState['queues'][number],
  position: number,
): Record<string, unknown> {
  return {
    tenant,
    pipeline: pipeline.name,
    name: queue.name,
    window: queue.window,
    window_floor: queue.params.floor,
    window_ceiling: queue.params.ceiling,
    projects: queue.projects,
    position,
    branch: queue.branch,
    dynamic: queue.dynamic,
    window_params: queue.params,
  };
}

/** The tenant row's columns (`timer_state` as JSON data; a statement binding it directly passes it as text). */
export function tenantRow(tenant: string, record: TenantEngineRecord, at: Date): Record<string, unknown> {
  return {
    tenant,
    trigger_queue_discarding: record.eventQueues.triggerQueueDiscarding,
    trigger_queue_paused: record.eventQueues.triggerQueuePaused,
    result_queue_paused: record.eventQueues.resultQueuePaused,
    reason: record.eventQueues.reason,
    layout_uuid: record.layoutUuid,
    last_reconfigured: record.lastReconfigured,
    bus_sequence: record.busSequence,
    timer_state: record.timerState,
    updated: at,
  };
}

/** `items` with no queue where theirs is deleted in the same statement (see above). */
export function withoutDeletedQueues(items: readonly ItemSave[], deleted: ReadonlySet<number>): ItemSave[] {
  return items.map((save) => (save.queueId !== null && deleted.has(save.queueId) ? { ...save, queueId: null } : save));
}
