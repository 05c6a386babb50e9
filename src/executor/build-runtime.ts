/**
 * What the build runs of one executor worker share: its identity, options and clock, the live
 * consoles and the logs of builds it paused, and the steps every run ends with (running on the
 * nodes, recording a pause, storing the completion).
 */
import type { EventEmitter } from 'node:events';
import path from 'node:path';
import {
  buildEventSubject,
  completedWithoutRun,
  type BuildArtifact,
  type BuildCompletedPayload,
  type BuildNode,
  type BuildPausedPayload,
  type BuildRequestParams,
  type CancelResult,
} from '../model/build-request';
import type { BuildRequestRecord } from '../store/repositories/build-requests';
import { retryConnectionErrors } from '../store/links';
import { ansiblePrivateDir } from './ansible/ansible-build';
import { AnsibleToolchain } from './ansible/toolchain';
import { exportBranch } from './branch-tree';
import type { BuildLog, ConsoleRegistry } from './build-log';
import { BuildSecretError, redactLogDirectory, redactOutcome, type DecryptedBuildSecrets } from './build-secrets';
import { ensureJobOutput, JobOutputRecorder } from './job-output-json';
import { writeLogInfo } from './log-info';
import { hasManifestArtifact, manifestArtifact, writeManifest } from './log-manifest';
import { buildLogDir, buildLogUrl, JOB_OUTPUT_FILE } from './log-paths';
import type { WorkspaceProject } from './merger';
import { NodeAccessError, openNodeAccess } from './node-access';
import { isOutOfSpace } from './out-of-space';
import { buildInventory } from './node-inventory';
import type { PauseState } from './pause-state';
import { EMPTY_RESULTS } from './results-file';
import { runBuild, type RunOutcome } from './runner';
import type { ExecutorWorkerOptions, WorkerLogger } from './worker-options';

/** A build this worker runs: aborting its controller stops it with `cancelResult`. */
export interface ActiveBuild {
  controller: AbortController;
  cancelResult: CancelResult;
  /** Stopped because the worker stops: handed back unfinished instead of completed (docs/operations.md#shutdown). */
  handBack: boolean;
  done: Promise<void>;
}

/** A build's log location. */
export interface LogPlace {
  dir: string;
  url: string | null;
}

/** The build cannot use its node: it ends NODE_FAILURE. */
export class NodeFailure extends Error {}

export class BuildRuntime {
  /** Logs of builds this worker paused: still followed live until the build continues. */
  readonly pausedLogs = new Map<string, BuildLog>();
  readonly toolchain: AnsibleToolchain;

  constructor(
    readonly options: ExecutorWorkerOptions,
    readonly id: string,
    readonly consoles: ConsoleRegistry,
    /** Emits `started` (BuildStartedPayload), `paused` (BuildPausedPayload) and `completed` (BuildCompletedPayload) once stored. */
    readonly events: EventEmitter,
    readonly now: () => Date,
    readonly logger: WorkerLogger,
  ) {
    this.toolchain = options.toolchain ?? new AnsibleToolchain({ pathEnv: options.hostEnv.PATH });
  }

  /** The executor's own folder of a build's Ansible files (removed when the build ends). */
  ansibleDir(params: BuildRequestParams): string {
    return ansiblePrivateDir(this.options.workRoot, params.buildUuid);
  }

  /**
   * Record the pause (the engine gets `build-paused`); the build leaves this worker. False when
   * the request is no longer running here: the build then completes as it is.
   */
  async pause(params: BuildRequestParams, log: BuildLog, outcome: RunOutcome, state: PauseState): Promise<boolean> {
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
    const recorded = await retryConnectionErrors(
      () => this.options.repository.recordPaused(payload, state, pauseTime),
      {
        onRetry: (err) =>
          this.logger.warn({ err, build: payload.buildUuid }, 'storing a build pause: database away, retrying'),
      },
    );
    if (recorded) {
      this.events.emit('paused', payload);
      return true;
    }
    this.pausedLogs.delete(params.buildUuid);
    return false;
  }

