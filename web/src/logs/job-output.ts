/**
 * A build's structured output (`job-output.json`, the reference's playbook list; format in
 * docs/logs.md#job-outputjson), read entry by entry: what is malformed is left out, never a crash.
 * The task summary and the play/task console of the build page read it as the reference's
 * dashboard does (docs/logs.md#reference-behaviour).
 */

export interface HostResult {
  host: string;
  action: string | null;
  changed: boolean;
  failed: boolean;
  skipped: boolean;
  rc: number | null;
  msg: string;
  cmd: string | null;
  stdout: string[];
  stderr: string[];
}

export interface TaskRun {
  name: string;
  start: string | null;
  end: string | null;
  hosts: HostResult[];
}

export interface PlayRun {
  name: string;
  start: string | null;
  end: string | null;
  tasks: TaskRun[];
}

export interface HostStats {
  ok: number;
  changed: number;
  failures: number;
  skipped: number;
  unreachable: number;
}

export interface PlaybookRun {
  playbook: string;
  phase: string;
  trusted: boolean;
  plays: PlayRun[];
  stats: Record<string, HostStats>;
}

type Fields = Record<string, unknown>;

function record(value: unknown): Fields | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** `stdout_lines` when given, else `stdout` split in lines. */
function lines(result: Fields, stream: 'stdout' | 'stderr'): string[] {
  const given = result[`${stream}_lines`];
  if (Array.isArray(given)) {
    return given.filter((line): line is string => typeof line === 'string');
  }
  const whole = text(result[stream]);
  return whole === null || whole === '' ? [] : whole.replace(/\n$/, '').split('\n');
}

function duration(value: unknown): { start: string | null; end: string | null } {
  const fields = record(value);
  return { start: text(fields?.start), end: text(fields?.end) };
}

function hostResult(host: string, value: unknown): HostResult | null {
  const result = record(value);
  if (result === null) {
    return null;
  }
  const rc = typeof result.rc === 'number' && Number.isInteger(result.rc) ? result.rc : null;
  const cmd = Array.isArray(result.cmd) ? result.cmd.filter((p) => typeof p === 'string').join(' ') : text(result.cmd);
  return {
    host,
    action: text(result.action),
    changed: result.changed === true,
    // The reference counts a non-zero return code as a failure too.
    failed: result.failed === true || (rc !== null && rc !== 0),
    skipped: result.skipped === true,
    rc,
    msg: text(result.msg) ?? '',
    cmd,
    stdout: lines(result, 'stdout'),
    stderr: lines(result, 'stderr'),
  };
}

function task(value: unknown): TaskRun | null {
  const fields = record(value);
  const info = record(fields?.task);
  if (fields === null || info === null) {
    return null;
  }
  const hosts = Object.entries(record(fields.hosts) ?? {})
    .map(([host, result]) => hostResult(host, result))
    .filter((result): result is HostResult => result !== null);
  return { name: text(info.name) ?? '', ...duration(info.duration), hosts };
}

function play(value: unknown): PlayRun | null {
  const fields = record(value);
  const info = record(fields?.play);
  if (fields === null || info === null) {
    return null;
  }
  const tasks = (Array.isArray(fields.tasks) ? fields.tasks : []).map(task).filter((t): t is TaskRun => t !== null);
  return { name: text(info.name) ?? '', ...duration(info.duration), tasks };
}

function stats(value: unknown): Record<string, HostStats> {
  const out: Record<string, HostStats> = {};
  for (const [host, raw] of Object.entries(record(value) ?? {})) {
    const s = record(raw);
    if (s !== null) {
      out[host] = {
        ok: count(s.ok),
        changed: count(s.changed),
        failures: count(s.failures),
        skipped: count(s.skipped),
        unreachable: count(s.unreachable),
      };
    }
  }
  return out;
}

/** The playbooks of a `job-output.json` document, or an Error when it is not a list of them. */
export function parseJobOutput(value: unknown): PlaybookRun[] | Error {
  if (!Array.isArray(value)) {
    return new Error('job-output.json is not a list of playbooks');
  }
  const playbooks: PlaybookRun[] = [];
  for (const raw of value) {
    const fields = record(raw);
    if (fields === null) {
      continue;
    }
    playbooks.push({
      playbook: text(fields.playbook) ?? '',
      phase: text(fields.phase) ?? '',
      trusted: fields.trusted === true,
      plays: (Array.isArray(fields.plays) ? fields.plays : []).map(play).filter((p): p is PlayRun => p !== null),
      stats: stats(fields.stats),
    });
  }
  return playbooks;
}

export interface HostSummary {
  host: string;
  ok: number;
  changed: number;
  failures: number;
  /** The failed tasks of this host, in the order they ran. */
  failed: Array<{ task: string; playbook: string; result: HostResult }>;
}

/** Per host: the playbooks' stats summed, and the tasks that failed (the reference's task summary). */
export function summarize(playbooks: readonly PlaybookRun[]): HostSummary[] {
  const hosts = new Map<string, HostSummary>();
  const hostOf = (name: string): HostSummary => {
    let summary = hosts.get(name);
    if (summary === undefined) {
      summary = { host: name, ok: 0, changed: 0, failures: 0, failed: [] };
      hosts.set(name, summary);
    }
    return summary;
  };
  for (const playbook of playbooks) {
    for (const [host, s] of Object.entries(playbook.stats)) {
      const summary = hostOf(host);
      summary.ok += s.ok;
      summary.changed += s.changed;
      summary.failures += s.failures;
    }
    for (const p of playbook.plays) {
      for (const t of p.tasks) {
        for (const result of t.hosts) {
          if (result.failed) {
            hostOf(result.host).failed.push({ task: t.name, playbook: playbook.playbook, result });
          }
        }
      }
    }
  }
  return [...hosts.values()];
}

/** "Run playbook" for phase `run` (the reference shows the phase capitalised). */
export function phaseLabel(phase: string): string {
  return phase === '' ? 'Playbook' : `${phase[0].toUpperCase()}${phase.slice(1)} playbook`;
}

/** Seconds between two ISO times, or null when either is missing or unreadable. */
export function secondsBetween(start: string | null, end: string | null): number | null {
  if (start === null || end === null) {
    return null;
  }
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}
