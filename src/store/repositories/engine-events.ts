/**
 * Durable engine input (spec/engine.md §2.2): trigger, management and result events are
 * inserted here before anything acts on them and marked processed in the same transaction as
 * the state change they caused, so a restart neither loses nor repeats one.
 */
import type { Knex } from 'knex';

export const ENGINE_EVENT_CATEGORIES = ['trigger', 'management', 'result'] as const;
export type EngineEventCategory = (typeof ENGINE_EVENT_CATEGORIES)[number];

export interface EngineEventRecord {
  id: number;
  tenant: string;
  category: EngineEventCategory;
  eventType: string;
  payload: Record<string, unknown>;
  created: Date;
}

interface EngineEventRow {
  id: number | string;
  tenant: string;
  category: EngineEventCategory;
  event_type: string;
  payload: Record<string, unknown>;
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
  category: EngineEventCategory;
  eventType: string;
  payload: Record<string, unknown>;
  created: Date;
}

export class EngineEventRepository {
  constructor(private readonly knex: Knex) {}

  /** Store an event; returns its id (the order in which the tenant's scheduler sees it). */
  async append(event: NewEngineEvent, trx: Knex = this.knex): Promise<number> {
    const [row] = await trx<EngineEventRow>('engine_events')
      .insert({
        tenant: event.tenant,
        category: event.category,
        event_type: event.eventType,
        payload: event.payload,
        created: event.created,
      })
      .returning('id');
    return Number(row.id);
  }

  /** Unprocessed events of a tenant in the given categories, oldest first. */
  async pending(
    tenant: string,
    limit: number,
    categories: readonly EngineEventCategory[] = ENGINE_EVENT_CATEGORIES,
    trx: Knex = this.knex,
  ): Promise<EngineEventRecord[]> {
    if (categories.length === 0) {
      return [];
    }
    const rows: EngineEventRow[] = await trx('engine_events')
      .where({ tenant })
      .whereIn('category', categories)
      .whereNull('processed')
      .orderBy('id')
      .limit(limit);
    return rows.map(toRecord);
  }

  /** Mark events handled (or discarded) with a short outcome text. */
  async markProcessed(ids: readonly number[], outcome: string, at: Date, trx: Knex = this.knex): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    await trx('engine_events').whereIn('id', ids).update({ processed: at, outcome });
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
        .orderBy('id')
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

  /** The outcome of one event, or null while it is pending (or unknown). */
  async outcome(id: number, trx: Knex = this.knex): Promise<{ processed: boolean; outcome: string | null } | null> {
    const row: EngineEventRow | undefined = await trx('engine_events').where({ id }).first();
    if (!row) {
      return null;
    }
    return { processed: row.processed !== null, outcome: row.outcome };
  }
}

function toRecord(row: EngineEventRow): EngineEventRecord {
  return {
    id: Number(row.id),
    tenant: row.tenant,
    category: row.category,
    eventType: row.event_type,
    payload: row.payload,
    created: row.created,
  };
}
