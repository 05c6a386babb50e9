/**
 * Figures of the whole deployment read at a metrics scrape (docs/operations.md#metrics): queue
 * lengths and windows, pending engine events, build request, node and nodeset request states,
 * and live components. Each is one grouped query over an indexed column or a small table.
 */
import type { Knex } from 'knex';
import { categoryPendingWalk } from '../pending-walk';
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
   * Unprocessed engine events by tenant and category, counted over a walk of the partial index of
   * pending events (src/store/pending-walk.ts): statistics taken during a burst of pending events
   * made a plain count scan every processed event the table keeps
   * (docs/gating.md#what-is-kept-of-engine-events).
   */
  async pendingEvents(): Promise<Array<CountBy<'tenant' | 'category'>>> {
    const { rows }: { rows: Array<{ tenant: string; category: string; n: string | number }> } = await this.knex.raw(
      `${categoryPendingWalk([], false)} SELECT tenant, category, count(*) AS n FROM pending GROUP BY tenant, category`,
    );
    return rows.map((row) => ({ key: { tenant: row.tenant, category: row.category }, count: Number(row.n) }));
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
