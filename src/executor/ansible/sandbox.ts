/**
 * The bubblewrap sandbox of untrusted playbooks (docs/executor.md#untrusted-playbooks): the
 * `ansible-playbook` process and everything it starts on the executor (tasks on `localhost`,
 * `delegate_to: localhost`, lookups) see the system read-only (`/usr` and a few files of
 * `/etc`), the build's own workspace, log folder and node folders read-write, the build's
 * Ansible files they need, and nothing else: no other build's files, no Sluice data or
 * configuration, no key files. They run in new namespaces (user, mount, PID, IPC, UTS, cgroup;
 * the network is shared so nodes can be reached) with every capability dropped.
 */
import { existsSync, lstatSync, readlinkSync } from 'node:fs';

export interface SandboxMounts {
  /** Paths shown read-only at the same place. */
  readOnly: string[];
  /** Paths shown read-write at the same place. */
  readWrite: string[];
  /** The working directory inside the sandbox. */
  chdir: string;
}

/** Files of `/etc` programs need (name resolution, users, certificates, time zone, libraries). */
const ETC_FILES = [
  '/etc/passwd',
  '/etc/group',
  '/etc/hosts',
  '/etc/resolv.conf',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ssh/ssh_config',
  '/etc/ssh/ssh_config.d',
  '/etc/python3',
  '/etc/python3.11',
  '/etc/mime.types',
];

/** The top-level system folders: read-only, or the symbolic links they are on merged-/usr systems. */
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

function systemArgs(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) {
      continue;
    }
    if (lstatSync(dir).isSymbolicLink()) {
      args.push('--symlink', readlinkSync(dir), dir);
    } else {
      args.push('--ro-bind', dir, dir);
    }
  }
  for (const file of ETC_FILES) {
    args.push('--ro-bind-try', file, file);
  }
  return args;
}

const ISOLATION = [
  '--unshare-all',
  '--share-net',
  '--unshare-user',
  '--cap-drop',
  'ALL',
  '--die-with-parent',
  '--proc',
  '/proc',
  '--dev',
  '/dev',
  '--tmpfs',
  '/tmp',
];

/** `bwrap` arguments running `command` in the sandbox. */
export function sandboxArgs(mounts: SandboxMounts, command: string[]): string[] {
  const args = [...ISOLATION, ...systemArgs()];
  // A folder is mounted before the folders inside it, which would be hidden otherwise.
  const binds = [
    ...mounts.readOnly.map((dir) => ({ dir, flag: '--ro-bind' })),
    ...mounts.readWrite.map((dir) => ({ dir, flag: '--bind' })),
  ].sort((a, b) => a.dir.split('/').length - b.dir.split('/').length);
  for (const { dir, flag } of binds) {
    args.push(flag, dir, dir);
  }
  args.push('--chdir', mounts.chdir, '--', ...command);
  return args;
}

/** The probe run when the executor starts: the same isolation, running `true`. */
export function sandboxProbeArgs(): string[] {
  return [...ISOLATION, ...systemArgs(), '--', 'true'];
}
