/**
 * One step of a build (docs/executor.md#steps): a script run as a process in its project's
 * checkout (on the SSH primary node when there is one), or a playbook run by `ansible-playbook`
 * on the executor. Both log their output line by line and record themselves in job-output.json;
 * the outcome says how the step ended and whether a host was unreachable.
 */
import { constants, accessSync, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TimerClock } from '../engine/ports/clock';
import type { BuildRequestParams, BuildStep } from '../model/build-request';
import { isPlaybookPath, type AnsibleBuild, type PlaybookPhase } from './ansible/ansible-build';
import { runPlaybookStep } from './ansible/playbook-step';
import type { BuildLog } from './build-log';
import { NO_SECRETS, stepSecretsDocument, type DecryptedBuildSecrets } from './build-secrets';
import type { JobOutputRecorder, StepPhase } from './job-output-json';
import { stepCanonicalPath } from './oidc-tokens';
import { resolveInside, UnsafePathError } from './log-paths';
import type { WorkspaceProject } from './merger';
import type { RemoteSteps } from './ssh-runner';
import { runStepProcess, type StepExit } from './step-process';

export interface ResolvedStep {
  phase: StepPhase;
  step: BuildStep;
  /** Absolute path of the script or playbook in the workspace. */
  script: string;
  cwd: string;
  executable: boolean;
  playbook: boolean;
  /** Position among the steps of its phase. */
  index: number;
}

export interface StepOutcome {
  exit: StepExit;
  unreachable: boolean;
}

/** The build cannot run as requested: it ends ERROR before anything runs. */
export class StepSetupError extends Error {}

const PHASE_NAMES: Record<StepPhase, PlaybookPhase> = { 'pre-run': 'pre', run: 'run', 'post-run': 'post' };

