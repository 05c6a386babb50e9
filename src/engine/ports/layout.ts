/**
 * The layout port: the part of a tenant layout the engine uses (pipelines, projects,
 * semaphores, limits, job freezing). src/engine/layout-adapter.ts implements it over the
 * configuration's Layout; engine tests build one from plain objects.
 */
import type { ChangeInfo } from '../../model/changes';
import type { TriggerEvent } from '../../model/engine-events';
import { nameFromCanonical } from '../../model/changes';
import type { MergeMode } from '../../model/merge-modes';
import type { ConfigLocation, ProposedConfig } from '../../model/proposed-config';
import type { EngineJob, WindowParams } from '../../model/pipeline-state';

export type ManagerKind = 'independent' | 'dependent' | 'serial' | 'supercedent';

/** A compiled regex filter as used by trigger `ref`/`branch` options (a negated entry matches what its regex does not). */
export interface RefFilter {
  pattern: RegExp;
  negate: boolean;
}

/** What a trigger judges: a pending event, with its change once read. */
export interface TriggerSubject {
  event: Pick<TriggerEvent, 'type' | 'ref' | 'branch' | 'pipeline' | 'parentPipeline'> & Partial<TriggerEvent>;
  /** The pipeline the trigger belongs to. */
  pipeline: string;
  /** The connection of the event's project. */
  connection: string;
  /** The event's ref; undefined while unknown (its change is not read yet). */
  ref: string | undefined;
  /** The event's branch; null for a ref that is no branch, undefined while unknown. */
  branch: string | null | undefined;
  /** The event's change; undefined while not read (the trigger then judges the event's own fields). */
  change: ChangeInfo | undefined;
  /** The pass's clock (review-age requirements, docs/github.md#requirements). */
  now: Date;
}

/**
 * One trigger filter of a pipeline, compiled by its driver's rules (src/drivers/): which events
 * enter the pipeline.
 */
export interface PipelineTrigger {
  /** The driver that compiled it (shown in the status). */
  driver: string;
  connection: string;
  /** The event types it may take. */
  events: readonly string[];
  /** A cron specification: the engine writes a `timer` event at each fire time (docs/gating.md#sluices-own-rules). */
  time?: string;
  matches(subject: TriggerSubject): boolean;
}

/** What the engine acts on of one reporter, as its driver compiled it. */
export interface ReporterAction {
  /** Merge the change into its branch on success. */
  submit?: boolean;
  /** The item's image upload passed validation (docs/launcher.md#images). */
  imageValidated?: boolean;
  /** Hand the reports to the `ChangeReporter` port (src/engine/ports/reporter.ts). */
  external?: boolean;
  /**
   * Labels it votes before a merge (a Gerrit reporter's): a dependent pipeline does not hold them
   * missing against a change (the reference's "allow needs", docs/gerrit.md#submit-requirements).
   */
  allowNeeds?: readonly string[];
}

/** The reporter actions of one phase that the engine itself acts on. */
export interface ReporterActions {
  /** Connections that have a reporter in this phase (empty = no reporters). */
  connections: string[];
  /** A reporter merges the change into its branch on success (git `submit: true`, github `merge: true`). */
  submit: boolean;
  /** A reporter says the item's image upload passed validation (zuul `image-validated: true`). */
  imageValidated?: boolean;
  /** Reporters whose reports go to the `ChangeReporter` port (src/engine/ports/reporter.ts). */
  external?: Array<{ connection: string; driver: string; options: Record<string, unknown> }>;
  /** The labels its reporters vote (`ReporterAction.allowNeeds`, all of them). */
  allowNeeds?: string[];
}

export type ReporterPhase =
  'enqueue' | 'start' | 'success' | 'failure' | 'merge-conflict' | 'config-error' | 'no-jobs' | 'disabled' | 'dequeue';

/**
 * One pipeline `require` or `reject` entry for a connection (docs/project-configuration.md#pipelines,
 * docs/project-configuration.md#triggers-reporters-and-requirements): each option that is set must hold (require) or,
 * for reject, any option that holds refuses the change.
 */
