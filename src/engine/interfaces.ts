/**
 * The narrow views the engine needs of its neighbours: the tenant layout (config), the change
 * source (git connection), the merger, the executor, the node launcher, build history and the
 * event bus. Each neighbour implements its side; tests use scripted implementations.
 */
import type { BuildResult, BuildsetResult } from '../model/results';

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

export type ManagerKind = 'independent' | 'dependent' | 'serial' | 'supercedent';

/** A compiled regex filter as used by trigger `ref`/`branch` options (a negated entry excludes). */
export interface RefFilter {
  pattern: RegExp;
  negate: boolean;
}

/** One trigger filter of a pipeline: which events of which driver enter it. */
export type PipelineTrigger =
  | { driver: 'git'; connection: string; events: string[]; refs: RefFilter[]; branches: RefFilter[] }
  | { driver: 'timer'; connection: string; time: string }
  | { driver: 'zuul'; connection: string; events: ZuulTriggerEvent[]; pipelines: string[] };

/** Events of the zuul trigger driver the engine acts on (`image-build` comes from the launcher, engine.md §6.8). */
export type ZuulTriggerEvent = 'parent-change-enqueued' | 'project-change-merged' | 'image-build' | 'image-validate';

/** The reporter actions of one phase that the engine itself acts on. */
export interface ReporterActions {
  /** Connections that have a reporter in this phase (empty = no reporters). */
  connections: string[];
  /** A git reporter with `submit: true` (merge the change into its branch). */
  submit: boolean;
  /** A zuul reporter with `image-validated: true` (the item's image upload passed validation). */
  imageValidated?: boolean;
}

export type ReporterPhase =
  'enqueue' | 'start' | 'success' | 'failure' | 'merge-conflict' | 'config-error' | 'no-jobs' | 'disabled' | 'dequeue';

export interface WindowParams {
  window: number;
  floor: number;
  ceiling: number | null;
  increaseType: 'linear' | 'exponential';
  increaseFactor: number;
  decreaseType: 'linear' | 'exponential';
  decreaseFactor: number;
}

/**
 * One pipeline `require` or `reject` entry for a connection (spec §1.4, §1.14): each option
 * that is set must hold (require) or, for reject, any option that holds refuses the change.
 */
export interface ChangeRequirement {
  connection: string;
  /** The change is not merged into its branch yet. */
  open?: boolean;
  /** The change is at its newest patchset. */
  currentPatchset?: boolean;
  /** Gerrit-style status names: `NEW` (open) or `MERGED`. */
  status?: string[];
}

export interface EnginePipeline {
  name: string;
  description: string | null;
  manager: ManagerKind;
  precedence: 'high' | 'normal' | 'low';
  triggers: PipelineTrigger[];
  window: WindowParams;
  supercedes: string[];
  dequeueOnNewPatchset: boolean;
  ignoreDependencies: boolean;
  disableAfterConsecutiveFailures: number | null;
  /** Preconditions on a change entering the pipeline (checked per the change's connection). */
  require: ChangeRequirement[];
  reject: ChangeRequirement[];
  /** False: only changes of projects on a connection the pipeline names (see `pipelineConnections`). */
  allowOtherConnections: boolean;
  reporters: Record<ReporterPhase, ReporterActions>;
  messages: {
    success: string;
    failure: string;
    start: string;
    mergeConflict: string;
    dequeue: string;
    noJobs: string;
    footer: string;
  };
}

export interface EngineProject {
  /** Short name (`org/project`). */
  name: string;
  /** Canonical name (`host/org/project`). */
  canonicalName: string;
  connection: string;
  defaultBranch: string;
  mergeMode: string;
  /** Shared queue name for dependent/serial pipelines (project `queue`), if any. */
  queueName: string | null;
  /** Whether the named queue is per branch. */
  queuePerBranch: boolean;
  /** The named queue says `allow-circular-dependencies: true` (Sluice still refuses cycles). */
  queueAllowsCycles: boolean;
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
  vars: Record<string, unknown>;
  /** Everything else the executor needs (playbooks, required projects, ...), passed through. */
  params: Record<string, unknown>;
}

export type FreezeOutcome =
  | { status: 'ok'; jobs: EngineJob[]; failFast: boolean }
  | { status: 'not-in-pipeline' }
  | { status: 'error'; message: string };

export interface EngineSemaphore {
  name: string;
  max: number;
  global: boolean;
}

export interface TenantLimits {
  /** `max-changes-per-pipeline`: changes (not items) across all queues of one pipeline. */
  maxChangesPerPipeline: number | null;
  /** `max-dependencies`: unmerged changes a change may depend on, transitively. */
  maxDependencies: number | null;
}

