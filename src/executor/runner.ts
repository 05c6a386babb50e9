/**
 * Runs a build's steps for real in a prepared workspace and maps what happened to a build
 * result, as the reference does (docs/executor.md#results):
 * - a `pre-run` step fails, times out (`timeout`, `pre-timeout`) or finds a host unreachable ->
 *   retryable: `RETRY` while attempts remain, `RETRY_LIMIT` on the last attempt (`FAILURE` when
 *   the playbooks returned `zuul.retry: false`);
 * - a `run` step fails -> `FAILURE`; the job timeout hits during run -> `TIMED_OUT`; a host is
 *   unreachable -> retryable;
 * - a `post-run` step fails -> `POST_FAILURE`, unless a pre-run failure, a timeout or an
 *   unreachable host already decided the result; an unreachable host -> retryable;
 * - a missing script or playbook, an unsafe path, an invalid variable name, a Galaxy role,
 *   playbooks without Ansible, untrusted playbooks without their sandbox -> `ERROR` (nothing runs);
 * - cancel -> the result the caller chooses (`ABORTED` by default): the running step's process
 *   group is killed at once and only cleanup steps run after it.
 * `post-run` steps run after pre-run or run failures too (to collect logs), except those of a
 * job variant whose pre-run steps were never reached. A build whose run phase succeeded and
 * whose results ask to pause stops before its post-run steps (`paused`); the caller keeps the
 * workspace and continues it later with `resume`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { systemClock, type TimerClock } from '../engine/ports/clock';
import type { BuildNode, BuildRequestParams, CancelResult } from '../model/build-request';
import type { BuildResult } from '../model/results';
import { AnsibleBuild, checkPlaybooks, PlaybookSetupError } from './ansible/ansible-build';
import type { AnsibleToolchain } from './ansible/toolchain';
import { readZuulReturn } from './ansible/zuul-return';
import type { BuildLog } from './build-log';
import { NO_SECRETS, type DecryptedBuildSecrets } from './build-secrets';
import type { JobOutputRecorder } from './job-output-json';
import type { WorkspaceProject } from './merger';
import type { NodeInventory } from './node-inventory';
import { combineResults, EMPTY_RESULTS, readResultsFile, type BuildResults } from './results-file';
import { flattenVariables, InvalidVariableError, mergeVariables } from './step-environment';
import type { RemoteSteps } from './ssh-runner';
import {
  describeFailure,
  resolveSteps,
  secretsFileOf,
  StepRunner,
  StepSetupError,
  type ResolvedStep,
  type StepOutcome,
} from './step-runner';
import { zuulReturnFile } from './zuul-variables';

export type { StepPhase } from './job-output-json';

/** Seconds cleanup steps get after a cancel when the job sets no `post-timeout`. */
const CLEANUP_TIMEOUT_SECONDS = 300;

/** What running playbooks needs (absent: a build with playbooks ends ERROR). */
export interface AnsibleSupport {
  toolchain: AnsibleToolchain;
  /** The executor's own folder for the build's Ansible files. */
  privateDir: string;
  inventory: NodeInventory;
  sshKeyFor(node: BuildNode): string | undefined;
  /** The branch as merged of a project, for trusted playbooks (src/executor/branch-tree.ts). */
  branchTree?: (connection: string, project: string, branch: string, target: string) => Promise<string>;
}

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
  /**
   * What the log says when the signal stopped the build; null: `Build canceled (<result>)`. A
   * note means the build is handed back to run again (executor shutdown): no cleanup step runs.
   */
  stopNote?: () => string | null;
  /**
   * The clock of the job's timeouts: their deadlines and the timers that stop a step (tests move
   * a fake one on); default: the system clock.
   */
  timers?: TimerClock;
  killGraceMs?: number;
  /** Run the scripts on a node instead of locally (static nodes over SSH, see ssh-runner.ts). */
  remote?: RemoteSteps;
  /** The build's decrypted secrets; each step gets those bound to it. */
  secrets?: DecryptedBuildSecrets;
  /** Node inventory variables (`SLUICE_INVENTORY_FILE`, `SLUICE_NODE_DIR`, ...; node-inventory.ts). */
  nodeEnv?: Record<string, string>;
  /** Records the steps into `job-output.json` (docs/logs.md#job-outputjson). */
  jobOutput?: JobOutputRecorder;
  ansible?: AnsibleSupport;
  /**
   * Continue a paused build: only its post-run steps run, in the kept workspace (and, with
   * `remote`, the kept remote workspace); the results files are kept for them.
   */
  resume?: boolean;
}

