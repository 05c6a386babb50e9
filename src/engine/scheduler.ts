/**
 * The scheduler of one tenant (spec/engine.md §2.2). It owns the tenant's pipeline state while
 * it holds the tenant's advisory lock. Each pass, in one transaction: management events,
 * result events (before triggers, they stop builds), trigger events, timers, queue passes
 * until stable, then the changed state is saved and the events are marked processed. Executor
 * and launcher calls and bus deltas happen after the commit.
 */
import type { Knex } from 'knex';
import type { Database } from '../store/database';
import { EngineEventRepository, type EngineEventRecord } from '../store/repositories/engine-events';
import type {
  DequeueEvent,
  EngineEventCategory,
  EnqueueEvent,
  ManagementEvent,
  PromoteEvent,
  ResultEvent,
  SupercedeEvent,
  TriggerEvent,
} from '../model/engine-events';
import {
  EngineStateRepository,
  type LeadershipLock,
  type TenantEngineRecord,
} from '../store/repositories/engine-state';
import { cronFireTimes, parseCron } from './cron';
import type { EngineEventBus } from './event-bus';
import type { ChangeInfo } from '../model/changes';
import type { Clock } from './ports/clock';
import type { EngineLayout, EnginePipeline } from './ports/layout';
import { applyResult, buildParams, nodeRequest, type JobLocation } from './jobs';
import { changeId } from '../model/changes';
import { type ItemState, type PipelineState, type QueueState } from '../model/pipeline-state';
import { PassContext, type EngineGateways, type EstimateCache } from './pass';
import { PipelineManager } from './pipeline/manager';
import { pipelineMatches } from './triggers';

export interface SchedulerLogger {
  error(message: string, error?: unknown): void;
}

export interface TenantSchedulerOptions {
  database: Database;
  tenant: string;
  /** The tenant's current layout (null while it is not loaded). */
  layout: () => EngineLayout | null;
  gateways: EngineGateways;
  bus: EngineEventBus;
  clock: Clock;
  /** Poll fallback when no wake-up arrives. */
  pollIntervalMs: number;
  /** Events handled per pass. */
  batchSize?: number;
  uuid?: () => string;
  logger?: SchedulerLogger;
  /** Called when a semaphore was released (global semaphores span tenants). */
  onSemaphoreReleased?: () => void;
}

/** Result of an enqueue/dequeue/promote management event, stored as the event's outcome. */
export type ManagementOutcome = { ok: true; detail: string } | { ok: false; error: string };

const MAX_EVENT_FAILURES = 3;

export class TenantScheduler {
  private readonly events: EngineEventRepository;
  private readonly stateRepo: EngineStateRepository;
  private pipelines = new Map<string, PipelineState>();
  private record: TenantEngineRecord | null = null;
  private readonly itemFingerprints = new Map<string, string>();
  private readonly pipelineFingerprints = new Map<string, string>();
  private running = false;
  private stopped = false;
  private wakeRequested = false;
  private wakeResolve: (() => void) | null = null;
  private loopPromise: Promise<void> | null = null;
  private leadership: LeadershipLock | null = null;
  private idleWaiters: Array<() => void> = [];
  private idle = false;
  private readonly failures = new Map<number, number>();
  private readonly estimates: EstimateCache = new Map();

  constructor(private readonly options: TenantSchedulerOptions) {
    this.events = new EngineEventRepository(options.database.knex);
    this.stateRepo = new EngineStateRepository(options.database.knex);
  }

  get tenant(): string {
    return this.options.tenant;
  }

  /** Try to become the tenant's scheduler; false when another process holds the lock. */
  async start(): Promise<boolean> {
    if (!(await this.acquireLeadership())) {
      return false;
    }
    await this.stateRepo.ensureTenant(this.tenant, this.options.clock.now());
    await this.loadState();
    await this.resubmitOutstandingWork();
    this.running = true;
    this.loopPromise = this.loop();
    return true;
  }

