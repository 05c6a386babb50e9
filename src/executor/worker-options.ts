/** The options of an executor worker and the neighbours it uses (node locks, logging). */
import type { OidcTokenSource } from './oidc-tokens';
import type { TimerClock } from '../engine/ports/clock';
import type { SecretsKeySource } from '../secrets/secret-data';
import type { AnsibleToolchain } from './ansible/toolchain';
import type { BuildRequestRepository } from '../store/repositories/build-requests';
import type { ConsoleRegistry } from './build-log';
import type { Merger } from './merger';

/** Locks a build's launcher nodes when it starts (src/launcher/node-lock.ts); null = locked, else why not. */
export interface NodeLocker {
  lock(nodeIds: readonly string[], holder: string): Promise<string | null>;
}

/** The subset of a pino logger the worker uses. */
export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ExecutorWorkerOptions {
  repository: BuildRequestRepository;
  merger: Merger;
  /** Directory holding one workspace per running build (`<workRoot>/<build uuid>/`). */
  workRoot: string;
  /** Service configuration `logs.dir`, and the public URL prefix of the logs (read per build). */
  logsDir: string;
  logsUrl?: string | (() => string | undefined);
  /** Builds run at the same time by this executor. */
  concurrency?: number;
  /** Milliseconds between claim attempts while idle. */
  pollIntervalMs?: number;
  /** Milliseconds between checks for requested cancels. */
  cancelPollIntervalMs?: number;
  /** Allowed host variables for steps (see `allowedHostEnvironment`). */
  hostEnv: Record<string, string>;
  /** Registry of live logs (shared with the console stream). */
  consoles?: ConsoleRegistry;
  workerId?: string;
  now?: () => Date;
  /** Runs the claim and cancel loops (src/engine/ports/periodic-task.ts); the system clock by default. */
  timers?: TimerClock;
  logger?: WorkerLogger;
  /** Private key file used to reach SSH nodes of any connection not in `sshKeyFiles`; builds on SSH nodes without a key end NODE_FAILURE. */
  sshKeyFile?: string;
  /** Private key file per launcher connection (`connections.<name>.sshKeyFile`). */
  sshKeyFiles?: Readonly<Record<string, string>>;
  /** Locks the build's launcher nodes before it starts (they become in-use); without it nodes are used as given. */
  nodeLocker?: NodeLocker;
  /** Keep workspaces after builds (debugging); default false. */
  keepWorkspaces?: boolean;
  killGraceMs?: number;
  /** Projects' secrets keys (the KeyManager); builds carrying secrets fail with ERROR without it. */
  secretKeys?: () => Promise<SecretsKeySource>;
  /** Signing keys and issuer of OIDC tokens; without it `oidc` secrets get no token (a warning). */
  oidc?: OidcTokenSource;
  /** `ansible-playbook` and the sandbox (default: found on PATH, untrusted playbooks sandboxed). */
  toolchain?: AnsibleToolchain;
}

/** The logger of a worker given none. */
export const silentLogger: WorkerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
