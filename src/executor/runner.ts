/**
 * Runs a build's steps for real in a prepared workspace and maps what happened to a build
 * result (docs/gating.md#results, docs/gating.md#sluices-own-rules):
 * - a `pre-run` step fails (or the job timeout hits during pre-run) -> retryable: `RETRY` while
 *   attempts remain, `RETRY_LIMIT` on the last attempt;
 * - a `run` step exits non-zero -> `FAILURE`; the job timeout hits during run -> `TIMED_OUT`;
 * - a `post-run` step fails after successful run steps -> `POST_FAILURE`;
 * - a missing script, an unsafe script path or an invalid variable name -> `ERROR` (nothing runs);
 * - cancel (the signal aborts) -> the result the caller chooses (`ABORTED` by default); the
 *   running step's process group is killed at once and no further step runs.
 * `post-run` steps run after pre-run or run failures too (to collect logs), never after a cancel.
 * A build whose run phase succeeded and whose results file says `pause` stops before its
 * post-run steps (`paused`); the caller keeps the workspace and continues it later with `resume`.
 */
import { constants, accessSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildRequestParams, BuildStep, CancelResult } from '../model/build-request';
import type { BuildResult } from '../model/results';
import type { BuildLog } from './build-log';
import { resolveInside, UnsafePathError } from './log-paths';
import type { WorkspaceProject } from './merger';
import { EMPTY_RESULTS, readResultsFile, type BuildResults } from './results-file';
import { flattenVariables, InvalidVariableError, mergeVariables } from './step-environment';
import type { RemoteSteps } from './ssh-runner';
import { runStepProcess, type StepExit } from './step-process';
import { NO_SECRETS, stepSecretsDocument, type DecryptedBuildSecrets } from './build-secrets';
import type { JobOutputRecorder, StepPhase } from './job-output-json';

export type { StepPhase } from './job-output-json';

export interface RunBuildInput {
  params: BuildRequestParams;
  /** The build's workspace directory (HOME of the steps); holds `src/` and `work/`. */
  workspaceRoot: string;
  /** Checkouts prepared by the merger. */
  projects: WorkspaceProject[];
  log: BuildLog;
  /** The build's log directory (steps may add files there; they are published with the log). */
  logDir: string;
  logUrl: string | null;
  /** Allowed host variables (see `allowedHostEnvironment`). */
  hostEnv: Record<string, string>;
  signal?: AbortSignal;
  /** Result of a canceled build; asked when the cancel takes effect. Default ABORTED. */
  cancelResult?: () => CancelResult;
  /** What the log says when the signal stopped the build; null: `Build canceled (<result>)`. */
  stopNote?: () => string | null;
  /** Milliseconds clock for timeouts (injectable). */
  clock?: () => number;
  killGraceMs?: number;
  /** Run the steps on a node instead of locally (static nodes over SSH, see ssh-runner.ts). */
  remote?: RemoteSteps;
  /** The build's decrypted secrets; each step gets those bound to it in its secrets file. */
  secrets?: DecryptedBuildSecrets;
  /** Node inventory variables (`SLUICE_INVENTORY_FILE`, `SLUICE_NODE_DIR`, ...; node-inventory.ts). */
  nodeEnv?: Record<string, string>;
  /** Records the steps into `job-output.json` (docs/logs.md#job-outputjson). */
  jobOutput?: JobOutputRecorder;
  /**
   * Continue a paused build: only its post-run steps run, in the kept workspace (and, with
   * `remote`, the kept remote workspace); the results file is kept for them.
   */
  resume?: boolean;
}

export interface RunOutcome {
  result: BuildResult;
  errorDetail: string | null;
  results: BuildResults;
  warnings: string[];
  /**
   * The run phase succeeded and the results file asked to pause: the post-run steps did not run
   * yet (`result` is the result so far, SUCCESS). Run again with `resume` to finish the build.
   */
  paused?: boolean;
  /** The signal stopped the build before it ended (`result` is the cancel result). */
  canceled?: boolean;
}

interface ResolvedStep {
  phase: StepPhase;
  step: BuildStep;
  script: string;
  cwd: string;
  executable: boolean;
}

class StepSetupError extends Error {}

