/**
 * The executor worker: claims build requests from the store (up to `concurrency` at a time),
 * prepares each build's workspace at the speculative state, runs its steps, publishes its log
 * and reports `build-started` / `build-completed` result events for the engine. Cancels
 * requested in the store (`cancel_requested`) are noticed by a poll and stop the build within
 * the poll interval plus the kill grace; stopping the worker aborts running builds (ABORTED).
 * A build that pauses after its run phase (`build-paused`) leaves the worker with its workspace
 * kept; once the engine asks for its resume (or cancel), the worker that finds its workspace on
 * this host claims it again and runs its post-run steps (or just completes it canceled).
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  buildEventSubject,
  buildRequestParamsSchema,
  type BuildCompletedPayload,
  type BuildNode,
  type BuildPausedPayload,
  type BuildRequestParams,
  type CancelResult,
  type ProjectCheckout,
} from '../model/build-request';
import type { BuildRequestRecord, BuildRequestRepository } from '../store/repositories/build-requests';
import { BuildLog, ConsoleRegistry } from './build-log';
import { buildLogDir, buildLogUrl, JOB_OUTPUT_FILE } from './log-paths';
import type { Merger, WorkspaceProject } from './merger';
import { NodeAccessError, openNodeAccess } from './node-access';
import { placeBuild } from './node-placement';
import { parsePauseState, type PauseState } from './pause-state';
import { EMPTY_RESULTS } from './results-file';
import { runBuild, type RunOutcome } from './runner';
import { sshRemoteSteps } from './ssh-runner';
import type { SecretsKeySource } from '../secrets/secret-data';
import {
  BuildSecretError,
  decryptBuildSecrets,
  NO_SECRETS,
  redactLogDirectory,
  redactOutcome,
  type DecryptedBuildSecrets,
} from './build-secrets';

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
  /** Projects' secrets keys (the KeyManager); builds carrying secrets fail with ERROR without it. */
  secretKeys?: () => Promise<SecretsKeySource>;
}

interface ActiveBuild {
  controller: AbortController;
  cancelResult: CancelResult;
  done: Promise<void>;
}

const silent: WorkerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Paused builds looked at per claim attempt for a requested resume or cancel. */
const CONTINUE_BATCH = 20;

/** A build's log location. */
interface LogPlace {
  dir: string;
  url: string | null;
}