export interface RunOutcome {
  result: BuildResult;
  errorDetail: string | null;
  results: BuildResults;
  warnings: string[];
  /**
   * The run phase succeeded and the results asked to pause: the post-run steps did not run
   * yet (`result` is the result so far, SUCCESS). Run again with `resume` to finish the build.
   */
  paused?: boolean;
  /** The signal stopped the build before it ended (`result` is the cancel result). */
  canceled?: boolean;
}

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
    secrets: secretsFileOf(workspaceRoot),
    tmp: path.join(dir, 'tmp'),
  };
}

const succeeded = (outcome: StepOutcome): boolean =>
  outcome.exit.kind === 'exited' && outcome.exit.code === 0 && !outcome.unreachable;

/** What the phases decided so far (the reference's flags). */
interface Verdict {
  result: BuildResult | 'PRE_FAILED';
  errorDetail: string | null;
  /** A retryable failure happened (pre-run failure, unreachable host). */
  retry: boolean;
  /** A failing post-run step may still turn the result into POST_FAILURE. */
  allowPostResult: boolean;
  /** The nesting level the pre-run steps reached (post-run steps of deeper variants are skipped); null = all. */
  nestingReached: number | null;
  aborted: boolean;
}

/** Run every step of the build and decide its result. */
export async function runBuild(input: RunBuildInput): Promise<RunOutcome> {
  const { params, log } = input;
  const timers = input.timers ?? systemClock;
  const clock = (): number => timers.now().getTime();
  const warnings: string[] = [];
  let steps: ResolvedStep[];
  let env: Record<string, string>;
  try {
    steps = resolveSteps(params, input.projects);
    const playbooks = steps.filter((step) => step.playbook);
    if (playbooks.length > 0 && input.ansible === undefined) {
      throw new PlaybookSetupError('The job runs playbooks but this executor cannot run Ansible');
    }
    if (input.ansible !== undefined) {
      checkPlaybooks(
        steps.map((s) => s.step),
        input.projects,
        input.ansible.toolchain,
      );
    }
    env = prepareEnvironment(input, warnings);
  } catch (err) {
    if (err instanceof StepSetupError || err instanceof InvalidVariableError || err instanceof PlaybookSetupError) {
      log.write(`ERROR: ${err.message}`);
      if (err instanceof PlaybookSetupError) {
        input.ansible?.toolchain.refused(params.job.name, params.buildUuid, err.message);
      }
      return { result: 'ERROR', errorDetail: err.message, results: EMPTY_RESULTS, warnings };
    }
    throw err;
  }

  // The workspace goes to an SSH primary node for scripts only: playbooks run on the executor.
  const remote = steps.some((step) => !step.playbook) ? input.remote : undefined;
  if (remote && input.resume !== true) {
    try {
      await remote.prepare();
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      log.write(`ERROR: ${detail}`);
      return { result: 'NODE_FAILURE', errorDetail: detail, results: EMPTY_RESULTS, warnings };
    }
  }

  let ansible: AnsibleBuild | null = null;
  try {
    if (input.ansible !== undefined && steps.some((step) => step.playbook)) {
      ansible = await AnsibleBuild.open({
        params,
        workspaceRoot: input.workspaceRoot,
        projects: input.projects,
        privateDir: input.ansible.privateDir,
        logDir: input.logDir,
        logUrl: input.logUrl,
        inventory: input.ansible.inventory,
        secrets: input.secrets ?? NO_SECRETS,
        toolchain: input.ansible.toolchain,
        sshKeyFor: input.ansible.sshKeyFor,
        env,
        steps: steps.filter((step) => step.playbook).map((step) => step.step),
        branchTree: input.ansible.branchTree,
      });
    }
    const runner = new StepRunner({
      params,
      workspaceRoot: input.workspaceRoot,
      log,
      env,
      secrets: input.secrets ?? NO_SECRETS,
      secretsFile: workFiles(input.workspaceRoot).secrets,
      remote,
      jobOutput: input.jobOutput,
      killGraceMs: input.killGraceMs,
      timers,
      ansible,
    });
    return await runPhases({ ...input, remote }, steps, runner, warnings, clock);
  } catch (err) {
    if (err instanceof PlaybookSetupError) {
      log.write(`ERROR: ${err.message}`);
      return { result: 'ERROR', errorDetail: err.message, results: EMPTY_RESULTS, warnings };
    }
    throw err;
  } finally {
    await ansible?.close();
  }
}

