/**
 * The tenant layout: the fully parsed configuration of one tenant
 * (docs/project-configuration.md#how-configuration-is-loaded), immutable once built and identified by a uuid. The
 * engine, the GraphQL schema and the REST layer read these types; nothing here refers to YAML or git.
 */
import type { ConfigError, SourceContext } from './config-error';
import type { BranchMatcher, RegexSpec } from './regex';
import type { TenantConfig } from './tenant-file';
import type { MergeMode } from '../model/merge-modes';
import type { Redactor } from '../secrets/redact';

export type { ConfigError, SourceContext } from './config-error';
export type { BranchMatcher, RegexSpec } from './regex';
export type { TenantConfig, AuthorizationRule, GlobalSemaphore, ApiRoot, Abide } from './tenant-file';
export type { TenantProjectConfig } from './tenant-sources';

/** A node of a nodeset: `name` is the first name, `aliases` the others sharing the host. */
export interface NodesetNode {
  name: string;
  aliases: string[];
  label: string;
}

export interface NodesetGroup {
  name: string;
  nodes: string[];
}

/** A nodeset: concrete (`nodes`/`groups`) or a list of alternatives (names or anonymous nodesets). */
export interface Nodeset {
  /** Empty for anonymous nodesets. */
  name: string;
  nodes: NodesetNode[];
  groups: NodesetGroup[];
  alternatives: Array<string | Nodeset>;
  sourceContext?: SourceContext;
}

/** A playbook (Sluice: a script) entry of `pre-run`/`run`/`post-run`/`cleanup-run`. */
export interface Playbook {
  path: string;
  semaphores: string[];
  cleanup: boolean;
  /** Context of the job variant that added it (trust comes from `sourceContext.trusted`). */
  sourceContext: SourceContext;
  /** Secrets bound to the variant that added the playbook: alias -> secret name. */
  secrets: JobSecret[];
  roles: JobRole[];
  /** 0 for the job's own variants, growing towards the base job. */
  nestingLevel?: number;
}

export interface JobSecret {
  /** The variable name the secret is exposed as. */
  alias: string;
  /** The secret object's name. */
  secretName: string;
  passToParent: boolean;
}

export interface JobRole {
  type: 'zuul' | 'galaxy';
  targetName: string;
  projectCanonicalName: string;
  implicit: boolean;
}

export interface JobSemaphore {
  name: string;
  resourcesFirst: boolean;
}

export interface RequiredProject {
  /** As written (short or canonical name). */
  projectName: string;
  projectCanonicalName: string;
  overrideBranch?: string;
  overrideCheckout?: string;
}

export interface IncludeVars {
  name: string;
  projectName?: string;
  zuulProject: boolean;
  required: boolean;
  useRef: boolean;
}

export interface JobDependency {
  name: string;
  soft: boolean;
}

/** A nodeset attribute on a job: a named reference or an anonymous nodeset. */
export type JobNodeset = { kind: 'named'; name: string } | { kind: 'anonymous'; nodeset: Nodeset };

/** Attributes a job definition may set; undefined = not set by this definition. */
export interface JobAttributes {
  description?: string;
  variantDescription?: string;
  parent?: string | null;
  abstract?: boolean;
  intermediate?: boolean;
  final?: boolean;
  protected?: boolean;
  attributeControl?: Record<string, { final: boolean }>;
  successMessage?: string;
  failureMessage?: string;
  successUrl?: string;
  failureUrl?: string;
  holdFollowingChanges?: boolean;
  voting?: boolean;
  semaphores?: JobSemaphore[];
  tags?: string[];
  provides?: string[];
  requires?: string[];
  files?: RegexSpec[];
  irrelevantFiles?: RegexSpec[];
  matchOnConfigUpdates?: boolean;
  secrets?: JobSecret[];
  nodeset?: JobNodeset;
  preTimeout?: number;
  timeout?: number;
  postTimeout?: number;
  attempts?: number;
  /** Sluice: flaky retries of this job, over the pipeline's (docs/analytics.md#flake-aware-gating). */
  flakyRetries?: number;
  preRun?: Playbook[];
  run?: Playbook[];
  postRun?: Playbook[];
  cleanupRun?: Playbook[];
  ansibleSplitStreams?: boolean;
  ansibleVersion?: string;
  roles?: JobRole[];
  requiredProjects?: RequiredProject[];
  vars?: Record<string, unknown>;
  extraVars?: Record<string, unknown>;
  hostVars?: Record<string, unknown>;
  groupVars?: Record<string, unknown>;
  includeVars?: IncludeVars[];
  dependencies?: JobDependency[];
  allowedProjects?: string[];
  overrideCheckout?: string;
  postReview?: boolean;
  workspaceScheme?: 'golang' | 'flat' | 'unique';
  workspaceCheckout?: boolean | 'auto';
  deduplicate?: boolean | 'auto';
  failureOutput?: string[];
  imageBuildName?: string;
}

