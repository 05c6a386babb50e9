/**
 * The tenant status model (docs/rest.md#status-document) computed by a pure function from stored engine state:
 * pipelines -> change queues -> heads -> items -> jobs, with every field of the current (2025)
 * document plus Sluice's explanations (why an item waits, why a job waits). `toCurrentShape`
 * and `toEarlierShape` render the two REST documents.
 */
import { projectName, type EnginePipeline } from './ports/layout';
import type { ItemState, JobState, JobWaitReason, PipelineState, TenantEventQueueState } from '../model/pipeline-state';
import { changeId, type ChangeInfo } from '../model/changes';
import type { DurationEstimate } from '../model/estimates';
import { jobEta, queueEta, type ItemEta, type JobEta } from '../model/eta';

/** A job as the status shows it, without the times computed from the clock (docs/live.md#times). */
export interface JobFields {
  name: string;
  dependencies: string[];
  url: string | null;
  fingerUrl: string | null;
  reportUrl: string | null;
  result: string | null;
  voting: boolean;
  uuid: string | null;
  executeTime: number | null;
  startTime: number | null;
  endTime: number | null;
  estimatedTime: number | null;
  pipeline: string | null;
  canceled: boolean | null;
  paused: boolean | null;
  preFail: boolean | null;
  retry: boolean | null;
  tries: number;
  queued: boolean;
  waitingStatus: string | null;
  /** Sluice: what the job waits for, as an enum. */
  waitingFor: JobWaitReason | null;
  nodeLabels: string[];
  /** Sluice: why its latest build was retried (docs/analytics.md#flake-aware-gating); null without a retry. */
  retryReason: 'infrastructure' | 'flaky' | null;
  /** Sluice: its builds retried in place because the job is known-flaky. */
  flakyRetries: number;
  /** Sluice: the job is quarantined and failed: reported, not blocking (docs/analytics.md#quarantine). */
  quarantined: boolean;
}

/** The times of a job at a given moment (docs/live.md#times). */
export interface JobTimes {
  elapsedTime: number | null;
  remainingTime: number | null;
}

/** What a status computes for a job from its estimate (docs/analytics.md#job-estimates); null in deltas. */
export interface JobRange {
  estimate: DurationEstimate | null;
  eta: JobEta | null;
}

export type JobStatus = JobFields & JobTimes & JobRange;

/** An item's range with the instant it was computed at (epoch ms). */
export type ItemRange = ItemEta & { atMs: number };

export interface RefStatus {
  url: string | null;
  ref: string | null;
  project: string;
  projectCanonical: string;
  /** The branch of the change; null for a ref without one (a tag). */
  branch: string | null;
  owner: string | null;
  id: string;
}

/** An item as the status shows it, without what is derived from other items or the clock. */
export interface ItemFields {
  id: string;
  active: boolean;
  live: boolean;
  refs: RefStatus[];
  itemAhead: string | null;
  failingReasons: string[];
  zuulRef: string | null;
  enqueueTime: number;
  /** Sluice: why the item does not run jobs yet ('window' outside the active window, 'merge' while merging). */
  waitingFor: 'window' | 'merge' | null;
  jobs: JobFields[];
}

export interface ItemStatus extends Omit<ItemFields, 'jobs'> {
  itemsBehind: string[];
  jobs: JobStatus[];
  remainingTime: number | null;
  /** When the item should report, as a range (docs/analytics.md#item-etas); null in deltas and for non-live items. */
  eta: ItemRange | null;
}

export interface ChangeQueueStatus {
  /** The queue's store id: identifies it within the tenant while it exists (deltas name queues by it). */
  key: number;
  name: string;
  window: number;
  branch: string | null;
  /** The items in queue order. */
  items: ItemStatus[];
  /** The same items split into chains: a chain starts at each item without an item ahead. */
  heads: ItemStatus[][];
}

export interface PipelineStatus {
  name: string;
  description: string | null;
  state: 'normal' | 'error';
  manager: string;
  triggers: Array<{ driver: string }>;
  disabled: boolean;
  consecutiveFailures: number;
  changeQueues: ChangeQueueStatus[];
  triggerEvents: number;
  resultEvents: number;
  managementEvents: number;
}

/** An estimate a status used: of a job on a project and branch, or of a pipeline's items of a project. */
export interface EstimateEntry {
  kind: 'job' | 'item';
  /** Canonical project name. */
  project: string;
  /** Branch of a job estimate (null for a ref without one, and for items). */
  branch: string | null;
  /** Job name, or pipeline name for items. */
  name: string;
  estimate: DurationEstimate | null;
}

