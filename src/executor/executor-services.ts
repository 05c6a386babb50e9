/**
 * Assembles the executor of one process from the service configuration: the repository cache,
 * the merger, the worker and the console resolver, with their working directories under
 * `<dataDir>/executor/` (`cache/` mirrors, `scratch/` merges; workspaces in `executor.workRoot`,
 * by default `builds/` there), the worker's settings from the `executor` section
 * (docs/configuration.md#keys), and the SSH keys of static launcher connections.
 */
import type { OidcTokenSource } from './oidc-tokens';
import path from 'node:path';
import type { ServiceConfig } from '../config/service';
import type { SecretsKeySource } from '../secrets/secret-data';
import type { BuildRequestRepository } from '../store/repositories/build-requests';
import { AnsibleToolchain, type ToolchainOptions } from './ansible/toolchain';
import { ConsoleRegistry } from './build-log';
import { createConsoleResolver, type ConsoleTarget } from './console-resolver';
import { Merger } from './merger';
import { gitConnectionsFromConfig, RepoCache, type GitConnectionInfo } from './repo-cache';
import { allowedHostEnvironment } from './step-environment';
import { ExecutorWorker } from './worker';
import type { NodeLocker, WorkerLogger } from './worker-options';

export interface ExecutorServices {
  cache: RepoCache;
  merger: Merger;
  worker: ExecutorWorker;
  consoles: ConsoleRegistry;
  /** `ansible-playbook` and the sandbox on this host (probed when the executor starts). */
  toolchain: AnsibleToolchain;
  /** `resolveBuild` for `attachConsoleStream`. */
  resolveConsole: (tenant: string, buildUuid: string) => Promise<ConsoleTarget>;
}

export interface ExecutorServicesOptions {
  repository: BuildRequestRepository;
  /** The process environment; only allow-listed variables reach job steps. */
  environment: Record<string, string | undefined>;
  concurrency?: number;
  /** Locks launcher nodes when a build starts (the launcher's StoreNodeLocker). */
  nodeLocker?: NodeLocker;
  logger?: WorkerLogger;
  now?: () => Date;
  /** Projects' secrets keys (the KeyManager), to decrypt builds' secrets. */
  secretKeys?: () => Promise<SecretsKeySource>;
  /** Signing keys and issuer of OIDC tokens (docs/security.md#oidc-tokens). */
  oidc?: OidcTokenSource;
  /** Public URL prefix of the logs, read per build; defaults to `logs.url`. */
  logsUrl?: () => string | undefined;
  /** Connections not of the `git` driver whose repositories the executor clones (GitHub). */
  extraConnections?: Record<string, GitConnectionInfo>;
  /** Makes the toolchain from the options taken from the configuration (tests); default: `AnsibleToolchain`. */
  toolchain?: (options: ToolchainOptions) => AnsibleToolchain;
}

/** Build (but do not start) the executor services; call `worker.start()` / `worker.stop()`. */
export function createExecutorServices(config: ServiceConfig, options: ExecutorServicesOptions): ExecutorServices {
  const root = path.join(config.dataDir, 'executor');
  const logsDir = config.logs.dir ?? path.join(config.dataDir, 'logs');
  const cache = new RepoCache(path.join(root, 'cache'), {
    ...gitConnectionsFromConfig(config),
    ...options.extraConnections,
  });
  const merger = new Merger(cache, path.join(root, 'scratch'));
  const consoles = new ConsoleRegistry();
  const sshKeyFiles: Record<string, string> = {};
  for (const [name, connection] of Object.entries(config.connections)) {
    if (connection.driver === 'static' && connection.sshKeyFile !== undefined) {
      sshKeyFiles[name] = connection.sshKeyFile;
    }
  }
  const hostEnv = allowedHostEnvironment(options.environment);
  const toolchainOptions = { pathEnv: hostEnv.PATH, sandbox: config.executor.sandbox };
  const toolchain = options.toolchain?.(toolchainOptions) ?? new AnsibleToolchain(toolchainOptions);
  const worker = new ExecutorWorker({
    repository: options.repository,
    merger,
    workRoot: config.executor.workRoot ?? path.join(root, 'builds'),
    logsDir,
    logsUrl: options.logsUrl ?? config.logs.url,
    concurrency: options.concurrency ?? config.executor.slots,
    pollIntervalMs: config.executor.pollInterval * 1000,
    killGraceMs: config.executor.killGracePeriod * 1000,
    keepWorkspaces: config.executor.keepWorkspaces,
    hostEnv,
    toolchain,
    sshKeyFiles,
    nodeLocker: options.nodeLocker,
    consoles,
    logger: options.logger,
    now: options.now,
    secretKeys: options.secretKeys,
    oidc: options.oidc,
  });
  return {
    cache,
    merger,
    worker,
    consoles,
    toolchain,
    resolveConsole: createConsoleResolver({ repository: options.repository, consoles, logsDir }),
  };
}
