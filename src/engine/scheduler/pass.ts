/**
 * One scheduler pass (docs/gating.md#event-processing), in one transaction: reconcile a new layout, fire
 * timers, handle a batch of events (management, then results, which stop builds, then
 * triggers), run the queues until stable, mark the events processed and save what changed.
 * Executor and launcher calls and bus deltas happen after the commit; reports and merges are stored
 * as durable work (docs/gating.md#engine-work) that the tenant's work runner does after it, with
 * no transaction open.
 */
import type { Knex } from 'knex';
import type { EngineEventCategory } from '../../model/engine-events';
import type { TenantEventQueueState } from '../../model/pipeline-state';
import type { ChangeInfo } from '../../model/changes';
import type { Database } from '../../store/database';
import { EngineEventRepository, type EngineEventRecord } from '../../store/repositories/engine-events';
import { EngineStateRepository } from '../../store/repositories/engine-state';
import { EngineWorkRepository } from '../../store/repositories/engine-work';
import { handleWorkOutcome, isWorkOutcome, WORK_OUTCOME_TYPES } from '../work/outcomes';
import { prepareProposals, reloadForBranchUpdates } from '../work/branch-updates';
import { PassLookups } from '../work/lookups';
import { withdrawableBuildset } from '../work/payloads';
import { WorkRunner } from '../work/work-runner';
import type { EngineEventBus } from '../event-bus';
import { BuildIdReserve } from '../history-writer';
import { PassContext, type EngineGateways } from '../pass-context';
import type { PipelineManager } from '../pipeline/manager';
import type { Clock } from '../ports/clock';
import type { EngineLayout } from '../ports/layout';
import { untracked } from './item-changes';
import { handleManagement } from './management-events';
import { reconcileLayout } from './reconfiguration';
import { SideEffects } from './side-effects';
import { settledBy } from './settled-by';
import type { JobLocation } from '../jobs/results';
import { handleResult, locateJobs } from './result-events';
import type { TenantState } from './tenant-state';
import { fireTimers } from './timers';
import { handleTrigger } from './trigger-events';

export interface SchedulerLogger {
  error(message: string, error?: unknown): void;
}

export interface PassOptions {
  database: Database;
  tenant: string;
  /** The tenant's current layout (null while it is not loaded). */
  layout: () => EngineLayout | null;
  gateways: EngineGateways;
  bus: EngineEventBus;
  clock: Clock;
  /** Events handled per pass. */
  batchSize?: number;
  /**
   * How long (ms, on `clock`) a pass takes new events before it
   * commits what it did and leaves the rest to the next pass (docs/operations.md#takeovers-under-repeated-kills).
   */
  budgetMs?: number;
  /**
   * How long (ms, wall time) a pass waits for the work runner's round when the pass before it
   * stored merges into branches (docs/gating.md#merges-in-a-row); default `BRANCH_MERGE_WAIT_MS`.
   */
  branchMergeWaitMs?: number;
  uuid?: () => string;
  logger?: SchedulerLogger;
  /** Called when a semaphore was released (global semaphores span tenants). */
  onSemaphoreReleased?: () => void;
  /**
   * Proves inside the pass's transaction that this scheduler leads the tenant, as its first
   * statement, which then locks the tenant's state row and returns its event-queue flags; throws
   * when it does not lead (docs/operations.md#leadership-model). Without it the pass locks and
   * reads the row on its own.
   */
  fence?: (trx: Knex) => Promise<TenantEventQueueState>;
  /** Proves the lead again at a long pass's commit (the transaction holds the lease row); throws when it does not. */
  fenceAgain?: (trx: Knex) => Promise<void>;
  /** Proves the lead before a merge into a branch, outside any transaction; throws when it does not. */
  proveLead?: (knex: Knex) => Promise<void>;
  /** True when the lease is due for renewal (the pass then proves it again at its commit; default true). */
  renewDue?: () => boolean;
  /** False once the lead may have been lost: side effects after the commit are left to the new leader. */
  leading?: () => boolean;
  /** True once the scheduler is stopping (side effects are not retried then). */
  stopping?: () => boolean;
  /** The lease epoch the pass runs under (null: no leadership in use). */
  leaseEpoch?: () => number | null;
  /** Tenant web root (ending in '/') for the status `reportUrl` of status deltas. */
  webRoot?: () => string | null;
  /** The web link of a change whose stored state has none, for status deltas (as in `Engine.status`). */
  changeUrl?: (change: ChangeInfo) => string | null;
  /** Engine work completed (its outcome event waits for a pass). */
  onWorkCompleted?: () => void;
  /** Told when a pass that produced deltas committed, with its last sequence (instrumentation). */
  onCommitted?: (sequence: number) => void;
}

