/**
 * Test layouts built from plain objects (what the config adapter produces in production):
 * pipelines with the reference defaults, jobs, projects, and the fake clock of engine tests.
 */
import type { Clock } from '../../src/engine/ports/clock';
import type {
  EngineLayout,
  EnginePipeline,
  EngineProject,
  EngineSemaphore,
  FreezeOutcome,
  PipelineTrigger,
  RefFilter,
  ReporterActions,
} from '../../src/engine/ports/layout';
import { gitTrigger as compileGitTrigger } from '../../src/drivers/git/rules';
import { timerDriver } from '../../src/drivers/timer';
import { zuulDriver } from '../../src/drivers/zuul';
import type { FrozenJobExecution, FrozenPlaybook } from '../../src/model/frozen-job';
import type { EngineJob } from '../../src/model/pipeline-state';

export class FakeClock implements Clock {
  constructor(private current: number = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

const NO_REPORTER: ReporterActions = { connections: [], submit: false };

/** A pipeline with the reference defaults; `submit` adds a git success reporter that merges. */
export function pipeline(
  name: string,
  manager: EnginePipeline['manager'],
  overrides: Partial<EnginePipeline> & { submit?: boolean } = {},
): EnginePipeline {
  const { submit, ...rest } = overrides;
  const reporter: ReporterActions = { connections: ['git'], submit: false };
  return {
    name,
    description: null,
    manager,
    precedence: 'normal',
    triggers: [gitTrigger(['patchset-created'])],
    window: {
      window: 20,
      floor: 3,
      ceiling: null,
      increaseType: 'linear',
      increaseFactor: 1,
      decreaseType: 'exponential',
      decreaseFactor: 2,
    },
    supercedes: [],
    dequeueOnNewPatchset: true,
    flakyRetries: 0,
    flakyThreshold: null,
    ignoreDependencies: false,
    disableAfterConsecutiveFailures: null,
    require: [],
    reject: [],
    allowOtherConnections: true,
    reporters: {
      enqueue: NO_REPORTER,
      start: reporter,
      success: { connections: ['git'], submit: submit ?? false },
      failure: reporter,
      'merge-conflict': reporter,
      'config-error': reporter,
      'no-jobs': NO_REPORTER,
      disabled: NO_REPORTER,
      dequeue: NO_REPORTER,
    },
    messages: {
      success: 'Build succeeded.',
      failure: 'Build failed.',
      start: 'Starting {pipeline.name} jobs.',
      mergeConflict: 'Merge Failed.',
      dequeue: 'Build canceled.',
      noJobs: '',
      footer: '',
    },
    ...rest,
  };
}

/** A git trigger of the connection `git`, as the git driver compiles it. */
export function gitTrigger(
  events: string[],
  filters: { refs?: RefFilter[]; branches?: RefFilter[] } = {},
): PipelineTrigger {
  return compileGitTrigger('git', events, filters.refs, filters.branches);
}

/** A trigger on the zuul driver's events, as its rules compile it. */
export function zuulTrigger(events: string[], pipelines: string[] = []): PipelineTrigger {
  return zuulDriver.triggers.compile({ event: events, pipeline: pipelines }, 'zuul');
}

/** A timer trigger, as the timer driver compiles it. */
export function timerTrigger(time: string): PipelineTrigger {
  return timerDriver.triggers.compile({ time }, 'timer');
}

/** A script of a test job; its secrets may be left out. */
type ScriptSpec = Omit<FrozenPlaybook, 'secrets'> & { secrets?: FrozenPlaybook['secrets'] };

/** The frozen-job fields of a test job: any subset, scripts without secrets. */
export type FrozenJobSpec = Partial<Omit<FrozenJobExecution, 'preRun' | 'run' | 'postRun'>> & {
  preRun?: ScriptSpec[];
  run?: ScriptSpec[];
  postRun?: ScriptSpec[];
};

/** The executor part of a test job: nothing to run unless the spec says so. */
export function frozenExecution(spec: FrozenJobSpec = {}): FrozenJobExecution {
  const scripts = (list: ScriptSpec[] = []): FrozenPlaybook[] =>
    list.map((script) => ({ ...script, secrets: script.secrets ?? [] }));
  return {
    postTimeout: null,
    workspaceScheme: 'golang',
    overrideCheckout: null,
    extraVars: {},
    hostVars: {},
    groupVars: {},
    requiredProjects: [],
    frozenSecrets: [],
    nodesetAlternatives: [],
    ...spec,
    preRun: scripts(spec.preRun),
    run: scripts(spec.run),
    postRun: scripts(spec.postRun),
  };
}

/** A job with no nodes, one attempt less than the reference default (3) only if asked. */
export function job(
  name: string,
  overrides: Partial<Omit<EngineJob, 'params'>> & { params?: FrozenJobSpec } = {},
): EngineJob {
  const { params, ...rest } = overrides;
  return {
    name,
    dependencies: [],
    voting: true,
    attempts: 3,
    timeout: null,
    semaphores: [],
    nodeset: { name: '', labels: [] },
    provides: [],
    requires: [],
    holdFollowingChanges: false,
    vars: {},
    ...rest,
    params: frozenExecution(params),
  };
}

export interface LayoutSpec {
  tenant?: string;
  pipelines: EnginePipeline[];
  projects: Array<{
    name: string;
    queue?: string;
    perBranch?: boolean;
    allowCycles?: boolean;
    /** The queue says `dependencies-by-topic`. */
    byTopic?: boolean;
    connection?: string;
  }>;
  /** project short name -> pipeline -> jobs (a missing pipeline = project not in pipeline). */
  jobs: Record<string, Record<string, EngineJob[] | { error: string }>>;
  semaphores?: EngineSemaphore[];
  failFast?: boolean;
  limits?: { maxChangesPerPipeline?: number; maxDependencies?: number };
  /** Connection of every project (default `git`). */
  connection?: string;
}

export const HOST = 'git.example.com';

/** Canonical project name of a short name. */
export function canonical(project: string): string {
  return `${HOST}/${project}`;
}

/** Build an EngineLayout from plain objects (what the config adapter produces in production). */
export function makeLayout(spec: LayoutSpec, uuid = 'layout-1'): EngineLayout {
  const projects = new Map<string, EngineProject>();
  for (const project of spec.projects) {
    projects.set(canonical(project.name), {
      name: project.name,
      canonicalName: canonical(project.name),
      connection: project.connection ?? spec.connection ?? 'git',
      defaultBranch: 'master',
      mergeMode: 'merge',
      queueName: project.queue ?? null,
      queuePerBranch: project.perBranch ?? false,
      queueAllowsCycles: project.allowCycles ?? false,
      queueDependenciesByTopic: project.byTopic ?? false,
    });
  }
  const shortName = (name: string): string => projects.get(name)?.name ?? name;
  return {
    uuid,
    tenant: spec.tenant ?? 'tenant-one',
    loadedAt: new Date('2026-01-01T00:00:00Z'),
    pipelines: spec.pipelines,
    projects,
    semaphores: new Map((spec.semaphores ?? []).map((semaphore) => [semaphore.name, semaphore])),
    limits: {
      maxChangesPerPipeline: spec.limits?.maxChangesPerPipeline ?? null,
      maxDependencies: spec.limits?.maxDependencies ?? null,
    },
    freezeJobGraph(pipelineName: string, project: string): FreezeOutcome {
      const entry = spec.jobs[shortName(project)]?.[pipelineName];
      if (entry === undefined) {
        return { status: 'not-in-pipeline' };
      }
      if (!Array.isArray(entry)) {
        return { status: 'error', message: entry.error };
      }
      return {
        status: 'ok',
        jobs: entry.map((candidate) => structuredClone(candidate)),
        failFast: spec.failFast ?? false,
      };
    },
    projectInPipeline(pipelineName: string, project: string): boolean {
      return spec.jobs[shortName(project)]?.[pipelineName] !== undefined;
    },
  };
}
