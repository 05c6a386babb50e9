/**
 * Durable engine input (docs/gating.md#event-processing): trigger, management and result events are
 * inserted here before anything acts on them and marked processed in the same transaction as
 * the state change they caused, so a restart neither loses nor repeats one. This repository is
 * the only code that reads or writes `engine_events`; payloads are the typed events of
 * src/model/engine-events.ts, validated once when read back.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { runStatement } from '../direct-statement';
import { UNFLUSHED_CONDITION, UNFLUSHED_CTE } from '../unflushed-commit';
import {
  categorise,
  ENGINE_EVENT_CATEGORIES,
  parseEngineEvent,
  takesEventId,
  type CategorisedEvent,
  type EngineEvent,
  type EngineEventCategory,
} from '../../model/engine-events';
import { writeTogether, type QueuedWrite } from '../writes-together';

/** A stored event: typed when its payload is valid, else the reason it is not (the scheduler records it). */
export type EngineEventRecord = { id: number; tenant: string; eventType: string; created: Date } & (
  ({ valid: true } & CategorisedEvent) | { valid: false; category: EngineEventCategory; error: string }
);

/** The columns `toRecord` reads. */
const EVENT_COLUMNS = ['id', 'tenant', 'category', 'event_type', 'payload', 'created'] as const;

interface EngineEventRow {
  id: number | string;
  tenant: string;
  category: EngineEventCategory;
  event_type: string;
  payload: unknown;
  created: Date;
  processed: Date | null;
  outcome: string | null;
}

/** Payload fields that tell which pipeline an event concerns. */
const ROUTING_FIELDS = ['pipeline', 'parentPipeline', 'project', 'ref', 'branch', 'buildUuid', 'requestId'] as const;
type RoutingField = (typeof ROUTING_FIELDS)[number];

/** An unprocessed event reduced to its routing fields (null when the payload lacks one). */
export type PendingEventRouting = { category: EngineEventCategory; eventType: string } & Record<
  RoutingField,
  string | null
>;

export interface NewEngineEvent {
  tenant: string;
  event: EngineEvent;
  created: Date;
}

/** A pending reconfiguration request (`sluice reconfigure`, the layout manager claims it). */
export interface ReconfigureRequest {
  id: number;
  /** Undefined = every tenant. */
  tenant?: string;
  /** Only the tenants whose tenant-file entry changed (docs/project-configuration.md#reconfiguration). */
  smart?: boolean;
}

/** Tenant value of reconfiguration requests that cover every tenant (the column is not nullable). */
const ALL_TENANTS = '*';
/**
 * A `reconfigure` event written by `requestReconfigure` names its tenant in the payload; the
 * engine's own `reconfigure` (a tenant's scheduler told of its new layout) has no such field.
 */
const REQUEST_FROM_CLI = "payload->>'tenant' IS NOT NULL";
/**
 * The order of a tenant's pending events: the event id, as the key only the partial index
 * `engine_events_pending_order` provides (migration 0035). Ordered by `id` itself, statistics
 * taken while many events were pending made the planner walk the primary key through every
 * processed event, each pass (docs/gating.md#what-is-kept-of-engine-events).
 */
const PENDING_ORDER = '(id + 0)';
/**
 * A tenant's pending events of one category (bindings: tenant, category) in `PENDING_ORDER`,
 * for reads that filter them further by type or payload. `OFFSET 0` keeps those filters out of
 * the scan: the planner then weighs only conditions the partial indexes of pending events hold,
 * and a type it believed rare made it scan the whole table after statistics taken during a burst
 * (docs/gating.md#what-is-kept-of-engine-events).
 */
const PENDING_OF_CATEGORY = `SELECT id, event_type, payload FROM engine_events
  WHERE tenant = ? AND category = ? AND processed IS NULL ORDER BY ${PENDING_ORDER} OFFSET 0`;

