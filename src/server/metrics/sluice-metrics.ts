/**
 * The metrics of one process (docs/operations.md#metrics), in a prom-client registry of its own
 * (several servers in one process, as in tests, do not share series). Counters and histograms
 * are fed by what happens in this process: engine deltas of the schedulers it leads, builds its
 * executor finished, HTTP requests it answered, lost builds it reclaimed. Gauges are read at
 * scrape time: from the database (the same for every process: aggregate with `max`) and from
 * this process (executor slots, subscriptions, WebSocket connections, database pool, leadership).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EngineDelta } from '../../engine/event-bus';
import type { BuildCompletedPayload } from '../../model/build-request';

const BUILD_DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200];
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class SluiceMetrics {
  readonly registry = new Registry();
  readonly itemsEnqueued: Counter<'tenant' | 'pipeline'>;
  readonly itemsDequeued: Counter<'tenant' | 'pipeline' | 'reason'>;
  readonly buildsCompleted: Counter<'tenant' | 'pipeline' | 'job' | 'result'>;
  readonly buildDuration: Histogram<'tenant' | 'job' | 'result'>;
  readonly lostBuilds: Counter<'tenant'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly leadership: Gauge<'tenant'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.itemsEnqueued = new Counter({
      name: 'sluice_items_enqueued_total',
      help: 'Items that entered a pipeline (schedulers of this process).',
      labelNames: ['tenant', 'pipeline'],
      registers,
    });
    this.itemsDequeued = new Counter({
      name: 'sluice_items_dequeued_total',
      help: 'Items that left a pipeline, by reason (reported, dequeued-by-admin, superseded, ...).',
      labelNames: ['tenant', 'pipeline', 'reason'],
      registers,
    });
    this.buildsCompleted = new Counter({
      name: 'sluice_builds_completed_total',
      help: 'Build results as the engine recorded them (RETRY included), by job.',
      labelNames: ['tenant', 'pipeline', 'job', 'result'],
      registers,
    });
    this.buildDuration = new Histogram({
      name: 'sluice_build_duration_seconds',
      help: 'Duration of the builds this process executed, from start to end, by job and executor result.',
      labelNames: ['tenant', 'job', 'result'],
      buckets: BUILD_DURATION_BUCKETS,
      registers,
    });
    this.lostBuilds = new Counter({
      name: 'sluice_lost_builds_total',
      help: 'Builds of dead executors this process ended ABORTED (docs/operations.md#lost-work).',
      labelNames: ['tenant'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'sluice_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    this.leadership = new Gauge({
      name: 'sluice_scheduler_leader',
      help: "1 while this process leads the tenant's scheduler, 0 when another process does.",
      labelNames: ['tenant'],
      registers,
    });
  }

  /** Count an engine delta this process's schedulers published. */
  observeDelta(delta: EngineDelta): void {
    if (delta.type === 'item-enqueued') {
      this.itemsEnqueued.inc({ tenant: delta.tenant, pipeline: delta.pipeline });
    } else if (delta.type === 'item-dequeued') {
      this.itemsDequeued.inc({ tenant: delta.tenant, pipeline: delta.pipeline, reason: delta.reason.kind });
    } else if (delta.type === 'job-completed') {
      this.buildsCompleted.inc({
        tenant: delta.tenant,
        pipeline: delta.pipeline,
        job: delta.job,
        result: delta.result,
      });
    }
  }

  /** Record a build this process's executor finished. */
  observeBuild(payload: BuildCompletedPayload): void {
    if (payload.startTime === null) {
      return;
    }
    const seconds = (Date.parse(payload.endTime) - Date.parse(payload.startTime)) / 1000;
    if (Number.isFinite(seconds) && seconds >= 0) {
      this.buildDuration.observe({ tenant: payload.tenant, job: payload.jobName, result: payload.result }, seconds);
    }
  }

  /** The leadership setter: the scheduler calls it when it takes or loses a tenant's lead. */
  setLeadership(tenant: string, held: boolean): void {
    this.leadership.set({ tenant }, held ? 1 : 0);
  }

  /** A gauge whose values are read at each scrape (`read` sets them on a reset gauge). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: (set: (labels: Record<L, string>, value: number) => void) => void | Promise<void>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const values: Array<[Record<L, string>, number]> = [];
        await read((labels, value) => values.push([labels, value]));
        // Reset after reading: series that disappeared (a deleted queue) are dropped.
        this.reset();
        for (const [labels, value] of values) {
          if (labelNames.length === 0) {
            this.set(value);
          } else {
            this.set(labels as Partial<Record<L, string | number>>, value);
          }
        }
      },
    });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
