/**
 * What a scheduler pass saves at its end (`EngineStateRepository.saveChanges`), in one statement
 * of a fixed text (docs/gating.md#performance): the items and their job rows (./item-rows.ts), the
 * changed pipelines' counters and queues, the deleted (dynamic) queues and the tenant row, each a
 * data-modifying `WITH` entry reading its rows from one JSON parameter (none: it writes nothing).
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
import { ITEM_WRITES, itemWriteBindings, type ItemSave } from './item-rows';

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

/** Waits for the items' write (it reads its count): the rows of its dequeued items are written first. */
const QUEUE_DELETE = `DELETE FROM change_queues
    WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint) AND (SELECT count(*) FROM saved) >= 0`;

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

/** The statement's text: the same whatever is written. */
const STATE_SAVE = `WITH ${ITEM_WRITES},
      pipelines AS (${PIPELINE_WRITE}),
      queues AS (${QUEUE_WRITE}),
      deleted AS (${QUEUE_DELETE})
    ${TENANT_WRITE}`;

/** The statement writing `changes` (a fixed text; its parameters are JSON texts). */
export function stateSaveStatement(tenant: string, changes: StateChanges): { sql: string; bindings: string[] } {
  const deleted = new Set(changes.deletedQueueIds);
  const queues = changes.pipelines.flatMap((pipeline) =>
    pipeline.queues.map((queue, position) => ({
      id: queue.id,
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
    })),
  );
  const pipelines = changes.pipelines.map((pipeline) => ({
    tenant,
    pipeline: pipeline.name,
    state: pipeline.state,
    disabled: pipeline.disabled,
    consecutive_failures: pipeline.consecutiveFailures,
  }));
  const { record } = changes;
  const tenantRows =
    record === null
      ? []
      : [
          {
            tenant,
            trigger_queue_discarding: record.eventQueues.triggerQueueDiscarding,
            trigger_queue_paused: record.eventQueues.triggerQueuePaused,
            result_queue_paused: record.eventQueues.resultQueuePaused,
            reason: record.eventQueues.reason,
            layout_uuid: record.layoutUuid,
            last_reconfigured: record.lastReconfigured,
            bus_sequence: record.busSequence,
            timer_state: record.timerState,
            updated: changes.at,
          },
        ];
  return {
    sql: STATE_SAVE,
    bindings: [
      ...itemWriteBindings(tenant, withoutDeletedQueues(changes.items, deleted)),
      JSON.stringify(pipelines),
      JSON.stringify(queues.filter((queue) => !deleted.has(queue.id))),
      JSON.stringify([...deleted]),
      JSON.stringify(tenantRows),
    ],
  };
}

/** `items` with no queue where theirs is deleted in the same statement (see above). */
export function withoutDeletedQueues(items: readonly ItemSave[], deleted: ReadonlySet<number>): ItemSave[] {
  return items.map((save) => (save.queueId !== null && deleted.has(save.queueId) ? { ...save, queueId: null } : save));
}
