/**
 * Persisted pipeline state of a tenant: change queues, queue items (with their buildset) and
 * the job states of each item, plus pipeline counters and the tenant event-queue state. The
 * scheduler saves what a pass changed in the pass's transaction and loads it all on start.
 */
import type { Knex } from 'knex';
import type {
  DequeueReason,
  ItemState,
  PipelineState,
  QueueState,
  TenantEventQueueState,
} from '../../model/pipeline-state';
import { prepared } from '../prepared-statements';
import { runStatement } from '../direct-statement';
import { pickFields } from '../row-fields';
import {
  pipelineStateValueSchema,
  queueProjectsSchema,
  storedItems,
  storedValue,
  timerStateSchema,
  windowParamsSchema,
} from './engine-state-json';
import { itemSaveStatement, type ItemSave } from './item-rows';
import { readQueuedItems, type ParsedItems } from './queued-items';
import {
  pipelineRow,
  queueRow,
  stateSaveStatement,
  tenantRow,
  withoutDeletedQueues,
  type StateChanges,
} from './state-save';

interface QueueRow {
  id: number;
  tenant: string;
  pipeline: string;
  name: string;
  window: number;
  window_floor: number;
  window_ceiling: number | null;
  /** JSON: `queueProjectsSchema`. */
  projects: unknown;
  position: number;
  branch: string | null;
  dynamic: boolean;
  /** JSON: `windowParamsSchema`. */
  window_params: unknown;
}

interface PipelineRow {
  pipeline: string;
  state: string;
  disabled: boolean;
  consecutive_failures: number;
}

interface TenantStateRow {
  tenant: string;
  trigger_queue_discarding: boolean;
  trigger_queue_paused: boolean;
  result_queue_paused: boolean;
  reason: string | null;
  layout_uuid: string | null;
  last_reconfigured: Date | null;
  bus_sequence: number | string;
  /** JSON: `timerStateSchema`. */
  timer_state: unknown;
}

export interface TenantEngineRecord {
  eventQueues: TenantEventQueueState;
  layoutUuid: string | null;
  lastReconfigured: Date | null;
  busSequence: number;
  /** Last fire time (ISO) per timer pipeline. */
  timerState: Record<string, string>;
}

/** A dequeued item as kept for "why did my change leave" questions. */
export interface DequeuedItemRecord {
  uuid: string;
  pipeline: string;
  dequeueTime: Date;
  reason: DequeueReason | null;
  item: Omit<ItemState, 'buildset'>;
}

/**
 * `EngineStateRepository.pruneDequeued` (`:before`, `:limit`): the tenants one after the other over
 * an index that starts with `tenant` (a recursive skip, as many probes as tenants), then each
 * tenant's oldest over `queue_items_dequeued_idx`.
 */
export const PRUNE_DEQUEUED = `WITH RECURSIVE tenants AS (
     (SELECT tenant FROM queue_items ORDER BY tenant LIMIT 1)
     UNION ALL
     SELECT (SELECT q.tenant FROM queue_items q WHERE q.tenant > t.tenant ORDER BY q.tenant LIMIT 1)
     FROM tenants t WHERE t.tenant IS NOT NULL)
   DELETE FROM queue_items WHERE id IN (
     SELECT old.id FROM tenants t CROSS JOIN LATERAL (
       SELECT id, dequeue_time FROM queue_items
       WHERE tenant = t.tenant AND dequeue_time IS NOT NULL AND dequeue_time < :before
       ORDER BY dequeue_time LIMIT :limit FOR UPDATE SKIP LOCKED) old
     ORDER BY old.dequeue_time LIMIT :limit)
   RETURNING 1`;

export class EngineStateRepository {
  constructor(private readonly knex: Knex) {}

