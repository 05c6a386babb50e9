/**
 * Test-only implementations of the engine's neighbours: a layout built from plain objects, a
 * change source holding Gerrit-style changes in memory, a merger whose conflicts are chosen by
 * the test, an executor whose results and timings are chosen by the test, and a launcher that
 * fulfils node requests at once.
 */
import type { FrozenJobExecution, FrozenPlaybook } from '../../src/model/frozen-job';
import type { BuildResult } from '../../src/model/results';
import type { BuildParams, ExecutorGateway } from '../../src/engine/ports/executor';
import type { ChangeInfo, MergeItem } from '../../src/model/changes';
import type { ChangeSource } from '../../src/engine/ports/change-source';
import type { Clock } from '../../src/engine/ports/clock';
import type { EngineJob, NodeInfo } from '../../src/model/pipeline-state';
import type {
  EngineLayout,
  EnginePipeline,
  EngineProject,
  EngineSemaphore,
  FreezeOutcome,
  PipelineTrigger,
  ReporterActions,
} from '../../src/engine/ports/layout';
import type { MergeOutcome, MergerGateway } from '../../src/engine/ports/merger';
import type { NodeGateway, NodeRequest } from '../../src/engine/ports/nodes';
import type { ResultEvent } from '../../src/model/engine-events';

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
    triggers: [{ driver: 'git', connection: 'git', events: ['patchset-created'], refs: [], branches: [] }],
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

export function gitTrigger(
  events: string[],
  overrides: Partial<Extract<PipelineTrigger, { driver: 'git' }>> = {},
): PipelineTrigger {
  return { driver: 'git', connection: 'git', events, refs: [], branches: [], ...overrides };
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
  projects: Array<{ name: string; queue?: string; perBranch?: boolean; allowCycles?: boolean; connection?: string }>;
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

/** Changes and branches held in memory, with Depends-On and merged state. */
export class FakeChanges implements ChangeSource {
  private readonly changes = new Map<string, ChangeInfo[]>();
  private readonly branchTips = new Map<string, string>();
  private revCounter = 0;

  private key(project: string, number: number): string {
    return `${canonical(project.replace(`${HOST}/`, ''))}#${number}`;
  }

  /** Add (or add a new patchset of) a change; returns it. */
  add(
    project: string,
    number: number,
    options: {
      patchset?: number;
      branch?: string;
      dependsOn?: Array<{ project: string; number: number }>;
      owner?: string;
    } = {},
  ): ChangeInfo {
    const patchsets = this.changes.get(this.key(project, number)) ?? [];
    const patchset = String(options.patchset ?? patchsets.length + 1);
    const change: ChangeInfo = {
      kind: 'change',
      project: canonical(project),
      ref: `refs/changes/${String(number % 100).padStart(2, '0')}/${number}/${patchset}`,
      branch: options.branch ?? 'master',
      number,
      patchset,
      oldrev: null,
      newrev: `sha-${number}-${patchset}`,
      url: `https://${HOST}/c/${number}`,
      owner: options.owner ?? 'alice',
      dependsOn: (options.dependsOn ?? []).map((dependency) => ({
        project: canonical(dependency.project),
        number: dependency.number,
      })),
      merged: false,
    };
    patchsets.push(change);
    this.changes.set(this.key(project, number), patchsets);
    return change;
  }

  markMerged(project: string, number: number): void {
    for (const change of this.changes.get(this.key(project, number)) ?? []) {
      change.merged = true;
    }
  }

  isMerged(project: string, number: number): boolean {
    return (this.changes.get(this.key(project, number)) ?? []).some((change) => change.merged);
  }

  nextRev(): string {
    this.revCounter += 1;
    return `rev-${this.revCounter}`;
  }

  tip(project: string, branch: string): string | null {
    return this.branchTips.get(`${project}:${branch}`) ?? null;
  }

  setTip(project: string, branch: string, rev: string): void {
    this.branchTips.set(`${project}:${branch}`, rev);
  }

  getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null> {
    const patchsets = this.changes.get(this.key(project, number)) ?? [];
    const found =
      patchset === undefined
        ? patchsets[patchsets.length - 1]
        : patchsets.find((candidate) => candidate.patchset === patchset);
    return Promise.resolve(found ? { ...found, currentPatchset: found === patchsets[patchsets.length - 1] } : null);
  }

  getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo> {
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
    const kind = branch !== null ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : 'ref';
    return Promise.resolve({
      kind,
      project,
      ref,
      branch,
      number: null,
      patchset: null,
      oldrev,
      newrev: newrev ?? (branch ? this.tip(project, branch) : null) ?? '0000000',
      url: null,
      owner: null,
      dependsOn: [],
      merged: true,
    });
  }

  openChanges(project: string): Promise<ChangeInfo[]> {
    const open = [...this.changes.values()]
      .map((patchsets) => patchsets[patchsets.length - 1])
      .filter((change) => change.project === project && !change.merged);
    return Promise.resolve(open.map((change) => ({ ...change })));
  }

  changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]> {
    const children = [...this.changes.values()]
      .map((patchsets) => patchsets[patchsets.length - 1])
      .filter(
        (candidate) =>
          !candidate.merged &&
          projects.includes(candidate.project) &&
          candidate.dependsOn.some(
            (dependency) => dependency.project === change.project && dependency.number === change.number,
          ),
      );
    return Promise.resolve(children.map((candidate) => ({ ...candidate })));
  }
}