/** The order in which a pass handles the categories of its batch. */
const ENGINE_EVENT_CATEGORY_ORDER: readonly EngineEventCategory[] = ['management', 'result', 'trigger'];

/**
 * How long a pass takes new events by default: short enough that
 * a leader killed every few seconds still commits work (docs/operations.md#takeovers-under-repeated-kills).
 */
export const DEFAULT_PASS_BUDGET_MS = 2000;

/**
 * How long a pass waits, at most, for the merges into branches the pass before it stored: their
 * outcomes then come back to one pass instead of trickling into several small ones
 * (docs/gating.md#merges-in-a-row). Wall time: it bounds a wait for calls in flight.
 */
export const BRANCH_MERGE_WAIT_MS = 20;

/** Tries of an event whose handler throws before it is marked with an error instead of blocking the tenant. */
const MAX_EVENT_FAILURES = 3;

export class PassRunner {
  private readonly events: EngineEventRepository;
  private readonly stateRepo: EngineStateRepository;
  /** Handler failures per event id, across passes. */
  private readonly failures = new Map<number, number>();
  readonly sideEffects: SideEffects;
  /** Does the work passes store (docs/gating.md#engine-work), after their commit. */
  readonly work: WorkRunner;
  private readonly workRepo: EngineWorkRepository;
  /** Change look-ups answered before each pass (docs/gating.md#engine-work). */
  readonly lookups: PassLookups;
  /** Build ids ahead, so a pass writes its history rows together (docs/gating.md#performance). */
  private readonly buildIds = new BuildIdReserve();
  /** The last pass stored merges into branches: the next one waits for the runner's round first. */
  private branchMergesStored = false;

  constructor(
    private readonly options: PassOptions,
    private readonly state: TenantState,
  ) {
    this.sideEffects = new SideEffects(
      options.tenant,
      () => options.leading?.() !== false,
      () => options.stopping?.() === true,
      options.logger,
    );
    this.events = new EngineEventRepository(options.database.knex);
    this.stateRepo = new EngineStateRepository(options.database.knex);
    this.workRepo = new EngineWorkRepository(options.database.knex);
    this.lookups = new PassLookups(options.gateways.changes);
    const proveLead = options.proveLead;
    this.work = new WorkRunner({
      knex: options.database.knex,
      tenant: options.tenant,
      gateways: options.gateways,
      clock: options.clock,
      epoch: () => options.leaseEpoch?.() ?? null,
      leading: () => options.leading?.() !== false && options.stopping?.() !== true,
      prove: proveLead ? () => proveLead(options.database.knex) : undefined,
      onCompleted: () => options.onWorkCompleted?.(),
      logger: options.logger,
    });
  }

  /** Run one pass; true when it did anything (another pass may have work). */
  async run(): Promise<boolean> {
    const { tenant } = this.options;
    const layout = this.options.layout();
    const record = this.state.record;
    if (!layout || !record) {
      return false;
    }
    if (this.branchMergesStored) {
      this.branchMergesStored = false;
      await this.waitForBranchMerges();
    }
    try {
      // The pending events are read once, before the transaction opens, and the changes they name
      // are looked up then; the pass takes only these events (later ones wait for the next pass,
      // which their wake-up asks for). Only this scheduler marks them, in its passes, and a pass
      // commits only under the lease it proves first, so none of them can have been handled
      // meanwhile. Which queues are paused is read again inside the pass.
      const queues = record.eventQueues;
      const seen = await this.events.pending(
        tenant,
        this.options.batchSize ?? 100,
        pendingCategories(queues),
        undefined,
        // Engine work outcomes are taken while results are paused: a merge is not a build result.
        WORK_OUTCOME_TYPES,
      );
      const triggers = seen.filter((event) => event.category !== 'result');
      // A branch update that changes configuration is acted on with the new layout (docs/gating.md#speculative-layouts).
      const reloaded = await reloadForBranchUpdates(this.options.gateways.configuration, tenant, triggers);
      const current = reloaded ? (this.options.layout() ?? layout) : layout;
      await prepareProposals(this.options.gateways.configuration, tenant, seen);
      await this.lookups.prefetch(current, triggers);
      if (this.options.stopping?.() === true) {
        return false; // stopped while reading: the events wait for the next leader
      }
      return await this.runPass(current, record, { events: seen, queues });
    } finally {
      this.lookups.clear();
    }
  }

