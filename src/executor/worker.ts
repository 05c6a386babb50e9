/**
 * The executor worker: claims build requests from the store (up to `concurrency` at a time),
 * prepares each build's workspace at the speculative state, runs its steps, publishes its log
 * and reports `build-started` / `build-completed` result events for the engine. Cancels
 * requested in the store (`cancel_requested`) are noticed by a poll and stop the build within
 * the poll interval plus the kill grace. Stopping the worker lets running builds finish until a
 * deadline and hands the rest back unfinished, without using up an attempt
 * (docs/operations.md#shutdown).
 * A build that pauses after its run phase (`build-paused`) leaves the worker with its workspace
 * kept; once the engine asks for its resume (or cancel), the worker that finds its workspace on
 * this host claims it again and runs its post-run steps (or just completes it canceled). A build
 * whose request was ended by a reclaim (this executor was judged dead, docs/operations.md#lost-work)
 * is stopped by the same poll.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { buildRequestParamsSchema } from '../model/build-request';
import type { BuildRequestRecord } from '../store/repositories/build-requests';
import { ConsoleRegistry } from './build-log';
import { BuildRuntime, type ActiveBuild } from './build-runtime';
import { continuePausedBuild } from './continue-build';
import { placeBuild } from './node-placement';
import { startBuild } from './start-build';
import { silentLogger, type ExecutorWorkerOptions, type WorkerLogger } from './worker-options';
import { PeriodicTask } from '../engine/ports/periodic-task';

/** Paused builds looked at per claim attempt for a requested resume or cancel. */
const CONTINUE_BATCH = 20;

export class ExecutorWorker {
  readonly id: string;
  readonly consoles: ConsoleRegistry;
  /** Emits `started` (BuildStartedPayload), `paused` (BuildPausedPayload) and `completed` (BuildCompletedPayload) once stored. */
  readonly events = new EventEmitter();
  private readonly active = new Map<string, ActiveBuild>();
  private readonly runtime: BuildRuntime;
  private readonly now: () => Date;
  private readonly logger: WorkerLogger;
  private running = false;
  /** Claims requests on `wake()`, and every poll interval as the fallback for a lost wake-up. */
  private readonly claims: PeriodicTask;
  /** Looks for cancels of the running builds. */
  private readonly cancels: PeriodicTask;

  constructor(private readonly options: ExecutorWorkerOptions) {
    this.id = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.consoles = options.consoles ?? new ConsoleRegistry();
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger ?? silentLogger;
    this.runtime = new BuildRuntime(options, this.id, this.consoles, this.events, this.now, this.logger);
    this.claims = new PeriodicTask({
      name: 'build request claims',
      intervalMs: options.pollIntervalMs ?? 1000,
      tick: () => this.claimAvailable(),
      onError: (err) => this.logger.error({ err }, 'claiming build requests failed'),
      clock: options.timers,
      // A claim under way may be starting a build: stopping waits for it, to hand the build back.
      stopWaitMs: null,
    });
    this.cancels = new PeriodicTask({
      name: 'build cancels',
      intervalMs: options.cancelPollIntervalMs ?? 500,
      tick: () => this.checkCancels(),
      onError: (err) => this.logger.warn({ err }, 'checking for canceled builds failed'),
      clock: options.timers,
    });
  }

  /** Number of builds running now. */
  get activeCount(): number {
    return this.active.size;
  }

  /** Builds this worker runs at most at once. */
  get concurrency(): number {
    return this.options.concurrency ?? 2;
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.claims.start();
    this.claims.wake();
    this.cancels.start();
  }

  /** Look for work now (for example after the engine queued a request); a wake during a claim claims again after it. */
  wake(): void {
    if (this.running) {
      this.claims.wake();
    }
  }