/** The calibrated estimates a status reads (src/engine/build-estimates.ts). */
export interface EstimateSource {
  job(project: string, branch: string | null, job: string): DurationEstimate | null;
  item(pipeline: string, project: string): DurationEstimate | null;
  /** The estimates looked up so far that exist. */
  entries(): EstimateEntry[];
}

export interface TenantStatus {
  tenant: string;
  zuulVersion: string;
  triggerEventQueue: { length: number };
  managementEventQueue: { length: number };
  resultEventQueue: { length: number };
  state: TenantEventQueueState;
  lastReconfigured: number | null;
  pipelines: PipelineStatus[];
  /** Every estimate the status's jobs and items use (docs/analytics.md#job-estimates). */
  estimates: EstimateEntry[];
}

export interface StatusInput {
  tenant: string;
  version: string;
  now: Date;
  /** Tenant web root ending in '/', for `report_url` (relative when null). */
  webRoot: string | null;
  pipelines: readonly EnginePipeline[];
  states: readonly PipelineState[];
  eventQueues: TenantEventQueueState;
  pendingEvents: { trigger: number; management: number; result: number };
  /** Pending events per pipeline (see event-counts.ts); pipelines missing here count 0. */
  pipelineEvents: ReadonlyMap<string, { trigger: number; management: number; result: number }>;
  lastReconfigured: Date | null;
  /** The name (`org/project`) of a project by canonical name; the part after the host by default. */
  projectName?: (canonicalName: string) => string;
  /** The web link of a change whose stored state has none (docs/configuration.md#ref-url-templates). */
  changeUrl?: (change: ChangeInfo) => string | null;
  /**
   * Estimated run time in seconds of a job of an item from build history (docs/rest.md#status-document,
   * `estimated_time`); null when there is none. Asked only for started builds.
   */
  estimatedTime?: (item: ItemState, jobName: string) => number | null;
  /** Calibrated estimates of every job and item (docs/analytics.md#job-estimates); without them no ranges. */
  estimates?: EstimateSource;
}

/** What the stored fields of every item and job read besides their own state. */
export type StatusContext = Pick<StatusInput, 'webRoot' | 'projectName' | 'changeUrl' | 'estimatedTime'>;

function seconds(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso) / 1000;
}

/** The stored fields of a job's status (everything but the times computed from the clock). */
export function jobFields(job: JobState, item: ItemState, context: StatusContext): JobFields {
  const build = job.build;
  const started = build?.startTime !== null && build?.startTime !== undefined;
  // As in the reference, a build gets its estimate when it starts.
  const estimated = started ? (context.estimatedTime?.(item, job.job.name) ?? null) : null;
  const pipeline = item.pipeline;
  const webRoot = context.webRoot;
  return {
    name: job.job.name,
    dependencies: job.job.dependencies.map((dependency) => dependency.name),
    url: build ? `stream/${build.uuid}?logfile=console.log` : null,
    fingerUrl: build ? (build.logUrl ?? null) : null,
    reportUrl: build ? `${webRoot ?? ''}build/${build.uuid}` : null,
    result: build?.result ?? null,
    voting: job.job.voting,
    uuid: build?.uuid ?? null,
    executeTime: build ? seconds(build.executeTime) : null,
    startTime: build ? seconds(build.startTime) : null,
    endTime: build ? seconds(build.endTime) : null,
    estimatedTime: estimated,
    pipeline: build ? pipeline : null,
    canceled: build ? build.canceled : null,
    paused: build ? build.paused === true && build.result === null : null,
    preFail: build ? false : null,
    retry: build ? build.retry : null,
    tries: job.tries,
    queued: job.nodeRequestId !== null || job.nodesReady || build !== null,
    waitingStatus: started ? null : job.waitingStatus,
    waitingFor: started ? null : job.waitReason,
    nodeLabels: job.job.nodeset.labels,
    retryReason: retryReasonOf(job),
    flakyRetries: job.flakyRetries ?? 0,
    quarantined: job.quarantined === true,
  };
}

/** Why the latest retried build of a job was retried (builds saved before reasons existed: infrastructure). */
function retryReasonOf(job: JobState): JobFields['retryReason'] {
  const last = job.retryBuilds[job.retryBuilds.length - 1];
  return last === undefined ? null : (last.retryReason ?? 'infrastructure');
}