export class ExecutorWorker {
  readonly id: string;
  readonly consoles: ConsoleRegistry;
  /** Emits `paused` (BuildPausedPayload) and `completed` (BuildCompletedPayload) once stored. */
  readonly events = new EventEmitter();
  private readonly active = new Map<string, ActiveBuild>();
  /** Logs of builds this worker paused: still followed live until the build continues. */
  private readonly pausedLogs = new Map<string, BuildLog>();
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
    // Paused builds stay paused in the store; the worker that continues them reopens their log.
    for (const [uuid, log] of this.pausedLogs) {
      log.finish();
      this.consoles.unregister(uuid, log);
    }
    this.pausedLogs.clear();
  }

  private async claimAvailable(): Promise<void> {
    const limit = this.options.concurrency ?? 2;
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
    const placement = placeBuild(parsed.data, this.options.workRoot, (node) => this.sshKeyFor(node));
    return placement.ok && existsSync(placement.root);
  }

  private launch(record: BuildRequestRecord, mode: 'start' | 'continue'): void {
    const controller = new AbortController();
    const build: ActiveBuild = { controller, cancelResult: 'ABORTED', done: Promise.resolve() };
    this.active.set(record.buildUuid, build);
    build.done = (mode === 'start' ? this.execute(record, build) : this.continuePaused(record, build))
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
      await this.complete(
        invalidRequestPayload(
          record,
          `Invalid build request: ${issue.path.map(String).join('.')}: ${issue.message}`,
          this.now(),
          this.id,
        ),
      );
      return;
    }
    const params = parsed.data;
    const logPlace = this.logPlace(params);
    const log = new BuildLog(path.join(logPlace.dir, JOB_OUTPUT_FILE), this.now);
    this.consoles.register(params.buildUuid, log);
    const placement = placeBuild(params, this.options.workRoot, (node) => this.sshKeyFor(node));
    const workspaceRoot = placement.ok ? placement.root : path.join(this.options.workRoot, params.buildUuid);
    const ownsWorkspace = placement.ok && placement.owned;
    const startTime = this.now();
    let outcome: RunOutcome;
    let changedFiles: string[] | null = null;
    let pauseState: PauseState | null = null;
    let secrets: DecryptedBuildSecrets = NO_SECRETS;
    try {
      // Locked before the start is recorded, so the nodes are in use once the build is seen running.
      const nodeIds = (params.nodes ?? []).map((node) => node.id);
      const lockRefusal =
        this.options.nodeLocker && nodeIds.length > 0 ? await this.options.nodeLocker.lock(nodeIds, this.id) : null;
      await this.options.repository.recordStarted(
        {
          ...buildEventSubject(params),
          startTime: startTime.toISOString(),
          worker: this.id,
          logUrl: logPlace.url,
        },
        startTime,
      );
      log.write(
        `Job ${params.job.name} (build ${params.buildUuid}, attempt ${params.attempt} of ${params.job.attempts}) on executor ${this.id}`,
      );
      // Decrypted first, so everything logged from here on is masked.
      secrets = await decryptBuildSecrets(params.job.secrets ?? [], this.options.secretKeys);
      log.setRedactor(secrets.redactor);
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
        outcome = { result: prepared.result, errorDetail: prepared.detail, results: EMPTY_RESULTS, warnings: [] };
      } else if (build.controller.signal.aborted) {
        outcome = { result: build.cancelResult, errorDetail: null, results: EMPTY_RESULTS, warnings: [] };
      } else {
        changedFiles = prepared.changedFiles;
        for (const project of prepared.projects) {
          log.write(
            `Checked out ${project.project} at ${project.checkout} (${project.head}) in src/${project.relativePath}`,
          );
        }
        const run = await this.runOnNodes({
          params,
          workspaceRoot,
          sshPrimary: placement.sshNode,
          projects: prepared.projects,
          log,
          logPlace,
          build,
          secrets,
        });
        outcome = run.outcome;
        if (outcome.paused === true) {
          pauseState = {
            startTime: startTime.toISOString(),
            projects: prepared.projects,
            changedFiles,
            remoteRoot: run.remoteRoot,
          };
        }
      }
    } catch (err) {
      outcome = this.failureOutcome(err, params, log);
    } finally {
      // A paused build keeps its workspace and its (live) log for the post-run steps.
      if (pauseState === null) {
        log.finish();
        if (ownsWorkspace && !this.options.keepWorkspaces) {
          rmSync(workspaceRoot, { recursive: true, force: true });
        }
      }
    }
    // Masked before anything leaves: a pause hands data and artifacts to dependent jobs.
    outcome = redactOutcome(outcome, secrets.redactor);
    if (pauseState !== null) {
      if (await this.pause(params, log, outcome, pauseState)) {
        return;
      }
      log.finish();
      if (ownsWorkspace && !this.options.keepWorkspaces) {
        rmSync(workspaceRoot, { recursive: true, force: true });
      }
    }
    await this.finish(params, log, outcome, { startTime, logUrl: logPlace.url, changedFiles }, secrets);
  }

  /**
   * Record the pause (the engine gets `build-paused`); the build leaves this worker. False when
   * the request is no longer running here: the build then completes as it is.
   */
  private async pause(
    params: BuildRequestParams,
    log: BuildLog,
    outcome: RunOutcome,
    state: PauseState,
  ): Promise<boolean> {
    const pauseTime = this.now();
    const payload: BuildPausedPayload = {
      ...buildEventSubject(params),
      pauseTime: pauseTime.toISOString(),
      artifacts: outcome.results.artifacts,
      data: outcome.results.data,
      childJobs: outcome.results.childJobs,
      worker: this.id,
    };
    this.pausedLogs.set(params.buildUuid, log);
    if (await this.options.repository.recordPaused(payload, state, pauseTime)) {
      this.events.emit('paused', payload);
      return true;
    }
    this.pausedLogs.delete(params.buildUuid);
    return false;
  }

  /** Finish a paused build claimed again: run its post-run steps, or complete it canceled. */
  private async continuePaused(record: BuildRequestRecord, build: ActiveBuild): Promise<void> {
    const parsed = buildRequestParamsSchema.safeParse(record.params);
    const state = parsePauseState(record.pauseState);
    if (!parsed.success || state === null) {
      await this.complete(
        invalidRequestPayload(
          record,
          'Invalid build request: the state of the paused build cannot be read',
          this.now(),
          this.id,
        ),
      );
      return;
    }
    const params = parsed.data;
    const logPlace = this.logPlace(params);
    const log =
      this.pausedLogs.get(params.buildUuid) ?? new BuildLog(path.join(logPlace.dir, JOB_OUTPUT_FILE), this.now);
    this.pausedLogs.delete(params.buildUuid);
    this.consoles.register(params.buildUuid, log);
    const placement = placeBuild(params, this.options.workRoot, (node) => this.sshKeyFor(node));
    const workspaceRoot = placement.ok ? placement.root : path.join(this.options.workRoot, params.buildUuid);
    const sshNode = placement.ok ? placement.sshNode : null;
    let outcome: RunOutcome;
    let secrets: DecryptedBuildSecrets = NO_SECRETS;
    try {
      if (record.cancelRequested) {
        const result = record.cancelResult ?? 'CANCELED';
        log.write(`Build canceled while paused (${result})`);
        outcome = { result, errorDetail: null, results: EMPTY_RESULTS, warnings: [] };
        if (sshNode && state.remoteRoot !== null) {
          await this.removeRemoteWorkspace(sshNode, workspaceRoot, state.remoteRoot, log);
        }
      } else {
        const nodeIds = (params.nodes ?? []).map((node) => node.id);
        const lockRefusal =
          this.options.nodeLocker && nodeIds.length > 0 ? await this.options.nodeLocker.lock(nodeIds, this.id) : null;
        if (lockRefusal !== null) {
          throw new NodeFailure(lockRefusal);
        }
        if (!placement.ok) {
          throw new NodeFailure(placement.detail);
        }
        log.write(`Resumed on executor ${this.id}: every dependent job has completed`);
        // The post-run steps get their secrets again (a restarted executor has none in memory).
        secrets = await decryptBuildSecrets(params.job.secrets ?? [], this.options.secretKeys);
        log.setRedactor(secrets.redactor);
        const run = await this.runOnNodes({
          params,
          workspaceRoot,
          sshPrimary: sshNode,
          remoteRoot: state.remoteRoot ?? undefined,
          projects: state.projects,
          log,
          logPlace,
          build,
          secrets,
          resume: true,
        });
        outcome = run.outcome;
      }
    } catch (err) {
      outcome = this.failureOutcome(err, params, log);
    } finally {
      log.finish();
      if (placement.ok && placement.owned && !this.options.keepWorkspaces) {
        rmSync(workspaceRoot, { recursive: true, force: true });
      }
    }
    await this.finish(
      params,
      log,
      outcome,
      { startTime: new Date(state.startTime), logUrl: logPlace.url, changedFiles: state.changedFiles },
      secrets,
    );
  }

  /** The node keeps nothing of a canceled paused build (best effort: the cancel stands either way). */
  private async removeRemoteWorkspace(
    node: BuildNode,
    workspaceRoot: string,
    remoteRoot: string,
    log: BuildLog,
  ): Promise<void> {
    const keyFile = this.sshKeyFor(node);
    try {
      if (keyFile === undefined) {
        throw new Error('this executor has no SSH key for it');
      }
      const env = { PATH: this.options.hostEnv.PATH ?? '/usr/bin:/bin' };
      await sshRemoteSteps({
        node,
        keyFile,
        localRoot: workspaceRoot,
        remoteRoot,
        stateDir: path.join(workspaceRoot, '.ssh'),
        env,
      }).collect();
    } catch (err) {
      log.write(
        `Removing the workspace from node ${node.id} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /**
   * Runs the build's steps on its nodes (resuming: the post-run steps of a paused build); the
   * node access lives for the run only. `remoteRoot` is where an SSH primary keeps the workspace.
   */
  private async runOnNodes(run: {
    params: BuildRequestParams;
    workspaceRoot: string;
    sshPrimary: BuildNode | null;
    remoteRoot?: string;
    projects: WorkspaceProject[];
    log: BuildLog;
    logPlace: LogPlace;
    build: ActiveBuild;
    secrets: DecryptedBuildSecrets;
    resume?: boolean;
  }): Promise<{ outcome: RunOutcome; remoteRoot: string | null }> {
    const { params, workspaceRoot, build } = run;
    const access = await openNodeAccess({
      params,
      workspaceRoot,
      sshPrimary: run.sshPrimary,
      sshKeyFor: (node) => this.sshKeyFor(node),
      env: { PATH: this.options.hostEnv.PATH ?? '/usr/bin:/bin' },
      remoteRoot: run.remoteRoot,
    });
    try {
      const outcome = await runBuild({
        remote: access.remote,
        nodeEnv: access.env,
        params,
        workspaceRoot,
        projects: run.projects,
        log: run.log,
        logDir: run.logPlace.dir,
        logUrl: run.logPlace.url,
        hostEnv: this.options.hostEnv,
        signal: build.controller.signal,
        cancelResult: () => build.cancelResult,
        killGraceMs: this.options.killGraceMs,
        resume: run.resume,
        secrets: run.secrets,
      });
      return { outcome, remoteRoot: access.remote ? access.remote.remoteRoot() : null };
    } finally {
      await access.close();
    }
  }

  private logPlace(params: BuildRequestParams): LogPlace {
    return {
      dir: buildLogDir(this.options.logsDir, params.tenant, params.buildUuid),
      url: buildLogUrl(this.options.logsUrl, params.tenant, params.buildUuid),
    };
  }

  /** The outcome of a build that threw: NODE_FAILURE for node problems, else ERROR. */
  private failureOutcome(err: unknown, params: BuildRequestParams, log: BuildLog): RunOutcome {
    if (err instanceof NodeFailure || err instanceof NodeAccessError) {
      log.write(`NODE_FAILURE: ${err.message}`);
      return { result: 'NODE_FAILURE', errorDetail: err.message, results: EMPTY_RESULTS, warnings: [] };
    }
    if (err instanceof BuildSecretError) {
      log.write(err.message);
      return { result: 'ERROR', errorDetail: err.message, results: EMPTY_RESULTS, warnings: [] };
    }
    this.logger.error({ err, build: params.buildUuid }, 'executor error');
    const detail = `Executor error: ${err instanceof Error ? err.message : String(err)}`;
    log.write(detail);
    return { result: 'ERROR', errorDetail: detail, results: EMPTY_RESULTS, warnings: [] };
  }

  /** Store the completion (the engine gets `build-completed`) and stop serving the live log. */
  private async finish(
    params: BuildRequestParams,
    log: BuildLog,
    unmasked: RunOutcome,
    times: { startTime: Date; logUrl: string | null; changedFiles: string[] | null },
    secrets: DecryptedBuildSecrets,
  ): Promise<void> {
    const outcome = redactOutcome(unmasked, secrets.redactor);
    const logDir = this.logPlace(params).dir;
    await redactLogDirectory(logDir, secrets.redactor, [path.join(logDir, JOB_OUTPUT_FILE)]).catch((err: unknown) =>
      this.logger.error({ err, build: params.buildUuid }, 'masking secrets in the log directory failed'),
    );
    const endTime = this.now();
    try {
      await this.complete({
        ...buildEventSubject(params),
        result: outcome.result,
        startTime: times.startTime.toISOString(),
        endTime: endTime.toISOString(),
        errorDetail: outcome.errorDetail,
        logUrl: times.logUrl,
        artifacts: outcome.results.artifacts,
        data: outcome.results.data,
        childJobs: outcome.results.childJobs,
        warnings: outcome.warnings,
        worker: this.id,
        changedFiles: times.changedFiles,
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

function invalidRequestPayload(
  record: BuildRequestRecord,
  detail: string,
  now: Date,
  worker: string,
): BuildCompletedPayload {
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