  /**
   * Stop claiming. Running builds may finish as usual until `finishBy` (epoch milliseconds;
   * default: no waiting); the builds still running then are stopped and handed back unfinished:
   * their requests are requested again (a continued paused build is paused again), so the next
   * executor runs them under the same attempt (docs/operations.md#shutdown). Cancels keep being
   * applied while the builds finish. Resolves once every build has ended or been handed back.
   */
  async stop(options: { finishBy?: number } = {}): Promise<void> {
    this.running = false;
    await this.claims.stop();
    const finishBy = options.finishBy ?? 0;
    if (this.active.size > 0 && finishBy > Date.now()) {
      this.logger.info(
        { builds: this.active.size, seconds: Math.round((finishBy - Date.now()) / 1000) },
        'stopping: waiting for running builds to finish',
      );
      await settledBy(
        [...this.active.values()].map((b) => b.done),
        finishBy,
      );
    }
    await this.cancels.stop();
    for (const build of this.active.values()) {
      if (!build.controller.signal.aborted) {
        build.handBack = true;
        build.controller.abort();
      }
    }
    await Promise.all([...this.active.values()].map((b) => b.done));
    // Paused builds stay paused in the store; the worker that continues them reopens their log.
    for (const [uuid, log] of this.runtime.pausedLogs) {
      log.finish();
      this.consoles.unregister(uuid, log);
    }
    this.runtime.pausedLogs.clear();
  }

  private async claimAvailable(): Promise<void> {
    // Builds are judged against what the host offers (docs/executor.md#ansible-on-the-executor).
    await this.runtime.toolchain.ready();
    const limit = this.concurrency;
    while (this.running && this.active.size < limit) {
      // Paused builds to continue come first: they hold nodes and their dependents are done.
      const paused = await this.claimContinuable();
      if (paused) {
        this.launch(paused, 'continue');
        continue;
      }
      const record = await this.options.repository.claimNext(this.id, this.now());
      if (!record) {
        return;
      }
      this.launch(record, 'start');
    }
  }

  /** Claim a paused build whose resume or cancel was requested and whose workspace is on this host. */
  private async claimContinuable(): Promise<BuildRequestRecord | null> {
    for (const candidate of await this.options.repository.listContinuable(CONTINUE_BATCH)) {
      if (this.active.has(candidate.buildUuid) || !this.holdsWorkspace(candidate)) {
        continue;
      }
      const claimed = await this.options.repository.claimPaused(candidate.buildUuid, this.id, this.now());
      if (claimed) {
        return claimed;
      }
    }
    return null;
  }

  private holdsWorkspace(record: BuildRequestRecord): boolean {
    const parsed = buildRequestParamsSchema.safeParse(record.params);
    if (!parsed.success) {
      return false;
    }
    const placement = placeBuild(parsed.data, this.options.workRoot, (node) => this.runtime.sshKeyFor(node));
    return placement.ok && existsSync(placement.root);
  }

  private launch(record: BuildRequestRecord, mode: 'start' | 'continue'): void {
    const controller = new AbortController();
    const build: ActiveBuild = { controller, cancelResult: 'ABORTED', handBack: false, done: Promise.resolve() };
    this.active.set(record.buildUuid, build);
    build.done = (
      mode === 'start' ? startBuild(this.runtime, record, build) : continuePausedBuild(this.runtime, record, build)
    )
      .catch((err: unknown) => this.logger.error({ err, build: record.buildUuid }, 'build failed unexpectedly'))
      .finally(() => {
        this.active.delete(record.buildUuid);
        this.wake();
      });
  }

  private async checkCancels(): Promise<void> {
    if (this.active.size === 0) {
      return;
    }
    const uuids = [...this.active.keys()];
    const cancels = await this.options.repository.cancelsRequested(this.id, uuids);
    for (const [uuid, result] of cancels) {
      const build = this.active.get(uuid);
      if (build && !build.controller.signal.aborted) {
        build.cancelResult = result;
        build.controller.abort();
      }
    }
    // Ended by a reclaim while this executor was judged dead (docs/operations.md#lost-work):
    // the build stops, and its completion finds the request ended already and writes nothing.
    for (const uuid of await this.options.repository.takenFrom(this.id, uuids)) {
      const build = this.active.get(uuid);
      if (build && !build.controller.signal.aborted) {
        this.logger.warn({ build: uuid }, 'build reclaimed by another process; stopping it');
        build.controller.abort();
      }
    }
  }
}

/** Resolves when every promise has settled or at `deadline` (epoch milliseconds), whichever is first. */
function settledBy(promises: Promise<unknown>[], deadline: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    void Promise.allSettled(promises).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
