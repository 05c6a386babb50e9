/**
 * The executor worker: claims build requests from the store (up to `concurrency` at a time),
 * prepares each build's workspace at the speculative state, runs its steps, publishes its log
 * and reports `build-started` / `build-completed` result events for the engine. Cancels
 * requested in the store (`cancel_requested`) are noticed by a poll and stop the build within
 * the poll interval plus the kill grace; stopping the worker aborts running builds (ABORTED).
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  buildRequestParamsSchema,
  type BuildCompletedPayload,
  type BuildNode,
  type BuildRequestParams,
  type CancelResult,
  type ProjectCheckout,
} from '../model/build-request';
import type { BuildRequestRecord, BuildRequestRepository } from '../store/repositories/build-requests';
import { BuildLog, ConsoleRegistry } from './build-log';
import { buildLogDir, buildLogUrl, JOB_OUTPUT_FILE } from './log-paths';
import type { Merger } from './merger';
import { NodeAccessError, openNodeAccess } from './node-access';
import { placeBuild } from './node-placement';
import { runBuild, type RunOutcome } from './runner';

/** Locks a build's launcher nodes when it starts (src/launcher/node-lock.ts); null = locked, else why not. */
export interface NodeLocker {
  lock(nodeIds: readonly string[], holder: string): Promise<string | null>;
}

/** The subset of a pino logger the worker uses. */
export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ExecutorWorkerOptions {
  repository: BuildRequestRepository;
  merger: Merger;
  /** Directory holding one workspace per running build (`<workRoot>/<build uuid>/`). */
  workRoot: string;
  /** Service configuration `logs.dir` and `logs.url`. */
  logsDir: string;
  logsUrl?: string;
  /** Builds run at the same time by this executor. */
  concurrency?: number;
  /** Milliseconds between claim attempts while idle. */
  pollIntervalMs?: number;
  /** Milliseconds between checks for requested cancels. */
  cancelPollIntervalMs?: number;
  /** Allowed host variables for steps (see `allowedHostEnvironment`). */
  hostEnv: Record<string, string>;
  /** Registry of live logs (shared with the console stream). */
  consoles?: ConsoleRegistry;
  workerId?: string;
  now?: () => Date;
  logger?: WorkerLogger;
  /** Private key file used to reach SSH nodes of any connection not in `sshKeyFiles`; builds on SSH nodes without a key end NODE_FAILURE. */
  sshKeyFile?: string;
  /** Private key file per launcher connection (`connections.<name>.sshKeyFile`). */
  sshKeyFiles?: Readonly<Record<string, string>>;
  /** Locks the build's launcher nodes before it starts (they become in-use); without it nodes are used as given. */
  nodeLocker?: NodeLocker;
  /** Keep workspaces after builds (debugging); default false. */
  keepWorkspaces?: boolean;
  killGraceMs?: number;
}

interface ActiveBuild {
  controller: AbortController;
  cancelResult: CancelResult;
  done: Promise<void>;
}

