/**
 * The GitHub driver's part of the gating roles (docs/github.md#status): its connections,
 * the change source, merger and reporter that route a project's work to its connection's
 * driver, and the processing of stored webhook deliveries into trigger events.
 */
import type { Knex } from 'knex';
import type { ServiceConfig } from '../../config/service';
import type { ChangeSource } from '../../engine/ports/change-source';
import type { MergerGateway } from '../../engine/ports/merger';
import type { ChangeReporter } from '../../engine/ports/reporter';
import type { TriggerEvent } from '../../model/engine-events';
import type { GitProjects } from '../git/change-source';
import { GitHubChangeSource } from './change-source';
import { GitHubConnection } from './connection';
import { GitHubReporter, mergePullRequest } from './reporter';
import { REPORT_RETRY_DELAYS_MS } from './retry';
import { triggersOf } from './webhook-events';
import type { Database } from '../../store/database';
import { ConnectionEventRepository, type ConnectionEventRow } from '../../store/repositories/connection-events';
import { GitHubCheckRunRepository } from '../../store/repositories/github-check-runs';
import type { Logger } from '../../server/logger';

/** Seconds between looks for stored deliveries when nothing wakes the processor. */
const PROCESS_INTERVAL_MS = 2000;
/** Installation tokens are checked (and refreshed before expiry) this often. */
const TOKEN_REFRESH_INTERVAL_MS = 60_000;

export function githubConnections(config: ServiceConfig): Map<string, GitHubConnection> {
  const connections = new Map<string, GitHubConnection>();
  for (const [name, settings] of Object.entries(config.connections)) {
    if (settings.driver === 'github') {
      connections.set(name, new GitHubConnection(name, settings));
    }
  }
  return connections;
}

/** A change source answering for GitHub projects through the API and for the others through `git`. */
export function routingChangeSource(
  github: ReadonlyMap<string, GitHubConnection>,
  projects: GitProjects,
  git: ChangeSource,
): ChangeSource {
  const source = new GitHubChangeSource(github, projects);
  const pick = (project: string): ChangeSource => {
    const connection = projects.locate(project)?.connection;
    return connection !== undefined && github.has(connection) ? source : git;
  };
  return {
    getChange: (project, number, patchset) => pick(project).getChange(project, number, patchset),
    getRef: (project, ref, oldrev, newrev) => pick(project).getRef(project, ref, oldrev, newrev),
    openChanges: (project) => pick(project).openChanges(project),
    changesDependingOn: async (change, candidates) => [
      ...(await source.changesDependingOn(
        change,
        candidates.filter((p) => pick(p) === source),
      )),
      ...(await git.changesDependingOn(
        change,
        candidates.filter((p) => pick(p) === git),
      )),
    ],
  };
}

/** Speculative merges stay with git; a GitHub change is merged into its branch through the API. */
export function routingMerger(
  github: ReadonlyMap<string, GitHubConnection>,
  projects: GitProjects,
  git: MergerGateway,
): MergerGateway {
  return {
    prepare: (items) => git.prepare(items),
    mergeToBranch: async (item) => {
      const location = projects.locate(item.project);
      const connection = location ? github.get(location.connection) : undefined;
      if (!connection || !location || item.number === null) {
        return git.mergeToBranch(item);
      }
      const outcome = await mergePullRequest(connection, location.name, item.number, item.patchset, item.mergeMode);
      return outcome.merged ? { merged: true, oldrev: null, newrev: outcome.newrev } : outcome;
    },
  };
}

export function githubReporter(
  github: ReadonlyMap<string, GitHubConnection>,
  config: ServiceConfig,
  database: Database,
  now: () => Date,
  logger: Logger,
): ChangeReporter {
  const base = (config.api.publicUrl ?? '').replace(/\/+$/, '');
  const reporter = new GitHubReporter(
    github,
    (tenant, uuid) => `${base}/t/${tenant}/buildset/${uuid}`,
    new GitHubCheckRunRepository(database.knex),
    now,
    {
      delaysMs: REPORT_RETRY_DELAYS_MS,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      onRetry: (err, attempt, waitMs) =>
        logger.info({ err: err.message, attempt, waitMs }, 'GitHub report failed, trying again'),
    },
    (message) => logger.warn(message),
  );
  return {
    report: (report, trx) =>
      reporter.report(report, trx).catch((err: unknown) => {
        logger.warn({ err, pipeline: report.pipeline, change: report.change.url }, 'GitHub report failed');
      }),
  };
}

