/**
 * The GitHub driver's part of the gating roles (docs/github.md#status): its connections,
 * the change source, merger and reporter that route a project's work to its connection's
 * driver, and the processing of stored webhook deliveries into trigger events.
 */
import type { ServiceConfig } from '../config/service';
import type { ChangeSource } from '../engine/ports/change-source';
import type { MergerGateway } from '../engine/ports/merger';
import type { ChangeReporter } from '../engine/ports/reporter';
import type { TriggerEvent } from '../model/engine-events';
import type { GitProjects } from '../sources/git-change-source';
import { GitHubChangeSource } from '../sources/github/change-source';
import { GitHubConnection } from '../sources/github/connection';
import { GitHubReporter, mergePullRequest } from '../sources/github/reporter';
import { REPORT_RETRY_DELAYS_MS } from '../sources/github/retry';
import { triggersOf } from '../sources/github/webhook-events';
import type { Database } from '../store/database';
import { ConnectionEventRepository } from '../store/repositories/connection-events';
import { GitHubCheckRunRepository } from '../store/repositories/github-check-runs';
import type { Logger } from './logger';

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
 * Turns stored deliveries into trigger events for every tenant that has the repository, in
 * the order they were stored; a delivery is marked processed only after its events are
 * recorded, so a crash re-processes it (at least once; trigger events are idempotent enough:
 * an item already in a pipeline is not enqueued twice).
 */
export function connectionEventProcessor(options: {
  database: Database;
  github: ReadonlyMap<string, GitHubConnection>;
  tenantsOf: (canonicalName: string) => string[];
  /** The branches a tenant loaded of a project when it loads protected branches only (else undefined). */
  protectedBranchesOf: (tenant: string, canonicalName: string) => readonly string[] | undefined;
  submit: (tenant: string, event: TriggerEvent) => Promise<void>;
  now: () => Date;
  logger: Logger;
}): ConnectionEventProcessor {
  const events = new ConnectionEventRepository(options.database.knex);
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let refresher: NodeJS.Timeout | null = null;
  let stopped = false;

  const processOne = async (row: Awaited<ReturnType<ConnectionEventRepository['pending']>>[number]) => {
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
        await options.submit(tenant, { ...trigger, project: canonical });
        submitted += 1;
      }
    }
    if (triggers.length === 0) {
      return 'ignored';
    }
    return excluded.length === 0 ? `submitted ${submitted}` : `submitted ${submitted}; ${excluded.join('; ')}`;
  };

  const drain = async (): Promise<void> => {
    do {
      again = false;
      for (let batch = await events.pending(); batch.length > 0 && !stopped; batch = await events.pending()) {
        for (const row of batch) {
          let outcome: string;
          try {
            outcome = await processOne(row);
          } catch (err) {
            // The API may be down: leave the delivery for the next round.
            options.logger.warn({ err, delivery: row.delivery }, 'webhook delivery not processed yet');
            return;
          }
          await events.markProcessed(row.id, outcome, options.now());
        }
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
      while (running || (await events.pending(1)).length > 0) {
        wake();
        await running;
      }
    },
  };
}
