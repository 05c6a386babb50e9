/**
 * The engine's gateways as engine tests script them: a merger whose conflicts the test chooses,
 * an executor whose results and timings the test chooses, and a launcher that fulfils node
 * requests at once.
 */
import type { Clock } from '../../src/engine/ports/clock';
import type { BuildParams, ExecutorGateway } from '../../src/engine/ports/executor';
import type { MergeOutcome, MergerGateway } from '../../src/engine/ports/merger';
import type { NodeGateway, NodeRequest } from '../../src/engine/ports/nodes';
import type { MergeItem } from '../../src/model/changes';
import type { ResultEvent } from '../../src/model/engine-events';
import type { NodeInfo } from '../../src/model/pipeline-state';
import type { BuildResult } from '../../src/model/results';
import type { FakeChanges } from './fake-changes';
import type { FakeClock } from './scripted-layout';

/** A merger: conflicts are chosen per change number; merging to a branch marks the change merged. */
export class ScriptedMerger implements MergerGateway {
  readonly conflicts = new Set<number>();
  readonly refuseMerge = new Set<number>();
  /** Changes whose merge is refused only when it is made: a check beforehand says they would merge. */
  readonly refuseUnforeseen = new Set<number>();
  /** Speculative states prepared: change ids of each merge, in order. */
  readonly prepared: string[][] = [];
  /** Changes merged into their branch, in order. */
  readonly mergedOrder: number[] = [];

  /** The branches containing a tagged commit, by commit; a commit not listed is on `master`. */
  readonly containing = new Map<string, string[]>();

  constructor(private readonly changes: FakeChanges) {}

  branchesContaining(item: MergeItem): Promise<string[]> {
    return Promise.resolve(this.containing.get(item.newrev ?? '') ?? ['master']);
  }

  prepare(items: readonly MergeItem[]): Promise<MergeOutcome> {
    this.prepared.push(items.map((item) => `${item.number ?? item.ref},${item.patchset ?? ''}`));
    const conflict = items.find((item) => item.number !== null && this.conflicts.has(item.number));
    if (conflict) {
      return Promise.resolve({ merged: false, error: `change ${conflict.number} does not merge` });
    }
    return Promise.resolve({ merged: true, files: ['README'], repoState: {} });
  }

  canMergeToBranch(item: MergeItem): Promise<{ mergeable: true } | { mergeable: false; error: string }> {
    if (item.number !== null && this.refuseMerge.has(item.number)) {
      return Promise.resolve({ mergeable: false, error: 'refused' });
    }
    return Promise.resolve({ mergeable: true });
  }

  mergeToBranch(
    item: MergeItem,
  ): Promise<{ merged: true; oldrev: string | null; newrev: string } | { merged: false; error: string }> {
    if (item.number !== null && (this.refuseMerge.has(item.number) || this.refuseUnforeseen.has(item.number))) {
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

type BranchOutcome = Awaited<ReturnType<ScriptedMerger['mergeToBranch']>>;

/** A merger whose calls hang while held, until released; `entered` resolves when a held call came in. */
export class BlockingMerger extends ScriptedMerger {
  private held = false;
  private release: (() => void) | null = null;
  private gate: Promise<void> = Promise.resolve();
  private enteredResolve: (() => void) | null = null;
  entered: Promise<void> = Promise.resolve();
  /** Calls in the order they were made: `prepare 1 2` (the changes merged), `merge 1`. */
  readonly calls: string[] = [];

  hold(): void {
    this.held = true;
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
    this.entered = new Promise((resolve) => {
      this.enteredResolve = resolve;
    });
  }

  open(): void {
    this.held = false;
    this.release?.();
  }

  private async pass(): Promise<void> {
    if (this.held) {
      this.enteredResolve?.();
      await this.gate;
    }
  }

  override async prepare(items: readonly MergeItem[]): Promise<MergeOutcome> {
    this.calls.push(`prepare ${items.map((item) => item.number).join(' ')}`);
    await this.pass();
    return super.prepare(items);
  }

  override async mergeToBranch(item: MergeItem): Promise<BranchOutcome> {
    this.calls.push(`merge ${item.number}`);
    await this.pass();
    return super.mergeToBranch(item);
  }
}

export type ResultSink = (tenant: string, event: ResultEvent) => Promise<unknown>;

export interface BuildOutcome {
  result: BuildResult | null;
  durationMs?: number;
  data?: Record<string, unknown>;
  artifacts?: Array<{ name: string; url: string }>;
  /** The build's warnings (the completion's `warnings`). */
  warnings?: string[];
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

  /** Finish one running build, by uuid, with a result. */
  async complete(buildUuid: string, outcome: BuildOutcome): Promise<void> {
    const params = this.running.get(buildUuid);
    if (!params) {
      throw new Error(`build ${buildUuid} is not running`);
    }
    await this.report(params, outcome);
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
      ...(outcome.warnings === undefined ? {} : { warnings: outcome.warnings }),
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
