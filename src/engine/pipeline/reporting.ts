/**
 * Reporting an item (docs/gating.md#reporting): the action and result, the pipeline's failure
 * counter, merge on success, the queue window, and the buildset's history row.
 */
import type { ChangeInfo } from '../../model/changes';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import type { BuildsetResult } from '../../model/results';
import { didAllJobsSucceed, hasAnyJobFailed } from '../item-predicates';
import { historyRefOf } from '../jobs/build-records';
import type { PassContext } from '../pass-context';
import { describeTrigger, formatNonEnqueuedReport, formatReport, type ReportAction } from '../report-text';
import { ensureHistoryBuildset } from './buildsets';
import { driverReport, reportToDrivers } from './driver-reports';
import { mergeItemOf } from './merging';
import type { AddChangeOptions, ManagedPipeline } from './types';

/** What reporting an item decided: its result, and whether its merge failed (items behind were tested on it). */
export interface ReportOutcome {
  result: BuildsetResult;
  mergeFailed: boolean;
}

/** The report action and buildset result of an item whose jobs are done (or that can never run). */
function decide(pipeline: ManagedPipeline, item: ItemState): { action: ReportAction; result: BuildsetResult } {
  const buildset = item.buildset;
  // An item frozen with its speculative layout is in the pipeline by that layout, whatever the live one says.
  const inPipeline =
    buildset.speculativeLayout === true ||
    item.changes.some((change) => pipeline.layout.projectInPipeline(pipeline.name, change.project));
  if (buildset.notInPipeline || !inPipeline) {
    return { action: 'no-jobs', result: 'NO_JOBS' };
  }
  if (buildset.configError !== null) {
    return { action: 'config-error', result: 'CONFIG_ERROR' };
  }
  if (buildset.unableToMerge) {
    return { action: 'merge-conflict', result: 'MERGE_CONFLICT' };
  }
  if (item.dequeuedNeedingChange !== null || item.dequeuedMissingRequirements) {
    return { action: 'failure', result: 'FAILURE' };
  }
  if (buildset.jobs.length === 0) {
    return { action: 'no-jobs', result: 'NO_JOBS' };
  }
  return didAllJobsSucceed(buildset)
    ? { action: 'success', result: 'SUCCESS' }
    : { action: 'failure', result: 'FAILURE' };
}

/** Count a success or failure; disable the pipeline after too many failures in a row (docs/gating.md#runtime-state). */
async function countOutcome(pipeline: ManagedPipeline, ctx: PassContext, action: ReportAction): Promise<void> {
  const state = pipeline.state;
  if (action === 'success') {
    state.consecutiveFailures = 0;
  } else if (action === 'failure') {
    state.consecutiveFailures += 1;
  }
  const limit = pipeline.config.disableAfterConsecutiveFailures;
  if (limit !== null && !state.disabled && state.consecutiveFailures >= limit) {
    state.disabled = true;
    ctx.publish({ type: 'pipeline-state-changed', pipeline: pipeline.name, disabled: true });
    await ctx.systemEvent({
      eventType: 'pipeline-state-changed',
      description: `Pipeline ${pipeline.name} disabled after ${state.consecutiveFailures} consecutive failures`,
      data: { pipeline: pipeline.name, disabled: true },
    });
  }
}

/**
 * Decide the action, record the result, merge on success and adjust the window (docs/gating.md#reporting).
 * A successful item whose pipeline submits is merged first, as engine work done after the pass
 * (docs/gating.md#engine-work): resolves with null until its `merge-completed` came back.
 */
export async function reportItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
): Promise<ReportOutcome | null> {
  const { config } = pipeline;
  const buildset = item.buildset;
  const decided = decide(pipeline, item);
  const action = decided.action;
  let result = decided.result;
  const merge = buildset.branchMerge ?? null;
  // A disabled pipeline reports through its `disabled` reporters instead (docs/gating.md#reporting).
  const wasDisabled = merge?.disabled ?? pipeline.state.disabled;
  const submit = wasDisabled ? config.reporters.disabled.submit : config.reporters.success.submit;
  let message = formatReport(config, item, action);
  if (action === 'success' && submit && (merge === null || !merge.done)) {
    if (merge === null) {
      requestBranchMerge(pipeline, ctx, item, wasDisabled, message, result);
    }
    return null;
  }
  await countOutcome(pipeline, ctx, action);
  let mergeFailed = false;
  const uploadUuid = item.imageUploadUuid;
  if (action === 'success' && !wasDisabled && config.reporters.success.imageValidated && uploadUuid) {
    // After the pass commits, like every gateway call (the pass holds a database connection).
    ctx.after(() => ctx.gateways.nodes.markUploadValidated?.(ctx.tenant, uploadUuid) ?? Promise.resolve());
  }
  const reportedBeforeMerge = merge?.reported ?? false;
  if (merge?.done && merge.error !== null) {
    result = 'MERGE_FAILURE';
    message = `This change was not merged by the code review system: ${merge.error}`;
    mergeFailed = true;
  }
  setWindow(
    pipeline,
    ctx,
    queue,
    pipeline.strategy.windowAfterReport(queue, {
      succeeded: result === 'SUCCESS',
      jobsFailed: action === 'failure' && hasAnyJobFailed(buildset),
    }),
  );
  buildset.result = result;
  item.reported = true;
  const writeRow =
    buildset.jobs.length > 0 ||
    buildset.configError !== null ||
    buildset.unableToMerge ||
    item.dequeuedNeedingChange !== null ||
    Boolean(item.dequeuedMissingRequirements);
  if (writeRow && !buildset.notInPipeline) {
    const historyId = await ensureHistoryBuildset(pipeline, ctx, item);
    await ctx.history.finishBuildset(historyId, { result, message, at: ctx.now });
  }
  if (mergeFailed || !reportedBeforeMerge) {
    const phase = wasDisabled ? 'disabled' : mergeFailed ? 'merge-conflict' : action;
    reportToDrivers(pipeline, ctx, item, phase, message, result);
  }
  ctx.publish({ type: 'item-reported', pipeline: pipeline.name, itemUuid: item.uuid, result, message });
  return { result, mergeFailed };
}

