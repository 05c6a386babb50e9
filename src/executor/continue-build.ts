/**
 * A paused build claimed again once the engine asked for its resume (its post-run steps run,
 * with its secrets decrypted again) or its cancel (it completes canceled, and an SSH node's
 * workspace is removed).
 */
import path from 'node:path';
import { buildRequestParamsSchema, type BuildNode } from '../model/build-request';
import type { BuildRequestRecord } from '../store/repositories/build-requests';
import { BuildLog } from './build-log';
import { decryptRequestSecrets, NO_SECRETS, type DecryptedBuildSecrets } from './build-secrets';
import { invalidRequestPayload, NodeFailure, type ActiveBuild, type BuildRuntime } from './build-runtime';
import { JOB_OUTPUT_FILE } from './log-paths';
import { placeBuild } from './node-placement';
import { removeWorkspace } from './start-build';
import { parsePauseState } from './pause-state';
import { EMPTY_RESULTS } from './results-file';
import type { RunOutcome } from './runner';
import { sshRemoteSteps } from './ssh-runner';

/** Finish a paused build claimed again: run its post-run steps, or complete it canceled. */
export async function continuePausedBuild(
  runtime: BuildRuntime,
  record: BuildRequestRecord,
  build: ActiveBuild,
): Promise<void> {
  const parsed = buildRequestParamsSchema.safeParse(record.params);
  const state = parsePauseState(record.pauseState);
  if (!parsed.success || state === null) {
    await runtime.complete(
      invalidRequestPayload(
        record,
        'Invalid build request: the state of the paused build cannot be read',
        runtime.now(),
        runtime.id,
      ),
    );
    return;
  }
  const params = parsed.data;
  const logPlace = runtime.logPlace(params);
  const log =
    runtime.pausedLogs.get(params.buildUuid) ?? new BuildLog(path.join(logPlace.dir, JOB_OUTPUT_FILE), runtime.now);
  runtime.pausedLogs.delete(params.buildUuid);
  runtime.consoles.register(params.buildUuid, log);
  runtime.stopOnLogFailure(params, log, build);
  const placement = placeBuild(params, runtime.options.workRoot, (node) => runtime.sshKeyFor(node));
  const workspaceRoot = placement.ok ? placement.root : path.join(runtime.options.workRoot, params.buildUuid);
  const sshNode = placement.ok ? placement.sshNode : null;
  let outcome: RunOutcome;
  let secrets: DecryptedBuildSecrets = NO_SECRETS;
  try {
    if (record.cancelRequested) {
      const result = record.cancelResult ?? 'CANCELED';
      log.write(`Build canceled while paused (${result})`);
      outcome = { result, errorDetail: null, results: EMPTY_RESULTS, warnings: [] };
      if (sshNode && state.remoteRoot !== null) {
        await removeRemoteWorkspace(runtime, sshNode, workspaceRoot, state.remoteRoot, log);
      }
    } else {
      const nodeIds = (params.nodes ?? []).map((node) => node.id);
      const lockRefusal =
        runtime.options.nodeLocker && nodeIds.length > 0
          ? await runtime.options.nodeLocker.lock(nodeIds, runtime.id)
          : null;
      if (lockRefusal !== null) {
        throw new NodeFailure(lockRefusal);
      }
      if (!placement.ok) {
        throw new NodeFailure(placement.detail);
      }
      log.write(`Resumed on executor ${runtime.id}: every dependent job has completed`);
      // The post-run steps get their secrets again (a restarted executor has none in memory).
      secrets = await decryptRequestSecrets(params, runtime.options, (message) => log.write(`WARNING: ${message}`));
      log.setRedactor(secrets.redactor);
      const run = await runtime.runOnNodes({
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
    outcome = runtime.failureOutcome(err, params, log);
  }
  log.finish();
  // Handed back, the build stays paused here: its workspace is kept for the next continue.
  if (runtime.handsBack(build, outcome) && (await runtime.handBack(params, log))) {
    return;
  }
  removeWorkspace(runtime, params, placement.ok && placement.owned ? workspaceRoot : null);
  await runtime.finish(
    params,
    log,
    outcome,
    { startTime: new Date(state.startTime), logUrl: logPlace.url, changedFiles: state.changedFiles },
    secrets,
  );
}

/** The node keeps nothing of a canceled paused build (best effort: the cancel stands either way). */
async function removeRemoteWorkspace(
  runtime: BuildRuntime,
  node: BuildNode,
  workspaceRoot: string,
  remoteRoot: string,
  log: BuildLog,
): Promise<void> {
  const keyFile = runtime.sshKeyFor(node);
  try {
    if (keyFile === undefined) {
      throw new Error('this executor has no SSH key for it');
    }
    const env = { PATH: runtime.options.hostEnv.PATH ?? '/usr/bin:/bin' };
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