/**
 * A job's elapsed and remaining milliseconds at `nowMs`, from the fields a client receives
 * (epoch seconds), so a client computes exactly what the server does (docs/live.md#times).
 */
export function jobTimes(
  job: Pick<JobFields, 'startTime' | 'endTime' | 'estimatedTime' | 'result'>,
  nowMs: number,
): JobTimes {
  if (job.startTime === null) {
    return { elapsedTime: null, remainingTime: job.result !== null ? 0 : null };
  }
  const elapsed = Math.round(((job.endTime ?? nowMs / 1000) - job.startTime) * 1000);
  if (job.result !== null) {
    return { elapsedTime: elapsed, remainingTime: 0 };
  }
  return {
    elapsedTime: elapsed,
    remainingTime: job.estimatedTime === null ? null : Math.max(job.estimatedTime * 1000 - elapsed, 0),
  };
}

export function jobWithTimes(job: JobFields, nowMs: number): JobStatus {
  const times = jobTimes(job, nowMs);
  return {
    name: job.name,
    dependencies: job.dependencies,
    elapsedTime: times.elapsedTime,
    remainingTime: times.remainingTime,
    url: job.url,
    fingerUrl: job.fingerUrl,
    reportUrl: job.reportUrl,
    result: job.result,
    voting: job.voting,
    uuid: job.uuid,
    executeTime: job.executeTime,
    startTime: job.startTime,
    endTime: job.endTime,
    estimatedTime: job.estimatedTime,
    pipeline: job.pipeline,
    canceled: job.canceled,
    paused: job.paused,
    preFail: job.preFail,
    retry: job.retry,
    tries: job.tries,
    queued: job.queued,
    waitingStatus: job.waitingStatus,
    waitingFor: job.waitingFor,
    nodeLabels: job.nodeLabels,
    retryReason: job.retryReason,
    flakyRetries: job.flakyRetries,
    quarantined: job.quarantined,
    estimate: null,
    eta: null,
  };
}

/** The stored fields of an item's status. */
export function itemFields(item: ItemState, context: StatusContext): ItemFields {
  return {
    id: item.uuid,
    active: item.active,
    live: item.live,
    refs: item.changes.map((change) => ({
      url: change.url ?? context.changeUrl?.(change) ?? null,
      ref: change.ref,
      project: (context.projectName ?? ((canonical) => projectName(null, canonical)))(change.project),
      projectCanonical: change.project,
      branch: change.branch,
      owner: change.owner,
      id: changeId(change),
    })),
    itemAhead: item.itemAhead,
    failingReasons: item.failingReasons,
    zuulRef: item.buildset.configured ? `Z${item.buildset.uuid}` : null,
    enqueueTime: Date.parse(item.enqueueTime),
    waitingFor: !item.active ? 'window' : item.buildset.mergeState === 'new' ? 'merge' : null,
    jobs: item.live ? item.buildset.jobs.map((job) => jobFields(job, item, context)) : [],
  };
}

/** What the ranges of a queue's items read besides the items (docs/analytics.md#item-etas). */
export interface QueueRangeInput {
  pipeline: string;
  window: number;
  dependent: boolean;
  estimates: EstimateSource;
}

/** The estimate of a job of an item (its first change's project and branch). */
function jobEstimate(source: EstimateSource, item: Pick<ItemFields, 'refs'>, job: string): DurationEstimate | null {
  const ref = item.refs[0];
  return ref === undefined ? null : source.job(ref.projectCanonical, ref.branch, job);
}

/** Fill in the ranges of a queue's item statuses (in queue order) at `nowMs`. */
function addRanges(statuses: ItemStatus[], nowMs: number, input: QueueRangeInput): void {
  const { estimates } = input;
  const etas = queueEta(statuses, {
    window: input.window,
    dependent: input.dependent,
    nowMs,
    job: (item, job) => jobEstimate(estimates, item, job.name),
    item: (item) => {
      const ref = item.refs[0];
      return ref === undefined ? null : estimates.item(input.pipeline, ref.projectCanonical);
    },
  });
  statuses.forEach((status, index) => {
    const eta = etas[index];
    status.eta = eta === null ? null : { ...eta, atMs: nowMs };
    for (const job of status.jobs) {
      job.estimate = jobEstimate(estimates, status, job.name);
      job.eta = jobEta(job, job.estimate, nowMs);
    }
  });
}

