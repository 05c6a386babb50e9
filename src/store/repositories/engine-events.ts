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
      .insert({ tenant: event.tenant, category: event.category, event_type: event.eventType, payload: event.payload, created: event.created })
      .returning('id');
    return Number(row.id);
  }

  /** Unprocessed events of a tenant in the given categories, oldest first. */
  async pending(tenant: string, limit: number, categories: readonly EngineEventCategory[] = ENGINE_EVENT_CATEGORIES, trx: Knex = this.knex): Promise<EngineEventRecord[]> {
    if (categories.length === 0) {
      return [];
    }
    const rows: EngineEventRow[] = await trx('engine_events').where({ tenant }).whereIn('category', categories).whereNull('processed').orderBy('id').limit(limit);
    return rows.map(toRecord);
  }

  /** Mark events handled (or discarded) with a short outcome text. */
  async markProcessed(ids: readonly number[], outcome: string, at: Date, trx: Knex = this.knex): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    await trx('engine_events').whereIn('id', ids).update({ processed: at, outcome });
  }

  /** Pending event counts per category (status document queue lengths). */
  async pendingCounts(tenant: string, trx: Knex = this.knex): Promise<Record<EngineEventCategory, number>> {
    const rows: Array<{ category: EngineEventCategory; count: string | number }> = await trx('engine_events')
      .where({ tenant })
      .whereNull('processed')
      .groupBy('category')
      .select('category')
      .count({ count: '*' });
    const counts: Record<EngineEventCategory, number> = { trigger: 0, management: 0, result: 0 };
    for (const row of rows) {
      counts[row.category] = Number(row.count);
    }
    return counts;
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
  return { id: Number(row.id), tenant: row.tenant, category: row.category, eventType: row.event_type, payload: row.payload, created: row.created };
}
