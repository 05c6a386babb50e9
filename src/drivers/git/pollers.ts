/**
 * One `GitPoller` per git connection of the service configuration, with mirrors under
 * `<dataDir>/poller/` and the connection's `pollInterval`.
 */
import path from 'node:path';
import { GitMirrors } from '../../sources/git-mirror';
import type { TimerClock } from '../../engine/ports/clock';
import { GitPoller, type GitTriggerEvent } from './poller';
import type { PollerStateStore } from './poller-state';

export interface GitPollersOptions {
  /** Projects of a connection to poll (from the tenant configuration). */
  projects: (connection: string) => string[] | Promise<string[]>;
  onEvent: (event: GitTriggerEvent) => void | Promise<void>;
  onError?: (error: unknown, connection: string, project: string) => void;
  clock?: TimerClock;
  /** Where a connection's poller keeps the refs it reported; default: memory (a restart re-baselines). */
  state?: (connection: string) => PollerStateStore;
}

/** A git connection as the service configuration describes it (`pollInterval` in seconds). */
export interface PolledGitConnection {
  readonly driver: 'git';
  readonly baseurl: string;
  readonly pollInterval: number;
}

/**
 * The settings the pollers read: the service configuration satisfies it, but sources sit below
 * config (docs/development.md#import-boundaries), so only the shape is named here.
 */
export interface GitPollerSettings {
  readonly dataDir: string;
  readonly connections: Readonly<Record<string, PolledGitConnection | { readonly driver: string }>>;
}

function isPolledGitConnection(connection: { readonly driver: string }): connection is PolledGitConnection {
  return connection.driver === 'git';
}

/** Pollers by connection name (not started). */
export function createGitPollers(settings: GitPollerSettings, options: GitPollersOptions): Map<string, GitPoller> {
  const pollers = new Map<string, GitPoller>();
  for (const [name, connection] of Object.entries(settings.connections)) {
    if (!isPolledGitConnection(connection)) {
      continue;
    }
    const baseurl = connection.baseurl;
    pollers.set(
      name,
      new GitPoller({
        connection: name,
        mirrors: new GitMirrors(path.join(settings.dataDir, 'poller'), () => baseurl),
        projects: () => options.projects(name),
        intervalMs: connection.pollInterval * 1000,
        onEvent: options.onEvent,
        onError: options.onError ? (err, project) => options.onError?.(err, name, project) : undefined,
        clock: options.clock,
        state: options.state?.(name),
      }),
    );
  }
  return pollers;
}
