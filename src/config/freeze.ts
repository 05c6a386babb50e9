/**
 * Job graph freezing (docs/project-configuration.md#job-freezing): for a pipeline, project and branch (and optionally
 * the files a change touches) compute the jobs that run, each with every attribute resolved through
 * its parents, variants and project-pipeline variants, and their dependencies. User errors are
 * returned, never thrown.
 */
import { DEFAULT_ANSIBLE_VERSION } from './ansible-versions';
import { applyVariant, deepMerge, InheritanceError, startJob, type JobUnderConstruction } from './apply-variant';
import type {
  IncludeVars,
  JobDependency,
  JobRole,
  JobSecret,
  JobSemaphore,
  JobVariant,
  Layout,
  LayoutProject,
  Nodeset,
  Playbook,
  RequiredProject,
  SourceContext,
} from './layout';
import type { FrozenJobExecution, FrozenSecret } from '../model/frozen-job';
import { ConfigObjectError } from './config-error';
import {
  findLayoutProject,
  projectPipelineConfig,
  type PpcEntry,
  type ProjectPipelineConfigResult,
} from './project-pipeline-config';
import { resolveJobNodeset } from './nodeset-resolution';
import { completeGraph, matchesFiles } from './job-graph';
import { matchesBranch, type BranchTarget, type RegexSpec, type RefTarget } from './regex';

export interface FreezeRequest {
  pipeline: string;
  /** Short or canonical project name. */
  project: string;
  branch: string;
  /**
   * A tag's or other ref's item: branch matchers match its full ref or the branches containing its
   * commit (a tag's) instead of `branch` (docs/project-configuration.md#jobs).
   */
  ref?: RefTarget;
  /**
   * Files the change modifies. Undefined = file matchers are not evaluated (every job matches),
   * as for the `freeze-jobs` endpoint.
   */
  files?: readonly string[];
  /**
   * Images named by the item's event (an `image-build` trigger): a job with `image-build-name`
   * runs only for those (docs/project-configuration.md#freezing-one-job step 7). Undefined = no image filter.
   */
  imageNames?: readonly string[];
  /**
   * Whether the item's proposed configuration changes a job (a speculative layout): such a job
   * with `match-on-config-updates` matches whatever files the change touches (step 8).
   */
  updatesJobConfig?: (job: FrozenJob) => boolean;
}

/**
 * A job with every attribute resolved (the "FrozenJob"). The fields the executor needs are
 * typed by `FrozenJobExecution` (src/model/frozen-job.ts), which travels with the job's state.
 */
export interface FrozenJob extends FrozenJobExecution {
  name: string;
  /** Context of the first variant of this job name that applied. */
  sourceContext: SourceContext;
  parent: string | null;
  description: string | null;
  abstract: boolean;
  intermediate: boolean;
  final: boolean;
  protected: boolean | null;
  voting: boolean;
  holdFollowingChanges: boolean;
  successMessage: string | null;
  failureMessage: string | null;
  semaphores: JobSemaphore[];
  tags: string[];
  provides: string[];
  requires: string[];
  files: RegexSpec[];
  irrelevantFiles: RegexSpec[];
  matchOnConfigUpdates: boolean;
  /** The first alternative (empty nodeset when none). */
  nodeset: Nodeset;
  /** All concrete alternatives in order (one entry for a plain nodeset, none when the job has no nodeset). */
  nodesetAlternatives: Nodeset[];
  preTimeout: number | null;
  timeout: number | null;
  postTimeout: number | null;
  attempts: number;
  /** Sluice: flaky retries of the job; null: the pipeline's (docs/analytics.md#flake-aware-gating). */
  flakyRetries: number | null;
  preRun: Playbook[];
  run: Playbook[];
  postRun: Playbook[];
  cleanupRun: Playbook[];
  ansibleSplitStreams: boolean | null;
  ansibleVersion: string | null;
  roles: JobRole[];
  requiredProjects: RequiredProject[];
  vars: Record<string, unknown>;
  extraVars: Record<string, unknown>;
  hostVars: Record<string, unknown>;
  groupVars: Record<string, unknown>;
  includeVars: IncludeVars[];
  dependencies: JobDependency[];
  /** Canonical names; null = unrestricted. */
  allowedProjects: string[] | null;
  overrideCheckout: string | null;
  postReview: boolean;
  workspaceScheme: 'golang' | 'flat' | 'unique';
  workspaceCheckout: boolean | 'auto';
  deduplicate: boolean | 'auto';
  failureOutput: string[];
  imageBuildName: string | null;
  /** Secrets used by the job (names and aliases; values stay encrypted in the layout). */
  secrets: JobSecret[];
  /**
   * The secrets the job's scripts use, still encrypted, as frozen with the job (docs/security.md#secrets): the executor
   * decrypts them with the key of the defining project.
   */
  frozenSecrets: FrozenSecret[];
  inheritancePath: string[];
  /** Whether the job matched the change's files (or was forced in by a dependent job). */
  matchesChange: boolean;
}