const silent: WorkerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class ExecutorWorker {
  readonly id: string;
  readonly consoles: ConsoleRegistry;
  /** Emits `completed` (BuildCompletedPayload) after a build's completion is stored. */
  readonly events = new EventEmitter();
  private readonly active = new Map<string, ActiveBuild>();
  private readonly now: () => Date;
  private readonly logger: WorkerLogger;
  private running = false;
  private claimTimer: NodeJS.Timeout | undefined;
  private cancelTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | null = null;

  constructor(private readonly options: ExecutorWorkerOptions) {
    this.id = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.consoles = options.consoles ?? new ConsoleRegistry();
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger ?? silent;
  }

  /** Number of builds running now. */
  get activeCount(): number {
    return this.active.size;
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.wake();
    this.cancelTimer = setInterval(() => {
      void this.checkCancels();
    }, this.options.cancelPollIntervalMs ?? 500);
    this.cancelTimer.unref();
  }

  /** Look for work now (for example after the engine queued a request). */
  wake(): void {
    if (!this.running) {
      return;
    }
    if (this.claiming) {
      return;
    }
    clearTimeout(this.claimTimer);
    this.claiming = this.claimAvailable()
      .catch((err: unknown) => this.logger.error({ err }, 'claiming build requests failed'))
      .finally(() => {
        this.claiming = null;
        if (this.running) {
          this.claimTimer = setTimeout(() => this.wake(), this.options.pollIntervalMs ?? 1000);
          this.claimTimer.unref();
        }
      });
  }

  /** Stop claiming, abort running builds (reported ABORTED) and wait for them to finish. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.claimTimer);
    clearInterval(this.cancelTimer);
    await this.claiming;
    for (const build of this.active.values()) {
      build.cancelResult = 'ABORTED';
      build.controller.abort();
    }
    await Promise.all([...this.active.values()].map((b) => b.done));
  }

  private async claimAvailable(): Promise<void> {
    const limit = this.options.concurrency ?? 2;
    while (this.running && this.active.size < limit) {
      const record = await this.options.repository.claimNext(this.id, this.now());
      if (!record) {
        return;
      }
      this.launch(record);
    }
  }

  private launch(record: BuildRequestRecord): void {
    const controller = new AbortController();
    const build: ActiveBuild = { controller, cancelResult: 'ABORTED', done: Promise.resolve() };
    this.active.set(record.buildUuid, build);
    build.done = this.execute(record, build)
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
    try {
      const cancels = await this.options.repository.cancelsRequested(this.id, [...this.active.keys()]);
      for (const [uuid, result] of cancels) {
        const build = this.active.get(uuid);
        if (build && !build.controller.signal.aborted) {
          build.cancelResult = result;
          build.controller.abort();
        }
      }
    } catch (err) {
      this.logger.warn({ err }, 'checking for canceled builds failed');
    }
  }

  private async execute(record: BuildRequestRecord, build: ActiveBuild): Promise<void> {
    const parsed = buildRequestParamsSchema.safeParse(record.params);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      await this.complete(invalidRequestPayload(record, `Invalid build request: ${issue.path.map(String).join('.')}: ${issue.message}`, this.now(), this.id));
      return;
    }
    const params = parsed.data;
    const logDir = buildLogDir(this.options.logsDir, params.tenant, params.buildUuid);
    const logUrl = buildLogUrl(this.options.logsUrl, params.tenant, params.buildUuid);
    const log = new BuildLog(path.join(logDir, JOB_OUTPUT_FILE), this.now);
    this.consoles.register(params.buildUuid, log);
    const placement = placeBuild(params, this.options.workRoot, (node) => this.sshKeyFor(node));
    const workspaceRoot = placement.ok ? placement.root : path.join(this.options.workRoot, params.buildUuid);
    const ownsWorkspace = placement.ok && placement.owned;
    const startTime = this.now();
    let outcome: RunOutcome | null = null;
    let changedFiles: string[] | null = null;
    try {
      // Locked before the start is recorded, so the nodes are in use once the build is seen running.
      const nodeIds = (params.nodes ?? []).map((node) => node.id);
      const lockRefusal = this.options.nodeLocker && nodeIds.length > 0 ? await this.options.nodeLocker.lock(nodeIds, this.id) : null;
      await this.options.repository.recordStarted(
        {
          buildUuid: params.buildUuid,
          buildsetUuid: params.buildsetUuid,
          tenant: params.tenant,
          pipeline: params.pipeline,
          jobName: params.job.name,
          attempt: params.attempt,
          startTime: startTime.toISOString(),
          worker: this.id,
          logUrl,
        },
        startTime,
      );
      log.write(`Job ${params.job.name} (build ${params.buildUuid}, attempt ${params.attempt} of ${params.job.attempts}) on executor ${this.id}`);
      if (lockRefusal !== null) {
        throw new NodeFailure(lockRefusal);
      }
      if (!placement.ok) {
        throw new NodeFailure(placement.detail);
      }
      if (ownsWorkspace) {
        rmSync(workspaceRoot, { recursive: true, force: true });
      } else {
        log.write(`Workspace: the node directory ${workspaceRoot}`);
        // The node's directory may hold its image; only the workspace parts are replaced.
        for (const part of ['src', 'work']) {
          rmSync(path.join(workspaceRoot, part), { recursive: true, force: true });
        }
      }
      mkdirSync(workspaceRoot, { recursive: true });
      log.write('Preparing the workspace at the speculative state');
      const prepared = await this.options.merger.prepareWorkspace(
        {
          items: params.mergerItems,
          projects: checkoutsOf(params),
          scheme: params.job.workspaceScheme,
          item: params.item,
          overrideCheckout: params.job.overrideCheckout,
        },
        path.join(workspaceRoot, 'src'),
      );
      if (!prepared.ok) {
        log.write(`${prepared.result}: ${prepared.detail}`);
        outcome = { result: prepared.result, errorDetail: prepared.detail, results: { artifacts: [], data: {}, childJobs: null, warnings: [] }, warnings: [] };
      } else if (build.controller.signal.aborted) {
        outcome = { result: build.cancelResult, errorDetail: null, results: { artifacts: [], data: {}, childJobs: null, warnings: [] }, warnings: [] };
      } else {
        changedFiles = prepared.changedFiles;
        for (const project of prepared.projects) {
          log.write(`Checked out ${project.project} at ${project.checkout} (${project.head}) in src/${project.relativePath}`);
        }
        const access = await openNodeAccess({
          params,
          workspaceRoot,
          sshPrimary: placement.sshNode,
          sshKeyFor: (node) => this.sshKeyFor(node),
          env: { PATH: this.options.hostEnv.PATH ?? '/usr/bin:/bin' },
        });
        try {
          outcome = await runBuild({
            remote: access.remote,
            nodeEnv: access.env,
            params,
            workspaceRoot,
            projects: prepared.projects,
            log,
            logDir,
            logUrl,
            hostEnv: this.options.hostEnv,
            signal: build.controller.signal,
            cancelResult: () => build.cancelResult,
            killGraceMs: this.options.killGraceMs,
          });
        } finally {
          await access.close();
        }
      }
    } catch (err) {
      if (err instanceof NodeFailure || err instanceof NodeAccessError) {
        log.write(`NODE_FAILURE: ${err.message}`);
        outcome = { result: 'NODE_FAILURE', errorDetail: err.message, results: { artifacts: [], data: {}, childJobs: null, warnings: [] }, warnings: [] };
      } else {
        this.logger.error({ err, build: params.buildUuid }, 'executor error');
        const detail = `Executor error: ${err instanceof Error ? err.message : String(err)}`;
        log.write(detail);
        outcome = { result: 'ERROR', errorDetail: detail, results: { artifacts: [], data: {}, childJobs: null, warnings: [] }, warnings: [] };
      }
    } finally {
      log.finish();
      if (ownsWorkspace && !this.options.keepWorkspaces) {
        rmSync(workspaceRoot, { recursive: true, force: true });
      }
    }
    const endTime = this.now();
    try {
      await this.complete({
        buildUuid: params.buildUuid,
        buildsetUuid: params.buildsetUuid,
        tenant: params.tenant,
        pipeline: params.pipeline,
        jobName: params.job.name,
        attempt: params.attempt,
        result: outcome.result,
        startTime: startTime.toISOString(),
        endTime: endTime.toISOString(),
        errorDetail: outcome.errorDetail,
        logUrl,
        artifacts: outcome.results.artifacts,
        data: outcome.results.data,
        childJobs: outcome.results.childJobs,
        warnings: outcome.warnings,
        worker: this.id,
        changedFiles,
      });
    } finally {
      // Unregistered only now, so a console client always finds the build live or finished.
      this.consoles.unregister(params.buildUuid, log);
    }
  }

  private sshKeyFor(node: BuildNode): string | undefined {
    return (node.connection ? this.options.sshKeyFiles?.[node.connection] : undefined) ?? this.options.sshKeyFile;
  }

  private async complete(payload: BuildCompletedPayload): Promise<void> {
    const stored = await this.options.repository.complete(payload, this.now());
    if (stored) {
      this.events.emit('completed', payload);
    }
  }
}

/** The build cannot use its node: it ends NODE_FAILURE. */
class NodeFailure extends Error {}

/** Required projects plus the projects holding the job's scripts (checked out like any other). */
function checkoutsOf(params: BuildRequestParams): ProjectCheckout[] {
  const checkouts = [...params.projects];
  for (const step of [...params.job.preRun, ...params.job.run, ...params.job.postRun]) {
    if (!checkouts.some((c) => c.connection === step.connection && c.project === step.project)) {
      checkouts.push({ connection: step.connection, project: step.project, overrideCheckout: null });
    }
  }
  return checkouts;
}

function invalidRequestPayload(record: BuildRequestRecord, detail: string, now: Date, worker: string): BuildCompletedPayload {
  const raw = (record.params ?? {}) as Partial<BuildRequestParams>;
  return {
    buildUuid: record.buildUuid,
    buildsetUuid: typeof raw.buildsetUuid === 'string' ? raw.buildsetUuid : '',
    tenant: record.tenant,
    pipeline: typeof raw.pipeline === 'string' ? raw.pipeline : '',
    jobName: typeof raw.job?.name === 'string' ? raw.job.name : '',
    attempt: typeof raw.attempt === 'number' ? raw.attempt : 1,
    result: 'ERROR',
    startTime: record.started ? record.started.toISOString() : null,
    endTime: now.toISOString(),
    errorDetail: detail,
    logUrl: null,
    artifacts: [],
    data: {},
    childJobs: null,
    warnings: [],
    worker,
    changedFiles: null,
  };
}