export type JobAttributeName = keyof JobAttributes;

/** One definition ("variant") of a job, top-level or inline in a project pipeline. */
export interface JobVariant {
  name: string;
  sourceContext: SourceContext;
  /** Line of the definition in its file. */
  line: number;
  /** Explicit `branches` or the implied matcher; undefined = all branches. */
  branchMatcher?: BranchMatcher;
  /** True for variants written inline in a project/template pipeline job list. */
  projectPipelineVariant: boolean;
  /** True for built-in jobs (`noop`); their source context is synthetic and shown as null. */
  builtin?: boolean;
  attributes: Readonly<JobAttributes>;
  /** Attributes written with `!override` / `!inherit`. */
  overrideControl: Readonly<Partial<Record<JobAttributeName, 'override' | 'inherit'>>>;
}

/** One entry of a project-pipeline job list: a job name and optionally its inline variant. */
export interface ProjectPipelineJob {
  name: string;
  variant?: JobVariant;
}

export interface ProjectPipelineConfig {
  jobs: ProjectPipelineJob[];
  debug?: boolean;
  failFast?: boolean;
}

/** A `project` or `project-template` stanza. */
export interface ProjectStanza {
  kind: 'project' | 'project-template';
  /** Template name, or the project name as written (may be a `^regex`). */
  name: string;
  /** For project stanzas: the canonical name of the project it configures (unset for regex stanzas before expansion). */
  projectCanonicalName?: string;
  /** True for stanzas given by a `^` regex name. */
  isRegex: boolean;
  sourceContext: SourceContext;
  line: number;
  branchMatcher?: BranchMatcher;
  description?: string;
  templates: string[];
  defaultBranch?: string;
  mergeMode?: MergeMode;
  queue?: string;
  vars: Record<string, unknown>;
  /** Pipeline name -> its config, in written order. */
  pipelines: ReadonlyMap<string, ProjectPipelineConfig>;
}

export interface TriggerConfig {
  connection: string;
  driver: string;
  filters: Array<Record<string, unknown>>;
}

export interface ReporterConfig {
  connection: string;
  driver: string;
  options: Record<string, unknown>;
}

export type PipelineManager = 'independent' | 'dependent' | 'serial' | 'supercedent';
export const REPORTER_PHASES = [
  'enqueue',
  'start',
  'success',
  'failure',
  'merge-conflict',
  'config-error',
  'no-jobs',
  'disabled',
  'dequeue',
] as const;
export type ReporterPhase = (typeof REPORTER_PHASES)[number];

export interface Pipeline {
  name: string;
  manager: PipelineManager;
  description?: string;
  sourceContext: SourceContext;
  triggers: TriggerConfig[];
  require: Array<{ connection: string; driver: string; options: Record<string, unknown> }>;
  reject: Array<{ connection: string; driver: string; options: Record<string, unknown> }>;
  reporters: Record<ReporterPhase, ReporterConfig[]>;
  allowOtherConnections: boolean;
  precedence: 'high' | 'normal' | 'low';
  supercedes: string[];
  postReview: boolean;
  dequeueOnNewPatchset: boolean;
  /** Sluice: how many times a known-flaky job that fails is retried in place (docs/analytics.md#flake-aware-gating). */
  flakyRetries: number;
  /** Sluice: the flake rate from which a job counts as known-flaky (null: the default). */
  flakyThreshold: number | null;
  ignoreDependencies: boolean;
  disableAfterConsecutiveFailures?: number;
  window: number;
  windowFloor: number;
  windowCeiling: number | null;
  windowIncreaseType: 'linear' | 'exponential';
  windowIncreaseFactor: number;
  windowDecreaseType: 'linear' | 'exponential';
  windowDecreaseFactor: number;
  messages: {
    success: string;
    failure: string;
    start: string;
    enqueue: string;
    noJobs: string;
    mergeConflict: string;
    dequeue: string;
    footer: string;
  };
}

