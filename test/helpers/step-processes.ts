/**
 * Killing the step processes a killed executor left behind (they run in process groups of their
 * own, so they outlive it). The pid a step wrote down may since have been given to another
 * process: pids wrap within minutes on a busy machine (pid_max 32,768), and a blind SIGKILL could
 * then end another test's `sluice serve` or database backend. Only a process whose environment
 * still names the step's marks directory (the job variable `marks`, as `SLUICE_VAR_marks`) is
 * killed, with its group.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Whether `pid` is a live step process of the job whose `marks` variable is `marks`. */
export function isStepOf(pid: number, marks: string): boolean {
  if (!Number.isInteger(pid) || pid <= 1) {
    return false;
  }
  try {
    // NUL-separated NAME=value entries; unreadable or absent once the process is gone.
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return environment.includes(`SLUICE_VAR_marks=${marks}`);
  } catch {
    return false;
  }
}

/** SIGKILL the step whose pid is in `marks/<file>`, and its process group, if it is still that step. */
export function killStep(marks: string, file: string): void {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(marks, file), 'utf8').trim());
  } catch {
    return; // not started
  }
  if (!isStepOf(pid, marks)) {
    return;
  }
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