export interface ChangeRequirement {
  connection: string;
  /** The change is not merged into its branch yet. */
  open?: boolean;
  /** The change is at its newest patchset. */
  currentPatchset?: boolean;
  /** Gerrit-style status names: `NEW` (open) or `MERGED`. */
  status?: string[];
  /**
   * A driver's own options (docs/github.md#requirements), compiled by its rules: why the change
   * fails them (require) or matches them (reject) at `now` (the pass's clock), or null.
   */
  driverCheck?: (change: ChangeInfo, now: Date) => string | null;
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
  /** Retries in place of a known-flaky job that fails (0: off; docs/analytics.md#flake-aware-gating). */
  flakyRetries: number;
  /** The flake rate from which a job counts as known-flaky; null: the default. */
  flakyThreshold: number | null;
  ignoreDependencies: boolean;
  disableAfterConsecutiveFailures: number | null;
  /** Preconditions on a change entering the pipeline (checked per the change's connection). */
  require: ChangeRequirement[];
  reject: ChangeRequirement[];
  /** False: only changes of projects on a connection the pipeline names (see `pipelineConnections`). */
  allowOtherConnections: boolean;
  reporters: Record<ReporterPhase, ReporterActions>;
  /** `post-review`: the pipeline runs changes after review (jobs see it as `zuul.post_review`). */
  postReview?: boolean;
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
  mergeMode: MergeMode;
  /** Shared queue name for dependent/serial pipelines (project `queue`), if any. */
  queueName: string | null;
  /** Whether the named queue is per branch. */
  queuePerBranch: boolean;
  /** The named queue says `allow-circular-dependencies: true`: a dependency cycle may enter as one item. */
  queueAllowsCycles: boolean;
  /**
   * The named queue says `dependencies-by-topic: true`: open changes sharing a change's topic
   * depend on each other (docs/gating.md#dependency-cycles).
   */
  queueDependenciesByTopic?: boolean;
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
  /** Tenant limits (docs/gating.md#tenant-limits); null = no limit. */
  limits: TenantLimits;
  /**
   * Freeze the job graph of a change; `files` undefined = unknown (every file matcher matches);
   * `imageNames`: the images an `image-build` event asks for (jobs building other images are left out);
   * `ref`: the item of a tag or other ref that is no branch, matched by its full ref and (a tag) the
   * branches containing its commit (docs/project-configuration.md#jobs).
   */
  freezeJobGraph(
    pipeline: string,
    project: string,
    branch: string,
    files: readonly string[] | undefined,
    options?: { imageNames?: readonly string[]; ref?: { ref: string; containingBranches: readonly string[] } },
  ): FreezeOutcome;
  /** Whether the project has any configuration for the pipeline. */
  projectInPipeline(pipeline: string, project: string): boolean;
  /**
   * Where a project's configuration is read, for the speculative merge to read it back
   * (docs/gating.md#speculative-layouts); null: it loads none. Absent: no speculative layouts.
   */
  configLocation?(project: string): ConfigLocation | null;
  /**
   * The layout of an item whose merged state proposes `proposed` (absent: no speculative layouts);
   * `ahead`: what the item ahead of it proposed (its layout is what `match-on-config-updates`
   * compares with; none: the live layout).
   */
  speculative?(proposed: readonly ProposedConfig[], ahead?: readonly ProposedConfig[]): SpeculativeLayout;
}

/** What an item that changes configuration is frozen with (docs/gating.md#speculative-layouts). */
export interface SpeculativeLayout {
  /** The errors its proposed configuration brings, each a full message with its file and line; empty: valid. */
  errors: string[];
  /** The warnings it brings, likewise (the first is reported with the item, docs/gating.md#speculative-layouts). */
  warnings: string[];
  /** Freeze with the proposed configuration (a job the proposal changes matches its files with `match-on-config-updates`). */
  freezeJobGraph: EngineLayout['freezeJobGraph'];
}

/**
 * The name (`org/project`) of a project known by its canonical name: the layout's, else what
 * follows the host part (`<host>/<name>`, how canonical names are made) for a project the
 * layout no longer has.
 */
export function projectName(layout: EngineLayout | null, canonicalName: string): string {
  return layout?.projects.get(canonicalName)?.name ?? nameFromCanonical(canonicalName);
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