/** The part of a tenant layout the engine uses. */
export interface EngineLayout {
  uuid: string;
  tenant: string;
  loadedAt: Date;
  /** In layout order. */
  pipelines: EnginePipeline[];
  /** Keyed by canonical name. */
  projects: ReadonlyMap<string, EngineProject>;
  semaphores: ReadonlyMap<string, EngineSemaphore>;
  /** Tenant limits (spec §1.3.1); null = no limit. */
  limits: TenantLimits;
  /**
   * Freeze the job graph of a change; `files` undefined = unknown (every file matcher matches);
   * `imageNames`: the images an `image-build` event asks for (jobs building other images are left out).
   */
  freezeJobGraph(
    pipeline: string,
    project: string,
    branch: string,
    files: readonly string[] | undefined,
    options?: { imageNames?: readonly string[] },
  ): FreezeOutcome;
  /** Whether the project has any configuration for the pipeline. */
  projectInPipeline(pipeline: string, project: string): boolean;
}

/** Find a project by short or canonical name. */
export function findProject(layout: EngineLayout, name: string): EngineProject | undefined {
  const byCanonical = layout.projects.get(name);
  if (byCanonical) {
    return byCanonical;
  }
  for (const project of layout.projects.values()) {
    if (project.name === name) {
      return project;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------

export type ChangeKind = 'change' | 'branch' | 'tag' | 'ref';

/** A change (patchset) or a ref as the engine sees it. */
export interface ChangeInfo {
  kind: ChangeKind;
  /** Canonical project name. */
  project: string;
  ref: string;
  branch: string | null;
  number: number | null;
  patchset: string | null;
  oldrev: string | null;
  newrev: string | null;
  url: string | null;
  owner: string | null;
  /** Changes named by `Depends-On:` trailers (project canonical name + number). */
  dependsOn: Array<{ project: string; number: number }>;
  /** Whether the change is already merged into its branch. */
  merged: boolean;
  /** False when a newer patchset of the change exists (absent: not known, taken as current). */
  currentPatchset?: boolean;
}

/** Answers questions about changes and refs (the git connection implements it). */
export interface ChangeSource {
  /** The change at the given patchset (latest when omitted), or null when unknown. */
  getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null>;
  /** A branch, tag or other ref update. */
  getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo>;
  /** Open changes of a project (for `project-change-merged`). */
  openChanges(project: string): Promise<ChangeInfo[]>;
  /** Open changes that depend on this one (Depends-On) in the given projects. */
  changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]>;
}

// ---------------------------------------------------------------------------------------------
// Merger
// ---------------------------------------------------------------------------------------------

/** One change of a speculative merge, oldest first (items ahead, then the item itself). */
export interface MergeItem {
  project: string;
  connection: string;
  mergeMode: string;
  ref: string;
  branch: string | null;
  number: number | null;
  patchset: string | null;
  oldrev: string | null;
  newrev: string | null;
  buildsetUuid: string;
}

export type MergeOutcome =
  { merged: true; files: string[]; repoState: Record<string, unknown> } | { merged: false; error: string };

export interface MergerGateway {
  /** Prepare the speculative state of an item: merge every change in order. */
  prepare(items: readonly MergeItem[]): Promise<MergeOutcome>;
  /** Merge a change into its target branch (idempotent: an already merged change succeeds). */
  mergeToBranch(
    item: MergeItem,
  ): Promise<{ merged: true; oldrev: string | null; newrev: string } | { merged: false; error: string }>;
}

// ---------------------------------------------------------------------------------------------
// Executor and nodes
// ---------------------------------------------------------------------------------------------

/** Everything an executor needs to run one build. */
export interface BuildParams {
  tenant: string;
  pipeline: string;
  buildUuid: string;
  buildsetUuid: string;
  itemUuid: string;
  job: EngineJob;
  /** Attempt number, from 1. */
  attempt: number;
  precedence: number;
  changes: ChangeInfo[];
  /** The speculative merge: items ahead then the item itself. */
  mergeItems: MergeItem[];
  /** Result data of the transitive dependencies (`zuul` keys removed). */
  parentData: Record<string, unknown>;
  artifacts: ArtifactInfo[];
  nodes: NodeInfo[];
  timeout: number | null;
}

export interface ArtifactInfo {
  name: string;
  url: string;
  project: string;
  change: number | null;
  patchset: string | null;
  job: string;
  metadata: Record<string, unknown> | null;
}

export interface NodeInfo {
  id: string;
  label: string;
  [key: string]: unknown;
}

export interface ExecutorGateway {
  /** Submit a build. Idempotent by build uuid (called again after a restart for builds without a result). */
  startBuild(params: BuildParams): Promise<void>;
  /** Stop a build; a completed-event may still arrive and is then ignored. */
  cancelBuild(tenant: string, buildUuid: string): Promise<void>;
  /**
   * Let a paused build continue (its post-run steps run, then it completes). Idempotent: asking
   * again, or for a build that is no longer paused, changes nothing.
   */
  resumeBuild(tenant: string, buildUuid: string): Promise<void>;
}

export interface NodeRequest {
  /** Chosen by the engine so that a request can be re-sent idempotently after a restart. */
  id: string;
  tenant: string;
  pipeline: string;
  buildsetUuid: string;
  jobName: string;
  labels: string[];
  /** Pipeline precedence: 100 high, 200 normal, 300 low. */
  priority: number;
  /** Every nodeset alternative, first choice (`labels`) first; the launcher moves on to the next one when one fails. */
  alternatives?: string[][];
  /** Canonical name of the item's project: the launcher lowers the relative priority of a project with many requests queued. */
  project?: string | null;
  /** The triggering event, for log correlation. */
  eventId?: string | null;
  /** image-validate items: the images and the upload whose nodes must boot from exactly that upload. */
  imageNames?: string[] | null;
  imageUploadUuid?: string | null;
}

export interface NodeGateway {
  /** Request nodes (idempotent by request id); fulfilment arrives later as a `nodes-provisioned` result event. */
  requestNodes(request: NodeRequest): Promise<void>;
  cancelRequest(tenant: string, requestId: string): Promise<void>;
  returnNodes(tenant: string, nodes: NodeInfo[]): Promise<void>;
  /** Hold nodes for an autohold request. */
  holdNodes(tenant: string, nodes: NodeInfo[], reason: string, expirationSeconds: number): Promise<void>;
  /** Mark an image upload validated (a zuul reporter `image-validated: true` on success); unknown uploads are ignored. */
  markUploadValidated?(tenant: string, uploadUuid: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Result events (durable rows in `engine_events`, category `result`)
// ---------------------------------------------------------------------------------------------

export type ResultEvent =
  | { type: 'build-started'; buildUuid: string; startTime: string; logUrl?: string | null }
  | {
      type: 'build-completed';
      buildUuid: string;
      /** null, ABORTED (or a build-level MERGE_CONFLICT) are retried while attempts remain. */
      result: BuildResult | null;
      endTime: string;
      errorDetail?: string | null;
      logUrl?: string | null;
      artifacts?: Array<{ name: string; url: string; metadata?: Record<string, unknown> | null }>;
      /** Result data returned by the job (passed to dependent jobs). */
      data?: Record<string, unknown>;
      /** `child_jobs` returned by the job: null when absent, else the dependents to keep. */
      childJobs?: string[] | null;
    }
  | {
      /** The run phase succeeded and asked to pause (`zuul.pause`): the build waits for its dependents (spec §2.2.2). */
      type: 'build-paused';
      buildUuid: string;
      /** Result data returned so far (given to the dependents). */
      data?: Record<string, unknown>;
      artifacts?: Array<{ name: string; url: string; metadata?: Record<string, unknown> | null }>;
      childJobs?: string[] | null;
    }
  | { type: 'nodes-provisioned'; requestId: string; fulfilled: boolean; nodes: NodeInfo[] };

// ---------------------------------------------------------------------------------------------
// Build history (SQL reporter writes, spec §4.2)
// ---------------------------------------------------------------------------------------------

export interface HistoryRef {
  project: string;
  ref: string;
  refUrl: string | null;
  change: number | null;
  patchset: string | null;
  oldrev: string | null;
  newrev: string | null;
  branch: string | null;
}

export interface BuildHistoryWriter {
  /** Buildset start: returns the row id and the ids of its refs (in the order given). */
  createBuildset(input: {
    uuid: string;
    tenant: string;
    pipeline: string;
    eventId: string | null;
    eventTimestamp: Date | null;
    refs: HistoryRef[];
    triggeredBy: string;
    at: Date;
  }): Promise<{ id: number; refIds: number[] }>;
  finishBuildset(
    buildsetId: number,
    input: { result: BuildsetResult; message: string | null; at: Date },
  ): Promise<void>;
  startBuild(input: {
    buildsetId: number;
    uuid: string;
    jobName: string;
    startTime: Date;
    voting: boolean;
    nodeset: string | null;
    refId: number | null;
    attempt: number;
  }): Promise<number>;
  completeBuild(
    buildId: number,
    input: {
      result: BuildResult;
      endTime: Date;
      errorDetail: string | null;
      logUrl: string | null;
      final: boolean;
      held: boolean;
      artifacts: Array<{ name: string; url: string; metadata: Record<string, unknown> | null }>;
      provides: string[];
    },
  ): Promise<void>;
  /** A `paused` or `resumed` event of a started build (spec §3.9 `zuul_build_event`). */
  buildEvent(buildId: number, input: { eventType: 'paused' | 'resumed'; eventTime: Date }): Promise<void>;
  /** Average duration in seconds of the last 10 final SUCCESS builds, or null. */
  estimatedTime(tenant: string, project: string, branch: string | null, jobName: string): Promise<number | null>;
}

// ---------------------------------------------------------------------------------------------
// Clock
// ---------------------------------------------------------------------------------------------

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