/** Find every step's file before anything runs, so a missing script fails the build early. */
export function resolveSteps(params: BuildRequestParams, projects: WorkspaceProject[]): ResolvedStep[] {
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
    steps.forEach((step, index) => {
      const playbook = isPlaybookPath(step.path);
      const what = playbook ? 'Playbook' : 'Script';
      const checkout = projects.find((p) => p.connection === step.connection && p.project === step.project);
      if (!checkout) {
        throw new StepSetupError(`Project ${step.project} of ${phase} step ${step.path} is not in the workspace`);
      }
      let script: string;
      try {
        script = resolveInside(checkout.path, step.path);
      } catch (err) {
        if (err instanceof UnsafePathError) {
          throw new StepSetupError(
            `${what} path ${step.path} of project ${step.project} leaves the project's checkout`,
          );
        }
        throw err;
      }
      if (!existsSync(script) || !statSync(script).isFile()) {
        throw new StepSetupError(`${what} ${step.path} not found in project ${step.project} (${phase})`);
      }
      resolved.push({
        phase,
        step,
        script,
        cwd: checkout.path,
        executable: !playbook && isExecutable(script),
        playbook,
        index,
      });
    });
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

export interface StepRunnerContext {
  params: BuildRequestParams;
  workspaceRoot: string;
  log: BuildLog;
  env: Record<string, string>;
  secrets: DecryptedBuildSecrets;
  secretsFile: string;
  remote?: RemoteSteps;
  jobOutput?: JobOutputRecorder;
  killGraceMs?: number;
  /** The clock of the steps' timeouts (src/executor/step-process.ts); default: the system clock. */
  timers?: TimerClock;
  /** The build's Ansible files (present when it has playbooks). */
  ansible: AnsibleBuild | null;
}

export interface StepRunOptions {
  timeoutMs: number | null;
  signal?: AbortSignal;
  /** Post-run playbooks: `zuul_success` and `zuul_will_retry`. */
  success?: boolean;
  willRetry?: boolean;
}

/** Runs the steps of one build, numbering its playbooks. */
export class StepRunner {
  private playbooks = 0;

  constructor(private readonly context: StepRunnerContext) {}

  async run(step: ResolvedStep, options: StepRunOptions): Promise<StepOutcome> {
    return step.playbook
      ? this.runPlaybook(step, options)
      : { exit: await this.runScript(step, options), unreachable: false };
  }

  /** The tokens of the step's `oidc` secrets, issued for this run (docs/security.md#oidc-tokens). */
  private async tokens(step: BuildStep): Promise<Record<string, string>> {
    const { secrets, params } = this.context;
    return (await secrets?.oidc?.stepTokens(step, params.job.secrets ?? [], stepCanonicalPath(params, step))) ?? {};
  }

  private async runPlaybook(step: ResolvedStep, options: StepRunOptions): Promise<StepOutcome> {
    const { log, ansible, params } = this.context;
    if (ansible === null) {
      throw new Error('a playbook step without the build’s Ansible files');
    }
    const phase = PHASE_NAMES[step.phase];
    const tokens = await this.tokens(step.step);
    const command = ansible.playbookCommand(
      { step: step.step, phase, index: step.index, success: options.success, willRetry: options.willRetry, tokens },
      (this.playbooks += 1),
    );
    const branch = step.step.branch ?? params.item.branch ?? params.item.ref;
    const banner = `[${command.trusted ? 'trusted' : 'untrusted'} : ${command.name}@${branch}]`;
    const phaseName = step.phase.toUpperCase();
    log.write(`${phaseName} START: ${banner}`);
    const started = Date.now();
    const result = await runPlaybookStep(command, {
      timeoutMs: options.timeoutMs,
      timers: this.context.timers,
      signal: options.signal,
      killGraceMs: this.context.killGraceMs,
      onLine: (_stream, text) => log.write(text),
      phase,
      index: step.index,
      branch,
    });
    if (result.output !== null) {
      this.context.jobOutput?.addPlaybook(step.phase, result.output);
    }
    const state =
      result.exit.kind === 'timed-out'
        ? 'RESULT_TIMED_OUT'
        : result.exit.kind === 'aborted'
          ? 'RESULT_ABORTED'
          : result.unreachable
            ? 'RESULT_UNREACHABLE'
            : 'RESULT_NORMAL';
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    log.write(`${phaseName} END ${state}: ${banner} in ${elapsed}s`);
    if (result.exit.kind === 'spawn-error') {
      log.write(`ansible-playbook could not start: ${result.exit.message}`);
    }
    return { exit: result.exit, unreachable: result.unreachable };
  }

  private async runScript(step: ResolvedStep, options: StepRunOptions): Promise<StepExit> {
    const { log, remote, jobOutput } = this.context;
    log.write(`=== ${step.phase}: ${step.step.path} (${step.step.project}) ===`);
    jobOutput?.stepStarted({ phase: step.phase, path: step.step.path, project: step.step.project });
    const started = Date.now();
    const stepEnv = { ...this.context.env, SLUICE_STEP: step.phase, SLUICE_STEP_SCRIPT: step.step.path };
    // The secrets file exists only while its step runs and holds only that step's secrets.
    const secretsFile = this.context.secretsFile;
    const document = {
      ...stepSecretsDocument(step.step, this.context.secrets ?? NO_SECRETS),
      ...(await this.tokens(step.step)),
    };
    const secrets = `${JSON.stringify(document, null, 2)}\n`;
    rmSync(secretsFile, { force: true });
    if (!remote) {
      writeFileSync(secretsFile, secrets, { mode: 0o600 });
    }
    const spawnSpec = remote
      ? remote.command({
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
        timeoutMs: options.timeoutMs,
        timers: this.context.timers,
        signal: options.signal,
        onLine: (stream, text) => {
          log.write(text);
          jobOutput?.line(stream, text);
        },
        killGraceMs: this.context.killGraceMs,
      });
    } finally {
      rmSync(secretsFile, { force: true });
    }
    jobOutput?.stepEnded(exit);
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    const name = `${step.phase}: ${step.step.path}`;
    switch (exit.kind) {
      case 'exited':
        log.write(
          `=== ${name} ${exit.code === 0 ? 'succeeded' : `failed (${exit.code === null ? `signal ${exit.signal ?? 'unknown'}` : `exit code ${exit.code}`})`} in ${elapsed}s ===`,
        );
        break;
      case 'timed-out':
        log.write(`=== ${name} timed out after ${elapsed}s; its process group was killed ===`);
        break;
      case 'aborted':
        log.write(`=== ${name} stopped by cancel after ${elapsed}s ===`);
        break;
      case 'spawn-error':
        log.write(`=== ${name} could not start: ${exit.message} ===`);
        break;
    }
    return exit;
  }
}

/** Why a step failed, for `error_detail`. */
export function describeFailure(step: ResolvedStep, outcome: StepOutcome): string {
  const what = `${step.phase} ${step.playbook ? 'playbook' : 'step'} ${step.step.path} (${step.step.project})`;
  const { exit } = outcome;
  if (outcome.unreachable) {
    return 'Host unreachable';
  }
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

/** Where each step's secrets file is (`SLUICE_SECRETS_FILE`). */
export function secretsFileOf(workspaceRoot: string): string {
  return path.join(workspaceRoot, 'work', 'secrets.json');
}