/** A merger: conflicts are chosen per change number; merging to a branch marks the change merged. */
export class ScriptedMerger implements MergerGateway {
  readonly conflicts = new Set<number>();
  readonly refuseMerge = new Set<number>();
  /** Speculative states prepared: change ids of each merge, in order. */
  readonly prepared: string[][] = [];
  /** Changes merged into their branch, in order. */
  readonly mergedOrder: number[] = [];

  constructor(private readonly changes: FakeChanges) {}

  prepare(items: readonly MergeItem[]): Promise<MergeOutcome> {
    this.prepared.push(items.map((item) => `${item.number ?? item.ref},${item.patchset ?? ''}`));
    const conflict = items.find((item) => item.number !== null && this.conflicts.has(item.number));
    if (conflict) {
      return Promise.resolve({ merged: false, error: `change ${conflict.number} does not merge` });
    }
    return Promise.resolve({ merged: true, files: ['README'], repoState: {} });
  }

  mergeToBranch(
    item: MergeItem,
  ): Promise<{ merged: true; oldrev: string | null; newrev: string } | { merged: false; error: string }> {
    if (item.number !== null && this.refuseMerge.has(item.number)) {
      return Promise.resolve({ merged: false, error: 'refused' });
    }
    const branch = item.branch ?? 'master';
    const oldrev = this.changes.tip(item.project, branch);
    const newrev = this.changes.nextRev();
    this.changes.setTip(item.project, branch, newrev);
    if (item.number !== null) {
      this.changes.markMerged(item.project, item.number);
      this.mergedOrder.push(item.number);
    }
    return Promise.resolve({ merged: true, oldrev, newrev });
  }
}

export type ResultSink = (tenant: string, event: ResultEvent) => Promise<unknown>;

export interface BuildOutcome {
  result: BuildResult | null;
  durationMs?: number;
  data?: Record<string, unknown>;
  artifacts?: Array<{ name: string; url: string }>;
}

/** What a pausing build returns (`pause`). */
export interface PauseOutcome {
  data?: Record<string, unknown>;
  artifacts?: Array<{ name: string; url: string }>;
  childJobs?: string[] | null;
}

/**
 * The executor of engine tests. Builds wait until the test finishes them (`finish`), unless an
 * `auto` policy answers at once. Start requests repeated for a known build (after a restart) are
 * ignored, as a real executor does. A build the test pauses (`pause`) can only be finished
 * after the engine resumed it, as with a real executor.
 */
export class ScriptedExecutor implements ExecutorGateway {
  readonly started: BuildParams[] = [];
  readonly running = new Map<string, BuildParams>();
  readonly canceled: string[] = [];
  /** Builds paused and not resumed yet. */
  readonly paused = new Set<string>();
  /** Resume requests in the order they arrived (build uuids; repeats included). */
  readonly resumed: string[] = [];
  auto: ((params: BuildParams) => BuildOutcome) | null = null;
  sink: ResultSink | null = null;
  private readonly startReported = new Set<string>();

  constructor(private readonly clock: FakeClock | Clock) {}

  async startBuild(params: BuildParams): Promise<void> {
    if (
      this.running.has(params.buildUuid) ||
      this.started.some((candidate) => candidate.buildUuid === params.buildUuid)
    ) {
      return;
    }
    this.started.push(params);
    this.running.set(params.buildUuid, params);
    if (this.auto) {
      await this.report(params, this.auto(params));
    }
  }

