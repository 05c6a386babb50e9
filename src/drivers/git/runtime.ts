/**
 * The git driver's part of the gating roles: pollers that turn what moved in the repositories
 * into trigger events (scheduler role, docs/operations.md#durable-source-state), and the change
 * source over the git merger's mirrors (the executor cache of this process; mirrors of its own
 * without one). Merges are the shared git merger's; a merge it pushes is
 * announced to the connection's poller, which reports it once as Sluice's own `ref-updated`.
 */
import path from 'node:path';
import type { Knex } from 'knex';
import type { TriggerEvent } from '../../model/engine-events';
import { GitMirrors } from '../../sources/git-mirror';
import type { DriverContext, DriverRuntime } from '../driver';
import { GitChangeSource } from './change-source';
import type { GitConnectionConfig } from './connection-schema';
import type { GitPoller, GitTriggerEvent } from './poller';
import { DurablePollerState } from './poller-state';
import { createGitPollers } from './pollers';

/** The git runtime, with its pollers (tests poll at once through them). */
export interface GitDriverRuntime extends DriverRuntime {
  pollers: ReadonlyMap<string, GitPoller>;
}

/** The engine's trigger payload for a git poller event. */
export function triggerPayload(event: GitTriggerEvent, canonicalName: string): TriggerEvent {
  if (event.type === 'patchset-created') {
    return {
      type: 'patchset-created',
      project: canonicalName,
      change: event.change,
      patchset: String(event.patchset),
      ref: event.ref,
      branch: event.branch,
      newrev: event.newrev,
      timestamp: event.timestamp.toISOString(),
    };
  }
  return {
    type: 'ref-updated',
    project: canonicalName,
    ref: event.ref,
    branch: event.branch ?? undefined,
    oldrev: event.oldrev,
    newrev: event.newrev,
    own: event.own,
    timestamp: event.timestamp.toISOString(),
  };
}

export function gitRuntime(context: DriverContext<GitConnectionConfig>): GitDriverRuntime {
  const { projects, triggers } = context;
  // A poll's trigger rows commit with the refs it saw (docs/operations.md#durable-source-state).
  const recordTriggers = async (trx: Knex.Transaction, events: readonly GitTriggerEvent[]): Promise<void> => {
    for (const event of events) {
      const canonicalName = projects.canonicalName(event.connection, event.project);
      for (const tenant of projects.tenantsOf(canonicalName)) {
        await triggers.record(tenant, triggerPayload(event, canonicalName), trx);
      }
    }
  };
  const pollers = createGitPollers(
    { dataDir: context.dataDir, connections: Object.fromEntries(context.connections) },
    {
      projects: (connection) => projects.projectsOf(connection),
      // Saved already: the schedulers of the tenants holding the project look now.
      onEvent: (event) => {
        for (const tenant of projects.tenantsOf(projects.canonicalName(event.connection, event.project))) {
          triggers.wake(tenant);
        }
      },
      onError: (err, connection, project) => context.log.warn({ err, connection, project }, 'git poll failed'),
      clock: context.timers,
      state: (connection) => new DurablePollerState(context.knex, connection, recordTriggers, context.now),
    },
  );
  const baseUrl = (connection: string): string => {
    const settings = context.connections.get(connection);
    if (settings === undefined) {
      throw new Error(`connection ${connection} is not a git connection`);
    }
    return settings.baseurl;
  };
  let own: GitMirrors | undefined;
  const mirrors = (): GitMirrors =>
    context.gitMirrors?.() ?? (own ??= new GitMirrors(path.join(context.dataDir, 'engine', 'mirrors'), baseUrl));
  return {
    pollers,
    changes: new GitChangeSource(
      {
        update: (connection, project) => mirrors().update(connection, project),
        readRefs: (connection, project, key, read) => mirrors().readRefs(connection, project, key, read),
      },
      projects,
    ),
    // The merge runs inside a scheduler pass, which holds a database connection (PGlite has only
    // one): the pass does not wait for the poller's save.
    merged: (connection, project, branch, newrev, oldrev) => {
      void pollers.get(connection)?.expectOwnUpdate(project, branch, newrev, oldrev);
    },
    tasks: [...pollers].map(([connection, poller]) => ({
      name: `git-poller:${connection}`,
      role: 'scheduler' as const,
      start: () => poller.start(),
      stop: () => poller.stop(),
    })),
  };
}
