/**
 * Runtime state of a tenant's pipelines (docs/gating.md#runtime-state), as plain JSON-serialisable
 * records: the scheduler keeps it in memory and the store saves and loads it unchanged.
 */
import type { ChangeInfo, MergeItem } from './changes';
import type { FrozenJobExecution } from './frozen-job';
import type { ConfigDigest, ProposedConfig } from './proposed-config';
import type { BuildResult, BuildsetResult } from './results';

/** Window parameters of a change queue (docs/gating.md#windows). */
export interface WindowParams {
  window: number;
  floor: number;
  ceiling: number | null;
  increaseType: 'linear' | 'exponential';
  increaseFactor: number;
  decreaseType: 'linear' | 'exponential';
  decreaseFactor: number;
}

export interface JobDependencySpec {
  name: string;
  soft: boolean;
}

export interface JobSemaphoreSpec {
  name: string;
  resourcesFirst: boolean;
}

/** A job frozen for one item: what the engine needs to schedule it (the rest travels in `params`). */
export interface EngineJob {
  name: string;
  dependencies: JobDependencySpec[];
  voting: boolean;
  attempts: number;
  /** Sluice: retries in place when this known-flaky job fails, over the pipeline's (absent: the pipeline's). */
  flakyRetries?: number;
  timeout: number | null;
  semaphores: JobSemaphoreSpec[];
  /**
   * Name of the nodeset ('' when anonymous) and its node labels; no labels = no nodes needed.
   * `alternatives`: the labels of every nodeset alternative in order (the first is `labels`).
   */
  nodeset: { name: string; labels: string[]; alternatives?: string[][] };
  provides: string[];
  requires: string[];
  holdFollowingChanges: boolean;
  /** How the job is deduplicated in a dependency cycle (absent: `auto`; docs/gating.md#dependency-cycles). */
  deduplicate?: boolean | 'auto';
  vars: Record<string, unknown>;
  /** Everything else the executor needs (scripts, required projects, secrets, ...), passed through unread. */
  params: FrozenJobExecution;
}

/** A node the launcher provided, as the engine keeps it for the job (the launcher's fields pass through). */
export interface NodeInfo {
  id: string;
  label: string;
  [key: string]: unknown;
}

/** An artifact of a parent or provider build given to a job. */
export interface ArtifactInfo {
  name: string;
  url: string;
  project: string;
  change: number | null;
  patchset: string | null;
  job: string;
  metadata: Record<string, unknown> | null;
}

/** Why an item left its pipeline (visible in status history and system events). */
export type DequeueReason =
  | { kind: 'reported'; result: BuildsetResult }
  | { kind: 'dequeued-by-admin'; by: string | null }
  | { kind: 'superseded'; by: string }
  | { kind: 'new-patchset'; patchset: string }
  | { kind: 'cycle-changed'; message: string }
  | { kind: 'change-abandoned'; message: string }
  | { kind: 'dependency-dequeued'; message: string }
  | { kind: 'requirements-not-met'; message: string }
  | { kind: 'too-many-dependencies'; message: string }
  | { kind: 'non-live-no-items-behind' }
  | { kind: 'reconfiguration'; message: string }
  | { kind: 'promoted' };

/** What a job is waiting for before it can start (docs/rest.md#status-document `waiting_status`). */
export type JobWaitReason =
  'window' | 'merge' | 'hold-following-changes' | 'requirements' | 'dependencies' | 'semaphores' | 'nodes' | 'executor';

/** A build event (the reference's `BuildEvent`): the build paused or was resumed. */
export interface BuildEventState {
  eventType: 'paused' | 'resumed';
  eventTime: string;
  description: string | null;
}

export interface BuildState {
  uuid: string;
  /** History row id once the build started. */
  historyId: number | null;
  attempt: number;
  executeTime: string;
  startTime: string | null;
  endTime: string | null;
  result: BuildResult | null;
  errorDetail: string | null;
  logUrl: string | null;
  canceled: boolean;
  retry: boolean;
  held: boolean;
  data: Record<string, unknown>;
  artifacts: Array<{ name: string; url: string; metadata: Record<string, unknown> | null }>;
  /** Set once the executor was asked to run it (re-sent after a restart while the build has no result). */
  submitted: boolean;
  /**
   * The build paused after its run phase (`zuul.pause`) and waits for its dependents; its data
   * is already given to them. Absent in builds saved before pausing existed.
   */
  paused?: boolean;
  /** The engine asked the executor to resume the paused build (asked again after a restart until it completes). */
  resumeRequested?: boolean;
  /**
   * When the build paused and was resumed, oldest first (the reference's build events, which its
   * MQTT reporter publishes; docs/reporters.md#message). Absent: none, or saved before they were kept.
   */
  events?: BuildEventState[];
  /** Why the build is retried: 'flaky' when it failed and its job is known-flaky (docs/analytics.md#flake-aware-gating). */
  retryReason?: 'infrastructure' | 'flaky';
}

export interface JobState {
  job: EngineJob;
  /**
   * The job's uuid in the frozen job graph (32 hex digits, docs/reporters.md#message): made when
   * the graph is frozen, a new one when it is frozen again (absent in jobs stored before it was kept).
   */
  uuid?: string;
  tries: number;
  build: BuildState | null;
  retryBuilds: BuildState[];
  waitReason: JobWaitReason | null;
  waitingStatus: string | null;
  nodeRequestId: string | null;
  nodesReady: boolean;
  nodes: NodeInfo[];
  semaphoresHeld: string[];
  artifacts: ArtifactInfo[];
  /** Retries in place this job had for flakiness in this buildset (absent: none). */
  flakyRetries?: number;
  /** The job is quarantined: its failure is reported but does not fail the item (docs/analytics.md#quarantine). */
  quarantined?: boolean;
  /** Index in `item.changes` of the change it runs for (absent: 0; several only in a dependency cycle). */
  change?: number;
  /** The other changes of a cycle it runs for, deduplicated (docs/gating.md#dependency-cycles). */
  otherChanges?: number[];
}