export interface FreezeError {
  message: string;
  job?: string;
}

export type FreezeResult =
  | { status: 'ok'; jobs: FrozenJob[]; debug: boolean; failFast: boolean }
  | { status: 'unknown-project' }
  | { status: 'unknown-pipeline' }
  /** The project has no configuration for this pipeline (an item would leave with no jobs). */
  | { status: 'not-in-pipeline' }
  | { status: 'error'; errors: FreezeError[]; jobs: FrozenJob[] };

/** Freeze the job graph of a project-branch in a pipeline. */
export function freezeJobGraph(layout: Layout, request: FreezeRequest): FreezeResult {
  const project = findLayoutProject(layout, request.project);
  if (project === undefined) {
    return { status: 'unknown-project' };
  }
  const pipeline = layout.pipelines.get(request.pipeline);
  if (pipeline === undefined) {
    return { status: 'unknown-pipeline' };
  }
  const ppc = projectPipelineConfig(layout, project, request.pipeline, request.ref ?? request.branch);
  if (ppc === undefined) {
    return { status: 'not-in-pipeline' };
  }
  const errors: FreezeError[] = [];
  const pending = new Map<string, string[]>();
  const frozen: FrozenJob[] = [];
  for (const entry of ppc.jobs) {
    try {
      const job = freezeOne(layout, project, request, ppc, entry);
      if (job === undefined) {
        continue;
      }
      frozen.push(job.frozen);
      pending.set(job.frozen.name, job.pendingErrors(pipeline.postReview));
    } catch (err) {
      if (err instanceof InheritanceError || err instanceof ConfigObjectError) {
        errors.push({ message: err.message, job: entry.name });
        continue;
      }
      throw err;
    }
  }
  const graph = completeGraph(frozen, errors);
  for (const job of graph) {
    for (const message of pending.get(job.name) ?? []) {
      errors.push({ message, job: job.name });
    }
  }
  if (errors.length > 0) {
    return { status: 'error', errors, jobs: graph };
  }
  return { status: 'ok', jobs: graph, debug: ppc.debug, failFast: ppc.failFast ?? false };
}

/** Freeze one job of the graph by name (the graph is computed first, as `freeze-job` does). */
export function freezeJob(
  layout: Layout,
  request: FreezeRequest,
  jobName: string,
): FreezeResult | { status: 'job-not-in-graph' } {
  const graph = freezeJobGraph(layout, request);
  if (graph.status !== 'ok') {
    return graph;
  }
  const job = graph.jobs.find((j) => j.name === jobName);
  return job === undefined ? { status: 'job-not-in-graph' } : { ...graph, jobs: [job] };
}

/**
 * docs/project-configuration.md#freezing-one-job step 2: variants of a job and its ancestors that match, base-most
 * first.
 */
function collectVariants(
  layout: Layout,
  name: string,
  branchFor: (v: JobVariant) => BranchTarget,
): JobVariant[] | undefined {
  const collected: JobVariant[] = [];
  const visited = new Set<string>([name]);
  const walk = (jobName: string, stack: string[]): boolean => {
    const variants = layout.jobs.get(jobName);
    if (variants === undefined) {
      throw new InheritanceError(`Job ${jobName} not defined`);
    }
    let matched = false;
    for (const v of variants) {
      if (!matchesBranch(v.branchMatcher, branchFor(v))) {
        continue;
      }
      let parent: string | null | undefined = v.attributes.parent;
      if (parent === undefined) {
        parent = collected.length === 0 ? layout.tenant.defaultParent : null;
      }
      if (parent !== null && !visited.has(parent)) {
        if (stack.includes(parent)) {
          throw new InheritanceError(`Dependency cycle in jobs: ${[...stack, parent].join(' -> ')}`);
        }
        visited.add(parent);
        if (!walk(parent, [...stack, parent])) {
          return false;
        }
      } else if (parent !== null && stack.includes(parent)) {
        throw new InheritanceError(`Dependency cycle in jobs: ${[...stack, parent].join(' -> ')}`);
      }
      collected.push(v);
      matched = true;
    }
    return matched;
  };
  return walk(name, [name]) ? collected : undefined;
}

