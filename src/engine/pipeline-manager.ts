/**
 * One pipeline's manager (spec/engine.md §2.3–§2.7, §2.11–§2.12): enqueue with dependencies,
 * queue selection per manager kind, the queue pass with NNFI re-parenting and resets, item
 * preparation (speculative merge, job graph), reporting with merge-on-success and windows, and
 * the ways an item leaves the pipeline.
 */
import type { SerialChange } from '../model/engine-events';
import type { BuildsetResult } from '../model/results';
import type { ChangeInfo, MergeItem } from '../model/changes';
import type { EngineLayout, EnginePipeline, EngineProject } from './ports/layout';
import { countDependencies, pipelineLimitExceeded, tooManyDependencies } from './dependencies';
import {
  allItemsBehind,
  allJobsComplete,
  didAllJobsSucceed,
  findItem,
  hasAnyJobFailed,
  itemsAhead,
  itemsBehind,
} from './item-predicates';
import { cancelJobs, executeJobs, historyRef, historyRefOf, resumePausedBuilds } from './jobs';
import { changeId, sameChange } from '../model/changes';
import { describeTrigger } from './report-text';
import {
  type BuildsetState,
  type DequeueReason,
  type ItemState,
  type PipelineState,
  type QueueState,
} from '../model/pipeline-state';
import type { PassContext } from './pass';
import { formatNonEnqueuedReport, formatReport, type ReportAction } from './report-text';
import { foreignConnection, hasRequirements, unmetRequirement } from './requirements';
import { decreasedWindow, increasedWindow, insideWindow } from './window';

export interface AddChangeOptions {
  live: boolean;
  quiet: boolean;
  eventId: string | null;
  eventTimestamp: string | null;
  /** Images an `image-build` trigger event asks for (only their build jobs run). */
  imageNames?: string[] | null;
  /** The upload an `image-validate` trigger event asks to validate. */
  imageUploadUuid?: string | null;
  enqueueTime?: string;
  /** Changes already being enqueued in this recursion (cycle guard). */
  history?: ChangeInfo[];
  /** Admin enqueue: the pipeline's require/reject do not apply (spec §2.12). */
  ignoreRequirements?: boolean;
  forcedQueue?: QueueState;
}

export type AddChangeResult = { enqueued: true; item: ItemState | null } | { enqueued: false; reason: string };

/** Upper bound of processQueue repetitions in one pass (a safety net against oscillation). */
const MAX_QUEUE_PASSES = 50;

