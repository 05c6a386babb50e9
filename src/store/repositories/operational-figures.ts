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

  /** Unprocessed engine events by tenant and category. */
  pendingEvents(): Promise<Array<CountBy<'tenant' | 'category'>>> {
    return this.countBy('engine_events', ['tenant', 'category'], (query) => query.whereNull('processed'));
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
    table: string,
    columns: K[],
    filter: (query: Knex.QueryBuilder) => Knex.QueryBuilder = (query) => query,
  ): Promise<Array<CountBy<K>>> {
    const rows = (await filter(this.knex(table))
      .groupBy(columns)
      .select([...columns, this.knex.raw('count(*) as n')])) as Array<Record<K | 'n', string | number>>;
    return rows.map((row) => ({
      key: Object.fromEntries(columns.map((column) => [column, String(row[column])])) as Record<K, string>,
      count: Number(row.n),
    }));
  }
}
