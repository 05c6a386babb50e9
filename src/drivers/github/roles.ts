/**
 * The GitHub driver's part of the gating roles (docs/github.md#status): its connections, the
 * merge of a pull request, the reporter, and the processing of stored webhook deliveries into
 * trigger events.
 */
import type { Knex } from 'knex';
import { sleepOn, systemClock, type TimerClock } from '../../engine/ports/clock';
import { ReportNotSent, sendFailure, type ChangeReporter } from '../../engine/ports/reporter';
import type { TriggerEvent } from '../../model/engine-events';
import type { GitProjects } from '../../sources/git-projects';
import type { ConnectionEventRow } from '../../store/repositories/connection-events';
import { connectionEventIntake, type ConnectionEventIntake } from '../connection-event-intake';
import { GitHubCheckRunRepository } from '../../store/repositories/github-check-runs';
import type { DriverContext, DriverLog, DriverRuntime } from '../driver';
import { GitHubConnection } from './connection';
import type { GitHubConnectionConfig } from './connection-schema';
import { GitHubReporter, mergePullRequest } from './reporter';
import { REPORT_RETRY_DELAYS_MS } from './retry';
import { InvalidPayloadError, protectionChangeOf, triggersOf, type RepositoryTrigger } from './webhook-events';
import { PeriodicTask } from '../../engine/ports/periodic-task';

/** Installation tokens are checked (and refreshed before expiry) this often. */
const TOKEN_REFRESH_INTERVAL_MS = 60_000;

/** The GitHub connections of the given settings, by name; their rate limits are waited out on `timers`. */
export function githubConnections(
  settings: ReadonlyMap<string, GitHubConnectionConfig>,
  timers: TimerClock = systemClock,
): Map<string, GitHubConnection> {
  return new Map([...settings].map(([name, config]) => [name, new GitHubConnection(name, config, { timers })]));
}

/** A GitHub pull request is merged through the API; anything else is left to the shared git merger (null). */
export function githubMerger(
  github: ReadonlyMap<string, GitHubConnection>,
  projects: GitProjects,
): NonNullable<DriverRuntime['mergeToBranch']> {
  return async (item) => {
    const location = projects.locate(item.project);
    const connection = location ? github.get(location.connection) : undefined;
    if (!connection || !location || item.number === null) {
      return null;
    }
    const outcome = await mergePullRequest(connection, location.name, item.number, item.patchset, item.mergeMode);
    return outcome.merged ? { merged: true, oldrev: null, newrev: outcome.newrev } : outcome;
  };
}

export function githubReporter(
  github: ReadonlyMap<string, GitHubConnection>,
  context: Pick<DriverContext<GitHubConnectionConfig>, 'knex' | 'buildsetUrl' | 'now' | 'log' | 'timers'>,
): ChangeReporter {
  const { log } = context;
  const reporter = new GitHubReporter(
    github,
    (tenant, uuid) => context.buildsetUrl(tenant, uuid),
    new GitHubCheckRunRepository(context.knex),
    context.now,
    {
      delaysMs: REPORT_RETRY_DELAYS_MS,
      sleep: sleepOn(context.timers ?? systemClock),
      onRetry: (err, attempt, waitMs) =>
        log.info({ err: err.message, attempt, waitMs }, 'GitHub report failed, trying again'),
    },
    (message) => log.warn(message),
  );
  return {
    report: (report) =>
      reporter.report(report).catch((err: unknown) => {
        log.warn({ err, pipeline: report.pipeline, change: report.change.url }, 'GitHub report failed');
        throw new ReportNotSent([sendFailure(`GitHub report on ${report.change.url ?? report.change.ref}`, err)]);
      }),
  };
}

export type ConnectionEventProcessor = ConnectionEventIntake;

/**
 * Turns stored deliveries into trigger events for every tenant that has the repository, one at a
 * time and in the order they were stored, exactly once: the delivery's row is locked, its trigger
 * events are written and it is marked processed in one transaction, so neither a second scheduler
 * process nor a crash can make its events twice (docs/github.md#webhooks). The GitHub API calls
 * a delivery needs (a pull request's base branch) run while the row is locked.
 */
