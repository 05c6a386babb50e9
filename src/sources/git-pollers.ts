/**
 * One `GitPoller` per git connection of the service configuration, with mirrors under
 * `<dataDir>/poller/` and the connection's `pollInterval`.
 */
import path from 'node:path';
import type { ServiceConfig } from '../config/service';
import { GitMirrors } from './git-mirror';
import { GitPoller, type GitTriggerEvent, type PollerClock } from './git-poller';

export interface GitPollersOptions {
  /** Projects of a connection to poll (from the tenant configuration). */
  projects: (connection: string) => string[] | Promise<string[]>;
  onEvent: (event: GitTriggerEvent) => void | Promise<void>;
  onError?: (error: unknown, connection: string, project: string) => void;
  clock?: PollerClock;
}

/** Pollers by connection name (not started). */
export function createGitPollers(
  config: Pick<ServiceConfig, 'connections' | 'dataDir'>,
  options: GitPollersOptions,
): Map<string, GitPoller> {
  const pollers = new Map<string, GitPoller>();
  for (const [name, connection] of Object.entries(config.connections)) {
    if (connection.driver !== 'git') {
      continue;
    }
    const baseurl = connection.baseurl;
    pollers.set(
      name,
      new GitPoller({
        connection: name,
        mirrors: new GitMirrors(path.join(config.dataDir, 'poller'), () => baseurl),
        projects: () => options.projects(name),
        intervalMs: connection.pollInterval * 1000,
        onEvent: options.onEvent,
        onError: options.onError ? (err, project) => options.onError?.(err, name, project) : undefined,
        clock: options.clock,
      }),
    );
  }
  return pollers;
}