export class PipelineManager {
  constructor(
    readonly config: EnginePipeline,
    readonly state: PipelineState,
    private readonly layout: EngineLayout,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Every live and non-live item of the pipeline, queue by queue. */
  allItems(): Array<{ queue: QueueState; item: ItemState }> {
    return this.state.queues.flatMap((queue) => queue.items.map((item) => ({ queue, item })));
  }

  /** The live item holding this change (or ref update), if any. */
  findLiveItem(change: ChangeInfo): { queue: QueueState; item: ItemState } | null {
    return (
      this.allItems().find(
        ({ item }) => item.live && item.changes.some((candidate) => sameChange(candidate, change)),
      ) ?? null
    );
  }

  // -------------------------------------------------------------------------------------------
  // Enqueue
  // -------------------------------------------------------------------------------------------

  /** Enqueue a change and, unless ignored, the changes it needs (spec §2.4). */
  async addChange(ctx: PassContext, change: ChangeInfo, options: AddChangeOptions): Promise<AddChangeResult> {
    const live = options.live ? this.findLiveItem(change) : null;
    // Image events for other images or uploads get their own item, even while one for the branch is queued.
    if (live && imageRequestKey(live.item) === imageRequestKey(options)) {
      return { enqueued: true, item: null };
    }
    const project = this.layout.projects.get(change.project);
    if (!project) {
      return { enqueued: false, reason: `Unknown project ${change.project}` };
    }
    // Applies to dependencies and admin enqueues alike (spec §2.4 step 2).
    const foreign = foreignConnection(this.config, project.connection, change);
    if (foreign !== null) {
      return { enqueued: false, reason: foreign };
    }
    const history = options.history ?? [];
    const cycleStart = history.findIndex((seen) => sameChange(seen, change));
    if (cycleStart >= 0) {
      const cycle = await this.refuseCycle(ctx, history.slice(cycleStart), options);
      return { enqueued: false, reason: cycle };
    }
    const needs = await this.neededChanges(ctx, change);
    if (!options.ignoreRequirements) {
      // Requirements apply to dependencies too: an unready dependency blocks the change (spec §2.4).
      const unmet = unmetRequirement(this.config, project.connection, change);
      if (unmet !== null) {
        return { enqueued: false, reason: unmet };
      }
    }
    const limits = this.layout.limits;
    if (limits.maxDependencies !== null && history.length === 0 && needs.length > 0) {
      // Dependencies enqueued below see a part of this graph: counting it once at the top is enough.
      const tooMany = tooManyDependencies(
        change,
        await countDependencies(ctx.gateways.changes, change, limits.maxDependencies),
        limits.maxDependencies,
      );
      if (tooMany !== null) {
        return { enqueued: false, reason: tooMany };
      }
    }
    // The changes whose enqueue is in progress above this one count too (spec §2.4 step 9).
    const overLimit = pipelineLimitExceeded(this.name, this.state, 1 + history.length, limits.maxChangesPerPipeline);
    if (overLimit !== null) {
      await this.reportNonEnqueued(ctx, change, options, overLimit);
      return { enqueued: false, reason: overLimit };
    }
    const queue = options.forcedQueue ?? this.getChangeQueue(change, project);
    for (const needed of needs) {
      if (queue.items.some((item) => item.changes.some((candidate) => sameChange(candidate, needed)))) {
        continue;
      }
      if (this.config.manager !== 'independent') {
        const neededProject = this.layout.projects.get(needed.project);
        const elsewhere = this.allItems().some(
          (entry) => entry.queue !== queue && entry.item.changes.some((candidate) => sameChange(candidate, needed)),
        );
        if (!neededProject || elsewhere || !this.wouldShareQueue(queue, neededProject, needed.branch)) {
          return {
            enqueued: false,
            reason: `Change ${changeId(needed)} in project ${needed.project} does not share a change queue with ${changeId(change)} in project ${change.project}`,
          };
        }
      }
      const live = this.config.manager !== 'independent';
      const added = await this.addChange(ctx, needed, {
        ...options,
        live,
        quiet: true,
        history: [...history, change],
        forcedQueue: queue,
      });
      if (!added.enqueued) {
        return added;
      }
    }
    if (!queue.projects.includes(project.canonicalName)) {
      queue.projects.push(project.canonicalName);
    }
    const already = queue.items.find((item) => item.changes.some((candidate) => sameChange(candidate, change)));
    if (already) {
      if (options.live && !already.live) {
        already.live = true;
        ctx.touch(already);
      }
      return { enqueued: true, item: already };
    }
    if (!this.state.queues.includes(queue)) {
      this.state.queues.push(queue);
    }
    const item = this.createItem(ctx, queue, change, options);
    queue.items.push(item);
    ctx.touch(item);
    ctx.publish({
      type: 'item-enqueued',
      pipeline: this.name,
      queue: queue.name,
      itemUuid: item.uuid,
      changeIds: item.changes.map(changeId),
      live: item.live,
    });
    if (this.config.manager === 'dependent') {
      await this.enqueueChangesBehind(ctx, change, queue, options, history);
    }
    await this.afterEnqueue(ctx, change);
    return { enqueued: true, item };
  }

  /**
   * A dependency cycle (the change was reached again while its own dependencies were being
   * enqueued). The reference enqueues a cycle as one item when every member's queue allows
   * circular dependencies; Sluice does not implement cycles and refuses them either way, with
   * the reference's message when the queue does not allow them. The refusal is reported like
   * any non-enqueued change.
   */
  private async refuseCycle(ctx: PassContext, cycle: ChangeInfo[], options: AddChangeOptions): Promise<string> {
    const members = cycle.map((member) => `${changeId(member)} of ${member.project}`).join(', ');
    const forbidding = cycle
      .map((member) => this.layout.projects.get(member.project))
      .find((project) => project !== undefined && !project.queueAllowsCycles);
    const reason = forbidding
      ? `Dependency cycle detected and project ${forbidding.name} doesn't allow circular dependencies (cycle: ${members})`
      : `Dependency cycle detected (cycle: ${members}); Sluice does not support dependency cycles yet, although the queue allows circular dependencies`;
    // The first member is the change whose enqueue was asked for.
    await this.reportNonEnqueued(ctx, cycle[0], { ...options, live: true }, reason);
    return reason;
  }

  /**
   * Dependent pipelines: open changes that depend (Depends-On) on a change just enqueued, in
   * projects that would share its queue, enter right behind it (spec §2.4 step 13). Changes
   * whose enqueue is already in progress further up (they brought this one in) are skipped; a
   * refusal of one of them does not affect the change itself.
   */
  private async enqueueChangesBehind(
    ctx: PassContext,
    change: ChangeInfo,
    queue: QueueState,
    options: AddChangeOptions,
    history: ChangeInfo[],
  ): Promise<void> {
    if (change.kind !== 'change') {
      return;
    }
    const projects = [...this.layout.projects.values()].filter((project) =>
      this.wouldShareQueue(queue, project, queue.branch ?? change.branch),
    );
    const children = await ctx.gateways.changes.changesDependingOn(
      change,
      projects.map((project) => project.canonicalName),
    );
    for (const child of children) {
      const project = this.layout.projects.get(child.project);
      if (
        !project ||
        child.merged ||
        history.some((seen) => sameChange(seen, child)) ||
        !this.wouldShareQueue(queue, project, child.branch)
      ) {
        continue;
      }
      await this.addChange(ctx, child, {
        live: true,
        quiet: options.quiet,
        eventId: options.eventId,
        eventTimestamp: options.eventTimestamp,
        enqueueTime: options.enqueueTime,
        ignoreRequirements: options.ignoreRequirements,
        history,
        forcedQueue: queue,
      });
    }
  }

  /**
   * A change that could not be enqueued is reported failed with the reason as a warning
   * (spec §2.4 `_reportNonEnqueuedItem`): a FAILURE buildset row without builds, written only
   * when the project takes part in the pipeline so that unrelated pipelines do not spam it.
   */
  private async reportNonEnqueued(
    ctx: PassContext,
    change: ChangeInfo,
    options: AddChangeOptions,
    reason: string,
  ): Promise<void> {
    if (!options.live || !this.layout.projectInPipeline(this.name, change.project)) {
      return;
    }
    const created = await ctx.history.createBuildset({
      uuid: ctx.uuid(),
      tenant: ctx.tenant,
      pipeline: this.name,
      eventId: options.eventId,
      eventTimestamp: options.eventTimestamp === null ? null : new Date(options.eventTimestamp),
      refs: [historyRefOf(change)],
      triggeredBy: `Triggered by ${describeTrigger(change)}`,
      at: ctx.now,
    });
    await ctx.history.finishBuildset(created.id, {
      result: 'FAILURE',
      message: formatNonEnqueuedReport(this.config, reason),
      at: ctx.now,
    });
  }

  private createItem(ctx: PassContext, queue: QueueState, change: ChangeInfo, options: AddChangeOptions): ItemState {
    const tail = queue.items.length > 0 ? queue.items[queue.items.length - 1] : null;
    return {
      uuid: ctx.uuid(),
      pipeline: this.name,
      queueName: queue.name,
      changes: [change],
      live: options.live,
      active: false,
      quiet: options.quiet,
      itemAhead: tail?.uuid ?? null,
      enqueueTime: options.enqueueTime ?? ctx.nowIso(),
      eventId: options.eventId,
      eventTimestamp: options.eventTimestamp,
      imageNames: options.imageNames ?? null,
      imageUploadUuid: options.imageUploadUuid ?? null,
      triggeredBy: `Triggered by ${describeTrigger(change)}`,
      reportedStart: false,
      reported: false,
      dequeuedNeedingChange: null,
      dequeuedMissingRequirements: null,
      ...(options.ignoreRequirements ? { requirementsIgnored: true } : {}),
      failingReasons: [],
      firstJobStartTime: null,
      buildset: newBuildset(ctx),
      dequeueTime: null,
      dequeueReason: null,
    };
  }

  /** Unmerged changes named by Depends-On (only numbered changes have dependencies). */
  private async neededChanges(ctx: PassContext, change: ChangeInfo): Promise<ChangeInfo[]> {
    if (change.kind !== 'change' || this.config.ignoreDependencies) {
      return [];
    }
    const needs: ChangeInfo[] = [];
    for (const dependency of change.dependsOn) {
      const needed = await ctx.gateways.changes.getChange(dependency.project, dependency.number);
      if (needed && !needed.merged) {
        needs.push(needed);
      }
    }
    return needs;
  }

  /** zuul-driver `parent-change-enqueued` and the `supercedes` option (spec §2.4 steps 14–15). */
  private async afterEnqueue(ctx: PassContext, change: ChangeInfo): Promise<void> {
    if (change.kind === 'change' && pipelinesListen(this.layout, 'parent-change-enqueued')) {
      const children = await ctx.gateways.changes.changesDependingOn(change, [...this.layout.projects.keys()]);
      for (const child of children) {
        await ctx.emit({
          type: 'parent-change-enqueued',
          project: child.project,
          change: child.number,
          patchset: child.patchset,
          parentPipeline: this.name,
        });
      }
    }
    for (const target of this.config.supercedes) {
      await ctx.emit({ type: 'supercede', pipeline: target, change: serialChange(change), by: this.name });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Queues
  // -------------------------------------------------------------------------------------------

  /** Whether a change of this project would land in `queue` (it serves the project, or it is the project's named queue). */
  private wouldShareQueue(queue: QueueState, project: EngineProject, branch: string | null): boolean {
    if (this.queueServes(queue, project, branch)) {
      return true;
    }
    return (
      project.queueName !== null &&
      project.queueName === queue.name &&
      (queue.branch === null || queue.branch === branch)
    );
  }

  private queueServes(queue: QueueState, project: EngineProject, branch: string | null): boolean {
    return queue.projects.includes(project.canonicalName) && (queue.branch === null || queue.branch === branch);
  }

  /** The existing queue a change maps to (no creation). */
  private lookupQueue(change: ChangeInfo, project: EngineProject): QueueState | null {
    return this.state.queues.find((queue) => this.queueServes(queue, project, change.branch)) ?? null;
  }

  /** Queue lookup per manager (spec §2.3 `getChangeQueue`), creating queues lazily. */
  getChangeQueue(change: ChangeInfo, project: EngineProject): QueueState {
    const manager = this.config.manager;
    if (manager === 'independent') {
      return this.newQueue(project.name, null, [project.canonicalName], true, 0);
    }
    if (manager === 'supercedent') {
      const key = change.kind === 'branch' || change.kind === 'change' ? change.branch : change.ref;
      const found = this.state.queues.find((queue) => {
        const last = queue.items[queue.items.length - 1];
        if (!last) {
          return false;
        }
        const lastChange = last.changes[0];
        const lastKey =
          lastChange.kind === 'branch' || lastChange.kind === 'change' ? lastChange.branch : lastChange.ref;
        return lastChange.project === change.project && lastKey === key;
      });
      return found ?? this.newQueue(project.name, change.branch, [project.canonicalName], true, 1);
    }
    const existing = this.lookupQueue(change, project);
    if (existing) {
      return existing;
    }
    const window = manager === 'serial' ? 1 : this.config.window.window;
    if (project.queueName !== null) {
      const branch = project.queuePerBranch ? change.branch : null;
      const named = this.state.queues.find((queue) => queue.name === project.queueName && queue.branch === branch);
      if (named) {
        named.projects.push(project.canonicalName);
        return named;
      }
      return this.newQueue(project.queueName, branch, [project.canonicalName], false, window);
    }
    return this.newQueue(project.name, null, [project.canonicalName], false, window);
  }

  private newQueue(
    name: string,
    branch: string | null,
    projects: string[],
    dynamic: boolean,
    window: number,
  ): QueueState {
    const fixed = window === 1 && this.config.manager !== 'dependent';
    const params = fixed
      ? { ...this.config.window, window: 1, floor: 1, ceiling: 1 }
      : this.config.manager === 'independent'
        ? { ...this.config.window, window: 0 }
        : this.config.window;
    return { id: 0, name, branch, projects, dynamic, window, params, items: [] };
  }

  // -------------------------------------------------------------------------------------------
  // Processing
  // -------------------------------------------------------------------------------------------

  /** Repeat queue passes until nothing changes (spec §2.2.2 step 5). */
  async processQueues(ctx: PassContext): Promise<boolean> {
    let changedAtAll = false;
    for (let pass = 0; pass < MAX_QUEUE_PASSES; pass += 1) {
      let changed = false;
      for (const queue of [...this.state.queues]) {
        changed = (await this.processQueue(ctx, queue)) || changed;
      }
      changedAtAll = changedAtAll || changed;
      if (!changed) {
        break;
      }
    }
    return changedAtAll;
  }

  private async processQueue(ctx: PassContext, queue: QueueState): Promise<boolean> {
    let nnfi: ItemState | null = null;
    let changed = false;
    // Lookups by uuid and the queue position are kept incrementally: long queues (hundreds of
    // items) are walked on every pass, so per-item linear scans would make a pass quadratic.
    const byUuid = new Map(queue.items.map((item) => [item.uuid, item]));
    let index = 0;
    for (const item of [...queue.items]) {
      if (item.dequeueTime !== null) {
        continue;
      }
      const outcome = await this.processOneItem(ctx, queue, item, nnfi, index, byUuid);
      changed = changed || outcome.changed;
      nnfi = outcome.nnfi;
      if (item.dequeueTime === null) {
        index += 1;
      }
    }
    return changed;
  }

  private async processOneItem(
    ctx: PassContext,
    queue: QueueState,
    item: ItemState,
    nnfi: ItemState | null,
    index: number,
    byUuid: ReadonlyMap<string, ItemState>,
  ): Promise<{ changed: boolean; nnfi: ItemState | null }> {
    let changed = false;
    const reasons: string[] = [];
    const parent = item.itemAhead === null ? undefined : byUuid.get(item.itemAhead);
    let ahead = parent && parent.dequeueTime === null ? parent : findItem(queue, item.itemAhead);
    if (ahead && !ahead.live) {
      ahead = null;
    }
    const dependent = this.config.manager === 'dependent';
    if (dependent && item.live) {
      const missing = await this.missingNeededChanges(ctx, queue, item);
      if (missing.length > 0) {
        const urls = missing.map((change) => change.url ?? changeId(change));
        item.dequeuedNeedingChange =
          missing.length === 1 ? `Change ${urls[0]} is needed.` : `Changes ${urls.join(', ')} are needed.`;
        await cancelJobs(ctx, item, 'dequeue');
        await this.reportItem(ctx, queue, item);
        this.dequeueItem(ctx, queue, item, { kind: 'dependency-dequeued', message: item.dequeuedNeedingChange });
        return { changed: true, nnfi };
      }
    }
    const active = insideWindow(index, queue.window);
    if (item.active !== active) {
      item.active = active;
      ctx.touch(item);
      changed = true;
    }
    const failingNeeded = dependent ? this.neededItemFailing(queue, item) : false;
    if (failingNeeded) {
      reasons.push('a needed change is failing');
      if (item.buildset.jobs.some((job) => job.build === null || job.build.result === null)) {
        await cancelJobs(ctx, item, 'stay-current');
        changed = true;
      }
    } else {
      const aheadUuid = ahead?.uuid ?? null;
      const nnfiUuid = nnfi?.uuid ?? null;
      if (aheadUuid !== nnfiUuid && ahead !== null && ahead.changes[0].kind === 'change') {
        item.itemAhead = nnfiUuid;
        await this.resetItem(ctx, item);
        ctx.publish({
          type: 'item-moved',
          pipeline: this.name,
          queue: queue.name,
          itemUuid: item.uuid,
          itemAhead: nnfiUuid,
        });
        changed = true;
      }
      if (item.active) {
        ctx.touch(item);
        const prepared = await this.prepareItem(ctx, queue, item);
        changed = prepared.changed || changed;
        if (item.buildset.unableToMerge) {
          reasons.push('it has a merge conflict');
        }
        if (item.buildset.configError !== null) {
          reasons.push('it has an invalid configuration');
        }
        if (prepared.ready) {
          if (
            !item.reportedStart &&
            !item.quiet &&
            item.buildset.jobs.length > 0 &&
            this.config.reporters.start.connections.length > 0
          ) {
            item.reportedStart = true;
          }
          changed = (await executeJobs(ctx, this.config, queue, item)) || changed;
        }
      }
    }
    if (item.live && (await resumePausedBuilds(ctx, item))) {
      changed = true;
    }
    if (hasAnyJobFailed(item.buildset)) {
      reasons.push('at least one job failed');
    }
    if (!item.live && !queue.items.some((other) => other.itemAhead === item.uuid)) {
      this.dequeueItem(ctx, queue, item, { kind: 'non-live-no-items-behind' });
      return { changed: true, nnfi };
    }
    if (!sameList(item.failingReasons, reasons)) {
      item.failingReasons = reasons;
      ctx.touch(item);
    }
    const canReport = ahead === null && item.live && allJobsComplete(item);
    if (canReport && dependent && didAllJobsSucceed(item.buildset)) {
      // The last look before merging: the change may have moved on since it was enqueued.
      const unmet = await this.recheckRequirements(ctx, item);
      if (unmet !== null) {
        await this.dequeueMissingRequirements(ctx, queue, item, unmet);
        return { changed: true, nnfi };
      }
    }
    if (canReport) {
      const behind = allItemsBehind(queue, item);
      const outcome = await this.reportItem(ctx, queue, item);
      this.dequeueItem(ctx, queue, item, { kind: 'reported', result: outcome.result });
      if (outcome.mergeFailed) {
        // Items behind were tested assuming this one would merge.
        for (const other of behind) {
          await this.resetItem(ctx, other);
        }
      }
      return { changed: true, nnfi };
    }
    if (item.failingReasons.length === 0 && item.live) {
      return { changed, nnfi: item };
    }
    return { changed, nnfi };
  }

  /**
   * Re-check the pipeline's requirements against the current state of the item's changes
   * (Sluice's stand-in for the reference's per-pass "can merge" check of dependent pipelines,
   * done once before merging). Items enqueued with requirements ignored are not re-checked.
   */
  private async recheckRequirements(ctx: PassContext, item: ItemState): Promise<string | null> {
    if (item.requirementsIgnored) {
      return null;
    }
    for (const change of item.changes) {
      const connection = this.layout.projects.get(change.project)?.connection;
      if (
        connection === undefined ||
        !hasRequirements(this.config, connection) ||
        change.kind !== 'change' ||
        change.number === null
      ) {
        continue;
      }
      const current = await ctx.gateways.changes.getChange(change.project, change.number, change.patchset ?? undefined);
      if (!current) {
        return `Change ${changeId(change)} of ${change.project} no longer exists`;
      }
      const unmet = unmetRequirement(this.config, connection, current);
      if (unmet !== null) {
        return unmet;
      }
    }
    return null;
  }

  /** Report an item that no longer meets the requirements as failed and take it out; items behind were tested with it. */
  private async dequeueMissingRequirements(
    ctx: PassContext,
    queue: QueueState,
    item: ItemState,
    reason: string,
  ): Promise<void> {
    item.dequeuedMissingRequirements = reason;
    const behind = allItemsBehind(queue, item);
    await this.reportItem(ctx, queue, item);
    this.dequeueItem(ctx, queue, item, { kind: 'requirements-not-met', message: reason });
    for (const other of behind) {
      await this.resetItem(ctx, other);
    }
  }

  /** Depends-On changes of an item that are neither merged nor in an item ahead. */
  private async missingNeededChanges(ctx: PassContext, queue: QueueState, item: ItemState): Promise<ChangeInfo[]> {
    const change = item.changes[0];
    if (change.kind !== 'change' || change.dependsOn.length === 0) {
      return [];
    }
    const aheadChanges = itemsAhead(queue, item).flatMap((ahead) => ahead.changes);
    const missing: ChangeInfo[] = [];
    for (const dependency of change.dependsOn) {
      if (
        aheadChanges.some(
          (candidate) => candidate.project === dependency.project && candidate.number === dependency.number,
        )
      ) {
        continue;
      }
      const needed = await ctx.gateways.changes.getChange(dependency.project, dependency.number);
      if (needed && !needed.merged) {
        missing.push(needed);
      }
    }
    return missing;
  }

  private neededItemFailing(queue: QueueState, item: ItemState): boolean {
    const change = item.changes[0];
    if (change.kind !== 'change' || change.dependsOn.length === 0) {
      return false;
    }
    return itemsAhead(queue, item).some(
      (ahead) =>
        ahead.failingReasons.length > 0 &&
        ahead.changes.some((candidate) =>
          change.dependsOn.some(
            (dependency) => dependency.project === candidate.project && dependency.number === candidate.number,
          ),
        ),
    );
  }

  /** Speculative merge and job graph for an item inside the window (spec §2.5.1). */
  private async prepareItem(
    ctx: PassContext,
    queue: QueueState,
    item: ItemState,
  ): Promise<{ ready: boolean; changed: boolean }> {
    const buildset = item.buildset;
    let changed = false;
    if (!buildset.configured) {
      const chain = itemsAhead(queue, item).reverse();
      buildset.mergeItems = [
        ...chain.flatMap((ahead) => ahead.changes.map((change) => this.mergeItem(change, ahead.buildset.uuid))),
        ...item.changes.map((change) => this.mergeItem(change, buildset.uuid)),
      ];
      buildset.configured = true;
      changed = true;
    }
    const ahead = findItem(queue, item.itemAhead);
    if (ahead && ahead.buildset.configError !== null && buildset.configError === null) {
      buildset.configError = 'This change depends on a change with an invalid configuration.';
      return { ready: false, changed: true };
    }
    if (buildset.mergeState === 'new') {
      const change = item.changes[0];
      if (change.kind === 'change') {
        const outcome = await ctx.gateways.merger.prepare(buildset.mergeItems);
        if (outcome.merged) {
          buildset.files = outcome.files;
        } else {
          buildset.unableToMerge = true;
          buildset.mergeError = outcome.error;
        }
      }
      buildset.mergeState = 'complete';
      changed = true;
    }
    if (buildset.unableToMerge || buildset.configError !== null) {
      return { ready: false, changed };
    }
    if (!item.live) {
      return { ready: false, changed };
    }
    if (!buildset.jobGraphFrozen) {
      const change = item.changes[0];
      const project = this.layout.projects.get(change.project);
      const branch = change.branch ?? project?.defaultBranch ?? 'master';
      const frozen = this.layout.freezeJobGraph(this.name, change.project, branch, buildset.files ?? undefined, {
        imageNames: item.imageNames ?? undefined,
      });
      buildset.jobGraphFrozen = true;
      changed = true;
      if (frozen.status === 'not-in-pipeline') {
        buildset.notInPipeline = true;
      } else if (frozen.status === 'error') {
        buildset.configError = `Unable to freeze job graph: ${frozen.message}`;
      } else {
        buildset.failFast = frozen.failFast;
        buildset.jobs = frozen.jobs.map((job) => ({
          job,
          tries: 0,
          build: null,
          retryBuilds: [],
          waitReason: null,
          waitingStatus: null,
          nodeRequestId: null,
          nodesReady: false,
          nodes: [],
          semaphoresHeld: [],
          artifacts: [],
        }));
        if (buildset.jobs.length > 0) {
          await this.ensureHistoryBuildset(ctx, item);
        }
      }
      ctx.touch(item);
    }
    return { ready: buildset.jobs.length > 0, changed };
  }

  private mergeItem(change: ChangeInfo, buildsetUuid: string): MergeItem {
    const project = this.layout.projects.get(change.project);
    return {
      project: change.project,
      connection: project?.connection ?? '',
      mergeMode: project?.mergeMode ?? 'merge',
      ref: change.ref,
      branch: change.branch,
      number: change.number,
      patchset: change.patchset,
      oldrev: change.oldrev,
      newrev: change.newrev,
      buildsetUuid,
    };
  }

  private async ensureHistoryBuildset(ctx: PassContext, item: ItemState): Promise<number> {
    if (item.buildset.historyId !== null) {
      return item.buildset.historyId;
    }
    const created = await ctx.history.createBuildset({
      uuid: item.buildset.uuid,
      tenant: ctx.tenant,
      pipeline: this.name,
      eventId: item.eventId,
      eventTimestamp: item.eventTimestamp === null ? null : new Date(item.eventTimestamp),
      refs: item.changes.map((change) => ({ ...historyRef({ ...item, changes: [change] }) })),
      triggeredBy: item.triggeredBy,
      at: ctx.now,
    });
    item.buildset.historyId = created.id;
    item.buildset.historyRefId = created.refIds[0] ?? null;
    item.buildset.startTime = ctx.nowIso();
    ctx.touch(item);
    return created.id;
  }

  /** Cancel the jobs of an item and give it a new buildset (spec §2.9.6 with prime). */
  async resetItem(ctx: PassContext, item: ItemState): Promise<void> {
    await cancelJobs(ctx, item, 'reset');
    if (item.buildset.historyId !== null && item.buildset.result === null) {
      await ctx.history.finishBuildset(item.buildset.historyId, { result: 'DEQUEUED', message: null, at: ctx.now });
    }
    item.buildset = newBuildset(ctx);
    item.failingReasons = [];
    ctx.touch(item);
  }

  // -------------------------------------------------------------------------------------------
  // Reporting
  // -------------------------------------------------------------------------------------------

  /** Decide the action, record the result, merge on success and adjust the window (spec §2.11). */
  async reportItem(
    ctx: PassContext,
    queue: QueueState,
    item: ItemState,
  ): Promise<{ result: BuildsetResult; mergeFailed: boolean }> {
    const buildset = item.buildset;
    let action: ReportAction;
    let result: BuildsetResult;
    if (buildset.notInPipeline || !this.layout.projectInPipeline(this.name, item.changes[0].project)) {
      action = 'no-jobs';
      result = 'NO_JOBS';
    } else if (buildset.configError !== null) {
      action = 'config-error';
      result = 'CONFIG_ERROR';
    } else if (buildset.unableToMerge) {
      action = 'merge-conflict';
      result = 'MERGE_CONFLICT';
    } else if (item.dequeuedNeedingChange !== null || item.dequeuedMissingRequirements) {
      action = 'failure';
      result = 'FAILURE';
    } else if (buildset.jobs.length === 0) {
      action = 'no-jobs';
      result = 'NO_JOBS';
    } else if (didAllJobsSucceed(buildset)) {
      action = 'success';
      result = 'SUCCESS';
    } else {
      action = 'failure';
      result = 'FAILURE';
    }
    // A disabled pipeline reports through its `disabled` reporters instead (spec §2.11).
    const wasDisabled = this.state.disabled;
    if (action === 'success') {
      this.state.consecutiveFailures = 0;
    } else if (action === 'failure') {
      this.state.consecutiveFailures += 1;
    }
    const limit = this.config.disableAfterConsecutiveFailures;
    if (limit !== null && !this.state.disabled && this.state.consecutiveFailures >= limit) {
      this.state.disabled = true;
      ctx.publish({ type: 'pipeline-state-changed', pipeline: this.name, disabled: true });
      await ctx.systemEvent({
        eventType: 'pipeline-state-changed',
        description: `Pipeline ${this.name} disabled after ${this.state.consecutiveFailures} consecutive failures`,
        data: { pipeline: this.name, disabled: true },
      });
    }
    let message = formatReport(this.config, item, action);
    let mergeFailed = false;
    const submit = wasDisabled ? this.config.reporters.disabled.submit : this.config.reporters.success.submit;
    const uploadUuid = item.imageUploadUuid;
    if (action === 'success' && !wasDisabled && this.config.reporters.success.imageValidated && uploadUuid) {
      // After the pass commits, like every gateway call (the pass holds a database connection).
      ctx.after(() => ctx.gateways.nodes.markUploadValidated?.(ctx.tenant, uploadUuid) ?? Promise.resolve());
    }
    if (action === 'success' && submit) {
      const merged = await this.mergeChanges(ctx, item);
      if (!merged) {
        result = 'MERGE_FAILURE';
        message = 'This change was not merged by the code review system.';
        mergeFailed = true;
      }
    }
    if (this.config.manager === 'dependent') {
      if (result === 'SUCCESS') {
        this.setWindow(ctx, queue, increasedWindow(queue.window, queue.params));
      } else if (action === 'failure' && hasAnyJobFailed(buildset)) {
        this.setWindow(ctx, queue, decreasedWindow(queue.window, queue.params));
      }
    }
    buildset.result = result;
    item.reported = true;
    const writeRow =
      buildset.jobs.length > 0 ||
      buildset.configError !== null ||
      buildset.unableToMerge ||
      item.dequeuedNeedingChange !== null ||
      Boolean(item.dequeuedMissingRequirements);
    if (writeRow && !buildset.notInPipeline) {
      const historyId = await this.ensureHistoryBuildset(ctx, item);
      await ctx.history.finishBuildset(historyId, { result, message, at: ctx.now });
    }
    ctx.touch(item);
    ctx.publish({ type: 'item-reported', pipeline: this.name, itemUuid: item.uuid, result, message });
    return { result, mergeFailed };
  }

  private setWindow(ctx: PassContext, queue: QueueState, window: number): void {
    if (window !== queue.window) {
      queue.window = window;
      ctx.publish({ type: 'window-changed', pipeline: this.name, queue: queue.name, window });
    }
  }

  /** Merge each change of a successful item into its branch; emits `project-change-merged` when listened to. */
  private async mergeChanges(ctx: PassContext, item: ItemState): Promise<boolean> {
    for (const change of item.changes) {
      if (change.kind !== 'change') {
        continue;
      }
      const outcome = await ctx.gateways.merger.mergeToBranch(this.mergeItem(change, item.buildset.uuid));
      if (!outcome.merged) {
        return false;
      }
      // The branch update itself is announced once as `ref-updated` by the git connection
      // (the merger gateway tells the poller to expect Sluice's own update).
      if (pipelinesListen(this.layout, 'project-change-merged')) {
        await ctx.emit({ type: 'project-change-merged', project: change.project, mergedChange: change.number });
      }
    }
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Leaving the pipeline
  // -------------------------------------------------------------------------------------------

  /** Take an item out of its queue; items behind move up to its parent (spec §2.12 dequeueItem). */
  dequeueItem(ctx: PassContext, queue: QueueState, item: ItemState, reason: DequeueReason): void {
    for (const behind of itemsBehind(queue, item)) {
      behind.itemAhead = item.itemAhead;
      ctx.touch(behind);
    }
    queue.items = queue.items.filter((candidate) => candidate !== item);
    item.dequeueTime = ctx.nowIso();
    item.dequeueReason = reason;
    ctx.touched.delete(item);
    ctx.dequeued.push({ item, queueId: queue.id });
    ctx.publish({ type: 'item-dequeued', pipeline: this.name, queue: queue.name, itemUuid: item.uuid, reason });
    if (queue.items.length === 0 && queue.dynamic) {
      this.state.queues = this.state.queues.filter((candidate) => candidate !== queue);
      if (queue.id !== 0) {
        ctx.deletedQueueIds.push(queue.id);
      }
    }
  }

  /**
   * Cancel an item's jobs, record DEQUEUED and take it out (spec §2.12 removeItem). Items
   * behind it were tested with it merged underneath, so they are reset (spec §2.9.6 prime).
   */
  async removeItem(ctx: PassContext, queue: QueueState, item: ItemState, reason: DequeueReason): Promise<void> {
    for (const behind of allItemsBehind(queue, item)) {
      await this.resetItem(ctx, behind);
    }
    await cancelJobs(ctx, item, 'dequeue');
    if (item.live && item.buildset.result === null) {
      item.buildset.result = 'DEQUEUED';
      if (item.buildset.historyId !== null) {
        await ctx.history.finishBuildset(item.buildset.historyId, {
          result: 'DEQUEUED',
          message: item.reportedStart ? formatReport(this.config, item, 'dequeue') : null,
          at: ctx.now,
        });
      }
    }
    this.dequeueItem(ctx, queue, item, reason);
  }

  /**
   * After a new layout: live items whose dependencies now exceed the tenant's `max-dependencies`
   * leave the pipeline (spec §2.5 step 2; the reference re-counts on every pass, Sluice when the
   * limit can have changed).
   */
  async enforceDependencyLimit(ctx: PassContext): Promise<void> {
    const limit = this.layout.limits.maxDependencies;
    if (limit === null || this.config.ignoreDependencies) {
      return;
    }
    for (const { queue, item } of this.allItems()) {
      const change = item.changes[0];
      if (!item.live || item.dequeueTime !== null || change.kind !== 'change' || change.dependsOn.length === 0) {
        continue;
      }
      const tooMany = tooManyDependencies(change, await countDependencies(ctx.gateways.changes, change, limit), limit);
      if (tooMany !== null) {
        await this.removeItem(ctx, queue, item, { kind: 'too-many-dependencies', message: tooMany });
      }
    }
  }

  /** Remove live items holding an older patchset of the change (dequeue-on-new-patchset). */
  async removeOldPatchsets(ctx: PassContext, change: ChangeInfo): Promise<void> {
    if (!this.config.dequeueOnNewPatchset || change.kind !== 'change') {
      return;
    }
    for (const { queue, item } of this.allItems()) {
      const old = item.changes.find(
        (candidate) =>
          candidate.project === change.project &&
          candidate.number === change.number &&
          candidate.patchset !== change.patchset,
      );
      if (item.live && old && Number(old.patchset) < Number(change.patchset)) {
        await this.removeItem(ctx, queue, item, { kind: 'new-patchset', patchset: change.patchset ?? '' });
      }
    }
  }

  /**
   * Promote (spec §2.12): the listed items move to the head of their queue in the given order;
   * live items from the first difference on are canceled and re-added quietly with their
   * original enqueue time. In independent pipelines only the queue order changes.
   */
  async promote(ctx: PassContext, items: Array<{ queue: QueueState; item: ItemState }>): Promise<number> {
    let restarted = 0;
    const queues = [...new Set(items.map((entry) => entry.queue))];
    for (const queue of [...queues].reverse()) {
      this.state.queues = [queue, ...this.state.queues.filter((candidate) => candidate !== queue)];
    }
    if (this.config.manager === 'independent') {
      return 0;
    }
    for (const queue of queues) {
      const promoted = items.filter((entry) => entry.queue === queue).map((entry) => entry.item);
      const rest = queue.items.filter((item) => !promoted.includes(item));
      const desired = [...promoted, ...rest];
      let firstDifference = 0;
      while (firstDifference < desired.length && desired[firstDifference] === queue.items[firstDifference]) {
        firstDifference += 1;
      }
      const moved = desired.slice(firstDifference);
      for (const item of moved) {
        if (item.buildset.jobs.some((job) => job.build !== null && job.build.result === null)) {
          restarted += 1;
        }
        await this.resetItem(ctx, item);
      }
      queue.items = desired;
      for (const [index, item] of queue.items.entries()) {
        const itemAhead = index === 0 ? null : queue.items[index - 1].uuid;
        if (item.itemAhead !== itemAhead) {
          item.itemAhead = itemAhead;
          ctx.publish({ type: 'item-moved', pipeline: this.name, queue: queue.name, itemUuid: item.uuid, itemAhead });
        }
        if (moved.includes(item)) {
          item.quiet = true;
        }
        ctx.touch(item);
      }
    }
    return restarted;
  }
}

function newBuildset(ctx: PassContext): BuildsetState {
  return {
    uuid: ctx.uuid(),
    historyId: null,
    configured: false,
    mergeItems: [],
    mergeState: 'new',
    files: null,
    unableToMerge: false,
    mergeError: null,
    configError: null,
    notInPipeline: false,
    jobGraphFrozen: false,
    jobs: [],
    failFast: false,
    result: null,
    startTime: null,
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/** Whether any pipeline has a zuul-driver trigger for this event type. */
export function pipelinesListen(
  layout: EngineLayout,
  eventType: 'parent-change-enqueued' | 'project-change-merged',
): boolean {
  return layout.pipelines.some((pipeline) =>
    pipeline.triggers.some((trigger) => trigger.driver === 'zuul' && trigger.events.includes(eventType)),
  );
}

/** The JSON form of a change used in follow-up events. */
export function serialChange(change: ChangeInfo): SerialChange {
  return {
    project: change.project,
    number: change.number,
    patchset: change.patchset,
    ref: change.ref,
    oldrev: change.oldrev,
    newrev: change.newrev,
  };
}

/** What an image event asks of an item (none for other events): the images and the upload to validate. */
function imageRequestKey(source: { imageNames?: string[] | null; imageUploadUuid?: string | null }): string {
  return JSON.stringify([source.imageNames ?? null, source.imageUploadUuid ?? null]);
}
