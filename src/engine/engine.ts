/**
 * The engine's public face for the API layers and the process: one scheduler per tenant,
 * durable event intake (triggers and results), admin operations with typed results, and the
 * tenant status model read from the store.
 */
import type { Knex } from 'knex';
import type { Database } from '../store/database';
import { EngineEventRepository } from '../store/repositories/engine-events';
import type { ChangeInfo } from '../model/changes';
import { EngineStateRepository, type DequeuedItemRecord } from '../store/repositories/engine-state';
import { SLUICE_VERSION } from '../model/version';
import type { EngineEventBus } from './event-bus';
import { countPendingEvents } from './event-counts';
import type { Clock } from './ports/clock';
import { projectName, type EngineLayout } from './ports/layout';
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
import { withChangeLinks, type ChangeLink } from './change-links';
import type { EngineGateways } from './pass-context';
import type { SchedulerLogger } from './scheduler/pass';
import { DEFAULT_LEASE_TTL_MS, type LeadershipSettings } from './scheduler/leadership';
import { TenantScheduler, type LeadershipChange } from './scheduler/tenant-scheduler';
import { computeTenantStatus, type TenantStatus } from './status';
import { StatusInputLoader } from './status-inputs';
import type { AutoholdRecord } from '../store/repositories/autohold';
import type { QuarantineEntry } from '../store/repositories/quarantine';
import { QuarantineOperations, type QuarantineInput } from './quarantine';
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
  /** How long a pass takes new work before it commits (docs/operations.md#takeovers-under-repeated-kills); default 2 s. */
  passBudgetMs?: number;
  /** How long a pass waits for the branch merges the pass before stored (docs/gating.md#merges-in-a-row); default 20 ms. */
  branchMergeWaitMs?: number;
  uuid?: () => string;
  logger?: SchedulerLogger;
  /** Tenant web root (ending in '/') for status `report_url`. */
  webRoot?: (tenant: string) => string | null;
  /** Told when a scheduler pass that produced deltas committed, with its last sequence (benchmarks, metrics). */
  onPassCommitted?: (tenant: string, sequence: number) => void;
  /** Web link of a change (docs/configuration.md#ref-url-templates); changes keep their source's `url` without it. */
  changeLink?: ChangeLink;
  defaultHoldExpiration?: number;
  /** Lease timings of tenant leadership (docs/operations.md#leadership-model); `ttlMs` defaults to 15 s. */
  leadership?: Partial<LeadershipSettings>;
  /** Told when this process takes or loses the lead of a tenant. */
  onLeadershipChange?: (change: LeadershipChange) => void;
  /** Warnings (a lost lead); errors go to `logger`. */
  warn?: (message: string) => void;
  /**
   * Wake the tenant's leading scheduler in another process (over the event bus,
   * src/server/wake-signals.ts): called after an event of the tenant was committed when no
   * scheduler of this process leads the tenant (docs/operations.md#wake-ups).
   */
  wakeElsewhere?: (tenant: string) => void;
}

/** Whether this process leads a tenant (health, metrics). */
export interface TenantLeadershipState {
  tenant: string;
  leading: boolean;
  /** The lease epoch while leading. */
  epoch: number | null;
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
  private readonly quarantine: QuarantineOperations;
  /** What status reads need from the store, the parsed pipeline state kept while no pass writes. */
  private readonly statusInputs: StatusInputLoader;

  constructor(private readonly options: EngineOptions) {
    this.events = new EngineEventRepository(options.database.knex);
    this.state = new EngineStateRepository(options.database.knex);
    this.operations = new EngineOperations(
      options.database.knex,
      () => options.clock.now(),
      (tenant) => this.wake(tenant),
      options.defaultHoldExpiration ?? 0,
    );
    this.quarantine = new QuarantineOperations(options.database.knex, () => options.clock.now());
    this.statusInputs = new StatusInputLoader(options.database.knex);
  }