interface FrozenWithErrors {
  frozen: FrozenJob;
  pendingErrors(postReviewPipeline: boolean): string[];
}

function freezeOne(
  layout: Layout,
  project: LayoutProject,
  request: FreezeRequest,
  ppc: ProjectPipelineConfigResult,
  entry: PpcEntry,
): FrozenWithErrors | undefined {
  const target = request.ref ?? request.branch;
  const inline = entry.variants.filter((v) => matchesBranch(v.variant.branchMatcher, target));
  // docs/project-configuration.md#freezing-one-job step 1: override checkouts from matching project-pipeline variants.
  let overrideCheckout: string | undefined;
  const perProject = new Map<string, string>();
  for (const { variant } of inline) {
    overrideCheckout = variant.attributes.overrideCheckout ?? overrideCheckout;
    for (const rp of variant.attributes.requiredProjects ?? []) {
      if (rp.overrideCheckout !== undefined) {
        perProject.set(rp.projectCanonicalName, rp.overrideCheckout);
      }
    }
  }
  // An override checkout is a branch: matched as one, even for a tag's item (as in the reference).
  const branchFor = (v: JobVariant): BranchTarget => {
    const candidate = perProject.get(v.sourceContext.projectCanonicalName) ?? overrideCheckout;
    if (
      candidate !== undefined &&
      layout.projects.get(v.sourceContext.projectCanonicalName)?.branches.includes(candidate)
    ) {
      return candidate;
    }
    return target;
  };
  if (inline.length === 0) {
    return undefined;
  }
  const variants = collectVariants(layout, entry.name, branchFor);
  if (variants === undefined || variants.length === 0) {
    return undefined;
  }
  const chain = [...new Set(variants.map((v) => v.name))];
  const levelOf = (v: JobVariant): number => chain.length - 1 - chain.indexOf(v.name);
  const own = variants.find((v) => v.name === entry.name) ?? variants[variants.length - 1];
  const job = startJob(entry.name, variants[0], own.sourceContext, levelOf(variants[0]));
  for (const v of variants.slice(1)) {
    applyVariant(job, v, levelOf(v));
  }
  job.attributes.vars = deepMerge(ppc.vars, job.attributes.vars ?? {});
  let ignoreAllowedProjects = false;
  for (const { variant, trusted, stanza } of inline) {
    applyVariant(job, variant, 0);
    if (trusted) {
      ignoreAllowedProjects = true;
    }
    if (variant.attributes.imageBuildName !== undefined || job.attributes.imageBuildName !== undefined) {
      const image = layout.images.get(job.attributes.imageBuildName ?? '');
      if (
        image === undefined ||
        image.sourceContext.projectCanonicalName !== stanza.sourceContext.projectCanonicalName
      ) {
        throw new InheritanceError(
          `The image build job ${entry.name} must reference an image defined in the same project as the project stanza`,
        );
      }
    }
  }
  const imageBuildName = job.attributes.imageBuildName;
  if (
    request.imageNames !== undefined &&
    imageBuildName !== undefined &&
    !request.imageNames.includes(imageBuildName)
  ) {
    return undefined;
  }
  const frozen = toFrozen(layout, job, variants, request);
  if (!frozen.matchesChange && frozen.matchOnConfigUpdates && request.updatesJobConfig?.(frozen)) {
    frozen.matchesChange = true;
  }
  return {
    frozen,
    pendingErrors: (postReviewPipeline: boolean) => {
      const problems: string[] = [];
      if (frozen.abstract) {
        problems.push(`Job ${frozen.name} is abstract and may not be directly run`);
      }
      if (
        !ignoreAllowedProjects &&
        frozen.allowedProjects !== null &&
        !frozen.allowedProjects.includes(project.canonicalName)
      ) {
        problems.push(`Project ${project.name} is not allowed to run job ${frozen.name}`);
      }
      if (frozen.postReview && !postReviewPipeline) {
        problems.push(`Pre-review pipeline ${request.pipeline} does not allow post-review job ${frozen.name}`);
      }
      if (frozen.run.length === 0 && frozen.name !== 'noop') {
        problems.push(`Job ${frozen.name} does not specify a run playbook`);
      }
      return problems;
    },
  };
}

