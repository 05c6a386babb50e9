/**
 * Figures of the whole deployment read at a metrics scrape (docs/operations.md#metrics): queue
 * lengths and windows, pending engine events, build request, node and nodeset request states,
 * and live components. Each is one grouped query over an indexed column or a small table.
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export interface QueueFigure {
  tenant: string;
  pipeline: string;
  queue: string;
  items: number;
  window: number;
}

export interface CountBy<K extends string> {
  key: Record<K, string>;
  count: number;
}

export class OperationalFiguresRepository {
  constructor(private readonly knex: Knex) {}

  /** Every change queue with its live items and its window. */
  async queues(): Promise<QueueFigure[]> {
    const rows = (await this.knex('change_queues as q')
      .leftJoin('queue_items as i', (join) => join.on('i.queue_id', 'q.id').andOnNull('i.dequeue_time'))
      .groupBy('q.id', 'q.tenant', 'q.pipeline', 'q.name', 'q.window')
      .select(
        'q.tenant',
        'q.pipeline',
        'q.name as queue',
        'q.window',
        this.knex.raw('count(i.id) as items'),
      )) as Array<{
      tenant: string;
      pipeline: string;
      queue: string;
      window: number;
      items: string | number;
    }>;
    return rows.map((row) => ({
      ...pickFields(row, ['tenant', 'pipeline', 'queue']),
      items: Number(row.items),
      window: Number(row.window),
    }));
  }

  /**
   * Unprocessed engine events by tenant and category, read in the order of the partial index of
   * pending events (tenant, category, id), which the table cannot give: statistics taken during a
   * burst of pending events made a plain count scan every processed event the table keeps
   * (docs/gating.md#what-is-kept-of-engine-events).
   */
  pendingEvents(): Promise<Array<CountBy<'tenant' | 'category'>>> {
    const pending = this.knex('engine_events')
      .whereNull('processed')
      .select('tenant', 'category')
      .orderBy(['tenant', 'category', 'id']);
    return this.countBy(pending.as('pending'), ['tenant', 'category']);
  }

  /** Build requests that are not completed, by state (completed ones are history). */
  buildRequests(): Promise<Array<CountBy<'state'>>> {
    return this.countBy('build_requests', ['state'], (query) => query.whereNot('state', 'completed'));
  }

  nodes(): Promise<Array<CountBy<'state'>>> {
    return this.countBy('nodes', ['state']);
  }

  nodesetRequests(): Promise<Array<CountBy<'state'>>> {
    return this.countBy('nodeset_requests', ['state']);
  }

  /** Components that heartbeat since `since` and did not stop, by kind. */
  liveComponents(since: Date): Promise<Array<CountBy<'kind'>>> {
    return this.countBy('components', ['kind'], (query) =>
      query.where('heartbeat', '>=', since).whereNot('state', 'stopped'),
    );
  }

  private async countBy<K extends string>(
    table: string | Knex.QueryBuilder,
    columns: K[],
    filter: (query: Knex.QueryBuilder) => Knex.QueryBuilder = (query) => query,
  ): Promise<Array<CountBy<K>>> {
    const rows = (await filter(this.knex.from(table))
      .groupBy(columns)
      .select([...columns, this.knex.raw('count(*) as n')])) as Array<Record<K | 'n', string | number>>;
    return rows.map((row) => ({
      key: Object.fromEntries(columns.map((column) => [column, String(row[column])])) as Record<K, string>,
      count: Number(row.n),
    }));
  }
}
