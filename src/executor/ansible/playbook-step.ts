/**
 * Runs one playbook (docs/executor.md#ansible-on-the-executor): `ansible-playbook` as a step
 * process (its own process group, killed on timeout or cancel), its console lines into the
 * build's log as they come, and afterwards what its callback left: whether a host was
 * unreachable, and the playbook's part of job-output.json.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { TimerClock } from '../../engine/ports/clock';
import type { JobOutputPlaybook } from '../job-output-json';
import { runStepProcess, type OutputStream, type StepExit } from '../step-process';
import type { PlaybookCommand, PlaybookPhase } from './ansible-build';

export interface PlaybookStepOptions {
  timeoutMs: number | null;
  /** The clock of the timeout (src/executor/step-process.ts). */
  timers?: TimerClock;
  signal?: AbortSignal;
  killGraceMs?: number;
  onLine: (stream: OutputStream, text: string) => void;
  phase: PlaybookPhase;
  index: number;
  branch: string;
}

export interface PlaybookStepResult {
  exit: StepExit;
  /** A host could not be reached: the build is retried (docs/executor.md#results). */
  unreachable: boolean;
  /** The playbook's entry of job-output.json; null when Ansible stopped before its first play. */
  output: JobOutputPlaybook | null;
}

/** Ansible's exit code for unreachable hosts (it also gives 4 for parse errors: the callback tells). */
const UNREACHABLE_EXIT = 3;

export async function runPlaybookStep(
  command: PlaybookCommand,
  options: PlaybookStepOptions,
): Promise<PlaybookStepResult> {
  let exit: StepExit;
  try {
    exit = await runStepProcess({
      command: command.command,
      args: command.args,
      cwd: command.cwd,
      env: command.env,
      timeoutMs: options.timeoutMs,
      timers: options.timers,
      signal: options.signal,
      killGraceMs: options.killGraceMs,
      onLine: options.onLine,
    });
  } finally {
    if (command.secretsFile !== null) {
      rmSync(command.secretsFile, { force: true });
    }
  }
  const unreachable = existsSync(command.unreachableFile) || (exit.kind === 'exited' && exit.code === UNREACHABLE_EXIT);
  return { exit, unreachable, output: readOutput(command, options) };
}

interface CallbackOutput {
  plays: JobOutputPlaybook['plays'];
  stats?: JobOutputPlaybook['stats'];
}

function readOutput(command: PlaybookCommand, options: PlaybookStepOptions): JobOutputPlaybook | null {
  let parsed: CallbackOutput;
  try {
    parsed = JSON.parse(readFileSync(command.outputFile, 'utf8')) as CallbackOutput;
  } catch {
    return null;
  }
  if (!Array.isArray(parsed.plays) || parsed.plays.length === 0) {
    return null;
  }
  return {
    playbook: command.name,
    phase: options.phase,
    index: String(options.index),
    branch: options.branch,
    trusted: command.trusted,
    plays: parsed.plays,
    // A playbook stopped before its end (timeout, cancel) has no stats of its own.
    stats: parsed.stats ?? {},
  };
}
