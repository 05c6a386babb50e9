/**
 * The engine's public face for the API layers and the process: one scheduler per tenant,
 * durable event intake (triggers and results), admin operations with typed results, and the
 * tenant status model read from the store.
 */
import type { Database } from '../store/database';
import { EngineEventRepository } from '../store/repositories/engine-events';
import { EngineStateRepository, type DequeuedItemRecord } from '../store/repositories/engine-state';
import { SLUICE_VERSION } from '../model/version';
import type { EngineEventBus } from './event-bus';
import { countPendingEvents } from './event-counts';
import type { Clock } from './ports/clock';
import type { EngineLayout } from './ports/layout';
import type { ResultEvent, TriggerEvent } from '../model/engine-events';
import {
  EngineOperations,
  type AutoholdInput,
  type DequeueInput,
  type EnqueueInput,
  type LiveItemLookup,
  type OperationResult,
  type PromoteInput,
  type TenantStateInput,
} from './operations';
import type { EngineGateways } from './pass-context';
import type { SchedulerLogger } from './scheduler/pass';
import { TenantScheduler } from './scheduler/tenant-scheduler';
import { computeTenantStatus, type TenantStatus } from './status';
import type { AutoholdRecord } from '../store/repositories/autohold';
import type { TenantEventQueueState } from '../model/pipeline-state';

export interface EngineOptions {
  database: Database;
  /** The current layout of a tenant (null when unknown or not loaded). */
  layouts: (tenant: string) => EngineLayout | null;
  gateways: EngineGateways;
  bus: EngineEventBus;
  clock: Clock;
  pollIntervalMs?: number;
  batchSize?: number;
  uuid?: () => string;
  logger?: SchedulerLogger;
  /** Tenant web root (ending in '/') for status `report_url`. */
  webRoot?: (tenant: string) => string | null;
  /** Told when a scheduler pass that produced deltas committed, with its last sequence (benchmarks, metrics). */
  onPassCommitted?: (tenant: string, sequence: number) => void;
  defaultHoldExpiration?: number;
}

export class Engine {
  private readonly schedulers = new Map<string, TenantScheduler>();
  /** Tenant starts in progress: `stop` waits for them, so none leaves a scheduler running. */
  private readonly starting = new Set<Promise<boolean>>();
  /** Counts stops: a start that a stop overtook does not keep its scheduler. */
  private stops = 0;
  private readonly events: EngineEventRepository;
  private readonly state: EngineStateRepository;
  private readonly operations: EngineOperations;

  constructor(private readonly options: EngineOptions) {
    this.events = new EngineEventRepository(options.database.knex);
    this.state = new EngineStateRepository(options.database.knex);
    this.operations = new EngineOperations(
      options.database.knex,
      () => options.clock.now(),
      (tenant) => this.wake(tenant),
      options.defaultHoldExpiration ?? 0,
    );
  }

  /** Start the scheduler of a tenant in this process; false when another process leads it. */
  startTenant(tenant: string): Promise<boolean> {
    const start = this.startScheduler(tenant);
    this.starting.add(start);
    const done = (): void => {
      this.starting.delete(start);
    };
    start.then(done, done);
    return start;
  }

  private async startScheduler(tenant: string): Promise<boolean> {
    const stops = this.stops;
    if (this.schedulers.has(tenant)) {
      return true;
    }
    const scheduler = new TenantScheduler({
      database: this.options.database,
      tenant,
      layout: () => this.options.layouts(tenant),
      gateways: this.options.gateways,
      bus: this.options.bus,
      clock: this.options.clock,
      pollIntervalMs: this.options.pollIntervalMs ?? 1000,
      batchSize: this.options.batchSize,
      uuid: this.options.uuid,
      logger: this.options.logger,
      onSemaphoreReleased: () => this.wakeAll(),
      webRoot: () => this.options.webRoot?.(tenant) ?? null,
      onCommitted: (sequence) => this.options.onPassCommitted?.(tenant, sequence),
    });
    if (!(await scheduler.start())) {
      return false;
    }
    if (this.stops !== stops) {
      // Stopped while this start was under way (a reconfiguration racing shutdown).
      await scheduler.stop();
      return false;
    }
    this.schedulers.set(tenant, scheduler);
    return true;
  }

  /** Stop every scheduler (each finishes its current pass), including those being started. */
  async stop(): Promise<void> {
    this.stops += 1;
    await Promise.allSettled([...this.starting]);
    const schedulers = [...this.schedulers.values()];
    this.schedulers.clear();
    for (const scheduler of schedulers) {
      await scheduler.stop();
    }
  }

  wake(tenant: string): void {
    this.schedulers.get(tenant)?.wake();
  }

  private wakeAll(): void {
    for (const scheduler of this.schedulers.values()) {
      scheduler.wake();
    }
  }

  /** Resolves when the tenant's scheduler has no pending work (tests, benchmarks). */
  async settle(tenant: string): Promise<void> {
    const scheduler = this.schedulers.get(tenant);
    if (!scheduler) {
      return;
    }
    scheduler.wake();
    await scheduler.whenIdle();
  }