export class EngineEventRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Store an event; returns its id (the order in which the tenant's scheduler sees it). An event
   * that can enqueue a change gets its event id here when it has none (docs/gating.md#event-ids).
   */
  async append(entry: NewEngineEvent, trx: Knex = this.knex): Promise<number> {
    const row = toRow(entry);
    if (!isTransaction(trx)) {
      // Appends made at the same time outside a transaction share one statement and its commit
      // (docs/gating.md#performance); each caller still waits for that commit.
      return appendGroupOf(trx).add(row);
    }
    const [id] = await insertRows(trx, [row]);
    return id;
  }

  /** Store events in one statement, in the given order; their ids, in that order. */
  async appendMany(entries: readonly NewEngineEvent[], trx: Knex = this.knex): Promise<number[]> {
    return insertRows(trx, entries.map(toRow));
  }

  /**
   * Store the events of engine work in the statement that completes the work (a data-modifying
   * `WITH`, one statement and its own commit; docs/gating.md#engine-work): `completing` is an
   * update returning the `id` of each row it completed, and an event is stored, in the given
   * order, only when its row (`work`) was completed. The number of events stored.
   */
  async appendForCompletedWork(
    completing: { sql: string; bindings: readonly Knex.RawBinding[] },
    entries: ReadonlyArray<NewEngineEvent & { work: number }>,
    /** The commit may leave its WAL unflushed (src/store/unflushed-commit.ts): work safe to do again. */
    unflushed = false,
  ): Promise<number> {
    if (entries.length === 0) {
      return 0;
    }
    const values = entries.map(() => '(?::bigint, ?::int, ?, ?, ?, ?::jsonb, ?::timestamptz)').join(', ');
    const bindings = entries.flatMap((entry, order) => {
      const row = toRow(entry);
      return [entry.work, order, row.tenant, row.category, row.event_type, JSON.stringify(row.payload), row.created];
    });
    const sql = `WITH ${unflushed ? `${UNFLUSHED_CTE}, ` : ''}done AS (${completing.sql})
       INSERT INTO engine_events (tenant, category, event_type, payload, created)
       SELECT e.tenant, e.category, e.event_type, e.payload, e.created
       FROM (VALUES ${values}) AS e(work, ord, tenant, category, event_type, payload, created)
       JOIN done ON done.id = e.work
       ${unflushed ? `WHERE ${UNFLUSHED_CONDITION}` : ''}
       ORDER BY e.ord
       RETURNING id`;
    // One entry: a fixed text when `completing`'s is (the runner completes most work one row at a time).
    const result = await runStatement(this.knex, sql, [...completing.bindings, ...bindings], entries.length === 1);
    return result.rows.length;
  }

  /** Unprocessed events of a tenant in the given categories (or of the given types), oldest first. */
  async pending(
    tenant: string,
    limit: number,
    categories: readonly EngineEventCategory[] = ENGINE_EVENT_CATEGORIES,
    trx: Knex = this.knex,
    types: readonly string[] = [],
  ): Promise<EngineEventRecord[]> {
    if (categories.length === 0 && types.length === 0) {
      return [];
    }
    // Prepared (one text whatever the categories and types), so its columns are named
    // (../prepared-statements.ts). A tenant's `sluice reconfigure` request is the layout
    // holder's, not the scheduler's.
    const { rows } = await runStatement<EngineEventRow>(
      trx,
      `SELECT ${EVENT_COLUMNS.join(', ')} FROM engine_events
       WHERE tenant = ? AND (category = ANY(?::text[]) OR event_type = ANY(?::text[])) AND processed IS NULL
         AND NOT (event_type = 'reconfigure' AND ${REQUEST_FROM_CLI})
       ORDER BY ${PENDING_ORDER} LIMIT ?`,
      [tenant, categories, types, limit],
      true,
    );
    return rows.map(toRecord);
  }

  /** Mark events handled (or discarded) with a short outcome text. */
  async markProcessed(ids: readonly number[], outcome: string, at: Date, trx: Knex = this.knex): Promise<void> {
    await this.markOutcomes(
      ids.map((id) => ({ id, outcome })),
      at,
      trx,
    );
  }

  /**
   * Mark events handled, each with its own outcome text, in one statement; an event already
   * marked keeps its first outcome.
   */
  async markOutcomes(
    entries: ReadonlyArray<{ id: number; outcome: string }>,
    at: Date,
    trx: Knex = this.knex,
  ): Promise<void> {
    await writeTogether(trx, [this.outcomesWrite(entries, at)]);
  }

  /** `markOutcomes` as a write to send with others (`writeTogether`); null when there is none. */
  outcomesWrite(entries: ReadonlyArray<{ id: number; outcome: string }>, at: Date): QueuedWrite | null {
    if (entries.length === 0) {
      return null;
    }
    const values = entries.map(() => '(?::bigint, ?::text)').join(', ');
    return {
      sql: `UPDATE engine_events AS e SET processed = ?, outcome = v.outcome FROM (VALUES ${values}) AS v(id, outcome)
       WHERE e.id = v.id AND e.processed IS NULL`,
      bindings: [at, ...entries.flatMap((entry) => [entry.id, entry.outcome])],
    };
  }

  /**
   * The routing fields of every unprocessed event of a tenant, oldest first: enough to tell
   * which pipeline each one concerns (status document counters) without loading payloads.
   */
  async pendingRouting(tenant: string, trx: Knex = this.knex): Promise<PendingEventRouting[]> {
    const field = (name: string) => trx.raw('payload->>? as ??', [name, name]);
    const rows: Array<{ category: EngineEventCategory; event_type: string } & Record<RoutingField, string | null>> =
      await trx('engine_events')
        .where({ tenant })
        .whereNull('processed')
        .orderByRaw(PENDING_ORDER)
        .select('category', 'event_type', ...ROUTING_FIELDS.map(field));
    return rows.map((row) => ({
      category: row.category,
      eventType: row.event_type,
      ...(Object.fromEntries(ROUTING_FIELDS.map((name) => [name, row[name] ?? null])) as Record<
        RoutingField,
        string | null
      >),
    }));
  }

  /** Request ids of the tenant's unprocessed `nodes-provisioned` events (requests answered, not yet applied). */
  async pendingNodeFulfilments(tenant: string, trx: Knex = this.knex): Promise<Set<string>> {
    const { rows }: { rows: Array<{ request_id: string | null }> } = await trx.raw(
      `SELECT payload->>'requestId' AS request_id FROM (${PENDING_OF_CATEGORY}) AS pending
       WHERE event_type = 'nodes-provisioned'`,
      [tenant, 'result'],
    );
    return new Set(rows.map((row) => row.request_id).filter((id): id is string => id !== null));
  }

  /**
   * The outcome of one event, or null when there is no such event (`managementOf`: only a
   * management event of this tenant).
   */
  async outcome(
    id: number,
    trx: Knex = this.knex,
    managementOf?: string,
  ): Promise<{ processed: boolean; outcome: string | null } | null> {
    const row: EngineEventRow | undefined = await trx('engine_events')
      .where(managementOf === undefined ? { id } : { id, tenant: managementOf, category: 'management' })
      .first();
    if (!row) {
      return null;
    }
    return { processed: row.processed !== null, outcome: row.outcome };
  }

  /** Every event of one category of a tenant, oldest first, with its payload as stored. */
  async list(
    tenant: string,
    category: EngineEventCategory,
  ): Promise<Array<{ id: number; eventType: string; payload: Record<string, unknown> }>> {
    const rows: Array<{ id: number | string; event_type: string; payload: Record<string, unknown> }> = await this.knex(
      'engine_events',
    )
      .select('id', 'event_type', 'payload')
      .where({ tenant, category })
      .orderBy('id');
    return rows.map((row) => ({ id: Number(row.id), eventType: row.event_type, payload: row.payload }));
  }

  /** Whether the tenant has an unprocessed `image-build` trigger event naming the image. */
  async hasPendingImageBuild(tenant: string, imageName: string, trx: Knex = this.knex): Promise<boolean> {
    const { rows }: { rows: unknown[] } = await trx.raw(
      `SELECT 1 FROM (${PENDING_OF_CATEGORY}) AS pending
       WHERE event_type = 'image-build' AND payload->'imageNames' @> ?::jsonb LIMIT 1`,
      [tenant, 'trigger', JSON.stringify([imageName])],
    );
    return rows.length > 0;
  }

  /**
   * Delete up to `limit` events processed before `before`, oldest first (docs/gating.md#what-is-kept-of-engine-events);
   * resolves with how many were deleted. Unprocessed events are never deleted.
   */
  async pruneProcessed(before: Date, limit: number): Promise<number> {
    // A raw statement's answer names its row count differently on each store; its rows count alike.
    const result: { rows: unknown[] } = await this.knex.raw(
      `DELETE FROM engine_events WHERE id IN (
         SELECT id FROM engine_events WHERE processed IS NOT NULL AND processed < :before
         ORDER BY processed LIMIT :limit FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      { before, limit },
    );
    return result.rows.length;
  }

  /** Queue a reconfiguration request for one tenant or (no tenant) all tenants. */
  async requestReconfigure(tenant: string | undefined, at: Date, smart = false): Promise<number> {
    return this.append({
      tenant: tenant ?? ALL_TENANTS,
      event: { type: 'reconfigure', tenant: tenant ?? null, ...(smart ? { smart: true } : {}) },
      created: at,
    });
  }

  /**
   * Claim every pending reconfiguration request (FOR UPDATE SKIP LOCKED, so concurrent
   * processes never take the same row) and mark them processed in the same transaction.
   */
  async claimReconfigureRequests(at: Date): Promise<ReconfigureRequest[]> {
    return this.knex.transaction(async (trx) => {
      // The requests among the pending management events, read in the order of
      // `engine_events_pending_idx` behind `OFFSET 0` (see PENDING_OF_CATEGORY); then locked by id.
      // Not the scheduler's own wake-ups after a new layout (no `tenant` in their payload).
      const { rows }: { rows: Array<{ id: number | string; tenant: string; payload: unknown }> } = await trx.raw(
        `SELECT id, tenant, payload FROM engine_events
         WHERE id = ANY(ARRAY(
           SELECT id FROM (
             SELECT id, tenant, event_type, payload FROM engine_events
             WHERE category = 'management' AND processed IS NULL ORDER BY tenant, category, id OFFSET 0) AS pending
           WHERE event_type = 'reconfigure' AND (tenant = ? OR ${REQUEST_FROM_CLI})))
           AND processed IS NULL
         ORDER BY id FOR UPDATE SKIP LOCKED`,
        [ALL_TENANTS],
      );
      await this.markProcessed(
        rows.map((row) => Number(row.id)),
        'claimed',
        at,
        trx,
      );
      return rows.map((row) => {
        const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
          smart?: unknown;
        } | null;
        return {
          id: Number(row.id),
          tenant: row.tenant === ALL_TENANTS ? undefined : row.tenant,
          ...(payload?.smart === true ? { smart: true } : {}),
        };
      });
    });
  }
}

type NewEventRow = ReturnType<typeof toRow>;

/** Insert rows in one statement, in the given order; their ids, in that order. */
async function insertRows(knex: Knex, rows: readonly NewEventRow[]): Promise<number[]> {
  if (rows.length === 0) {
    return [];
  }
  const values = rows.map(() => '(?, ?, ?, ?, ?)').join(', ');
  const bindings = rows.flatMap((row) => [row.tenant, row.category, row.event_type, row.payload, row.created]);
  // One row (an append in a transaction, or alone in its group): a fixed text.
  const { rows: inserted } = await runStatement<{ id: number | string }>(
    knex,
    `INSERT INTO engine_events (tenant, category, event_type, payload, created) VALUES ${values} RETURNING id`,
    bindings,
    rows.length === 1,
  );
  // Ids are taken in the order of the rows; sorted, they follow the entries.
  return inserted.map((row) => Number(row.id)).sort((a, b) => a - b);
}

function isTransaction(knex: Knex): boolean {
  return (knex as Knex.Transaction).isTransaction === true;
}

/** Rows written by one statement of an append group at most. */
const APPEND_GROUP_MAX = 500;

/**
 * Group commit of the appends made outside a transaction on one knex instance
 * (docs/gating.md#performance): appends that arrive while a statement is being written, or
 * before the microtasks queued with the first of them have run (calls made together, and the
 * continuations of callers answered together), are written together by the next one, in the
 * order they arrived, in one multi-row insert that commits on its own. The write is queued as a
 * microtask, not for a later turn of the event loop: with one connection (PGlite) it then asks
 * for the connection before a scheduler pass that follows (with `setImmediate`, a client that
 * enqueued one change after another waited a whole pass each time). Each caller gets its own id
 * once that statement committed, or its error: a failed statement fails every append in it.
 */
class AppendGroup {
  private waiting: Array<{ row: NewEventRow; resolve: (id: number) => void; reject: (error: unknown) => void }> = [];
  private writing = false;
  private scheduled = false;

  constructor(private readonly knex: Knex) {}

  add(row: NewEventRow): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      this.schedule();
    });
  }

  /** Write once the microtasks queued so far have run, when no statement is being written. */
  private schedule(): void {
    if (this.writing || this.scheduled || this.waiting.length === 0) {
      return;
    }
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  private async write(): Promise<void> {
    const batch = this.waiting.splice(0, APPEND_GROUP_MAX);
    this.writing = true;
    try {
      const ids = await insertRows(
        this.knex,
        batch.map((entry) => entry.row),
      );
      batch.forEach((entry, index) => entry.resolve(ids[index]));
    } catch (error) {
      for (const entry of batch) {
        entry.reject(error);
      }
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}

const appendGroups = new WeakMap<Knex, AppendGroup>();

function appendGroupOf(knex: Knex): AppendGroup {
  let group = appendGroups.get(knex);
  if (group === undefined) {
    group = new AppendGroup(knex);
    appendGroups.set(knex, group);
  }
  return group;
}

function toRecord(row: EngineEventRow): EngineEventRecord {
  const common = { id: Number(row.id), tenant: row.tenant, eventType: row.event_type, created: row.created };
  const parsed = parseEngineEvent(row.category, row.event_type, row.payload);
  return parsed.ok
    ? { ...common, valid: true, ...parsed.value }
    : { ...common, valid: false, category: row.category, error: parsed.error };
}

/** The row of a new event (an event that takes an event id gets one when it has none). */
function toRow(entry: NewEngineEvent): {
  tenant: string;
  category: EngineEventCategory;
  event_type: string;
  payload: EngineEvent;
  created: Date;
} {
  return {
    tenant: entry.tenant,
    category: categorise(entry.event).category,
    event_type: entry.event.type,
    payload:
      takesEventId(entry.event) && entry.event.eventId === undefined
        ? { ...entry.event, eventId: randomUUID().replace(/-/g, '') }
        : entry.event,
    created: entry.created,
  };
}