/** Files the runner creates for the steps, inside `<workspace>/work/`. */
export function workFiles(workspaceRoot: string): {
  dir: string;
  vars: string;
  inputs: string;
  results: string;
  secrets: string;
  tmp: string;
} {
  const dir = path.join(workspaceRoot, 'work');
  return {
    dir,
    vars: path.join(dir, 'vars.json'),
    inputs: path.join(dir, 'inputs.json'),
    results: path.join(dir, 'results.json'),
    secrets: path.join(dir, 'secrets.json'),
    tmp: path.join(dir, 'tmp'),
  };
}

/** Run every step of the build and decide its result. */
export async function runBuild(input: RunBuildInput): Promise<RunOutcome> {
  const { params, log } = input;
  const clock = input.clock ?? Date.now;
  const warnings: string[] = [];
  let steps: ResolvedStep[];
  let env: Record<string, string>;
  try {
    steps = resolveSteps(params, input.projects);
    env = prepareEnvironment(input, warnings);
  } catch (err) {
    if (err instanceof StepSetupError || err instanceof InvalidVariableError) {
      log.write(`ERROR: ${err.message}`);
      return { result: 'ERROR', errorDetail: err.message, results: EMPTY_RESULTS, warnings };
    }
    throw err;
  }

  const canceled = (phase: StepPhase): RunOutcome => {
    input.jobOutput?.phaseEnded(phase);
    const result = input.cancelResult?.() ?? 'ABORTED';
    log.write(input.stopNote?.() ?? `Build canceled (${result})`);
    return { result, errorDetail: null, results: EMPTY_RESULTS, warnings, canceled: true };
  };

  if (input.remote && input.resume !== true) {
    try {
      await input.remote.prepare();
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      log.write(`ERROR: ${detail}`);
      return { result: 'NODE_FAILURE', errorDetail: detail, results: EMPTY_RESULTS, warnings };
    }
  }

  const deadline = params.job.timeout === null ? null : clock() + params.job.timeout * 1000;
  let mainResult: BuildResult | 'PRE_FAILED' = 'SUCCESS';
  let errorDetail: string | null = null;
  // A resumed build ran its pre-run and run steps before it paused.
  for (const phase of input.resume === true ? [] : (['pre-run', 'run'] as const)) {
    for (const step of steps.filter((s) => s.phase === phase)) {
      const remaining = deadline === null ? null : deadline - clock();
      const exit =
        remaining !== null && remaining <= 0
          ? ({ kind: 'timed-out' } as const)
          : await runOneStep(step, env, remaining, input);
      if (exit.kind === 'aborted') {
        return canceled(phase);
      }
      if (exit.kind === 'exited' && exit.code === 0) {
        continue;
      }
      if (phase === 'pre-run') {
        mainResult = 'PRE_FAILED';
        errorDetail = describeFailure(step, exit);
      } else {
        mainResult = exit.kind === 'timed-out' ? 'TIMED_OUT' : 'FAILURE';
        errorDetail = exit.kind === 'spawn-error' ? describeFailure(step, exit) : null;
      }
      break;
    }
    input.jobOutput?.phaseEnded(phase);
    if (mainResult !== 'SUCCESS') {
      break;
    }
  }

  if (mainResult === 'SUCCESS' && input.resume !== true) {
    const pausing = await pauseRequested(input);
    if (pausing) {
      log.write('Paused: the run steps asked to pause; the post-run steps run once the dependent jobs have completed');
      return {
        result: 'SUCCESS',
        errorDetail: null,
        results: pausing,
        warnings: [...warnings, ...pausing.warnings],
        paused: true,
      };
    }
  }

  let postFailed = false;
  for (const step of steps.filter((s) => s.phase === 'post-run')) {
    const exit = await runOneStep(
      step,
      env,
      params.job.postTimeout === null ? null : params.job.postTimeout * 1000,
      input,
    );
    if (exit.kind === 'aborted') {
      return canceled('post-run');
    }
    if (!(exit.kind === 'exited' && exit.code === 0)) {
      postFailed = true;
      if (mainResult === 'SUCCESS') {
        errorDetail = describeFailure(step, exit);
      }
    }
  }

  input.jobOutput?.phaseEnded('post-run');

  let result: BuildResult;
  if (mainResult === 'PRE_FAILED') {
    result = params.attempt >= params.job.attempts ? 'RETRY_LIMIT' : 'RETRY';
  } else if (mainResult === 'SUCCESS' && postFailed) {
    result = 'POST_FAILURE';
  } else {
    result = mainResult;
  }

  const files = workFiles(input.workspaceRoot);
  await input.remote?.collect();
  const read = await readResultsFile(files.results, input.logUrl);
  let results = EMPTY_RESULTS;
  if (read.ok) {
    results = read.results;
    warnings.push(...results.warnings);
  } else {
    log.write(read.error);
    warnings.push(read.error);
    errorDetail = errorDetail === null ? read.error : `${errorDetail}; ${read.error}`;
  }
  log.write(`Build result: ${result}`);
  return { result, errorDetail, results, warnings };
}