  /** Every pipeline's live state for a tenant (queues in order, items in order, jobs attached). */
  /**
   * The tenant's pipelines with their queued items. With `parsed` (a reader that keeps what it
   * parsed, src/engine/status-inputs.ts) only the items whose row changed since are read and
   * parsed again (./queued-items.ts); the map is brought up to date.
   */
  async loadPipelines(tenant: string, trx: Knex = this.knex, parsed?: ParsedItems): Promise<PipelineState[]> {
    if ((trx as Knex.Transaction).isTransaction !== true) {
      // One snapshot for all the reads: a pass committing between the queued items' index and their
      // rows would dequeue an item the index listed (./queued-items.ts reads them in two statements).
      return trx.transaction((snapshot) => this.loadPipelines(tenant, snapshot, parsed), {
        isolationLevel: 'repeatable read',
      });
    }
    const pipelineRows: PipelineRow[] = await trx('pipeline_state').where({ tenant });
    const queueRows: QueueRow[] = await trx('change_queues')
      .where({ tenant })
      .orderBy([{ column: 'pipeline' }, { column: 'position' }, { column: 'id' }]);
    const itemsByQueue = await readQueuedItems(trx, tenant, parsed);
    const pipelines = new Map<string, PipelineState>();
    for (const row of pipelineRows) {
      pipelines.set(row.pipeline, {
        name: row.pipeline,
        state: storedValue(pipelineStateValueSchema, row.state, () => `tenant ${tenant}, pipeline ${row.pipeline}`),
        ...pickFields(row, ['disabled', 'consecutiveFailures']),
        queues: [],
      });
    }
    for (const row of queueRows) {
      let pipeline = pipelines.get(row.pipeline);
      if (!pipeline) {
        pipeline = { name: row.pipeline, state: 'normal', disabled: false, consecutiveFailures: 0, queues: [] };
        pipelines.set(row.pipeline, pipeline);
      }
      const queue: QueueState = {
        ...pickFields(row, ['id', 'name', 'branch']),
        projects: storedValue(queueProjectsSchema, row.projects, () => `tenant ${tenant}, queue ${row.id} projects`),
        ...pickFields(row, ['dynamic', 'window']),
        params: storedValue(windowParamsSchema, row.window_params, () => `tenant ${tenant}, queue ${row.id} window`),
        items: itemsByQueue.get(Number(row.id)) ?? [],
      };
      pipeline.queues.push(queue);
    }
    return [...pipelines.values()];
  }

  /** The queue and position of every queued item of a tenant (positions order the items of a queue). */
  async loadItemPositions(tenant: string): Promise<Map<string, { queueId: number; position: number }>> {
    const rows: Array<{ uuid: string; queue_id: number | null; position: number }> = await this.knex('queue_items')
      .where({ tenant })
      .whereNull('dequeue_time')
      .select('uuid', 'queue_id', 'position');
    const positions = new Map<string, { queueId: number; position: number }>();
    for (const row of rows) {
      if (row.queue_id !== null) {
        positions.set(row.uuid, { queueId: Number(row.queue_id), position: row.position });
      }
    }
    return positions;
  }

  /** Save a pipeline's counters and the order and windows of its queues (assigning ids to new queues). */
  async savePipeline(tenant: string, pipeline: PipelineState, trx: Knex): Promise<void> {
    await trx('pipeline_state').insert(pipelineRow(tenant, pipeline)).onConflict(['tenant', 'pipeline']).merge();
    for (const [position, queue] of pipeline.queues.entries()) {
      const row = { ...queueRow(tenant, pipeline, queue, position), projects: JSON.stringify(queue.projects) };
      if (queue.id === 0) {
        const [inserted] = await trx('change_queues').insert(row).returning('id');
        queue.id = Number((inserted as { id: number }).id);
      } else {
        await trx('change_queues').where({ id: queue.id }).update(row);
      }
    }
  }

  /** Delete queues (emptied dynamic queues); their dequeued items keep their history rows. */
  async deleteQueues(queueIds: readonly number[], trx: Knex): Promise<void> {
    if (queueIds.length === 0) {
      return;
    }
    await trx('change_queues').whereIn('id', queueIds).delete();
  }

  /** Insert or update an item row and replace its job rows. */
  async saveItem(tenant: string, queueId: number | null, position: number, item: ItemState, trx: Knex): Promise<void> {
    await this.saveItems(tenant, [{ queueId, position, item }], trx);
  }

  /** Insert or update item rows with the job rows they need (./item-rows.ts), one statement per chunk. */
  async saveItems(tenant: string, saves: readonly ItemSave[], trx: Knex): Promise<void> {
    for (let start = 0; start < saves.length; start += SAVE_CHUNK) {
      const { sql, bindings } = itemSaveStatement(tenant, saves.slice(start, start + SAVE_CHUNK));
      // Its text is one of two whatever the items (they are one JSON parameter).
      await runStatement(trx, sql, bindings, true);
    }
  }

  /**
   * Save what a pass changed in one statement (./state-save.ts); items past the last
   * `SAVE_CHUNK` go ahead in statements of their own. Nothing to write sends nothing.
   */
  async saveChanges(tenant: string, changes: StateChanges, trx: Knex): Promise<void> {
    const { items, deletedQueueIds } = changes;
    const ahead = Math.max(0, items.length - SAVE_CHUNK);
    await this.saveItems(tenant, withoutDeletedQueues(items.slice(0, ahead), new Set(deletedQueueIds)), trx);
    const statement = stateSaveStatement(tenant, { ...changes, items: items.slice(ahead) });
    if (statement !== null) {
      await runStatement(trx, statement.sql, statement.bindings, statement.fixed);
    }
  }