export function connectionEventProcessor(options: {
  database: { knex: Knex };
  github: ReadonlyMap<string, GitHubConnection>;
  tenantsOf: (canonicalName: string) => string[];
  /** The branches a tenant loaded of a project when it loads protected branches only (else undefined). */
  protectedBranchesOf: (tenant: string, canonicalName: string) => readonly string[] | undefined;
  /** Write a trigger event in the delivery's transaction; the scheduler is woken after the commit. */
  record: (tenant: string, event: TriggerEvent, trx: Knex) => Promise<void>;
  wake: (tenant: string) => void;
  /** Reload tenants' layouts now (a repository's branch protection changed); does not wait. */
  reloadTenants: (tenants: readonly string[]) => void;
  now: () => Date;
  logger: DriverLog;
}): ConnectionEventProcessor {
  const processOne = async (row: ConnectionEventRow, trx: Knex, woken: Set<string>): Promise<string> => {
    const connection = options.github.get(row.connection);
    if (!connection) {
      return `no GitHub connection ${row.connection}`;
    }
    const protectionChanged = protectionChangeOf(row.eventType, row.payload);
    if (protectionChanged !== null) {
      // The tenants re-read the repository's branch protection and locks at once (the reload
      // does not hold this transaction; a delivery processed twice reloads twice, which is harmless).
      const tenants = options.tenantsOf(`${connection.canonicalHostname}/${protectionChanged}`);
      if (tenants.length === 0) {
        return 'ignored';
      }
      options.reloadTenants(tenants);
      return `reloading ${tenants.join(', ')}`;
    }
    let triggers: RepositoryTrigger[];
    try {
      triggers = await triggersOf(connection, row.eventType, row.payload, options.now().toISOString());
    } catch (err) {
      // A payload without the fields read can never be processed: say why instead of trying again.
      if (err instanceof InvalidPayloadError) {
        return `invalid payload: ${err.message}`;
      }
      throw err;
    }
    let submitted = 0;
    const excluded: string[] = [];
    for (const trigger of triggers) {
      const canonical = `${connection.canonicalHostname}/${trigger.project}`;
      let branch = trigger.branch;
      for (const tenant of options.tenantsOf(canonical)) {
        // `exclude-unprotected-branches`: events of other branches are not for this tenant (docs/github.md#changes).
        const protectedBranches = options.protectedBranchesOf(tenant, canonical);
        if (protectedBranches !== undefined) {
          if (branch === undefined && typeof trigger.change === 'number') {
            branch = (await connection.pull(trigger.project, trigger.change)).base.ref;
          }
          if (branch !== undefined && !protectedBranches.includes(branch)) {
            excluded.push(`${tenant}: ${branch} is not protected`);
            continue;
          }
        }
        await options.record(tenant, { ...trigger, project: canonical }, trx);
        woken.add(tenant);
        submitted += 1;
      }
    }
    if (triggers.length === 0) {
      return 'ignored';
    }
    return excluded.length === 0 ? `submitted ${submitted}` : `submitted ${submitted}; ${excluded.join('; ')}`;
  };

  const intake = connectionEventIntake({
    knex: options.database.knex,
    connections: [...options.github.keys()],
    processOne,
    wake: options.wake,
    now: options.now,
    logger: options.logger,
  });
  // Each connection's tokens on their own: one connection's failure does not hold up the others.
  const refresher = new PeriodicTask({
    name: 'GitHub token refresh',
    intervalMs: TOKEN_REFRESH_INTERVAL_MS,
    tick: () =>
      Promise.all(
        [...options.github.values()].map((connection) =>
          connection.client
            .refreshTokens()
            .catch((err: unknown) => options.logger.warn({ err }, 'GitHub token refresh failed')),
        ),
      ),
    onError: (err) => options.logger.warn({ err }, 'GitHub token refresh failed'),
    // A refresh keeps tokens in memory only: stopping does not wait for one.
    stopWaitMs: 0,
  });
  return {
    wake: intake.wake,
    start: () => {
      if (options.github.size === 0) {
        return;
      }
      intake.start();
      refresher.start();
    },
    stop: async () => {
      await refresher.stop();
      await intake.stop();
    },
    idle: intake.idle,
  };
}
