/**
 * `job-output.json` (docs/logs.md#job-outputjson): the structured output of a build in the
 * reference's format, a list of playbooks. Sluice writes one playbook per phase that ran steps
 * (`pre`, `run`, `post`), one play on the primary node and one task per step, with the step's
 * command result (return code, output, times) as the host result and per-host stats. The file is
 * rewritten each time a phase ends, so it holds every finished phase; a paused build continued
 * (maybe by another executor) appends its post-run phase to the file it finds.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Redactor } from '../secrets/redact';
import type { OutputStream, StepExit } from './step-process';

export const JOB_OUTPUT_JSON_FILE = 'job-output.json';

export type StepPhase = 'pre-run' | 'run' | 'post-run';

/** The reference's phase names (docs/logs.md#job-outputjson). */
const PHASE_NAMES: Record<StepPhase, 'pre' | 'run' | 'post'> = { 'pre-run': 'pre', run: 'run', 'post-run': 'post' };

/** Characters of output kept per step in the JSON file (the whole output is in job-output.txt). */
export const STEP_OUTPUT_LIMIT = 1_000_000;
export const TRUNCATION_NOTE = '[output truncated; the whole output is in job-output.txt]';

export interface Duration {
  start: string;
  end: string;
}

/** The command result of one step on its host, named as the reference's command results. */
export interface HostResult {
  action: 'command';
  cmd: string;
  changed: boolean;
  failed: boolean;
  rc: number | null;
  msg: string;
  start: string;
  end: string;
  delta: string;
  stdout: string;
  stderr: string;
  stdout_lines: string[];
  stderr_lines: string[];
}

export interface HostStats {
  changed: number;
  failures: number;
  ignored: number;
  ok: number;
  rescued: number;
  skipped: number;
  unreachable: number;
}

export interface JobOutputTask {
  task: { name: string; id: string; duration: Duration };
  /** A script's command result, or the module result Ansible's callback recorded. */
  hosts: Record<string, HostResult | Record<string, unknown>>;
  /** The role of an Ansible task. */
  role?: { name: string; id: string; path: string };
}

export interface JobOutputPlaybook {
  playbook: string;
  phase: 'pre' | 'run' | 'post';
  index: string;
  branch: string;
  trusted: boolean;
  plays: Array<{ play: { name: string; id: string; duration: Duration }; tasks: JobOutputTask[] }>;
  stats: Record<string, HostStats>;
}

export interface StepDescription {
  phase: StepPhase;
  path: string;
  project: string;
}

interface OpenStep {
  description: StepDescription;
  started: Date;
  stdout: string[];
  stderr: string[];
  kept: number;
  truncated: boolean;
}

export interface JobOutputOptions {
  logDir: string;
  jobName: string;
  /** Host the steps run on (the primary node's name; `localhost` without nodes). */
  host: string;
  branch: string;
  /** Masks secrets in the captured output. */
  redactor?: Redactor;
  now?: () => Date;
}