  async cancelBuild(_tenant: string, buildUuid: string): Promise<void> {
    this.canceled.push(buildUuid);
    this.running.delete(buildUuid);
    this.paused.delete(buildUuid);
    return Promise.resolve();
  }

  resumeBuild(_tenant: string, buildUuid: string): Promise<void> {
    this.resumed.push(buildUuid);
    this.paused.delete(buildUuid);
    return Promise.resolve();
  }

  /** Pause the running build(s) of a job after their run phase. Returns how many paused. */
  async pause(jobName: string, change: number | undefined, outcome: PauseOutcome = {}): Promise<number> {
    const builds = this.find(jobName, change).filter(
      (params) => !this.paused.has(params.buildUuid) && !this.resumed.includes(params.buildUuid),
    );
    for (const params of builds) {
      const sink = this.requireSink();
      await this.reportStarted(params);
      this.paused.add(params.buildUuid);
      await sink(params.tenant, {
        type: 'build-paused',
        buildUuid: params.buildUuid,
        data: outcome.data,
        artifacts: outcome.artifacts,
        childJobs: outcome.childJobs ?? null,
      });
    }
    return builds.length;
  }

  /** Running builds of a job (optionally for one change number), oldest first. */
  find(jobName: string, change?: number): BuildParams[] {
    return [...this.running.values()].filter(
      (params) => params.job.name === jobName && (change === undefined || params.changes[0].number === change),
    );
  }

  /** Finish the running build(s) of a job with a result. Returns how many were finished. */
  async finish(jobName: string, change: number | undefined, outcome: BuildOutcome): Promise<number> {
    const builds = this.find(jobName, change);
    for (const params of builds) {
      await this.report(params, outcome);
    }
    return builds.length;
  }

  /** Finish every running build (paused ones excepted) with SUCCESS. */
  async finishAll(outcome: BuildOutcome = { result: 'SUCCESS' }): Promise<number> {
    const builds = [...this.running.values()].filter((params) => !this.paused.has(params.buildUuid));
    for (const params of builds) {
      await this.report(params, outcome);
    }
    return builds.length;
  }

  private requireSink(): ResultSink {
    if (!this.sink) {
      throw new Error('ScriptedExecutor has no result sink');
    }
    return this.sink;
  }

  private async reportStarted(params: BuildParams): Promise<void> {
    if (this.startReported.has(params.buildUuid)) {
      return;
    }
    this.startReported.add(params.buildUuid);
    await this.requireSink()(params.tenant, {
      type: 'build-started',
      buildUuid: params.buildUuid,
      startTime: this.clock.now().toISOString(),
      logUrl: `https://logs.example.com/${params.buildUuid}`,
    });
  }

  private async report(params: BuildParams, outcome: BuildOutcome): Promise<void> {
    const sink = this.requireSink();
    if (this.paused.has(params.buildUuid)) {
      throw new Error(`build ${params.buildUuid} (${params.job.name}) is paused: the engine has not resumed it`);
    }
    this.running.delete(params.buildUuid);
    const start = this.clock.now();
    const end = new Date(start.getTime() + (outcome.durationMs ?? 1000));
    await this.reportStarted(params);
    await sink(params.tenant, {
      type: 'build-completed',
      buildUuid: params.buildUuid,
      result: outcome.result,
      endTime: end.toISOString(),
      logUrl: `https://logs.example.com/${params.buildUuid}`,
      data: outcome.data,
      artifacts: outcome.artifacts,
    });
  }
}

/** A launcher that fulfils every request at once with one node per label. */
export class InstantNodes implements NodeGateway {
  readonly requests: NodeRequest[] = [];
  readonly held: NodeInfo[] = [];
  readonly returned: NodeInfo[] = [];
  sink: ResultSink | null = null;
  private counter = 0;

  async requestNodes(request: NodeRequest): Promise<void> {
    this.requests.push(request);
    const nodes = request.labels.map((label) => {
      this.counter += 1;
      return { id: String(this.counter).padStart(10, '0'), label };
    });
    await this.sink?.(request.tenant, { type: 'nodes-provisioned', requestId: request.id, fulfilled: true, nodes });
  }

  cancelRequest(): Promise<void> {
    return Promise.resolve();
  }

  returnNodes(_tenant: string, nodes: NodeInfo[]): Promise<void> {
    this.returned.push(...nodes);
    return Promise.resolve();
  }

  holdNodes(_tenant: string, nodes: NodeInfo[]): Promise<void> {
    this.held.push(...nodes);
    return Promise.resolve();
  }
}