  private async runPass(
    layout: EngineLayout,
    record: NonNullable<TenantState['record']>,
    seen: { events: readonly EngineEventRecord[]; queues: TenantEventQueueState },
  ): Promise<boolean> {
    const { tenant } = this.options;
    const now = this.options.clock.now();
    await this.state.statusBaseline(layout);
    let handled: EngineEventRecord[] = [];
    let committed: PassContext | null = null;
    let didWork = false;
    let epoch: number | null = null;
    await this.options.database.knex.transaction(async (trx) => {
      // Nothing of the tenant is read or written before the lead is proven in this transaction: the
      // fence's statement proves it, then locks the tenant's row (event-queue flags are changed by
      // operations; the row lock orders those writes with this pass) and reads the flags.
      const fence = this.options.fence;
      record.eventQueues = fence ? await fence(trx) : (await this.stateRepo.loadTenant(tenant, trx, true)).eventQueues;
      epoch = this.options.leaseEpoch?.() ?? null;
      const gateways = { ...this.options.gateways, changes: this.lookups.changes };
      const ctx = new PassContext(tenant, now, layout, trx, gateways, this.options.uuid, this.buildIds);
      const deadline = now.getTime() + (this.options.budgetMs ?? DEFAULT_PASS_BUDGET_MS);
      ctx.budgetSpent = () => this.options.clock.now().getTime() >= deadline;
      committed = ctx;
      const managers = this.state.managers(layout);
      const reconfigured = await reconcileLayout(ctx, layout, managers, this.state.pipelines, record, this.stateRepo);
      await fireTimers(ctx, layout, record);
      const categories = pendingCategories(record.eventQueues);
      const pending = seen.events.filter(
        (event) => categories.includes(event.category) || WORK_OUTCOME_TYPES.includes(event.eventType),
      );
      if (categories.join() !== pendingCategories(seen.queues).join()) {
        // A queue was paused or resumed since the events were read: the next pass reads them again.
        ctx.deferred = true;
      }
      const outcomes = await this.handleEvents(ctx, managers, pending, record.eventQueues);
      let changed = false;
      for (const manager of managers.values()) {
        changed = (await manager.processQueues(ctx)) || changed;
      }
      handled = pending.filter((event) => outcomes.has(event.id));
      const management = handled.filter((event) => event.category === 'management');
      if (management.length > 0) {
        // Before the pass's status delta, which is always its last (docs/live.md#the-delta-protocol).
        ctx.publish({
          type: 'management-events-processed',
          events: management.map((event) => ({ eventId: event.id, outcome: outcomes.get(event.id) ?? 'ok' })),
        });
      }
      const withdrawn = new Set(ctx.withdrawnMerges);
      const kept = ctx.work.filter((work) => !withdrawn.has(withdrawableBuildset(work.kind, work.payload) ?? ''));
      // The work rows kept are none of those withdrawn, so the two writes are independent.
      await this.workRepo.withdrawMerges(tenant, ctx.withdrawnMerges, now, trx);
      // The pass's history rows, then its events' outcomes, work rows, system events and samples
      // in one statement: before the save, whose status delta reads the estimates
      // (docs/gating.md#performance).
      await ctx.flush([
        this.events.outcomesWrite(
          handled.map((event) => ({ id: event.id, outcome: outcomes.get(event.id) ?? 'ok' })),
          now,
        ),
        this.workRepo.createWrite(tenant, kept, now, untracked),
      ]);
      await this.state.save(trx, ctx, managers, layout);
      // Proven again at the commit when the pass took long (the lease is due for renewal): it is
      // renewed from now, so a long pass leaves its side effects a whole lease to run in
      // (docs/operations.md#leadership-model). The row stays locked from the first proof to the
      // commit, so a short pass needs no second one.
      if (this.options.renewDue?.() !== false) {
        await this.options.fenceAgain?.(trx);
      }
      didWork = handled.length > 0 || changed || reconfigured || ctx.eventsEmitted || ctx.deferred;
    });
    const ctx = committed as PassContext | null;
    if (!ctx) {
      return false;
    }
    this.state.statusCommitted();
    if (ctx.deltas.length > 0 && this.state.record) {
      this.options.onCommitted?.(this.state.record.busSequence);
    }
    for (const event of handled) {
      this.failures.delete(event.id);
    }
    // Rows of this epoch's runner claimed before the commit are skipped in memory too.
    this.work.withdraw(ctx.withdrawnMerges);
    if (ctx.work.length > 0) {
      this.work.kick();
      this.branchMergesStored = ctx.work.some((work) => work.kind === 'branch-merge');
    }
    await this.afterCommit(ctx, epoch);
    return didWork;
  }