async function runPhases(
  input: RunBuildInput,
  steps: ResolvedStep[],
  runner: StepRunner,
  warnings: string[],
  clock: () => number,
): Promise<RunOutcome> {
  const { params, log } = input;
  const verdict: Verdict = {
    result: 'SUCCESS',
    errorDetail: null,
    retry: false,
    allowPostResult: true,
    nestingReached: null,
    aborted: false,
  };
  const resume = input.resume === true;
  if (!resume) {
    const deadline = params.job.timeout === null ? null : clock() + params.job.timeout * 1000;
    const preTimeout = params.job.preTimeout ?? null;
    const preDeadline = preTimeout === null ? null : clock() + preTimeout * 1000;
    for (const phase of ['pre-run', 'run'] as const) {
      for (const step of steps.filter((s) => s.phase === phase)) {
        if (phase === 'pre-run') {
          verdict.nestingReached = step.step.nestingLevel ?? 0;
        }
        const limits = [deadline, phase === 'pre-run' ? preDeadline : null].filter((d): d is number => d !== null);
        const remaining = limits.length === 0 ? null : Math.min(...limits) - clock();
        const outcome: StepOutcome =
          remaining !== null && remaining <= 0
            ? { exit: { kind: 'timed-out' }, unreachable: false }
            : await runner.run(step, { timeoutMs: remaining, signal: input.signal });
        if (outcome.exit.kind === 'aborted') {
          verdict.aborted = true;
          break;
        }
        if (succeeded(outcome)) {
          continue;
        }
        verdict.allowPostResult = false;
        if (phase === 'pre-run') {
          verdict.result = 'PRE_FAILED';
          verdict.retry = true;
          verdict.errorDetail = describeFailure(step, outcome);
        } else if (outcome.unreachable) {
          verdict.retry = true;
          verdict.errorDetail = describeFailure(step, outcome);
        } else if (outcome.exit.kind === 'timed-out') {
          verdict.result = 'TIMED_OUT';
        } else {
          verdict.result = 'FAILURE';
          verdict.allowPostResult = true;
          verdict.errorDetail = outcome.exit.kind === 'spawn-error' ? describeFailure(step, outcome) : null;
        }
        break;
      }
      input.jobOutput?.phaseEnded(phase);
      if (verdict.result !== 'SUCCESS' || verdict.retry || verdict.aborted) {
        break;
      }
      if (phase === 'pre-run') {
        verdict.nestingReached = null;
      }
    }
  }
  const runSucceeded = resume || (verdict.result === 'SUCCESS' && !verdict.retry && !verdict.aborted);

  if (!verdict.aborted && !resume) {
    await input.remote?.collect({ keep: true });
    const soFar = await readResults(input);
    if (runSucceeded && soFar.ok && soFar.results.pause) {
      log.write('Paused: the run steps asked to pause; the post-run steps run once the dependent jobs have completed');
      return {
        result: 'SUCCESS',
        errorDetail: null,
        results: soFar.results,
        warnings: [...warnings, ...soFar.results.warnings],
        paused: true,
      };
    }
    // Playbooks may ask not to retry a pre-run failure.
    if (verdict.result === 'PRE_FAILED' && soFar.ok && soFar.results.retry === false) {
      verdict.result = 'FAILURE';
      verdict.retry = false;
      verdict.allowPostResult = false;
    }
  }

  const postTimeout = params.job.postTimeout;
  // A build handed back to run again (executor shutdown) runs no cleanup step.
  const handedBack = (): boolean => (input.stopNote?.() ?? null) !== null;
  for (const step of steps.filter((s) => s.phase === 'post-run')) {
    if (verdict.aborted && (step.step.cleanup !== true || handedBack())) {
      continue;
    }
    if (verdict.nestingReached !== null && (step.step.nestingLevel ?? 0) > verdict.nestingReached) {
      log.write(`Skipping post-run ${step.step.path}: its job variant's pre-run steps were not reached`);
      continue;
    }
    const seconds = postTimeout ?? (verdict.aborted ? CLEANUP_TIMEOUT_SECONDS : null);
    const outcome = await runner.run(step, {
      timeoutMs: seconds === null ? null : seconds * 1000,
      // Cleanup steps run to their end after a cancel.
      signal: verdict.aborted ? undefined : input.signal,
      success: runSucceeded,
      willRetry: verdict.retry && params.attempt < params.job.attempts,
    });
    if (outcome.exit.kind === 'aborted') {
      verdict.aborted = true;
      continue;
    }
    if (outcome.unreachable && step.step.cleanup !== true) {
      verdict.retry = true;
      verdict.errorDetail ??= describeFailure(step, outcome);
    }
    if (!succeeded(outcome) && verdict.allowPostResult && !verdict.aborted) {
      if (verdict.result !== 'POST_FAILURE') {
        verdict.errorDetail = describeFailure(step, outcome);
      }
      verdict.result = 'POST_FAILURE';
    }
  }
  input.jobOutput?.phaseEnded('post-run');

  if (verdict.aborted) {
    const result = input.cancelResult?.() ?? 'ABORTED';
    log.write(input.stopNote?.() ?? `Build canceled (${result})`);
    return { result, errorDetail: null, results: EMPTY_RESULTS, warnings, canceled: true };
  }
  let result: BuildResult;
  if (verdict.retry) {
    result = params.attempt >= params.job.attempts ? 'RETRY_LIMIT' : 'RETRY';
  } else {
    result = verdict.result === 'PRE_FAILED' ? 'FAILURE' : verdict.result;
  }
  await input.remote?.collect();
  const read = await readResults(input);
  let results = EMPTY_RESULTS;
  let errorDetail = verdict.errorDetail;
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

/** The results file of the scripts and the `zuul_return` data of the playbooks, combined. */
async function readResults(
  input: RunBuildInput,
): Promise<{ ok: true; results: BuildResults } | { ok: false; error: string }> {
  const scripts = await readResultsFile(workFiles(input.workspaceRoot).results, input.logUrl);
  const playbooks = await readZuulReturn(zuulReturnFile(input.workspaceRoot), input.logUrl);
  if (!scripts.ok) {
    return scripts;
  }
  if (!playbooks.ok) {
    return playbooks;
  }
  return { ok: true, results: combineResults(scripts.results, playbooks.results) };
}

/** Write the vars and inputs files and build the steps' environment. */
function prepareEnvironment(input: RunBuildInput, warnings: string[]): Record<string, string> {
  const { params } = input;
  const files = workFiles(input.workspaceRoot);
  mkdirSync(files.tmp, { recursive: true });
  if (input.resume !== true) {
    rmSync(files.results, { force: true });
    rmSync(zuulReturnFile(input.workspaceRoot), { force: true });
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