  /** Stop after the current pass; releases the leadership lock. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    if (this.loopPromise) {
      await this.loopPromise;
    }
    this.running = false;
    await this.releaseLeadership();
  }

  /** Ask for a pass soon (new events). */
  wake(): void {
    this.wakeRequested = true;
    this.idle = false;
    if (this.wakeResolve) {
      this.wakeResolve();
      this.wakeResolve = null;
    }
  }

  /** Resolves once the scheduler has nothing left to do (no pending events, queues stable). */
  whenIdle(): Promise<void> {
    if (this.idle && !this.wakeRequested) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.wakeRequested = false;
      let didWork = false;
      try {
        didWork = await this.runPass();
      } catch (error) {
        this.options.logger?.error(`scheduler pass failed for tenant ${this.tenant}`, error);
        await delay(Math.min(this.options.pollIntervalMs, 200));
        // The pass was rolled back: continue from what the store holds.
        try {
          await this.loadState();
        } catch (reloadError) {
          this.options.logger?.error(`reloading the state of tenant ${this.tenant} failed`, reloadError);
        }
        didWork = true;
      }
      if (didWork || this.wakeRequested) {
        continue;
      }
      this.idle = true;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((resolve) => resolve());
      await new Promise<void>((resolve) => {
        this.wakeResolve = resolve;
        const timer = setTimeout(resolve, this.options.pollIntervalMs);
        timer.unref?.();
      });
      this.wakeResolve = null;
    }
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  }

  // -------------------------------------------------------------------------------------------
  // Leadership and state
  // -------------------------------------------------------------------------------------------

  private async acquireLeadership(): Promise<boolean> {
    this.leadership = await this.stateRepo.acquireLeadership(this.tenant, this.options.database.kind);
    return this.leadership !== null;
  }

  private async releaseLeadership(): Promise<void> {
    const leadership = this.leadership;
    this.leadership = null;
    await leadership?.release();
  }

  private async loadState(): Promise<void> {
    const pipelines = await this.stateRepo.loadPipelines(this.tenant);
    this.pipelines = new Map(pipelines.map((pipeline) => [pipeline.name, pipeline]));
    this.record = await this.stateRepo.loadTenant(this.tenant);
    this.itemFingerprints.clear();
    this.pipelineFingerprints.clear();
    for (const pipeline of pipelines) {
      this.pipelineFingerprints.set(pipeline.name, pipelineFingerprint(pipeline));
      for (const queue of pipeline.queues) {
        for (const item of queue.items) {
          this.itemFingerprints.set(item.uuid, JSON.stringify(item));
        }
      }
    }
  }

  /** After a restart: builds without a result and open node requests are sent again (idempotent). */
  private async resubmitOutstandingWork(): Promise<void> {
    const layout = this.options.layout();
    if (!layout) {
      return;
    }
    for (const pipelineConfig of layout.pipelines) {
      const state = this.pipelines.get(pipelineConfig.name);
      for (const queue of state?.queues ?? []) {
        for (const item of queue.items) {
          for (const job of item.buildset.jobs) {
            if (job.build && job.build.result === null) {
              await this.options.gateways.executor.startBuild(buildParams(this.tenant, pipelineConfig, item, job));
              if (job.build.resumeRequested === true) {
                // The resume may not have reached the executor before the restart.
                await this.options.gateways.executor.resumeBuild(this.tenant, job.build.uuid);
              }
            } else if (!job.build && job.nodeRequestId !== null) {
              await this.options.gateways.nodes.requestNodes(
                nodeRequest(this.tenant, pipelineConfig, item, job, job.nodeRequestId),
              );
            }
          }
        }
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // One pass
  // -------------------------------------------------------------------------------------------

  private async runPass(): Promise<boolean> {
    const layout = this.options.layout();
    const record = this.record;
    if (!layout || !record) {
      return false;
    }
    const knex = this.options.database.knex;
    const now = this.options.clock.now();
    let handled: EngineEventRecord[] = [];
    let ctxOut: PassContext | null = null;
    let didWork = false;
    await knex.transaction(async (trx) => {
      const ctx = new PassContext(
        this.tenant,
        now,
        layout,
        trx,
        this.options.gateways,
        this.options.uuid,
        this.estimates,
      );
      ctxOut = ctx;
      // Event-queue flags are changed by operations; the row lock orders those writes with this pass.
      record.eventQueues = (await this.stateRepo.loadTenant(this.tenant, trx, true)).eventQueues;
      const managers = this.managers(layout);
      const reconfigured = await this.reconcileLayout(ctx, layout, managers, record);
      await this.fireTimers(ctx, layout, record);
      // Paused queues keep their events pending without taking room in the batch.
      const categories: EngineEventCategory[] = ['management'];
      if (!record.eventQueues.resultQueuePaused) {
        categories.push('result');
      }
      if (!record.eventQueues.triggerQueuePaused) {
        categories.push('trigger');
      }
      const pending = await this.events.pending(this.tenant, this.options.batchSize ?? 100, categories, trx);
      const outcomes = new Map<number, string>();
      for (const event of pending) {
        if (event.category === 'management') {
          outcomes.set(
            event.id,
            await this.guard(event, () =>
              event.valid ? this.handleManagement(ctx, managers, event.event) : invalidOutcome(event),
            ),
          );
        }
      }
      if (!record.eventQueues.resultQueuePaused) {
        const locations = this.locateJobs(managers);
        for (const event of pending) {
          if (event.category === 'result') {
            outcomes.set(
              event.id,
              await this.guard(event, () =>
                event.valid ? this.handleResult(ctx, managers, locations, event.event) : invalidOutcome(event),
              ),
            );
          }
        }
      }
      if (record.eventQueues.triggerQueueDiscarding) {
        for (const event of pending.filter((candidate) => candidate.category === 'trigger')) {
          outcomes.set(event.id, 'discarded');
        }
      } else if (!record.eventQueues.triggerQueuePaused) {
        for (const event of pending) {
          if (event.category === 'trigger') {
            outcomes.set(
              event.id,
              await this.guard(event, () =>
                event.valid ? this.handleTrigger(ctx, managers, event.event) : invalidOutcome(event),
              ),
            );
          }
        }
      }
      let changed = false;
      for (const manager of managers.values()) {
        changed = (await manager.processQueues(ctx)) || changed;
      }
      handled = pending.filter((event) => outcomes.has(event.id));
      const byOutcome = new Map<string, number[]>();
      for (const event of handled) {
        const outcome = outcomes.get(event.id) ?? 'ok';
        byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), event.id]);
      }
      for (const [outcome, ids] of byOutcome) {
        await this.events.markProcessed(ids, outcome, now, trx);
      }
      await this.save(trx, ctx, managers, record);
      didWork = handled.length > 0 || changed || reconfigured || ctx.eventsEmitted;
    });
    const ctx = ctxOut as PassContext | null;
    if (!ctx) {
      return false;
    }
    for (const event of handled) {
      this.failures.delete(event.id);
    }
    await this.afterCommit(ctx);
    return didWork;
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

  private managers(layout: EngineLayout): Map<string, PipelineManager> {
    const managers = new Map<string, PipelineManager>();
    for (const config of layout.pipelines) {
      let state = this.pipelines.get(config.name);
      if (!state) {
        state = { name: config.name, state: 'normal', disabled: false, consecutiveFailures: 0, queues: [] };
        this.pipelines.set(config.name, state);
      }
      managers.set(config.name, new PipelineManager(config, state, layout));
    }
    return managers;
  }

  private async afterCommit(ctx: PassContext): Promise<void> {
    for (const action of ctx.afterCommit) {
      try {
        await action();
      } catch (error) {
        this.options.logger?.error(`engine side effect failed for tenant ${this.tenant}`, error);
      }
    }
    const record = this.record;
    if (record) {
      let sequence = record.busSequence - ctx.deltas.length;
      for (const delta of ctx.deltas) {
        sequence += 1;
        this.options.bus.publish({ ...delta, tenant: this.tenant, sequence, at: ctx.nowIso() });
      }
    }
    if (ctx.semaphoreReleased) {
      this.options.onSemaphoreReleased?.();
    }
  }

  private async save(
    trx: Knex.Transaction,
    ctx: PassContext,
    managers: Map<string, PipelineManager>,
    record: TenantEngineRecord,
  ): Promise<void> {
    for (const manager of managers.values()) {
      const fingerprint = pipelineFingerprint(manager.state);
      if (
        fingerprint !== this.pipelineFingerprints.get(manager.name) ||
        manager.state.queues.some((queue) => queue.id === 0)
      ) {
        await this.stateRepo.savePipeline(this.tenant, manager.state, trx);
        this.pipelineFingerprints.set(manager.name, pipelineFingerprint(manager.state));
      }
    }
    const entries: Array<{ queueId: number | null; position: number; item: ItemState }> = [];
    for (const { item, queueId } of ctx.dequeued) {
      entries.push({ queueId, position: 0, item });
      this.itemFingerprints.delete(item.uuid);
    }
    for (const manager of managers.values()) {
      for (const queue of manager.state.queues) {
        for (const [position, item] of queue.items.entries()) {
          if (!ctx.touched.has(item) && this.itemFingerprints.has(item.uuid)) {
            continue;
          }
          const fingerprint = JSON.stringify(item);
          if (fingerprint === this.itemFingerprints.get(item.uuid)) {
            continue;
          }
          entries.push({ queueId: queue.id, position, item });
          this.itemFingerprints.set(item.uuid, fingerprint);
        }
      }
    }
    // Dequeued rows are written before their (dynamic) queue rows are deleted.
    await this.stateRepo.saveItems(this.tenant, entries, trx);
    await this.stateRepo.deleteQueues(ctx.deletedQueueIds, trx);
    record.busSequence += ctx.deltas.length;
    await this.stateRepo.saveTenant(this.tenant, record, ctx.now, trx);
  }

  // -------------------------------------------------------------------------------------------
  // Reconfiguration and timers
  // -------------------------------------------------------------------------------------------

  /** A new layout: drop pipelines and projects that vanished, refresh window parameters (spec §2.13). */
  private async reconcileLayout(
    ctx: PassContext,
    layout: EngineLayout,
    managers: Map<string, PipelineManager>,
    record: TenantEngineRecord,
  ): Promise<boolean> {
    if (record.layoutUuid === layout.uuid) {
      return false;
    }
    for (const [name, state] of this.pipelines) {
      if (managers.has(name)) {
        continue;
      }
      // A removed pipeline: cancel everything and forget its queues.
      const orphan = new PipelineManager(removedPipelineConfig(name), state, layout);
      for (const { queue, item } of orphan.allItems()) {
        await orphan.removeItem(ctx, queue, item, { kind: 'reconfiguration', message: `Pipeline ${name} was removed` });
      }
      await this.stateRepo.deleteQueues(
        state.queues.map((queue) => queue.id).filter((id) => id !== 0),
        ctx.trx,
      );
      this.pipelines.delete(name);
    }
    for (const manager of managers.values()) {
      // A new layout re-enables a pipeline disabled after consecutive failures (spec §2.1).
      if (record.layoutUuid !== null && (manager.state.disabled || manager.state.consecutiveFailures > 0)) {
        manager.state.disabled = false;
        manager.state.consecutiveFailures = 0;
        ctx.publish({ type: 'pipeline-state-changed', pipeline: manager.name, disabled: false });
      }
      manager.reconfigureQueues();
      for (const { queue, item } of manager.allItems()) {
        if (!layout.projects.has(item.changes[0].project)) {
          await manager.removeItem(ctx, queue, item, {
            kind: 'reconfiguration',
            message: `Project ${item.changes[0].project} is no longer in the tenant`,
          });
        }
      }
      await manager.enforceDependencyLimit(ctx);
    }
    record.layoutUuid = layout.uuid;
    record.lastReconfigured = layout.loadedAt;
    return true;
  }

  /** Timer pipelines: write one `timer` trigger event per project and fire time that passed. */
  private async fireTimers(ctx: PassContext, layout: EngineLayout, record: TenantEngineRecord): Promise<void> {
    for (const pipeline of layout.pipelines) {
      for (const trigger of pipeline.triggers) {
        if (trigger.driver !== 'timer') {
          continue;
        }
        const key = `${pipeline.name} ${trigger.time}`;
        const last = record.timerState[key];
        if (last === undefined) {
          record.timerState[key] = ctx.nowIso();
          continue;
        }
        const fired = cronFireTimes(parseCron(trigger.time), new Date(last), ctx.now, 1000);
        if (fired.length === 0) {
          continue;
        }
        record.timerState[key] = fired[fired.length - 1].toISOString();
        for (const project of layout.projects.values()) {
          if (!layout.projectInPipeline(pipeline.name, project.canonicalName)) {
            continue;
          }
          await ctx.emit({
            type: 'timer',
            project: project.canonicalName,
            pipeline: pipeline.name,
            branch: project.defaultBranch,
            ref: `refs/heads/${project.defaultBranch}`,
            timestamp: fired[fired.length - 1].toISOString(),
          });
        }
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Event handlers
  // -------------------------------------------------------------------------------------------

  private locateJobs(managers: Map<string, PipelineManager>): Map<string, JobLocation> {
    const locations = new Map<string, JobLocation>();
    for (const manager of managers.values()) {
      for (const { queue, item } of manager.allItems()) {
        for (const job of item.buildset.jobs) {
          const location = { pipeline: manager.name, queue, item, job };
          if (job.build) {
            locations.set(`build:${job.build.uuid}`, location);
          }
          if (job.nodeRequestId !== null) {
            locations.set(`nodes:${job.nodeRequestId}`, location);
          }
        }
      }
    }
    return locations;
  }

  private async handleResult(
    ctx: PassContext,
    managers: Map<string, PipelineManager>,
    locations: Map<string, JobLocation>,
    result: ResultEvent,
  ): Promise<string> {
    const key = result.type === 'nodes-provisioned' ? `nodes:${result.requestId}` : `build:${result.buildUuid}`;
    const location = locations.get(key);
    if (!location || location.item.dequeueTime !== null) {
      return 'stale';
    }
    const manager = managers.get(location.pipeline);
    if (!manager) {
      return 'stale';
    }
    if (result.type !== 'nodes-provisioned' && location.job.build?.uuid !== result.buildUuid) {
      return 'stale';
    }
    await applyResult(ctx, manager.config, location, result);
    return 'ok';
  }

  private async handleTrigger(
    ctx: PassContext,
    managers: Map<string, PipelineManager>,
    event: TriggerEvent,
  ): Promise<string> {
    const layout = ctx.layout;
    const project = resolveProject(layout, event.project);
    if (!project) {
      return 'dropped: unknown project';
    }
    if (event.type === 'project-change-merged') {
      const open = await ctx.gateways.changes.openChanges(project);
      const outcome: EntryOutcome = { entered: 0, refused: [] };
      for (const change of open) {
        const one = await this.enterPipelines(ctx, managers, event, change);
        outcome.entered += one.entered;
        outcome.refused.push(...one.refused);
      }
      return describeEntry(outcome);
    }
    const change = await this.resolveChange(ctx, project, event);
    if (!change) {
      return 'dropped: unknown change';
    }
    if (event.type === 'patchset-created') {
      for (const manager of managers.values()) {
        await manager.removeOldPatchsets(ctx, change);
      }
    }
    return describeEntry(await this.enterPipelines(ctx, managers, event, change));
  }

  /** Offer a change to every pipeline whose triggers match; refusals are kept for the event's outcome. */
  private async enterPipelines(
    ctx: PassContext,
    managers: Map<string, PipelineManager>,
    event: TriggerEvent,
    change: ChangeInfo,
  ): Promise<EntryOutcome> {
    const outcome: EntryOutcome = { entered: 0, refused: [] };
    const connection = ctx.layout.projects.get(change.project)?.connection ?? '';
    for (const manager of managers.values()) {
      if (!pipelineMatches(manager.config, event, change, connection)) {
        continue;
      }
      const imageEvent = event.type === 'image-build' || event.type === 'image-validate';
      const imageNames = imageEvent ? (event.imageNames ?? []) : null;
      const imageUploadUuid = event.type === 'image-validate' ? (event.imageUploadUuid ?? null) : null;
      const result = await manager.addChange(ctx, change, {
        live: true,
        quiet: false,
        eventId: null,
        eventTimestamp: event.timestamp ?? ctx.nowIso(),
        imageNames,
        imageUploadUuid,
      });
      if (result.enqueued) {
        outcome.entered += 1;
      } else {
        outcome.refused.push(`${manager.name}: ${result.reason}`);
      }
    }
    return outcome;
  }

  private async resolveChange(
    ctx: PassContext,
    project: string,
    spec: {
      change?: number | null;
      patchset?: string | null;
      ref?: string;
      branch?: string;
      oldrev?: string | null;
      newrev?: string | null;
    },
  ): Promise<ChangeInfo | null> {
    if (spec.change !== undefined && spec.change !== null) {
      return ctx.gateways.changes.getChange(project, spec.change, spec.patchset ?? undefined);
    }
    const ref = spec.ref ?? (spec.branch ? `refs/heads/${spec.branch}` : null);
    if (ref === null) {
      return null;
    }
    return ctx.gateways.changes.getRef(project, ref, spec.oldrev ?? null, spec.newrev ?? null);
  }

  private async handleManagement(
    ctx: PassContext,
    managers: Map<string, PipelineManager>,
    event: ManagementEvent,
  ): Promise<string> {
    if (event.type === 'reconfigure') {
      return 'ok';
    }
    const manager = managers.get(event.pipeline);
    if (!manager) {
      return 'error: unknown pipeline';
    }
    switch (event.type) {
      case 'enqueue':
        return this.handleEnqueue(ctx, manager, event);
      case 'dequeue':
        return this.handleDequeue(ctx, manager, event);
      case 'promote':
        return this.handlePromote(ctx, manager, event);
      case 'supercede':
        return this.handleSupercede(ctx, manager, event);
    }
  }

  private async handleSupercede(ctx: PassContext, manager: PipelineManager, event: SupercedeEvent): Promise<string> {
    const change = event.change;
    const found = manager
      .allItems()
      .find(
        ({ item }) =>
          item.live &&
          item.changes.some(
            (candidate) =>
              candidate.project === change.project &&
              (change.number !== null
                ? candidate.number === change.number && candidate.patchset === change.patchset
                : candidate.ref === change.ref && candidate.newrev === change.newrev),
          ),
      );
    if (!found) {
      return 'ok: nothing to supersede';
    }
    await manager.removeItem(ctx, found.queue, found.item, { kind: 'superseded', by: event.by });
    return 'ok';
  }

  private async handleEnqueue(ctx: PassContext, manager: PipelineManager, event: EnqueueEvent): Promise<string> {
    const by = event.by;
    const project = resolveProject(ctx.layout, event.project);
    if (!project) {
      return 'error: unknown project';
    }
    const change = await this.resolveChange(ctx, project, {
      change: event.change,
      patchset: event.patchset,
      ref: event.ref,
      oldrev: event.oldrev ?? null,
      newrev: event.newrev ?? null,
    });
    if (!change) {
      return 'error: unknown change';
    }
    const result = await manager.addChange(ctx, change, {
      live: true,
      quiet: false,
      eventId: null,
      eventTimestamp: ctx.nowIso(),
      ignoreRequirements: true,
    });
    if (!result.enqueued) {
      return `error: ${result.reason}`;
    }
    await ctx.systemEvent({
      eventType: 'enqueued',
      description: `${changeId(change)} of ${change.project} enqueued into ${manager.name}${by ? ` by ${by}` : ''}`,
      data: { pipeline: manager.name, project: change.project, change: changeId(change), by },
    });
    return 'ok';
  }

  private async handleDequeue(ctx: PassContext, manager: PipelineManager, event: DequeueEvent): Promise<string> {
    const by = event.by;
    const project = resolveProject(ctx.layout, event.project);
    const found = manager
      .allItems()
      .find(
        ({ item }) =>
          item.live && item.changes.some((change) => change.project === project && matchesChangeSpec(change, event)),
      );
    if (!found) {
      return 'error: change not in pipeline';
    }
    await manager.removeItem(ctx, found.queue, found.item, { kind: 'dequeued-by-admin', by });
    await ctx.systemEvent({
      eventType: 'dequeued',
      description: `${found.item.changes.map(changeId).join(' ')} of ${project ?? ''} dequeued from ${manager.name}${by ? ` by ${by}` : ''}`,
      data: { pipeline: manager.name, project, by },
    });
    return 'ok';
  }

  private async handlePromote(ctx: PassContext, manager: PipelineManager, event: PromoteEvent): Promise<string> {
    const by = event.by;
    const ids = event.changes;
    const entries: Array<{ queue: QueueState; item: ItemState }> = [];
    for (const id of ids) {
      const found = manager
        .allItems()
        .find(({ item }) => item.live && item.changes.some((change) => changeId(change) === id));
      if (!found) {
        return `error: change ${id} not in pipeline`;
      }
      entries.push(found);
    }
    const restarted = await manager.promote(ctx, entries);
    await ctx.systemEvent({
      eventType: 'promoted',
      description: `${ids.join(' ')} promoted in ${manager.name}${by ? ` by ${by}` : ''}`,
      data: { pipeline: manager.name, changes: ids, by, restarted },
    });
    return `ok: ${restarted} restarted`;
  }

  isRunning(): boolean {
    return this.running && !this.stopped;
  }
}

interface EntryOutcome {
  entered: number;
  /** `<pipeline>: <reason>` for each matching pipeline that refused the change. */
  refused: string[];
}

/** A trigger event's outcome text: how many pipelines it entered, and why others refused it. */
function describeEntry(outcome: EntryOutcome): string {
  return outcome.refused.length === 0
    ? `entered ${outcome.entered}`
    : `entered ${outcome.entered}; refused by ${outcome.refused.join('; ')}`;
}

function matchesChangeSpec(change: ChangeInfo, spec: DequeueEvent): boolean {
  if (spec.change !== undefined) {
    return change.number === spec.change && (spec.patchset === undefined || change.patchset === spec.patchset);
  }
  return spec.ref !== undefined && change.ref === spec.ref;
}

/** The outcome of an event whose payload does not validate: recorded, never retried. */
function invalidOutcome(event: { error: string }): Promise<string> {
  return Promise.resolve(`error: ${event.error}`);
}

function resolveProject(layout: EngineLayout, name: string): string | null {
  if (layout.projects.has(name)) {
    return name;
  }
  for (const project of layout.projects.values()) {
    if (project.name === name) {
      return project.canonicalName;
    }
  }
  return null;
}

function pipelineFingerprint(pipeline: PipelineState): string {
  return JSON.stringify({
    state: pipeline.state,
    disabled: pipeline.disabled,
    failures: pipeline.consecutiveFailures,
    queues: pipeline.queues.map((queue) => [
      queue.id,
      queue.name,
      queue.branch,
      queue.window,
      queue.projects,
      queue.params,
    ]),
  });
}

/** A stand-in configuration for a pipeline that left the layout (only used to cancel its items). */
function removedPipelineConfig(name: string): EnginePipeline {
  const none = { connections: [], submit: false, imageValidated: false };
  return {
    name,
    description: null,
    manager: 'independent',
    precedence: 'normal',
    triggers: [],
    window: {
      window: 0,
      floor: 1,
      ceiling: null,
      increaseType: 'linear',
      increaseFactor: 1,
      decreaseType: 'exponential',
      decreaseFactor: 2,
    },
    supercedes: [],
    dequeueOnNewPatchset: false,
    ignoreDependencies: true,
    disableAfterConsecutiveFailures: null,
    require: [],
    reject: [],
    allowOtherConnections: true,
    reporters: {
      enqueue: none,
      start: none,
      success: none,
      failure: none,
      'merge-conflict': none,
      'config-error': none,
      'no-jobs': none,
      disabled: none,
      dequeue: none,
    },
    messages: {
      success: '',
      failure: '',
      start: '',
      mergeConflict: '',
      dequeue: 'Build canceled.',
      noJobs: '',
      footer: '',
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}
