/**
 * What tells whether a component's process is gone without waiting for its heartbeat to expire
 * (docs/operations.md#lost-work): a process on this machine (same boot) in this PID namespace
 * whose pid no longer exists has ended. Components record their identity when they register;
 * anything that cannot be checked this way waits for the expiry.
 */
import { readFileSync, readlinkSync } from 'node:fs';

export interface HostIdentity {
  /** The kernel's boot id: the same machine and boot. */
  bootId: string | null;
  /** The PID namespace: pids mean the same processes. */
  pidNamespace: string | null;
}

function attempt(read: () => string): string | null {
  try {
    return read().trim() || null;
  } catch {
    return null;
  }
}

let cached: HostIdentity | undefined;

/** This process's host identity (null parts where the system does not tell, e.g. outside Linux). */
export function hostIdentity(): HostIdentity {
  cached ??= {
    bootId: attempt(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: attempt(() => readlinkSync('/proc/self/ns/pid')),
  };
  return cached;
}

/** True when `data` (a component's registration data) names a process of this host that has ended. */
export function endedOnThisHost(data: Record<string, unknown>, pid: number | null): boolean {
  const self = hostIdentity();
  if (pid === null || self.bootId === null || self.pidNamespace === null) {
    return false;
  }
  if (data.bootId !== self.bootId || data.pidNamespace !== self.pidNamespace) {
    return false;
  }
  if (pid === process.pid) {
    return false;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
