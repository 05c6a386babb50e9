/**
 * The tenant status model (docs/rest.md#status-document) computed by a pure function from stored engine state:
 * pipelines -> change queues -> heads -> items -> jobs, with every field of the current (2025)
 * document plus Sluice's explanations (why an item waits, why a job waits). `toCurrentShape`
 * and `toEarlierShape` render the two REST documents.
 */
import { projectName, type EnginePipeline } from './ports/layout';
import type {
  ItemState,
  JobState,
  JobWaitReason,
  PipelineState,
  QueueState,
  TenantEventQueueState,
} from '../model/pipeline-state';
import { changeId, type ChangeInfo } from '../model/changes';

export interface JobStatus {
  name: string;
  dependencies: string[];
  elapsedTime: number | null;
  remainingTime: number | null;
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
}

export interface RefStatus {
  url: string | null;
  ref: string | null;
  project: string;
  projectCanonical: string;
  owner: string | null;
  id: string;
}

export interface ItemStatus {
  id: string;
  active: boolean;
  live: boolean;
  refs: RefStatus[];
  itemAhead: string | null;
  itemsBehind: string[];
  failingReasons: string[];
  zuulRef: string | null;
  enqueueTime: number;
  jobs: JobStatus[];
  remainingTime: number | null;
  /** Sluice: why the item does not run jobs yet ('window' outside the active window, 'merge' while merging). */
  waitingFor: 'window' | 'merge' | null;
}

export interface ChangeQueueStatus {
  name: string;
  window: number;
  branch: string | null;
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

export interface TenantStatus {
  tenant: string;
  zuulVersion: string;
  triggerEventQueue: { length: number };
  managementEventQueue: { length: number };
  resultEventQueue: { length: number };
  state: TenantEventQueueState;
  lastReconfigured: number | null;
  pipelines: PipelineStatus[];
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
}

/** What every item and job of one status computation reads besides its own state. */
type StatusContext = Pick<StatusInput, 'now' | 'webRoot' | 'projectName' | 'changeUrl' | 'estimatedTime'>;

function seconds(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso) / 1000;
}

function jobStatus(job: JobState, item: ItemState, context: StatusContext): JobStatus {
  const { now, webRoot } = context;
  const pipeline = item.pipeline;
  const build = job.build;
  const startMs = build?.startTime ? Date.parse(build.startTime) : null;
  const endMs = build?.endTime ? Date.parse(build.endTime) : null;
  const elapsed = startMs === null ? null : (endMs ?? now.getTime()) - startMs;
  // As in the reference, a build gets its estimate when it starts.
  const estimated = startMs === null ? null : (context.estimatedTime?.(item, job.job.name) ?? null);
  let remaining: number | null = null;
  if (build?.result) {
    remaining = 0;
  } else if (elapsed !== null && estimated !== null) {
    remaining = Math.max(estimated * 1000 - elapsed, 0);
  }
  const started = elapsed !== null;
  return {
    name: job.job.name,
    dependencies: job.job.dependencies.map((dependency) => dependency.name),
    elapsedTime: elapsed,
    remainingTime: remaining,
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
  };
}

function itemStatus(item: ItemState, queue: QueueState, context: StatusContext): ItemStatus {
  const jobs = item.live ? item.buildset.jobs.map((job) => jobStatus(job, item, context)) : [];
  const allStarted = jobs.length > 0 && jobs.every((job) => job.remainingTime !== null);
  const uuids = new Set(queue.items.map((candidate) => candidate.uuid));
  return {
    id: item.uuid,
    active: item.active,
    live: item.live,
    refs: item.changes.map((change) => ({
      url: change.url ?? context.changeUrl?.(change) ?? null,
      ref: change.ref,
      project: (context.projectName ?? ((canonical) => projectName(null, canonical)))(change.project),
      projectCanonical: change.project,
      owner: change.owner,
      id: changeId(change),
    })),
    itemAhead: item.itemAhead,
    itemsBehind: queue.items
      .filter((candidate) => candidate.itemAhead === item.uuid && uuids.has(candidate.uuid))
      .map((candidate) => candidate.uuid),
    failingReasons: item.failingReasons,
    zuulRef: item.buildset.configured ? `Z${item.buildset.uuid}` : null,
    enqueueTime: Date.parse(item.enqueueTime),
    jobs,
    remainingTime: allStarted ? Math.max(...jobs.map((job) => job.remainingTime ?? 0)) : null,
    waitingFor: !item.active ? 'window' : item.buildset.mergeState === 'new' ? 'merge' : null,
  };
}

/** Split a queue into chains: a new chain starts at each item without an item ahead. */
function heads(queue: QueueState, context: StatusContext): ItemStatus[][] {
  const chains: ItemStatus[][] = [];
  const chainOf = new Map<string, ItemStatus[]>();
  for (const item of queue.items) {
    const status = itemStatus(item, queue, context);
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
    chainOf.set(item.uuid, chain);
  }
  return chains;
}

/** Compute the tenant status model (pure). */
export function computeTenantStatus(input: StatusInput): TenantStatus {
  const states = new Map(input.states.map((state) => [state.name, state]));
  return {
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
          name: queue.name,
          window: queue.window,
          branch: queue.branch,
          heads: heads(queue, input),
        })),
        triggerEvents: input.pipelineEvents.get(pipeline.name)?.trigger ?? 0,
        resultEvents: input.pipelineEvents.get(pipeline.name)?.result ?? 0,
        managementEvents: input.pipelineEvents.get(pipeline.name)?.management ?? 0,
      };
    }),
  };
}