/**
 * The status of a queue's items (in queue order) at `nowMs`: job times, items behind, and the
 * chains (a new chain starts at each item without an item ahead in the queue; an item's
 * remaining time is at least that of the item before it in its chain). With `ranges`, the
 * estimates and ranges of items and jobs too. Linear in the items.
 */
export function queueItems(
  items: readonly ItemFields[],
  nowMs: number,
  ranges?: QueueRangeInput,
): { items: ItemStatus[]; heads: ItemStatus[][] } {
  const behind = new Map<string, string[]>();
  for (const item of items) {
    behind.set(item.id, []);
  }
  for (const item of items) {
    if (item.itemAhead !== null) {
      behind.get(item.itemAhead)?.push(item.id);
    }
  }
  const statuses: ItemStatus[] = [];
  const chains: ItemStatus[][] = [];
  const chainOf = new Map<string, ItemStatus[]>();
  for (const item of items) {
    let allStarted = item.jobs.length > 0;
    let remaining = 0;
    const jobs = item.jobs.map((job) => {
      const status = jobWithTimes(job, nowMs);
      if (status.remainingTime === null) {
        allStarted = false;
      } else {
        remaining = Math.max(remaining, status.remainingTime);
      }
      return status;
    });
    // Built field by field (not spread): the same hidden class for every item keeps this fast.
    const status: ItemStatus = {
      id: item.id,
      active: item.active,
      live: item.live,
      refs: item.refs,
      itemAhead: item.itemAhead,
      itemsBehind: behind.get(item.id) ?? [],
      failingReasons: item.failingReasons,
      zuulRef: item.zuulRef,
      enqueueTime: item.enqueueTime,
      jobs,
      remainingTime: allStarted ? remaining : null,
      waitingFor: item.waitingFor,
      eta: null,
    };
    const parentChain = item.itemAhead === null ? undefined : chainOf.get(item.itemAhead);
    const chain = parentChain ?? [];
    if (!parentChain) {
      chains.push(chain);
    }
    const previous = chain[chain.length - 1];
    if (previous && previous.remainingTime !== null && status.remainingTime !== null) {
      status.remainingTime = Math.max(status.remainingTime, previous.remainingTime);
    }
    chain.push(status);
    chainOf.set(item.id, chain);
    statuses.push(status);
  }
  if (ranges !== undefined) {
    addRanges(statuses, nowMs, ranges);
  }
  return { items: statuses, heads: chains };
}

/** Compute the tenant status model (pure). */
export function computeTenantStatus(input: StatusInput): TenantStatus {
  const states = new Map(input.states.map((state) => [state.name, state]));
  const status: TenantStatus = {
    tenant: input.tenant,
    zuulVersion: input.version,
    triggerEventQueue: { length: input.pendingEvents.trigger },
    managementEventQueue: { length: input.pendingEvents.management },
    resultEventQueue: { length: input.pendingEvents.result },
    state: input.eventQueues,
    lastReconfigured: input.lastReconfigured === null ? null : input.lastReconfigured.getTime(),
    pipelines: input.pipelines.map((pipeline) => {
      const state = states.get(pipeline.name);
      return {
        name: pipeline.name,
        description: pipeline.description,
        state: state?.state ?? 'normal',
        manager: pipeline.manager,
        triggers: pipeline.triggers.map((trigger) => ({ driver: trigger.driver })),
        disabled: state?.disabled ?? false,
        consecutiveFailures: state?.consecutiveFailures ?? 0,
        changeQueues: (state?.queues ?? []).map((queue) => ({
          key: queue.id,
          name: queue.name,
          window: queue.window,
          branch: queue.branch,
          ...queueItems(
            queue.items.map((item) => itemFields(item, input)),
            input.now.getTime(),
            input.estimates && {
              pipeline: pipeline.name,
              window: queue.window,
              dependent: pipeline.manager === 'dependent',
              estimates: input.estimates,
            },
          ),
        })),
        triggerEvents: input.pipelineEvents.get(pipeline.name)?.trigger ?? 0,
        resultEvents: input.pipelineEvents.get(pipeline.name)?.result ?? 0,
        managementEvents: input.pipelineEvents.get(pipeline.name)?.management ?? 0,
      };
    }),
    estimates: [],
  };
  // After the pipelines: the entries are those their jobs and items looked up.
  status.estimates = input.estimates?.entries() ?? [];
  return status;
}