/** The results file after the run phase, when it asks to pause (an invalid file never pauses). */
async function pauseRequested(input: RunBuildInput): Promise<BuildResults | null> {
  await input.remote?.collect({ keep: true });
  const read = await readResultsFile(workFiles(input.workspaceRoot).results, input.logUrl);
  return read.ok && read.results.pause ? read.results : null;
}

async function runOneStep(
  step: ResolvedStep,
  env: Record<string, string>,
  timeoutMs: number | null,
  input: RunBuildInput,
): Promise<StepExit> {
  const { log } = input;
  log.write(`=== ${step.phase}: ${step.step.path} (${step.step.project}) ===`);
  input.jobOutput?.stepStarted({ phase: step.phase, path: step.step.path, project: step.step.project });
  const started = Date.now();
  const stepEnv = { ...env, SLUICE_STEP: step.phase, SLUICE_STEP_SCRIPT: step.step.path };
  // The secrets file exists only while its step runs and holds only that step's secrets.
  const secretsFile = workFiles(input.workspaceRoot).secrets;
  const secrets = `${JSON.stringify(stepSecretsDocument(step.step, input.secrets ?? NO_SECRETS), null, 2)}\n`;
  rmSync(secretsFile, { force: true });
  if (!input.remote) {
    writeFileSync(secretsFile, secrets, { mode: 0o600 });
  }
  const spawnSpec = input.remote
    ? input.remote.command({
        script: step.script,
        cwd: step.cwd,
        env: stepEnv,
        executable: step.executable,
        secretsFile: { path: secretsFile, content: secrets },
      })
    : {
        command: step.executable ? step.script : 'bash',
        args: step.executable ? [] : [step.script],
        env: stepEnv,
        input: undefined,
      };
  let exit: StepExit;
  try {
    exit = await runStepProcess({
      command: spawnSpec.command,
      args: spawnSpec.args,
      cwd: step.cwd,
      env: spawnSpec.env,
      input: spawnSpec.input,
      timeoutMs,
      signal: input.signal,
      onLine: (stream, text) => {
        log.write(text);
        input.jobOutput?.line(stream, text);
      },
      killGraceMs: input.killGraceMs,
    });
  } finally {
    rmSync(secretsFile, { force: true });
  }
  input.jobOutput?.stepEnded(exit);
  const elapsed = ((Date.now() - started) / 1000).toFixed(1);
  switch (exit.kind) {
    case 'exited':
      log.write(
        `=== ${step.phase}: ${step.step.path} ${exit.code === 0 ? 'succeeded' : `failed (${exit.code === null ? `signal ${exit.signal ?? 'unknown'}` : `exit code ${exit.code}`})`} in ${elapsed}s ===`,
      );
      break;
    case 'timed-out':
      log.write(`=== ${step.phase}: ${step.step.path} timed out after ${elapsed}s; its process group was killed ===`);
      break;
    case 'aborted':
      log.write(`=== ${step.phase}: ${step.step.path} stopped by cancel after ${elapsed}s ===`);
      break;
    case 'spawn-error':
      log.write(`=== ${step.phase}: ${step.step.path} could not start: ${exit.message} ===`);
      break;
  }
  return exit;
}

function describeFailure(step: ResolvedStep, exit: StepExit): string {
  const what = `${step.phase} step ${step.step.path} (${step.step.project})`;
  switch (exit.kind) {
    case 'exited':
      return `${what} failed with ${exit.code === null ? `signal ${exit.signal ?? 'unknown'}` : `exit code ${exit.code}`}`;
    case 'timed-out':
      return `${what} timed out`;
    case 'aborted':
      return `${what} was canceled`;
    case 'spawn-error':
      return `${what} could not start: ${exit.message}`;
  }
}

