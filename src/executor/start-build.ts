/** The first run of a build request (a paused build continues in src/executor/continue-build.ts). */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  buildEventSubject,
  buildRequestParamsSchema,
  type BuildRequestParams,
  type ProjectCheckout,
} from '../model/build-request';
import type { BuildRequestRecord } from '../store/repositories/build-requests';
import { retryConnectionErrors } from '../store/links';
import { BuildLog } from './build-log';
import { decryptRequestSecrets, NO_SECRETS, redactOutcome, type DecryptedBuildSecrets } from './build-secrets';
import { invalidRequestPayload, NodeFailure, type ActiveBuild, type BuildRuntime } from './build-runtime';
import { JOB_OUTPUT_FILE } from './log-paths';
import { placeBuild } from './node-placement';
import type { PauseState } from './pause-state';
import { EMPTY_RESULTS } from './results-file';
import type { RunOutcome } from './runner';

/**
 * Run a claimed build request: its nodes are locked and its start recorded, its secrets
 * decrypted, its workspace prepared at the speculative state, its steps run; it then pauses
 * (when its results ask to) or completes.
 */
export async function startBuild(runtime: BuildRuntime, record: BuildRequestRecord, build: ActiveBuild): Promise<void> {
  const parsed = buildRequestParamsSchema.safeParse(record.params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    await runtime.complete(
      invalidRequestPayload(
        record,
        `Invalid build request: ${issue.path.map(String).join('.')}: ${issue.message}`,
        runtime.now(),
        runtime.id,
      ),
    );
    return;
  }
  const params = parsed.data;
  const logPlace = runtime.logPlace(params);
  const log = new BuildLog(path.join(logPlace.dir, JOB_OUTPUT_FILE), runtime.now);
  runtime.consoles.register(params.buildUuid, log);
  runtime.stopOnLogFailure(params, log, build);
  const placement = placeBuild(params, runtime.options.workRoot, (node) => runtime.sshKeyFor(node));
  const workspaceRoot = placement.ok ? placement.root : path.join(runtime.options.workRoot, params.buildUuid);
  const ownsWorkspace = placement.ok && placement.owned;
  const startTime = runtime.now();
  let outcome: RunOutcome;
  let changedFiles: string[] | null = null;
  let pauseState: PauseState | null = null;
  let secrets: DecryptedBuildSecrets = NO_SECRETS;
  try {
    // Locked before the start is recorded, so the nodes are in use once the build is seen running.
    const nodeIds = (params.nodes ?? []).map((node) => node.id);
    const lockRefusal =
      runtime.options.nodeLocker && nodeIds.length > 0
        ? await runtime.options.nodeLocker.lock(nodeIds, runtime.id)
        : null;
    const started = {
      ...buildEventSubject(params),
      startTime: startTime.toISOString(),
      worker: runtime.id,
      logUrl: logPlace.url,
    };
    await retryConnectionErrors(() => runtime.options.repository.recordStarted(started, startTime), {
      onRetry: (err) =>
        runtime.logger.warn({ err, build: params.buildUuid }, 'recording a build start: database away, retrying'),
    });
    runtime.events.emit('started', started);
    log.write(
      `Job ${params.job.name} (build ${params.buildUuid}, attempt ${params.attempt} of ${params.job.attempts}) on executor ${runtime.id}`,
    );
    runtime.writeBuildInfo(params, log, {
      workspaceRoot,
      sshPrimary: placement.ok ? placement.sshNode : null,
      projects: null,
    });
    // Decrypted first, so everything logged from here on is masked.
    secrets = await decryptRequestSecrets(params, runtime.options, (message) => log.write(`WARNING: ${message}`));
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
    const prepared = await runtime.options.merger.prepareWorkspace(
      {
        items: params.mergerItems,
        projects: checkoutsOf(params),
        scheme: params.job.workspaceScheme,
        item: params.item,
        overrideCheckout: params.job.overrideCheckout,
        repoState: params.repoState ?? null,
      },
      path.join(workspaceRoot, 'src'),
    );
    if (!prepared.ok) {
      log.write(`${prepared.result}: ${prepared.detail}`);
      outcome = { result: prepared.result, errorDetail: prepared.detail, results: EMPTY_RESULTS, warnings: [] };
    } else if (build.controller.signal.aborted) {
      log.write(build.handBack ? runtime.handBackNote() : `Build canceled (${build.cancelResult})`);
      outcome = { result: build.cancelResult, errorDetail: null, results: EMPTY_RESULTS, warnings: [], canceled: true };
    } else {
      changedFiles = prepared.changedFiles;
      for (const project of prepared.projects) {
        log.write(
          `Checked out ${project.project} at ${project.checkout} (${project.head}) in src/${project.relativePath}`,
        );
      }
      const run = await runtime.runOnNodes({
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
    outcome = runtime.failureOutcome(err, params, log);
  } finally {
    // A paused build keeps its workspace and its (live) log for the post-run steps.
    if (pauseState === null) {
      log.finish();
      removeWorkspace(runtime, params, ownsWorkspace ? workspaceRoot : null);
    }
  }
  if (runtime.handsBack(build, outcome) && (await runtime.handBack(params, log))) {
    return;
  }
  // Masked before anything leaves: a pause hands data and artifacts to dependent jobs.
  outcome = redactOutcome(outcome, secrets.redactor);
  if (pauseState !== null) {
    if (await runtime.pause(params, log, outcome, pauseState)) {
      return;
    }
    log.finish();
    removeWorkspace(runtime, params, ownsWorkspace ? workspaceRoot : null);
  }
  await runtime.finish(params, log, outcome, { startTime, logUrl: logPlace.url, changedFiles }, secrets);
}

/**
 * A finished build leaves nothing on the executor: its workspace (when the executor owns it)
 * and its Ansible files, unless workspaces are kept for debugging.
 */
export function removeWorkspace(runtime: BuildRuntime, params: BuildRequestParams, workspaceRoot: string | null): void {
  if (runtime.options.keepWorkspaces) {
    return;
  }
  if (workspaceRoot !== null) {
    rmSync(workspaceRoot, { recursive: true, force: true });
  }
  rmSync(runtime.ansibleDir(params), { recursive: true, force: true });
}

/**
 * Required projects plus the projects holding the job's scripts and playbooks and their roles
 * (checked out like any other).
 */
function checkoutsOf(params: BuildRequestParams): ProjectCheckout[] {
  const checkouts = [...params.projects];
  const add = (connection: string, project: string): void => {
    if (!checkouts.some((c) => c.connection === connection && c.project === project)) {
      checkouts.push({ connection, project, overrideCheckout: null });
    }
  };
  for (const step of [...params.job.preRun, ...params.job.run, ...params.job.postRun]) {
    add(step.connection, step.project);
    for (const role of step.roles ?? []) {
      if (role.type === 'zuul') {
        add(role.connection, role.project);
      }
    }
  }
  return checkouts;
}