export interface BranchMergeState {
  /** The pipeline was disabled when the item reported (its `disabled` reporters report). */
  disabled: boolean;
  /** The success report went out with the merge (before it). */
  reported: boolean;
  done: boolean;
  error: string | null;
  /**
   * The buildset of the item ahead whose merge this one is made after: asked for while that merge
   * was out (docs/gating.md#merges-in-a-row); absent for the merge of a queue's head.
   */
  after?: string | null;
  /** The merge was not made because the one ahead of it was not (the item is tested again). */
  skipped?: boolean;
}

export interface BuildsetState {
  uuid: string;
  historyId: number | null;
  /** History id of the item's (first) ref, known once the buildset row exists. */
  historyRefId?: number | null;
  /** History ids of every change's ref, in item order, for an item of a dependency cycle (builds record their own change's). */
  historyRefIds?: number[];
  configured: boolean;
  mergeItems: MergeItem[];
  mergeState: 'new' | 'complete';
  /** Its speculative merge is stored as engine work and not answered yet (docs/gating.md#engine-work). */
  mergeRequested?: boolean;
  /** The commits the speculative merge prepared, as the merger gave them (absent before it answered). */
  repoState?: Record<string, unknown> | null;
  /**
   * A tag's item: the branches containing the tagged commit, as the merger found them (absent
   * before it answered); its branch matchers match them (docs/project-configuration.md#jobs).
   */
  containingBranches?: string[] | null;
  /**
   * The merge of the successful item into its branches, stored as engine work: whether the success
   * report went with it, the reporters' phase, and once `done` the first refusal (null: merged).
   */
  branchMerge?: BranchMergeState | null;
  /**
   * The configuration the speculative merge proposes, until the job graph is frozen with it
   * (docs/gating.md#speculative-layouts); null or absent: the item changes no configuration.
   */
  proposedConfig?: ProposedConfig[] | null;
  /**
   * Digests of what its speculative merge proposed, kept after the freeze for the items behind it:
   * `match-on-config-updates` compares their jobs with this item's layout.
   */
  proposedDigests?: ConfigDigest[] | null;
  /** The job graph was frozen with a speculative layout. */
  speculativeLayout?: boolean;
  /** The first warning that layout brings, added to every report of the item (docs/gating.md#speculative-layouts). */
  configWarning?: string | null;
  /**
   * The warnings of its completed builds, retried ones included, in the order they completed
   * (the reference's `BuildSet.warning_messages`); appended to its reports. Absent: none.
   */
  warningMessages?: string[];
  files: string[] | null;
  unableToMerge: boolean;
  mergeError: string | null;
  configError: string | null;
  /** The project has no configuration for this pipeline. */
  notInPipeline: boolean;
  jobGraphFrozen: boolean;
  jobs: JobState[];
  failFast: boolean;
  result: BuildsetResult | null;
  startTime: string | null;
}

export interface ItemState {
  uuid: string;
  pipeline: string;
  queueName: string;
  changes: ChangeInfo[];
  live: boolean;
  active: boolean;
  quiet: boolean;
  itemAhead: string | null;
  enqueueTime: string;
  eventId: string | null;
  eventTimestamp: string | null;
  /** Images named by the triggering `image-build` event (absent in items saved before it existed). */
  imageNames?: string[] | null;
  /** The upload an `image-validate` event asks to validate (absent in items saved before it existed). */
  imageUploadUuid?: string | null;
  /** One-line description of the triggering ref for the buildset `triggered` event. */
  triggeredBy: string;
  reportedStart: boolean;
  reported: boolean;
  dequeuedNeedingChange: string | null;
  /** Why the item no longer meets the pipeline's requirements (set when it is dequeued for that). */
  dequeuedMissingRequirements?: string | null;
  /** Enqueued with requirements ignored (admin enqueue): they are not re-checked before merging. */
  requirementsIgnored?: boolean;
  failingReasons: string[];
  firstJobStartTime: string | null;
  buildset: BuildsetState;
  dequeueTime: string | null;
  dequeueReason: DequeueReason | null;
}

export interface QueueState {
  /** Store id (0 until first saved). */
  id: number;
  name: string;
  branch: string | null;
  /** Canonical project names served. */
  projects: string[];
  dynamic: boolean;
  window: number;
  params: WindowParams;
  /** Items in queue order (head first); the `itemAhead` links form the tree. */
  items: ItemState[];
}

export interface PipelineState {
  name: string;
  state: 'normal' | 'error';
  disabled: boolean;
  consecutiveFailures: number;
  queues: QueueState[];
}

export interface TenantEventQueueState {
  triggerQueueDiscarding: boolean;
  triggerQueuePaused: boolean;
  resultQueuePaused: boolean;
  reason: string | null;
}

/** A tenant's event queues as they are until an operation pauses one: all running. */
export function defaultEventQueues(): TenantEventQueueState {
  return { triggerQueueDiscarding: false, triggerQueuePaused: false, resultQueuePaused: false, reason: null };
}

/**
 * The key of a job in its item (`queue_item_jobs.job_name`): its name, with the change it runs
 * for when that is not the item's first (a dependency cycle can run two jobs of one name).
 */
export function jobKey(job: JobState): string {
  return job.change ? `${job.job.name}#${job.change}` : job.job.name;
}