/** Collects the steps of a build and keeps `job-output.json` up to date. */
export class JobOutputRecorder {
  private readonly file: string;
  private readonly playbooks: JobOutputPlaybook[];
  private tasks: JobOutputTask[] = [];
  private phaseStart: Date | null = null;
  private current: OpenStep | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: JobOutputOptions) {
    this.file = path.join(options.logDir, JOB_OUTPUT_JSON_FILE);
    this.now = options.now ?? (() => new Date());
    this.playbooks = readPlaybooks(this.file);
  }

  stepStarted(description: StepDescription): void {
    this.phaseStart ??= this.now();
    this.current = { description, started: this.now(), stdout: [], stderr: [], kept: 0, truncated: false };
  }

  line(stream: OutputStream, text: string): void {
    const step = this.current;
    if (step === null || step.truncated) {
      return;
    }
    const masked = this.options.redactor?.active ? this.options.redactor.redact(text) : text;
    if (step.kept + masked.length > STEP_OUTPUT_LIMIT) {
      step.truncated = true;
      step[stream].push(TRUNCATION_NOTE);
      return;
    }
    step.kept += masked.length + 1;
    step[stream].push(masked);
  }

  stepEnded(exit: StepExit): void {
    const step = this.current;
    if (step === null) {
      return;
    }
    this.current = null;
    const ended = this.now();
    const { description } = step;
    const failed = !(exit.kind === 'exited' && exit.code === 0);
    const result: HostResult = {
      action: 'command',
      cmd: description.path,
      changed: true,
      failed,
      rc: exit.kind === 'exited' ? exit.code : null,
      msg: failureMessage(exit),
      start: commandTime(step.started),
      end: commandTime(ended),
      delta: commandDelta(ended.getTime() - step.started.getTime()),
      stdout: step.stdout.join('\n'),
      stderr: step.stderr.join('\n'),
      stdout_lines: step.stdout,
      stderr_lines: step.stderr,
    };
    this.tasks.push({
      task: {
        name: `${description.path} (${description.project})`,
        id: randomUUID(),
        duration: { start: isoTime(step.started), end: isoTime(ended) },
      },
      hosts: { [this.options.host]: result },
    });
  }

  /**
   * An Ansible playbook of the build ended: the scripts of its phase that ran before it become
   * their playbook first, then it is added and the file written.
   */
  addPlaybook(phase: StepPhase, playbook: JobOutputPlaybook): void {
    this.phaseEnded(phase);
    const masked = this.options.redactor?.active ? this.options.redactor.redactJson(playbook) : playbook;
    this.playbooks.push(masked);
    writeJobOutput(this.options.logDir, this.playbooks);
  }

  /** The phase ended (normally, on a failure or on a cancel): its playbook is written, if it ran steps. */
  phaseEnded(phase: StepPhase): void {
    if (this.tasks.length === 0 || this.phaseStart === null) {
      return;
    }
    const tasks = this.tasks;
    const start = this.phaseStart;
    this.tasks = [];
    this.phaseStart = null;
    const failures = tasks.filter((task) => task.hosts[this.options.host]?.failed === true).length;
    this.playbooks.push({
      playbook: `${this.options.jobName}/${phase}`,
      phase: PHASE_NAMES[phase],
      index: '0',
      branch: this.options.branch,
      trusted: false,
      plays: [
        {
          play: {
            name: this.options.host,
            id: randomUUID(),
            duration: { start: isoTime(start), end: isoTime(this.now()) },
          },
          tasks,
        },
      ],
      stats: {
        [this.options.host]: {
          changed: tasks.length - failures,
          failures,
          ignored: 0,
          ok: tasks.length - failures,
          rescued: 0,
          skipped: 0,
          unreachable: 0,
        },
      },
    });
    writeJobOutput(this.options.logDir, this.playbooks);
  }
}

/** Write the playbooks (atomically: readers never see half a file). */
export function writeJobOutput(logDir: string, playbooks: readonly JobOutputPlaybook[]): void {
  const file = path.join(logDir, JOB_OUTPUT_JSON_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(playbooks, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** A build that ran no step still has the file: an empty list. */
export function ensureJobOutput(logDir: string): void {
  if (!existsSync(path.join(logDir, JOB_OUTPUT_JSON_FILE))) {
    writeJobOutput(logDir, []);
  }
}

/** The playbooks already written (a paused build continuing); anything unreadable starts afresh. */
function readPlaybooks(file: string): JobOutputPlaybook[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed) ? (parsed as JobOutputPlaybook[]) : [];
  } catch {
    return [];
  }
}

function failureMessage(exit: StepExit): string {
  switch (exit.kind) {
    case 'exited':
      if (exit.code === 0) {
        return '';
      }
      return exit.code === null ? `killed by signal ${exit.signal ?? 'unknown'}` : 'non-zero return code';
    case 'timed-out':
      return 'timed out; its process group was killed';
    case 'aborted':
      return 'stopped by cancel';
    case 'spawn-error':
      return `could not start: ${exit.message}`;
  }
}

/** `2026-11-22T01:55:12.123000Z`: task and play times, microseconds as in the reference. */
export function isoTime(at: Date): string {
  return `${at.toISOString().slice(0, 23)}000Z`;
}

/** `2026-11-22 01:55:12.123000`: command start and end times (UTC). */
function commandTime(at: Date): string {
  return `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 23)}000`;
}

/** `0:00:01.234000`: a command's duration. */
function commandDelta(ms: number): string {
  const total = Math.max(0, ms);
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  const millis = total % 1000;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${String(millis).padStart(3, '0')}000`;
}