  /** Items that left a pipeline, newest first (why a change was dropped). */
  async listDequeued(tenant: string, options: { pipeline?: string; limit: number }): Promise<DequeuedItemRecord[]> {
    const query = this.knex('queue_items').where({ tenant }).whereNotNull('dequeue_time');
    if (options.pipeline !== undefined) {
      query.andWhere({ pipeline: options.pipeline });
    }
    const rows: Array<{ uuid: string; pipeline: string; dequeue_time: Date; data: unknown }> = await query
      .orderBy('dequeue_time', 'desc')
      .limit(options.limit)
      .select('uuid', 'pipeline', 'dequeue_time', this.knex.raw('data::text as data'));
    return rows.map((row) => {
      const data = storedItems.read(row.data, () => `tenant ${tenant}, item ${row.uuid}`);
      const { buildset: _buildset, ...item } = data;
      return {
        ...pickFields(row, ['uuid', 'pipeline', 'dequeueTime']),
        reason: data.dequeueReason,
        item,
      };
    });
  }

  /**
   * Delete up to `limit` items dequeued before `before`, oldest first, with their job rows (ON
   * DELETE CASCADE); resolves with how many items were deleted (docs/gating.md#what-is-kept-of-dequeued-items).
   * Queued items (no `dequeue_time`) are never deleted; rows another process is deleting are
   * skipped (`FOR UPDATE SKIP LOCKED`).
   */
  async pruneDequeued(before: Date, limit: number): Promise<number> {
    // A raw statement's answer names its row count differently on each store; its rows count alike.
    const result: { rows: unknown[] } = await this.knex.raw(PRUNE_DEQUEUED, { before, limit });
    return result.rows.length;
  }

  /** Tenant-level engine record (created with defaults when missing). */
  async loadTenant(tenant: string, trx: Knex = this.knex, forUpdate = false): Promise<TenantEngineRecord> {
    const query = trx('tenant_state').where({ tenant }).first();
    const row: TenantStateRow | undefined = await (forUpdate ? query.forUpdate() : query);
    return tenantRecord(tenant, row);
  }

  /**
   * The tenant-level record with the version of the tenant's stored engine state: the row
   * version (`xmin`) of its `tenant_state` row, which every scheduler pass that changes anything
   * rewrites in the transaction that saves items, jobs and history, so the version changes with
   * every committed pass that wrote (null without a row). A reader may keep what it parsed for as
   * long as it stays.
   */
  async loadTenantVersion(
    tenant: string,
    trx: Knex = this.knex,
  ): Promise<{ record: TenantEngineRecord; version: string | null }> {
    const row: (TenantStateRow & { row_version: string }) | undefined = await trx('tenant_state')
      .where({ tenant })
      .first('*', trx.raw('xmin::text as row_version'));
    return { record: tenantRecord(tenant, row), version: row?.row_version ?? null };
  }

  /** Create the tenant's row when missing, so that passes and operations can lock it. */
  async ensureTenant(tenant: string, at: Date, trx: Knex = this.knex): Promise<void> {
    await trx('tenant_state').insert({ tenant, updated: at }).onConflict('tenant').ignore();
  }

  /** Save the tenant-level record. */
  async saveTenant(tenant: string, record: TenantEngineRecord, at: Date, trx: Knex = this.knex): Promise<void> {
    await prepared(trx('tenant_state'))
      .insert({ ...tenantRow(tenant, record, at), timer_state: JSON.stringify(record.timerState) })
      .onConflict('tenant')
      .merge();
  }
}

/** The tenant-level record of a `tenant_state` row (defaults when there is none). */
function tenantRecord(tenant: string, row: TenantStateRow | undefined): TenantEngineRecord {
  if (!row) {
    return {
      eventQueues: {
        triggerQueueDiscarding: false,
        triggerQueuePaused: false,
        resultQueuePaused: false,
        reason: null,
      },
      layoutUuid: null,
      lastReconfigured: null,
      busSequence: 0,
      timerState: {},
    };
  }
  return {
    eventQueues: pickFields(row, ['triggerQueueDiscarding', 'triggerQueuePaused', 'resultQueuePaused', 'reason']),
    ...pickFields(row, ['layoutUuid', 'lastReconfigured']),
    busSequence: Number(row.bus_sequence),
    timerState: storedValue(timerStateSchema, row.timer_state, () => `tenant ${tenant} timer state`),
  };
}

/** Rows per multi-row statement when saving items. */
const SAVE_CHUNK = 200;