  /**
   * Runs the build's steps on its nodes (resuming: the post-run steps of a paused build); the
   * node access lives for the run only. `remoteRoot` is where an SSH primary keeps the workspace.
   */
  async runOnNodes(run: {
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
    if (run.resume !== true) {
      this.writeBuildInfo(params, run.log, { workspaceRoot, sshPrimary: run.sshPrimary, projects: run.projects });
    }
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
        stopNote: () => (build.handBack ? this.handBackNote() : null),
        killGraceMs: this.options.killGraceMs,
        resume: run.resume,
        secrets: run.secrets,
        ansible: {
          toolchain: this.toolchain,
          privateDir: this.ansibleDir(params),
          // Ansible runs on the executor and reaches every node from there.
          inventory: this.inventoryOf(params, workspaceRoot, null),
          sshKeyFor: (node) => this.sshKeyFor(node),
          branchTree: (connection, project, branch, target) =>
            exportBranch(this.options.merger.cache, connection, project, branch, target),
        },
        jobOutput: new JobOutputRecorder({
          logDir: run.logPlace.dir,
          jobName: params.job.name,
          host: this.inventoryOf(params, workspaceRoot, run.sshPrimary).primary ?? 'localhost',
          branch: params.item.branch ?? params.item.ref,
          redactor: run.secrets.redactor,
          now: this.now,
        }),
      });
      return { outcome, remoteRoot: access.remote ? access.remote.remoteRoot() : null };
    } finally {
      await access.close();
    }
  }

  /**
   * Write the build's `zuul-info/` files (docs/logs.md#zuul-info); a failure is noted in the
   * build's log and never fails the build.
   */
  writeBuildInfo(
    params: BuildRequestParams,
    log: BuildLog,
    at: { workspaceRoot: string; sshPrimary: BuildNode | null; projects: WorkspaceProject[] | null },
  ): void {
    const place = this.logPlace(params);
    try {
      writeLogInfo({
        params,
        inventory: this.inventoryOf(params, at.workspaceRoot, at.sshPrimary),
        logDir: place.dir,
        logUrl: place.url,
        workspaceRoot: at.workspaceRoot,
        projects: at.projects,
      });
    } catch (err) {
      log.write(`WARNING: the build information could not be written to the log: ${(err as Error).message}`);
    }
  }

  private inventoryOf(params: BuildRequestParams, workspaceRoot: string, sshPrimary: BuildNode | null) {
    return buildInventory({
      params,
      workspaceRoot,
      sshKeyFor: (node) => this.sshKeyFor(node),
      remoteSteps: sshPrimary !== null,
    });
  }

  logPlace(params: BuildRequestParams): LogPlace {
    return {
      dir: buildLogDir(this.options.logsDir, params.tenant, params.buildUuid),
      url: buildLogUrl(
        typeof this.options.logsUrl === 'function' ? this.options.logsUrl() : this.options.logsUrl,
        params.tenant,
        params.buildUuid,
      ),
    };
  }

  /**
   * A build whose log cannot be written (a full disk) stops at once: its steps are killed, and
   * `finish` completes it ERROR with the reason (docs/executor.md#out-of-space).
   */
  stopOnLogFailure(params: BuildRequestParams, log: BuildLog, build: ActiveBuild): void {
    log.onFailure((err) => {
      const detail = err.message;
      if (isOutOfSpace(err)) {
        this.logger.warn({ build: params.buildUuid, detail }, 'the build log cannot be written; stopping the build');
      } else {
        this.logger.error({ err, build: params.buildUuid }, 'the build log cannot be written; stopping the build');
      }
      build.controller.abort();
    });
  }

  /** The log's last line of a build stopped by the worker's shutdown. */
  handBackNote(): string {
    return `Build stopped: executor ${this.id} is shutting down; the build is handed back and runs again from the start (this attempt is not used up)`;
  }

  /** Whether a build's end is a hand-back: stopped by the worker's shutdown, not finished. */
  handsBack(build: ActiveBuild, outcome: RunOutcome): boolean {
    return build.handBack && outcome.canceled === true;
  }

  /**
   * Give the build's request back unfinished (docs/operations.md#shutdown) and stop serving its
   * live log. False when the request is no longer this worker's: the build then completes as usual.
   */
  async handBack(params: BuildRequestParams, log: BuildLog): Promise<boolean> {
    const handedBack = await retryConnectionErrors(
      () => this.options.repository.handBack(params.buildUuid, this.id, this.now()),
      {
        onRetry: (err) =>
          this.logger.warn({ err, build: params.buildUuid }, 'handing a build back: database away, retrying'),
      },
    );
    if (handedBack) {
      this.logger.info({ build: params.buildUuid }, 'build handed back unfinished: the executor is shutting down');
      this.consoles.unregister(params.buildUuid, log);
    }
    return handedBack;
  }

  /** The outcome of a build that threw: NODE_FAILURE for node problems, else ERROR. */
  failureOutcome(err: unknown, params: BuildRequestParams, log: BuildLog): RunOutcome {
    if (err instanceof NodeFailure || err instanceof NodeAccessError) {
      log.write(`NODE_FAILURE: ${err.message}`);
      return { result: 'NODE_FAILURE', errorDetail: err.message, results: EMPTY_RESULTS, warnings: [] };
    }
    if (err instanceof BuildSecretError) {
      log.write(err.message);
      return { result: 'ERROR', errorDetail: err.message, results: EMPTY_RESULTS, warnings: [] };
    }
    if (isOutOfSpace(err)) {
      // Expected on a full disk: the reason, without a stack (docs/executor.md#out-of-space).
      const detail = `Out of space: ${(err as Error).message}`;
      this.logger.warn({ build: params.buildUuid, detail }, 'build ended ERROR');
      log.write(detail);
      return { result: 'ERROR', errorDetail: detail, results: EMPTY_RESULTS, warnings: [] };
    }
    this.logger.error({ err, build: params.buildUuid }, 'executor error');
    const detail = `Executor error: ${err instanceof Error ? err.message : String(err)}`;
    log.write(detail);
    return { result: 'ERROR', errorDetail: detail, results: EMPTY_RESULTS, warnings: [] };
  }

  /** Store the completion (the engine gets `build-completed`) and stop serving the live log. */
  async finish(
    params: BuildRequestParams,
    log: BuildLog,
    unmasked: RunOutcome,
    times: { startTime: Date; logUrl: string | null; changedFiles: string[] | null },
    secrets: DecryptedBuildSecrets,
  ): Promise<void> {
    const outcome = redactOutcome(withLogFailure(unmasked, log), secrets.redactor);
    const logDir = this.logPlace(params).dir;
    await redactLogDirectory(logDir, secrets.redactor, [path.join(logDir, JOB_OUTPUT_FILE)]).catch((err: unknown) =>
      this.logger.error({ err, build: params.buildUuid }, 'masking secrets in the log directory failed'),
    );
    const artifacts = await this.publishManifest(params, logDir, times.logUrl, outcome.results.artifacts);
    const endTime = this.now();
    try {
      await this.complete({
        ...buildEventSubject(params),
        result: outcome.result,
        startTime: times.startTime.toISOString(),
        endTime: endTime.toISOString(),
        errorDetail: outcome.errorDetail,
        // A playbook may name where its logs are (`zuul.log_url`, docs/executor.md#zuul_return).
        logUrl: outcome.results.logUrl ?? times.logUrl,
        artifacts,
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

  /**
   * Complete the log folder (an empty `job-output.json` when no step ran), write its manifest and
   * add the manifest artifact (docs/logs.md#the-manifest-artifact) unless the job returned one.
   */
  private async publishManifest(
    params: BuildRequestParams,
    logDir: string,
    logUrl: string | null,
    artifacts: BuildArtifact[],
  ): Promise<BuildArtifact[]> {
    try {
      ensureJobOutput(logDir);
      await writeManifest(logDir);
    } catch (err) {
      if (isOutOfSpace(err)) {
        const detail = (err as Error).message;
        this.logger.warn({ build: params.buildUuid, detail }, 'writing the log manifest failed');
      } else {
        this.logger.error({ err, build: params.buildUuid }, 'writing the log manifest failed');
      }
      return artifacts;
    }
    return logUrl === null || hasManifestArtifact(artifacts) ? artifacts : [...artifacts, manifestArtifact(logUrl)];
  }

  sshKeyFor(node: BuildNode): string | undefined {
    return (node.connection ? this.options.sshKeyFiles?.[node.connection] : undefined) ?? this.options.sshKeyFile;
  }

  async complete(payload: BuildCompletedPayload): Promise<void> {
    // A result must outlive a database restart (docs/operations.md#database-links).
    const stored = await retryConnectionErrors(() => this.options.repository.complete(payload, this.now()), {
      onRetry: (err) =>
        this.logger.warn({ err, build: payload.buildUuid }, 'storing a build result: database away, retrying'),
    });
    if (stored) {
      this.events.emit('completed', payload);
    }
  }
}

/** A build whose log failed ends ERROR with the reason, whatever its steps did. */
function withLogFailure(outcome: RunOutcome, log: BuildLog): RunOutcome {
  if (log.failure === null) {
    return outcome;
  }
  return {
    result: 'ERROR',
    errorDetail: `The build log could not be written: ${log.failure.message}`,
    results: EMPTY_RESULTS,
    warnings: outcome.warnings,
  };
}

/** The completion of a request this worker cannot run: ERROR with the reason. */
export function invalidRequestPayload(
  record: BuildRequestRecord,
  detail: string,
  now: Date,
  worker: string,
): BuildCompletedPayload {
  return completedWithoutRun(record, {
    result: 'ERROR',
    startTime: record.started ? record.started.toISOString() : null,
    endTime: now.toISOString(),
    errorDetail: detail,
    worker,
  });
}
