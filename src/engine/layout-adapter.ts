/**
 * Adapts the configuration loader's Layout to the engine's narrow EngineLayout view: pipeline
 * triggers, requirements and reporter actions compiled by the connections' drivers
 * (src/config/drivers.ts), projects with their queue names, and job freezing through
 * `freezeJobGraph` of the config package.
 */
import { compileReporter, compileRequirement, compileTrigger } from '../config/drivers';
import { freezeJobGraph, type FreezeRequest, type FrozenJob } from '../config/freeze';
import type { SpeculativeLayouts } from '../config/speculative-layouts';
import type { ProposedConfig } from '../model/proposed-config';
import { speculativeView } from './speculative-view';
import { findLayoutProject, projectPipelineConfig } from '../config/project-pipeline-config';
import { REPORTER_PHASES, type Layout, type Pipeline, type ReporterConfig, type TriggerConfig } from '../config/layout';
import { providerImageFormat } from '../config/provider-flatten';
import { frozenJobExecution } from '../model/frozen-job';
import type {
  ChangeRequirement,
  EngineLayout,
  EnginePipeline,
  EngineProject,
  FreezeOutcome,
  PipelineTrigger,
  ReporterActions,
  ReporterPhase,
} from './ports/layout';
import type { EngineJob } from '../model/pipeline-state';

/** A pipeline's triggers, compiled by the rules of each connection's driver. */
function triggersOf(trigger: TriggerConfig): PipelineTrigger[] {
  return trigger.filters.flatMap((filter) => compileTrigger(trigger.driver, filter, trigger.connection) ?? []);
}

/** `require`/`reject` options of one connection, compiled by its driver's rules. */
function requirementOf(entry: Pipeline['require'][number], mode: 'require' | 'reject'): ChangeRequirement {
  return { connection: entry.connection, ...compileRequirement(entry.driver, entry.options, mode) };
}

function reporterActions(reporters: ReporterConfig[]): ReporterActions {
  const actions = reporters.map((reporter) => ({
    reporter,
    action: compileReporter(reporter.driver, reporter.options),
  }));
  return {
    connections: reporters.map((reporter) => reporter.connection),
    submit: actions.some(({ action }) => action.submit === true),
    external: actions
      .filter(({ action }) => action.external === true)
      .map(({ reporter }) => ({ connection: reporter.connection, driver: reporter.driver, options: reporter.options })),
    imageValidated: actions.some(({ action }) => action.imageValidated === true),
    allowNeeds: [...new Set(actions.flatMap(({ action }) => action.allowNeeds ?? []))],
  };
}

/** The engine's view of one configured pipeline. */
export function enginePipeline(pipeline: Pipeline): EnginePipeline {
  const reporters = {} as Record<ReporterPhase, ReporterActions>;
  for (const phase of REPORTER_PHASES) {
    const configured = pipeline.reporters[phase] ?? [];
    // merge-conflict and config-error fall back to the failure reporters (docs/project-configuration.md#pipelines).
    const effective =
      configured.length === 0 && (phase === 'merge-conflict' || phase === 'config-error')
        ? (pipeline.reporters.failure ?? [])
        : configured;
    reporters[phase] = reporterActions(effective);
  }
  return {
    name: pipeline.name,
    description: pipeline.description ?? null,
    manager: pipeline.manager,
    precedence: pipeline.precedence,
    triggers: pipeline.triggers.flatMap(triggersOf),
    window: {
      window: pipeline.window,
      floor: pipeline.windowFloor,
      ceiling: pipeline.windowCeiling,
      increaseType: pipeline.windowIncreaseType,
      increaseFactor: pipeline.windowIncreaseFactor,
      decreaseType: pipeline.windowDecreaseType,
      decreaseFactor: pipeline.windowDecreaseFactor,
    },
    supercedes: pipeline.supercedes,
    postReview: pipeline.postReview,
    dequeueOnNewPatchset: pipeline.dequeueOnNewPatchset,
    flakyRetries: pipeline.flakyRetries,
    flakyThreshold: pipeline.flakyThreshold,
    ignoreDependencies: pipeline.ignoreDependencies,
    disableAfterConsecutiveFailures: pipeline.disableAfterConsecutiveFailures ?? null,
    require: pipeline.require.map((entry) => requirementOf(entry, 'require')),
    reject: pipeline.reject.map((entry) => requirementOf(entry, 'reject')),
    allowOtherConnections: pipeline.allowOtherConnections,
    reporters,
    messages: {
      success: pipeline.messages.success,
      failure: pipeline.messages.failure,
      start: pipeline.messages.start,
      mergeConflict: pipeline.messages.mergeConflict,
      dequeue: pipeline.messages.dequeue,
      noJobs: pipeline.messages.noJobs,
      footer: pipeline.messages.footer,
    },
  };
}