export interface ConnectionEventProcessor {
  wake(): void;
  start(): void;
  stop(): Promise<void>;
  /** Resolves when no stored delivery waits (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * Turns stored deliveries into trigger events for every tenant that has the repository, one at a
 * time and in the order they were stored, exactly once: the delivery's row is locked, its trigger
 * events are written and it is marked processed in one transaction, so neither a second scheduler
 * process nor a crash can make its events twice (docs/github.md#webhooks). The GitHub API calls
 * a delivery needs (a pull request's base branch) run while the row is locked.
 */
export function connectionEventProcessor(options: {
  database: Database;
  github: ReadonlyMap<string, GitHubConnection>;
  tenantsOf: (canonicalName: string) => string[];
  /** The branches a tenant loaded of a project when it loads protected branches only (else undefined). */
  protectedBranchesOf: (tenant: string, canonicalName: string) => readonly string[] | undefined;
  /** Write a trigger event in the delivery's transaction; the scheduler is woken after the commit. */
  record: (tenant: string, event: TriggerEvent, trx: Knex) => Promise<void>;
  wake: (tenant: string) => void;
  now: () => Date;
  logger: Logger;
}): ConnectionEventProcessor {
  const events = new ConnectionEventRepository(options.database.knex);
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let refresher: NodeJS.Timeout | null = null;
  let stopped = false;

  const processOne = async (row: ConnectionEventRow, trx: Knex, woken: Set<string>): Promise<string> => {
    const connection = options.github.get(row.connection);
    if (!connection) {
      return `no GitHub connection ${row.connection}`;
    }
    const triggers = await triggersOf(connection, row.eventType, row.payload, options.now().toISOString());
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

  /** Process the oldest waiting delivery; false when none waits. */
  const processNext = async (): Promise<boolean> => {
    const woken = new Set<string>();
    const found = await options.database.knex.transaction(async (trx) => {
      const row = await events.lockOldestPending(trx);
      if (row === null) {
        return false;
      }
      const outcome = await processOne(row, trx, woken);
      await events.markProcessed(row.id, outcome, options.now(), trx);
      return true;
    });
    woken.forEach((tenant) => options.wake(tenant));
    return found;
  };

  const drain = async (): Promise<void> => {
    do {
      again = false;
      try {
        while (!stopped && (await processNext())) {
          // one delivery per transaction
        }
      } catch (err) {
        // The API may be down (the transaction rolled back): the delivery waits for the next round.
        options.logger.warn({ err }, 'webhook delivery not processed yet');
        return;
      }
    } while (again && !stopped);
  };

  const wake = (): void => {
    if (stopped) {
      return;
    }
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err: unknown) => options.logger.error({ err }, 'webhook processing failed'))
      .finally(() => {
        running = null;
      });
  };

  return {
    wake,
    start: () => {
      if (options.github.size === 0) {
        return;
      }
      wake();
      timer = setInterval(wake, PROCESS_INTERVAL_MS);
      refresher = setInterval(() => {
        for (const connection of options.github.values()) {
          void connection.client
            .refreshTokens()
            .catch((err: unknown) => options.logger.warn({ err }, 'GitHub token refresh failed'));
        }
      }, TOKEN_REFRESH_INTERVAL_MS);
    },
    stop: async () => {
      stopped = true;
      if (timer) {
        clearInterval(timer);
      }
      if (refresher) {
        clearInterval(refresher);
      }
      await running;
    },
    idle: async () => {
      while (running || (await events.anyPending())) {
        wake();
        await running;
      }
    },
  };
}