  /**
   * Start the scheduler of a tenant in this process: true when it leads the tenant now, false
   * when another process does (it stands by then and takes over when that lead ends).
   */
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
    const existing = this.schedulers.get(tenant);
    if (existing) {
      return existing.isLeading();
    }
    const scheduler = new TenantScheduler({
      database: this.options.database,
      tenant,
      layout: () => this.options.layouts(tenant),
      gateways: this.tenantGateways(tenant),
      bus: this.options.bus,
      clock: this.options.clock,
      pollIntervalMs: this.options.pollIntervalMs ?? 1000,
      batchSize: this.options.batchSize,
      budgetMs: this.options.passBudgetMs,
      branchMergeWaitMs: this.options.branchMergeWaitMs,
      uuid: this.options.uuid,
      logger: this.options.logger,
      onSemaphoreReleased: () => this.wakeAll(),
      webRoot: () => this.options.webRoot?.(tenant) ?? null,
      onCommitted: (sequence) => this.options.onPassCommitted?.(tenant, sequence),
      changeUrl: this.changeUrl(tenant),
      leadership: { ttlMs: DEFAULT_LEASE_TTL_MS, ...this.options.leadership },
      onLeadershipChange: this.options.onLeadershipChange,
      warn: this.options.warn,
    });
    const leading = await scheduler.start();
    if (this.stops !== stops || this.schedulers.has(tenant)) {
      // Stopped while this start was under way (a reconfiguration racing shutdown), or started twice at once.
      await scheduler.stop();
      return this.stops === stops && (this.schedulers.get(tenant)?.isLeading() ?? false);
    }
    this.schedulers.set(tenant, scheduler);
    return leading;
  }

  /** The tenants whose schedulers run in this process, leading or standing by. */
  leadership(): TenantLeadershipState[] {
    return [...this.schedulers.values()].map((scheduler) => ({
      tenant: scheduler.tenant,
      leading: scheduler.isLeading(),
      epoch: scheduler.epoch,
    }));
  }

  /** The web link of a tenant's changes whose stored state has none. */
  private changeUrl(tenant: string): ((change: ChangeInfo) => string | null) | undefined {
    const link = this.options.changeLink;
    return link === undefined ? undefined : (change) => link(tenant, change);
  }

  /** The gateways of a tenant's scheduler: its changes carry their web links. */
  private tenantGateways(tenant: string): EngineGateways {
    const link = this.options.changeLink;
    const { gateways } = this.options;
    return link === undefined
      ? gateways
      : { ...gateways, changes: withChangeLinks(gateways.changes, (change) => link(tenant, change)) };
  }

  /**
   * Stop every scheduler, including those being started: each finishes its current pass and
   * engine work call, or leaves them at `until` (epoch ms; docs/operations.md#shutdown).
   */
  async stop(until?: number): Promise<void> {
    this.stops += 1;
    await Promise.allSettled([...this.starting]);
    const schedulers = [...this.schedulers.values()];
    this.schedulers.clear();
    await Promise.all(schedulers.map((scheduler) => scheduler.stop(until)));
  }

  /**
   * An event of the tenant was committed: wake its scheduler here, or the leading one in another
   * process when none here leads it (`wakeElsewhere`).
   */
  wake(tenant: string): void {
    const scheduler = this.schedulers.get(tenant);
    scheduler?.wake();
    if (!scheduler?.isLeading()) {
      this.options.wakeElsewhere?.(tenant);
    }
  }

  /** Wake this process's scheduler of the tenant only (a wake-up received from another process). */
  wakeHere(tenant: string): void {
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
    do {
      scheduler.wake();
      await scheduler.whenIdle();
      // Engine work a pass stored brings its outcome back as an event for another pass.
    } while (!(await scheduler.workSettled()));
  }

  /**
   * Wait until the tenant's scheduler has taken every pending event, without waiting for engine
   * work: a merge that hangs (a test holding it) leaves this resolving where `settle` would not.
   */
  async settlePasses(tenant: string): Promise<void> {
    const scheduler = this.schedulers.get(tenant);
    scheduler?.wake();
    await scheduler?.whenIdle();
  }

  /** Record a trigger event (git connection, timers are internal) and wake the scheduler. */
  async submitTrigger(tenant: string, event: TriggerEvent): Promise<number> {
    const id = await this.events.append({ tenant, event, created: this.options.clock.now() });
    this.wake(tenant);
    return id;
  }

  /**
   * Record a trigger event inside the caller's transaction (`trx`), without waking the scheduler:
   * the caller wakes it with `wake(tenant)` once the transaction has committed (a webhook
   * delivery and the events made of it are written together; docs/github.md#webhooks).
   */
  async recordTrigger(tenant: string, event: TriggerEvent, trx: Knex): Promise<number> {
    return this.events.append({ tenant, event, created: this.options.clock.now() }, trx);
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

  /** The tenant's quarantine list (docs/analytics.md#quarantine). */
  listQuarantine(tenant: string): Promise<QuarantineEntry[]> {
    return this.quarantine.list(tenant);
  }

  quarantineJob(tenant: string, input: QuarantineInput): Promise<OperationResult<QuarantineEntry>> {
    return this.quarantine.add(this.options.layouts(tenant), input);
  }

  releaseJob(tenant: string, input: Omit<QuarantineInput, 'reason'>): Promise<OperationResult<QuarantineEntry>> {
    return this.quarantine.remove(this.options.layouts(tenant), input);
  }

  setTenantState(tenant: string, input: TenantStateInput): Promise<OperationResult<TenantEventQueueState>> {
    return this.operations.setTenantState(this.options.layouts(tenant), input);
  }

  /** The outcome text of a management or trigger event once processed (null while pending). */
  async eventOutcome(eventId: number): Promise<string | null> {
    const outcome = await this.events.outcome(eventId);
    return outcome?.processed ? outcome.outcome : null;
  }

  /**
   * What became of a tenant's management event: `processed` false while it waits, then its
   * outcome (`ok` or `error: <reason>`); null when the tenant has no event with that id.
   */
  managementEventOutcome(
    tenant: string,
    eventId: number,
  ): Promise<{ processed: boolean; outcome: string | null } | null> {
    return this.events.outcome(eventId, undefined, tenant);
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
    const { states, record, pending, estimates } = await this.statusInputs.load(tenant);
    const now = this.options.clock.now();
    const counts = countPendingEvents(layout, states, pending, now);
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
      projectName: (canonicalName) => projectName(layout, canonicalName),
      changeUrl: this.changeUrl(tenant),
      estimatedTime: estimates.estimatedTime,
      estimates,
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