export interface Semaphore {
  name: string;
  max: number;
  global: boolean;
  sourceContext?: SourceContext;
}

export interface Secret {
  name: string;
  sourceContext: SourceContext;
  /** Secret data with encrypted values kept as `{encrypted: 'pkcs1-oaep', chunks: [...]}`. */
  data?: Record<string, unknown>;
  oidc?: { ttl?: number; iss?: string; algorithm?: string; claims: Record<string, unknown> };
}

export interface Queue {
  name: string;
  perBranch: boolean;
  allowCircularDependencies: boolean;
  dependenciesByTopic: boolean;
  sourceContext: SourceContext;
}

export interface Image {
  name: string;
  canonicalName: string;
  type: 'zuul' | 'cloud';
  description?: string;
  sourceContext: SourceContext;
}

export interface Flavor {
  name: string;
  canonicalName: string;
  description?: string;
  sourceContext: SourceContext;
}

export interface Label {
  name: string;
  canonicalName: string;
  image: string;
  flavor: string;
  description?: string;
  minReady?: number;
  maxReadyAge?: number;
  sourceContext: SourceContext;
}

/** A `section` as written (extra keys kept). */
export interface Section {
  name: string;
  canonicalName: string;
  parent?: string;
  abstract: boolean;
  connection?: string;
  config: Record<string, unknown>;
  sourceContext: SourceContext;
}

/** A provider after flattening its section chain (docs/project-configuration.md#launcher-objects). */
export interface Provider {
  name: string;
  canonicalName: string;
  section: string;
  connection?: string;
  /** The section names walked, most specific first. */
  sectionChain: string[];
  /** The flattened map (provider over its sections), including images/flavors/labels with hashes. */
  config: Record<string, unknown>;
  images: Array<Record<string, unknown> & { name: string; config_hash: string }>;
  flavors: Array<Record<string, unknown> & { name: string; config_hash: string }>;
  labels: Array<Record<string, unknown> & { name: string; config_hash: string }>;
  sourceContext: SourceContext;
}

export interface ProjectMetadata {
  mergeMode: MergeMode;
  defaultBranch: string;
  queueName?: string;
}

/** A project as loaded in a tenant. */
export interface LayoutProject {
  name: string;
  canonicalName: string;
  connectionName: string;
  trusted: boolean;
  /** Branches whose configuration was loaded, in load order (default branch first). */
  branches: string[];
  /** Branch tip SHAs at load time (used to detect changed configuration). */
  branchShas: Record<string, string>;
  /**
   * Only protected branches were loaded (`exclude-unprotected-branches`): the project's protected
   * branches (sorted, loaded or not); events and changes of other branches are not for this
   * tenant (docs/github.md#changes).
   */
  protectedBranches?: string[];
  /**
   * Existing branches matched by `always-dynamic-branches` (and not loaded): their configuration
   * is never part of the layout (docs/project-configuration.md#always-dynamic-branches).
   */
  dynamicBranches: string[];
  metadata: ProjectMetadata;
}

/** The immutable, versioned layout of a tenant. */
export interface Layout {
  uuid: string;
  tenantName: string;
  tenant: TenantConfig;
  loadedAt: Date;
  /** Keyed by canonical name, in tenant load order. */
  projects: ReadonlyMap<string, LayoutProject>;
  pipelines: ReadonlyMap<string, Pipeline>;
  /** All variants of each job in layout order; includes the built-in `noop`. */
  jobs: ReadonlyMap<string, readonly JobVariant[]>;
  projectTemplates: ReadonlyMap<string, readonly ProjectStanza[]>;
  /** Project stanzas that apply to each project (explicit first, then regex stanzas), keyed by canonical name. */
  projectConfigs: ReadonlyMap<string, readonly ProjectStanza[]>;
  nodesets: ReadonlyMap<string, Nodeset>;
  semaphores: ReadonlyMap<string, Semaphore>;
  secrets: ReadonlyMap<string, Secret>;
  queues: ReadonlyMap<string, Queue>;
  images: ReadonlyMap<string, Image>;
  flavors: ReadonlyMap<string, Flavor>;
  labels: ReadonlyMap<string, Label>;
  sections: ReadonlyMap<string, Section>;
  providers: ReadonlyMap<string, Provider>;
  errors: readonly ConfigError[];
  /**
   * Masks the decrypted values of this layout's secrets (absent when secrets were not
   * decrypted, as in `validate-config`). The values themselves are kept nowhere else.
   */
  secretRedactor?: Redactor;
}
