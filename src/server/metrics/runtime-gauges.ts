/**
 * The gauges read at each scrape (docs/operations.md#metrics): deployment figures from the
 * database, and this process's executor slots, subscriptions, WebSocket connections and
 * database pool. A scrape while the database is unreachable still answers: the database series
 * are left out and `sluice_database_reachable` is 0.
 */
import type { Knex } from 'knex';
import { ENGINE_EVENT_CATEGORIES } from '../../model/engine-events';
import { NODE_STATES, NODESET_REQUEST_STATES } from '../../model/launcher';
import { OperationalFiguresRepository } from '../../store/repositories/operational-figures';
import type { SluiceMetrics } from './sluice-metrics';

export interface RuntimeSources {
  knex: Knex;
  now: () => Date;
  /** Tenants this process knows (their pending-event series are reported even at 0). */
  tenants: () => readonly string[];
  /** Components are counted alive while their heartbeat is younger than this. */
  componentExpiryMs: number;
  /** Live subscribers of this process (`LiveHub.stats`). */
  subscribers: () => { deltaSubscribers: number; statusSubscribers: number; systemEventSubscribers: number };
  /** This process's executor, when it runs one. */
  executor?: { activeCount: number; concurrency: number };
  /** Open WebSocket connections of this process (undefined before it listens). */
  webSockets: () => { graphql: number; console: number } | undefined;
}

/** The parts of knex's connection pool (tarn) the pool gauge reads. */
interface PoolView {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

function poolOf(knex: Knex): PoolView | null {
  const pool = (knex.client as { pool?: Partial<PoolView> }).pool;
  return pool && typeof pool.numUsed === 'function' ? (pool as PoolView) : null;
}

export function registerRuntimeGauges(metrics: SluiceMetrics, sources: RuntimeSources): void {
  const figures = new OperationalFiguresRepository(sources.knex);
  let reachable = 1;
  /** This scrape's database reads (the collectors of a scrape start together). */
  let reads: Array<Promise<void>> = [];
  /** Read database figures; a failure leaves the series out and marks the database unreachable. */
  const fromDatabase = (read: () => Promise<void>): Promise<void> => {
    const done = read().catch(() => {
      reachable = 0;
    });
    reads.push(done);
    return done;
  };
  metrics.gauge('sluice_queue_items', 'Items in each change queue.', ['tenant', 'pipeline', 'queue'], (set) =>
    fromDatabase(async () => {
      for (const queue of await figures.queues()) {
        set({ tenant: queue.tenant, pipeline: queue.pipeline, queue: queue.queue }, queue.items);
      }
    }),
  );
  metrics.gauge(
    'sluice_queue_window',
    'Window of each change queue (items that may run jobs at once).',
    ['tenant', 'pipeline', 'queue'],
    (set) =>
      fromDatabase(async () => {
        for (const queue of await figures.queues()) {
          set({ tenant: queue.tenant, pipeline: queue.pipeline, queue: queue.queue }, queue.window);
        }
      }),
  );
  /** Counts by key; `zeros` lists the keys reported as 0 when no row has them (absent series read as unknown). */
  const counted = <K extends string>(
    name: string,
    help: string,
    labels: K[],
    zeros: () => Array<Record<K, string>>,
    read: () => Promise<Array<{ key: Record<K, string>; count: number }>>,
  ): void =>
    metrics.gauge(name, help, labels, (set) =>
      fromDatabase(async () => {
        const rows = await read();
        const seen = new Set(rows.map((row) => JSON.stringify(row.key)));
        for (const key of zeros().filter((zero) => !seen.has(JSON.stringify(zero)))) {
          set(key, 0);
        }
        for (const row of rows) {
          set(row.key, row.count);
        }
      }),
    );
  const states =
    <S extends string>(values: readonly S[]) =>
    (): Array<{ state: string }> =>
      values.map((state) => ({ state }));
  counted(
    'sluice_pending_events',
    'Engine events not processed yet, by tenant and category.',
    ['tenant', 'category'],
    () => sources.tenants().flatMap((tenant) => ENGINE_EVENT_CATEGORIES.map((category) => ({ tenant, category }))),
    () => figures.pendingEvents(),
  );
  counted(
    'sluice_build_requests',
    'Build requests by state (requested, running, paused).',
    ['state'],
    states(['requested', 'running', 'paused']),
    () => figures.buildRequests(),
  );
  counted('sluice_nodes', 'Launcher nodes by state.', ['state'], states(NODE_STATES), () => figures.nodes());
  counted('sluice_nodeset_requests', 'Nodeset requests by state.', ['state'], states(NODESET_REQUEST_STATES), () =>
    figures.nodesetRequests(),
  );
  counted(
    'sluice_components_alive',
    'Components with a recent heartbeat, by kind.',
    ['kind'],
    () => ['api', 'scheduler', 'executor', 'launcher'].map((kind) => ({ kind })),
    () => figures.liveComponents(new Date(sources.now().getTime() - sources.componentExpiryMs)),
  );
  // Registered after the database gauges: its collector starts after theirs and waits for them.
  metrics.gauge('sluice_database_reachable', '1 when this scrape could read the database figures.', [], async (set) => {
    const current = reads;
    reads = [];
    await Promise.all(current);
    set({}, reachable);
    reachable = 1;
  });

  const executor = sources.executor;
  if (executor) {
    metrics.gauge('sluice_executor_slots', 'Builds this executor may run at once.', [], (set) =>
      set({}, executor.concurrency),
    );
    metrics.gauge('sluice_executor_slots_in_use', 'Builds this executor runs now.', [], (set) =>
      set({}, executor.activeCount),
    );
  }
  metrics.gauge('sluice_subscriptions_open', 'Open live subscriptions of this process, by kind.', ['kind'], (set) => {
    const stats = sources.subscribers();
    set({ kind: 'queue-events' }, stats.deltaSubscribers);
    set({ kind: 'status' }, stats.statusSubscribers);
    set({ kind: 'system-events' }, stats.systemEventSubscribers);
  });
  metrics.gauge(
    'sluice_websocket_connections',
    'Open WebSocket connections of this process, by endpoint.',
    ['endpoint'],
    (set) => {
      const open = sources.webSockets() ?? { graphql: 0, console: 0 };
      set({ endpoint: 'graphql' }, open.graphql);
      set({ endpoint: 'console-stream' }, open.console);
    },
  );
  metrics.gauge(
    'sluice_db_pool_connections',
    'Database pool connections of this process by state (used, free, pending).',
    ['state'],
    (set) => {
      const pool = poolOf(sources.knex);
      if (pool) {
        set({ state: 'used' }, pool.numUsed());
        set({ state: 'free' }, pool.numFree());
        set({ state: 'pending' }, pool.numPendingAcquires() + pool.numPendingCreates());
      }
    },
  );
  metrics.gauge('sluice_db_pool_max', 'Most connections the database pool of this process opens.', [], (set) => {
    const pool = poolOf(sources.knex);
    if (pool) {
      set({}, pool.max);
    }
  });
}