/** Find every step's script before anything runs, so a missing script fails the build early. */
function resolveSteps(params: BuildRequestParams, projects: WorkspaceProject[]): ResolvedStep[] {
  const phases: [StepPhase, BuildStep[]][] = [
    ['pre-run', params.job.preRun],
    ['run', params.job.run],
    ['post-run', params.job.postRun],
  ];
  if (params.job.run.length === 0) {
    throw new StepSetupError(`Job ${params.job.name} has no run step`);
  }
  const resolved: ResolvedStep[] = [];
  for (const [phase, steps] of phases) {
    for (const step of steps) {
      const checkout = projects.find((p) => p.connection === step.connection && p.project === step.project);
      if (!checkout) {
        throw new StepSetupError(`Project ${step.project} of ${phase} step ${step.path} is not in the workspace`);
      }
      let script: string;
      try {
        script = resolveInside(checkout.path, step.path);
      } catch (err) {
        if (err instanceof UnsafePathError) {
          throw new StepSetupError(`Script path ${step.path} of project ${step.project} leaves the project's checkout`);
        }
        throw err;
      }
      if (!existsSync(script) || !statSync(script).isFile()) {
        throw new StepSetupError(`Script ${step.path} not found in project ${step.project} (${phase})`);
      }
      resolved.push({ phase, step, script, cwd: checkout.path, executable: isExecutable(script) });
    }
  }
  return resolved;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Write the vars and inputs files and build the steps' environment. */
function prepareEnvironment(input: RunBuildInput, warnings: string[]): Record<string, string> {
  const { params } = input;
  const files = workFiles(input.workspaceRoot);
  mkdirSync(files.tmp, { recursive: true });
  if (input.resume !== true) {
    rmSync(files.results, { force: true });
  }
  const vars = mergeVariables(params.job.vars, params.parentData, params.job.extraVars);
  const flattened = flattenVariables(vars);
  if (flattened.skipped.length > 0) {
    const message = `Variables not exported to the environment (key is not [A-Za-z0-9_]): ${flattened.skipped.join(', ')}; they are in the vars file`;
    input.log.write(`WARNING: ${message}`);
    warnings.push(message);
  }
  writeFileSync(files.vars, `${JSON.stringify(vars, null, 2)}\n`);
  writeFileSync(
    files.inputs,
    `${JSON.stringify({ artifacts: params.artifacts, parent_data: params.parentData }, null, 2)}\n`,
  );
  const itemProject = input.projects.find(
    (p) => p.connection === params.item.connection && p.project === params.item.project,
  );
  return {
    ...input.hostEnv,
    HOME: input.workspaceRoot,
    TMPDIR: files.tmp,
    ...flattened.variables,
    SLUICE_JOB_NAME: params.job.name,
    SLUICE_BUILD_UUID: params.buildUuid,
    SLUICE_BUILDSET_UUID: params.buildsetUuid,
    SLUICE_TENANT: params.tenant,
    SLUICE_PIPELINE: params.pipeline,
    SLUICE_PROJECT: params.item.project,
    SLUICE_BRANCH: params.item.branch ?? '',
    SLUICE_REF: params.item.ref,
    SLUICE_CHANGE: params.item.change === null ? '' : String(params.item.change),
    SLUICE_PATCHSET: params.item.patchset ?? '',
    SLUICE_OLDREV: params.item.oldrev ?? '',
    SLUICE_NEWREV: params.item.newrev ?? '',
    SLUICE_ATTEMPT: String(params.attempt),
    SLUICE_ATTEMPTS: String(params.job.attempts),
    SLUICE_WORKSPACE: input.workspaceRoot,
    SLUICE_SRC_DIR: path.join(input.workspaceRoot, 'src'),
    SLUICE_PROJECT_DIR: itemProject?.path ?? '',
    SLUICE_LOG_DIR: input.logDir,
    SLUICE_LOG_URL: input.logUrl ?? '',
    SLUICE_RESULTS_FILE: files.results,
    SLUICE_VARS_FILE: files.vars,
    SLUICE_INPUTS_FILE: files.inputs,
    SLUICE_SECRETS_FILE: files.secrets,
    SLUICE_NODE_DIR: '',
    ...input.nodeEnv,
  };
}