function setWindow(pipeline: ManagedPipeline, ctx: PassContext, queue: QueueState, window: number): void {
  if (window !== queue.window) {
    queue.window = window;
    ctx.publish({ type: 'window-changed', pipeline: pipeline.name, queue: queue.name, window });
  }
}

/**
 * Store the merge of a successful item as engine work: the success status goes out first, with
 * it, since branch protection may require it (docs/github.md#reporters); then each change is
 * merged into its branch.
 */
function requestBranchMerge(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
  disabled: boolean,
  message: string,
  result: string,
  after: string | null = null,
): void {
  const report = driverReport(pipeline, ctx, item, disabled ? 'disabled' : 'success', message, result);
  const items = item.changes
    .filter((change) => change.kind === 'change')
    .map((change) => mergeItemOf(pipeline.layout, change, item.buildset.uuid));
  item.buildset.branchMerge = { disabled, reported: report !== null, done: false, error: null, after };
  ctx.requestWork({
    kind: 'branch-merge',
    payload: { pipeline: pipeline.name, buildsetUuid: item.buildset.uuid, report, items, after },
  });
}

/**
 * A successful item directly behind one whose merge into its branch is out asks for its own
 * merge now, made by the work runner right after that one and only if that one was made
 * (docs/gating.md#merges-in-a-row): the successful items at a queue's head are merged one after
 * the other without a pass between them, as the reference merges them in one pass. It reports
 * and leaves once it is at the head. False when it does not merge now: not successful, its
 * pipeline does not submit, or the requirements checked before a merge refuse it (then that is
 * decided when it is at the head).
 */
export async function requestMergeBehind(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
  ahead: ItemState,
): Promise<boolean> {
  const aheadMerge = ahead.buildset.branchMerge;
  if (
    !aheadMerge ||
    aheadMerge.skipped ||
    (aheadMerge.done && aheadMerge.error !== null) ||
    item.buildset.branchMerge
  ) {
    return false;
  }
  if (decide(pipeline, item).action !== 'success') {
    return false;
  }
  const { config } = pipeline;
  const disabled = pipeline.state.disabled;
  if (!(disabled ? config.reporters.disabled.submit : config.reporters.success.submit)) {
    return false;
  }
  if ((await pipeline.strategy.refusalBeforeMerge(pipeline, ctx, item)) !== null) {
    return false;
  }
  const message = formatReport(config, item, 'success');
  requestBranchMerge(pipeline, ctx, item, disabled, message, 'SUCCESS', ahead.buildset.uuid);
  return true;
}

/**
 * A change that could not be enqueued is reported failed with the reason as a warning
 * (docs/gating.md#enqueue): a FAILURE buildset row without builds, written only
 * when the project takes part in the pipeline so that unrelated pipelines do not spam it.
 */
export async function reportNotEnqueued(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
  options: AddChangeOptions,
  reason: string,
): Promise<void> {
  if (!options.live || !pipeline.layout.projectInPipeline(pipeline.name, change.project)) {
    return;
  }
  const historyId = await ctx.history.createBuildset({
    uuid: ctx.uuid(),
    tenant: ctx.tenant,
    pipeline: pipeline.name,
    eventId: options.eventId,
    eventTimestamp: options.eventTimestamp === null ? null : new Date(options.eventTimestamp),
    refs: [historyRefOf(change, ctx.layout)],
    triggeredBy: `Triggered by ${describeTrigger(change)}`,
    at: ctx.now,
  });
  await ctx.history.finishBuildset(historyId, {
    result: 'FAILURE',
    message: formatNonEnqueuedReport(pipeline.config, reason),
    at: ctx.now,
  });
}