  /** Record a trigger event (git connection, timers are internal) and wake the scheduler. */
  async submitTrigger(tenant: string, event: TriggerEvent): Promise<number> {
    const id = await this.events.append({ tenant, event, created: this.options.clock.now() });
    this.wake(tenant);
    return id;
  }

  /** Record a result event (executor, launcher) and wake the scheduler. */
  async submitResult(tenant: string, event: ResultEvent): Promise<number> {
    const id = await this.events.append({ tenant, event, created: this.options.clock.now() });
    this.wake(tenant);
    return id;
  }

  /** Ask for a reconfiguration pass (the scheduler picks up the new layout). */
  async reconfigure(tenant: string): Promise<number> {
    const id = await this.events.append({ tenant, event: { type: 'reconfigure' }, created: this.options.clock.now() });
    this.wake(tenant);
    return id;
  }

  enqueue(tenant: string, input: EnqueueInput): Promise<OperationResult<{ eventId: number }>> {
    return this.operations.enqueue(this.options.layouts(tenant), input);
  }

  dequeue(tenant: string, input: DequeueInput): Promise<OperationResult<{ eventId: number }>> {
    return this.operations.dequeue(this.options.layouts(tenant), this.liveLookup(tenant), input);
  }

  promote(tenant: string, input: PromoteInput): Promise<OperationResult<{ eventId: number }>> {
    return this.operations.promote(this.options.layouts(tenant), this.liveLookup(tenant), input);
  }

  createAutohold(tenant: string, input: AutoholdInput): Promise<OperationResult<AutoholdRecord>> {
    return this.operations.createAutohold(this.options.layouts(tenant), input);
  }

  listAutoholds(tenant: string, projectSuffix?: string): Promise<AutoholdRecord[]> {
    return this.operations.listAutoholds(tenant, projectSuffix);
  }

  getAutohold(tenant: string, id: string): Promise<OperationResult<AutoholdRecord>> {
    return this.operations.getAutohold(tenant, id);
  }

  deleteAutohold(tenant: string, id: string): Promise<OperationResult<true>> {
    return this.operations.deleteAutohold(tenant, id);
  }

  setTenantState(tenant: string, input: TenantStateInput): Promise<OperationResult<TenantEventQueueState>> {
    return this.operations.setTenantState(tenant, input);
  }

  /** The outcome text of a management or trigger event once processed (null while pending). */
  async eventOutcome(eventId: number): Promise<string | null> {
    const outcome = await this.events.outcome(eventId);
    return outcome?.processed ? outcome.outcome : null;
  }

  /** Items that recently left the tenant's pipelines, with their typed reasons. */
  dequeuedItems(tenant: string, options: { pipeline?: string; limit: number }): Promise<DequeuedItemRecord[]> {
    return this.state.listDequeued(tenant, options);
  }

  /** The tenant status model from the store (null for an unknown tenant). */
  async status(tenant: string): Promise<TenantStatus | null> {
    return (await this.statusSnapshot(tenant))?.status ?? null;
  }

  /**
   * The status with the delta sequence it reflects, read in one repeatable-read transaction so
   * the two agree exactly (docs/live.md#building-a-live-view); null for an unknown tenant.
   */
  async statusSnapshot(tenant: string): Promise<{ status: TenantStatus; sequence: number; producedAt: number } | null> {
    const layout = this.options.layouts(tenant);
    if (!layout) {
      return null;
    }
    const { states, record, pending } = await this.options.database.knex.transaction(
      async (trx) => {
        const pipelines = await this.state.loadPipelines(tenant, trx);
        const tenantRecord = await this.state.loadTenant(tenant, trx);
        return { states: pipelines, record: tenantRecord, pending: await this.events.pendingRouting(tenant, trx) };
      },
      { isolationLevel: 'repeatable read' },
    );
    const counts = countPendingEvents(layout, states, pending);
    const now = this.options.clock.now();
    const status = computeTenantStatus({
      tenant,
      version: SLUICE_VERSION,
      now,
      webRoot: this.options.webRoot?.(tenant) ?? null,
      pipelines: layout.pipelines,
      states,
      eventQueues: record.eventQueues,
      pendingEvents: counts.tenant,
      pipelineEvents: counts.pipelines,
      lastReconfigured: record.lastReconfigured,
    });
    return { status, sequence: record.busSequence, producedAt: now.getTime() };
  }

  private liveLookup(tenant: string): LiveItemLookup {
    return {
      hasLiveChange: async (pipeline, project, change) => {
        const states = await this.state.loadPipelines(tenant);
        const state = states.find((candidate) => candidate.name === pipeline);
        return (state?.queues ?? []).some((queue) =>
          queue.items.some(
            (item) =>
              item.live &&
              item.changes.some((candidate) => {
                if (project !== null && candidate.project !== project) {
                  return false;
                }
                if ('ref' in change) {
                  return candidate.ref === change.ref;
                }
                return (
                  candidate.number === change.number &&
                  (change.patchset === null || candidate.patchset === change.patchset)
                );
              }),
          ),
        );
      },
    };
  }
}