  /**
   * Give the work runner's round (the merges into branches the last pass stored, made one after
   * the other) up to `branchMergeWaitMs` to end, so that their outcomes are taken together
   * (docs/gating.md#merges-in-a-row). A merge slower than that is taken by a later pass, as before.
   */
  private async waitForBranchMerges(): Promise<void> {
    await settledBy(this.work.settled(), Date.now() + (this.options.branchMergeWaitMs ?? BRANCH_MERGE_WAIT_MS));
  }

  /**
   * The outcome of each event handled in this pass: management events first, then results
   * (they stop builds), then triggers. Events of paused queues were not loaded; triggers are
   * discarded unread while the tenant discards them.
   */
  private async handleEvents(
    ctx: PassContext,
    managers: ReadonlyMap<string, PipelineManager>,
    pending: readonly EngineEventRecord[],
    queues: TenantEventQueueState,
  ): Promise<Map<number, string>> {
    // Where builds and node requests are, once the management events have moved items.
    let locations: ReadonlyMap<string, JobLocation> | null = null;
    const handle = (event: EngineEventRecord): Promise<string> => {
      if (!event.valid) {
        return invalidOutcome(event);
      }
      switch (event.category) {
        case 'management':
          return handleManagement(ctx, managers, event.event);
        case 'result':
          if (isWorkOutcome(event.event)) {
            return handleWorkOutcome(ctx, managers, event.event);
          }
          locations ??= locateJobs(managers);
          return handleResult(ctx, managers, locations, event.event);
        case 'trigger':
          return handleTrigger(ctx, managers, event.event);
      }
    };
    const outcomes = new Map<number, string>();
    for (const category of ENGINE_EVENT_CATEGORY_ORDER) {
      for (const event of pending.filter((candidate) => candidate.category === category)) {
        if (outcomes.size > 0 && ctx.budgetSpent()) {
          // The rest stays pending for the next pass, which runs at once.
          ctx.deferred = true;
          return outcomes;
        }
        const discard = category === 'trigger' && queues.triggerQueueDiscarding;
        outcomes.set(event.id, discard ? 'discarded' : await this.guard(event, () => handle(event)));
      }
    }
    return outcomes;
  }

  /** Run an event handler; an event failing repeatedly is marked with its error instead of blocking the tenant. */
  private async guard(event: EngineEventRecord, handler: () => Promise<string>): Promise<string> {
    const failures = this.failures.get(event.id) ?? 0;
    if (failures >= MAX_EVENT_FAILURES) {
      return `error: gave up after ${failures} failures`;
    }
    try {
      return await handler();
    } catch (error) {
      this.failures.set(event.id, failures + 1);
      throw error;
    }
  }

  /** Gateway calls in order (side-effects.ts), then the pass's deltas with their sequence numbers. */
  private async afterCommit(ctx: PassContext, epoch: number | null): Promise<void> {
    const { tenant } = this.options;
    await this.sideEffects.run(ctx.afterCommit, epoch);
    const record = this.state.record;
    if (record) {
      let sequence = record.busSequence - ctx.deltas.length;
      for (const delta of ctx.deltas) {
        sequence += 1;
        this.options.bus.publish({ ...delta, tenant, sequence, at: ctx.nowIso() });
      }
    }
    if (ctx.semaphoreReleased) {
      this.options.onSemaphoreReleased?.();
    }
  }
}

/** Paused queues keep their events pending without taking room in the batch. */
function pendingCategories(queues: TenantEventQueueState): EngineEventCategory[] {
  const categories: EngineEventCategory[] = ['management'];
  if (!queues.resultQueuePaused) {
    categories.push('result');
  }
  if (!queues.triggerQueuePaused) {
    categories.push('trigger');
  }
  return categories;
}

/** The outcome of an event whose payload does not validate: recorded, never retried. */
function invalidOutcome(event: { error: string }): Promise<string> {
  return Promise.resolve(`error: ${event.error}`);
}