/** The engine's view of a frozen job; everything else travels to the executor in `params`. */
export function engineJob(job: FrozenJob): EngineJob {
  return {
    name: job.name,
    dependencies: job.dependencies.map((dependency) => ({ name: dependency.name, soft: dependency.soft })),
    voting: job.voting,
    attempts: job.attempts,
    ...(job.flakyRetries === null ? {} : { flakyRetries: job.flakyRetries }),
    timeout: job.timeout,
    semaphores: job.semaphores.map((semaphore) => ({ name: semaphore.name, resourcesFirst: semaphore.resourcesFirst })),
    nodeset: {
      name: job.nodeset.name,
      labels: job.nodeset.nodes.map((node) => node.label),
      alternatives: job.nodesetAlternatives.map((alternative) => alternative.nodes.map((node) => node.label)),
    },
    provides: job.provides,
    requires: job.requires,
    holdFollowingChanges: job.holdFollowingChanges,
    deduplicate: job.deduplicate,
    vars: job.vars,
    params: frozenJobExecution(job),
  };
}

/** Formats the tenant's providers want of a zuul image, sorted (`zuul.image_formats`). */
export function imageFormats(layout: Layout, image: string): string[] {
  const formats = new Set<string>();
  if (layout.images.get(image)?.type !== 'zuul') {
    return [];
  }
  for (const provider of layout.providers.values()) {
    // The provider's own entry comes after its sections' (and wins, as in the launcher).
    const entry = provider.images.findLast((candidate) => candidate.name === image);
    if (entry) {
      formats.add(providerImageFormat(provider, entry));
    }
  }
  return [...formats].sort();
}

/**
 * An image build job gets `zuul.image_build_name` and `zuul.image_formats` (docs/launcher.md#images step 2)
 * among its variables.
 */
function withImageVariables(layout: Layout, frozen: FrozenJob, job: EngineJob): EngineJob {
  if (frozen.imageBuildName === null) {
    return job;
  }
  const zuul =
    typeof job.vars.zuul === 'object' && job.vars.zuul !== null && !Array.isArray(job.vars.zuul)
      ? (job.vars.zuul as Record<string, unknown>)
      : {};
  return {
    ...job,
    vars: {
      ...job.vars,
      zuul: {
        ...zuul,
        image_build_name: frozen.imageBuildName,
        image_formats: imageFormats(layout, frozen.imageBuildName),
      },
    },
  };
}

/** Freeze a job graph for the engine: its jobs, or why there are none. */
export function freezeOutcome(layout: Layout, request: FreezeRequest): FreezeOutcome {
  const result = freezeJobGraph(layout, request);
  switch (result.status) {
    case 'ok':
      return {
        status: 'ok',
        jobs: result.jobs.map((job) => withImageVariables(layout, job, engineJob(job))),
        failFast: result.failFast,
      };
    case 'error':
      return { status: 'error', message: result.errors.map((error) => error.message).join('\n') };
    case 'unknown-pipeline':
      return { status: 'error', message: `Unknown pipeline ${request.pipeline}` };
    default:
      return { status: 'not-in-pipeline' };
  }
}

/**
 * Wrap a configuration Layout as an EngineLayout; with `speculative` (built from the same inputs)
 * items that change configuration get speculative layouts (docs/gating.md#speculative-layouts).
 */
export function toEngineLayout(layout: Layout, speculative?: SpeculativeLayouts): EngineLayout {
  const projects = new Map<string, EngineProject>();
  for (const project of layout.projects.values()) {
    const queueName = project.metadata.queueName ?? null;
    projects.set(project.canonicalName, {
      name: project.name,
      canonicalName: project.canonicalName,
      connection: project.connectionName,
      defaultBranch: project.metadata.defaultBranch,
      mergeMode: project.metadata.mergeMode,
      queueName,
      queuePerBranch: queueName !== null && (layout.queues.get(queueName)?.perBranch ?? false),
      queueAllowsCycles: queueName !== null && (layout.queues.get(queueName)?.allowCircularDependencies ?? false),
      queueDependenciesByTopic: queueName !== null && (layout.queues.get(queueName)?.dependenciesByTopic ?? false),
    });
  }
  const semaphores = new Map(
    [...layout.semaphores.values()].map((semaphore) => [
      semaphore.name,
      { name: semaphore.name, max: semaphore.max, global: semaphore.global },
    ]),
  );
  return {
    uuid: layout.uuid,
    tenant: layout.tenantName,
    loadedAt: layout.loadedAt,
    pipelines: [...layout.pipelines.values()].map(enginePipeline),
    projects,
    semaphores,
    limits: {
      maxChangesPerPipeline: layout.tenant.maxChangesPerPipeline ?? null,
      maxDependencies: layout.tenant.maxDependencies ?? null,
    },
    freezeJobGraph(pipeline, project, branch, files, options = {}): FreezeOutcome {
      return freezeOutcome(layout, {
        pipeline,
        project,
        branch,
        files,
        imageNames: options.imageNames,
        ref: options.ref,
      });
    },
    projectInPipeline(pipeline: string, project: string): boolean {
      const found = findLayoutProject(layout, project);
      if (!found) {
        return false;
      }
      return found.branches.some((branch) => projectPipelineConfig(layout, found, pipeline, branch) !== undefined);
    },
    ...(speculative === undefined
      ? {}
      : {
          configLocation: (project: string) => speculative.location(project),
          speculative: (proposed: readonly ProposedConfig[], ahead: readonly ProposedConfig[] = []) =>
            speculativeView(speculative.resolve(ahead).layout, speculative.resolve(proposed, ahead), freezeOutcome),
        }),
  };
}