const EMPTY_NODESET: Nodeset = { name: '', nodes: [], groups: [], alternatives: [] };

function toFrozen(
  layout: Layout,
  job: JobUnderConstruction,
  variants: JobVariant[],
  request: FreezeRequest,
): FrozenJob {
  const a = job.attributes;
  const alternatives = a.nodeset === undefined ? [] : resolveJobNodeset(a.nodeset, layout.nodesets);
  const preTimeout =
    a.preTimeout !== undefined && a.timeout !== undefined ? Math.min(a.preTimeout, a.timeout) : (a.preTimeout ?? null);
  const files = a.files ?? [];
  const irrelevant = a.irrelevantFiles ?? [];
  const parentVariant = variants.find((v) => v.name === job.name);
  const parent =
    parentVariant?.attributes.parent === undefined
      ? job.name === layout.tenant.defaultParent
        ? null
        : layout.tenant.defaultParent
      : parentVariant.attributes.parent;
  return {
    name: job.name,
    sourceContext: job.sourceContext,
    parent,
    description: a.description ?? null,
    abstract: job.abstract,
    intermediate: job.intermediate,
    final: job.final,
    protected: job.protected,
    voting: a.voting ?? true,
    holdFollowingChanges: a.holdFollowingChanges ?? false,
    successMessage: a.successMessage ?? null,
    failureMessage: a.failureMessage ?? null,
    semaphores: a.semaphores ?? [],
    tags: a.tags ?? [],
    provides: a.provides ?? [],
    requires: a.requires ?? [],
    files,
    irrelevantFiles: irrelevant,
    matchOnConfigUpdates: a.matchOnConfigUpdates ?? true,
    nodeset: alternatives[0] ?? EMPTY_NODESET,
    nodesetAlternatives: alternatives,
    preTimeout,
    timeout: a.timeout ?? null,
    postTimeout: a.postTimeout ?? null,
    attempts: a.attempts ?? 3,
    flakyRetries: a.flakyRetries ?? null,
    preRun: a.preRun ?? [],
    run: a.run ?? [],
    postRun: a.postRun ?? [],
    cleanupRun: a.cleanupRun ?? [],
    ansibleSplitStreams: a.ansibleSplitStreams ?? null,
    // As the reference: the job's version, else the tenant's default, else the default version.
    ansibleVersion: a.ansibleVersion ?? layout.tenant.defaultAnsibleVersion ?? DEFAULT_ANSIBLE_VERSION,
    roles: a.roles ?? [],
    requiredProjects: a.requiredProjects ?? [],
    vars: a.vars ?? {},
    extraVars: a.extraVars ?? {},
    hostVars: a.hostVars ?? {},
    groupVars: a.groupVars ?? {},
    includeVars: a.includeVars ?? [],
    dependencies: a.dependencies ?? [],
    allowedProjects: job.allowedProjects === undefined ? null : [...job.allowedProjects].sort(),
    overrideCheckout: a.overrideCheckout ?? null,
    postReview: job.postReview,
    workspaceScheme: a.workspaceScheme ?? 'golang',
    workspaceCheckout: a.workspaceCheckout ?? true,
    deduplicate: a.deduplicate ?? 'auto',
    failureOutput: a.failureOutput ?? [],
    imageBuildName: a.imageBuildName ?? null,
    secrets: a.secrets ?? [],
    frozenSecrets: frozenSecrets(layout, [a.preRun, a.run, a.postRun, a.cleanupRun]),
    inheritancePath: job.inheritancePath,
    matchesChange: request.files === undefined ? true : matchesFiles(files, irrelevant, request.files),
  };
}

/** The secrets bound to any of the playbooks, each once, in first-use order. */
function frozenSecrets(layout: Layout, playbookLists: ReadonlyArray<readonly Playbook[] | undefined>): FrozenSecret[] {
  const out: FrozenSecret[] = [];
  for (const playbook of playbookLists.flatMap((list) => list ?? [])) {
    for (const used of playbook.secrets) {
      const secret = layout.secrets.get(used.secretName);
      if (secret !== undefined && !out.some((s) => s.name === secret.name)) {
        out.push({
          name: secret.name,
          projectCanonicalName: secret.sourceContext.projectCanonicalName,
          data: secret.data ?? null,
          ...(secret.oidc === undefined ? {} : { oidc: { ...secret.oidc, ttl: secret.oidc.ttl ?? 3600 } }),
        });
      }
    }
  }
  return out;
}
