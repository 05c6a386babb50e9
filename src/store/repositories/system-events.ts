/** System events: tenant-level happenings shown by `T/system-events` and GraphQL `systemEvents`. */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { countRows, fetchIdPage, tenantOrder, whereAnyOf, whereTenant, type KeysetPage } from './history-query';
import { pickFields } from '../row-fields';
import { queuedWrite, writeTogether, type QueuedWrite } from '../writes-together';

/**
 * Every event type Sluice records (docs/rest.md#deliberate-differences-from-the-reference); docs/rest.md#system-events
 * describes each.
 */
export const SYSTEM_EVENT_TYPES = [
  'reconfigured',
  'config-errors-changed',
  'tenant-state-changed',
  'pipeline-state-changed',
  'enqueued',
  'dequeued',
  'promoted',
  'autohold-created',
  'autohold-deleted',
  'autohold-exhausted',
  'flaky-retry',
  'quarantine-changed',
  'report-failed',
  'node-held',
  'node-released',
  'nodeset-request-canceled',
  'image-build-requested',
  'image-artifact-deleted',
  'image-upload-deleted',
  'image-upload-validated',
  'component-started',
  'component-stopped',
] as const;
export type SystemEventType = (typeof SYSTEM_EVENT_TYPES)[number];

export interface SystemEventRecord {
  id: number;
  eventId: string;
  tenant: string | null;
  eventType: SystemEventType;
  eventTime: Date;
  description: string;
  data: Record<string, unknown> | null;
}

/** Filters of `T/system-events`. */
export interface SystemEventFilter {
  /** Event types, OR'ed. */
  eventTypes?: SystemEventType[];
}

export interface NewSystemEvent {
  tenant: string | null;
  eventType: SystemEventType;
  description: string;
  eventTime: Date;
  data?: Record<string, unknown>;
}

interface SystemEventRow {
  id: number;
  event_id: string;
  tenant: string | null;
  event_type: SystemEventType;
  event_time: Date;
  description: string;
  data: Record<string, unknown> | null;
}

export class SystemEventRepository {
  constructor(private readonly knex: Knex) {}

  async record(event: NewSystemEvent, trx: Knex = this.knex): Promise<SystemEventRecord> {
    const [row] = await trx<SystemEventRow>('system_events').insert(toNewRow(event)).returning('*');
    return toRecord(row);
  }

  /** Store events in one statement (none: no statement), their ids in the given order. */
  async recordMany(events: readonly NewSystemEvent[], trx: Knex = this.knex): Promise<void> {
    await writeTogether(trx, [this.recordManyWrite(events)]);
  }

  /** `recordMany` as a write to send with others (`writeTogether`); null when there is no event. */
  recordManyWrite(events: readonly NewSystemEvent[]): QueuedWrite | null {
    return events.length === 0 ? null : queuedWrite(this.knex('system_events').insert(events.map(toNewRow)));
  }

  /** One page of a tenant's events, newest first; `eventTypes` filters by type (OR). */
  async listPage(tenant: string, filter: SystemEventFilter, page: KeysetPage<number>): Promise<SystemEventRecord[]> {
    const rows = await fetchIdPage<SystemEventRow>(this.filtered(tenant, filter).select('*'), 'id', page, 'tenant');
    return rows.map(toRecord);
  }

  /** Events of every tenant with an id above `afterId`, oldest first (the live feed's reader). */
  async listAfter(afterId: number, limit: number): Promise<SystemEventRecord[]> {
    const rows: SystemEventRow[] = await this.knex('system_events')
      .where('id', '>', afterId)
      .orderBy('id', 'asc')
      .limit(limit);
    return rows.map(toRecord);
  }

  /** The highest event id, or 0 when there is none. */
  async latestId(): Promise<number> {
    const row = (await this.knex('system_events').max('id as id').first()) as
      { id: number | string | null } | undefined;
    return Number(row?.id ?? 0);
  }

  /** How many of a tenant's events match `filter`. */
  async count(tenant: string, filter: SystemEventFilter): Promise<number> {
    return countRows(this.filtered(tenant, filter));
  }

  /** System events by id, in no particular order (missing ids are absent). */
  async findByIds(ids: readonly number[]): Promise<SystemEventRecord[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: SystemEventRow[] = await this.knex('system_events').whereIn('id', ids);
    return rows.map(toRecord);
  }

  private filtered(tenant: string, filter: SystemEventFilter): Knex.QueryBuilder {
    const query = this.knex('system_events');
    whereTenant(query, 'tenant', tenant);
    whereAnyOf(query, 'event_type', filter.eventTypes);
    return query;
  }

  /** Newest first; `types` filters by event type (OR). */
  async list(
    tenant: string,
    options: { types?: string[]; limit: number; offset: number },
  ): Promise<SystemEventRecord[]> {
    const query = this.knex<SystemEventRow>('system_events');
    whereTenant(query, 'tenant', tenant);
    if (options.types && options.types.length > 0) {
      query.whereIn('event_type', options.types);
    }
    const rows = await query
      .orderBy(tenantOrder('tenant', ['id'], 'desc'))
      .limit(options.limit)
      .offset(options.offset);
    return rows.map(toRecord);
  }
}

function toNewRow(event: NewSystemEvent): Omit<SystemEventRow, 'id'> {
  return {
    event_id: randomUUID().replace(/-/g, ''),
    tenant: event.tenant,
    event_type: event.eventType,
    event_time: event.eventTime,
    description: event.description,
    data: event.data ?? null,
  };
}

function toRecord(row: SystemEventRow): SystemEventRecord {
  return pickFields(row, ['id', 'eventId', 'tenant', 'eventType', 'eventTime', 'description', 'data']);
}
