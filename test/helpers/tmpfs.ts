/**
 * Small tmpfs file systems for out-of-space tests, mounted in a private mount namespace of the
 * process under test (`unshare -m`; `-r` adds a user namespace when the test does not run as
 * root), so nothing is mounted on the host and nothing is left behind when the process ends.
 * `TMPFS` says whether this machine allows it (tests skip with the reason otherwise).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Precondition } from './preconditions';

export interface TmpfsMount {
  dir: string;
  /** Bytes. */
  size: number;
  /** Bytes of a file `filler` written at once (as much as fits), to start with a full disk. */
  fill?: number;
}

/**
 * A command prefix that mounts each tmpfs and then executes the rest of the command line in the
 * same process (`exec`), so the pid and the signals are the command's own.
 */
export function inTmpfs(mounts: readonly TmpfsMount[]): string[] {
  const script = [
    ...mounts.map((mount, index) => `mount -t tmpfs -o size=${mount.size} tmpfs "$${index + 1}"`),
    ...mounts.flatMap((mount, index) =>
      (mount.fill ?? 0) > 0
        ? [`{ head -c ${mount.fill} /dev/zero > "$${index + 1}/filler" 2>/dev/null || true; }`]
        : [],
    ),
    `shift ${mounts.length}`,
    'exec "$@"',
  ].join(' && ');
  const namespace = process.getuid?.() === 0 ? ['-m'] : ['-r', '-m'];
  return ['unshare', ...namespace, '--propagation', 'private', 'sh', '-c', script, 'sh', ...mounts.map((m) => m.dir)];
}

function probe(): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-tmpfs-probe-'));
  try {
    const [command, ...args] = inTmpfs([{ dir, size: 64 * 1024 }]);
    const run = spawnSync(command, [...args, 'true'], { encoding: 'utf8', timeout: 10_000 });
    if (run.error) {
      return run.error.message;
    }
    return run.status === 0 ? null : run.stderr.trim() || `exit ${run.status}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const refusal = probe();

export const TMPFS: Precondition = {
  met: refusal === null,
  reason: `cannot mount a tmpfs in a private mount namespace (unshare -m: ${refusal ?? ''})`,
};
