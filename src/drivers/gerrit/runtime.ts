/**
 * The Gerrit driver's part of the gating roles (docs/gerrit.md): the event streams, the poll of
 * the pending checks and the intake that turns stored events into trigger events, the change
 * source, the reporter (votes and review messages) and the merge of a change through Gerrit's submit.
 */
import { postReview, REVIEW_RETRY_DELAYS_MS, type ReviewRetryOptions } from './review-posting';
import type { Knex } from 'knex';
import { sleepOn, systemClock } from '../../engine/ports/clock';
import { sendFailure, throwIfNotSent, type ChangeReporter, type ItemReport } from '../../engine/ports/reporter';
import type { TriggerEvent } from '../../model/engine-events';
import type { GitProjects } from '../../sources/git-projects';
import { ConnectionEventRepository, type ConnectionEventRow } from '../../store/repositories/connection-events';
import { connectionEventIntake, type ConnectionEventIntake } from '../connection-event-intake';
import type { DriverContext, DriverLog, DriverRuntime } from '../driver';
import { catchUp } from './catch-up';
import { EventsLog } from './events-log';
import type { PeriodicTask } from '../../engine/ports/periodic-task';
import { eventsPoller } from './event-poll';
import { catchUpPendingChecks, PENDING_CHECKS_POLL_MS, pendingChecksPoller } from './pending-checks';
import { PollLease, pollLeaseTtl } from './poll-lease';
import { catchUpRefs } from './ref-catch-up';
import { gerritMergeRefusal, type MergeItem } from '../../model/changes';
import { GerritChangeSource, gerritState, type GerritSource } from './change-source';
import { GerritApiError, GerritClient, type CommentInput } from './client';
import { commentsOnFiles, returnedFileComments, withWarnings } from './file-comments';
import { sshKnownHostsFile } from '../../sources/git-ssh';
import { gerritGitEnv, gerritGitUrl, type GerritConnectionConfig } from './connection-schema';
import { triggerOf, type StreamEvent } from './events';
import { reporterVotes } from './rules';
import { GerritEventStream } from './stream';

/** Milliseconds between looks for stored events that became due when nothing wakes the intake. */
const PROCESS_INTERVAL_MS = 1000;

/**
 * Turns stored stream events into trigger events for every tenant that has the project, through
 * the shared intake (src/drivers/connection-event-intake.ts: one at a time, in stored order,
 * exactly once), each once it is `event_delay` old (the shortest of the connections').
 */
function gerritIntake(options: {
  knex: Knex;
  sources: ReadonlyMap<string, GerritSource & { delaySeconds: number; maxDependencies: number | null }>;
  changes: GerritChangeSource;
  tenantsOf: (canonicalName: string) => string[];
  record: (tenant: string, event: TriggerEvent, trx: Knex) => Promise<void>;
  wake: (tenant: string) => void;
  now: () => Date;
  log: DriverLog;
}): ConnectionEventIntake {
  const triggerOfRow = (row: ConnectionEventRow) => {
    const source = options.sources.get(row.connection);
    const trigger = source ? triggerOf(row.payload as StreamEvent, row.connection) : null;
    return source && trigger !== null
      ? { source, trigger, canonical: `${source.canonicalHostname}/${trigger.project}` }
      : null;
  };
  // Gerrit is asked before the row's transaction (docs/gerrit.md#events): no row stays locked while it answers.
  const prepare = async (row: ConnectionEventRow): Promise<string | null> => {
    const found = triggerOfRow(row);
    return found === null
      ? null
      : overDependencyLimit(options.changes, found.source.maxDependencies, found.canonical, found.trigger);
  };
  const processOne = async (
    row: ConnectionEventRow,
    trx: Knex,
    woken: Set<string>,
    tooMany?: string | null,
  ): Promise<string> => {
    const found = triggerOfRow(row);
    if (found === null) {
      return 'ignored';
    }
    const { trigger, canonical } = found;
    if (tooMany !== undefined && tooMany !== null) {
      return tooMany;
    }
    let submitted = 0;
    for (const tenant of options.tenantsOf(canonical)) {
      await options.record(tenant, { ...trigger, project: canonical }, trx);
      woken.add(tenant);
      submitted += 1;
    }
    return `submitted ${submitted}`;
  };
  return connectionEventIntake<string | null>({
    knex: options.knex,
    connections: [...options.sources.keys()],
    prepare,
    processOne,
    wake: options.wake,
    now: options.now,
    logger: options.log,
    delayMs: Math.min(...[...options.sources.values()].map((s) => s.delaySeconds)) * 1000,
    intervalMs: PROCESS_INTERVAL_MS,
  });
}

/**
 * The connection's `max_dependencies` (docs/gerrit.md#the-connection): an event whose change
 * needs more unmerged changes than that, transitively, is dropped, as the reference drops it
 * ("too many dependencies"); the outcome says so. Null when within the limit or unlimited.
 */
async function overDependencyLimit(
  changes: GerritChangeSource,
  limit: number | null,
  project: string,
  trigger: TriggerEvent,
): Promise<string | null> {
  if (limit === null || trigger.change === undefined || trigger.change === null) {
    return null;
  }
  const change = await changes.getChange(project, trigger.change, trigger.patchset ?? undefined);
  if (change === null || change.dependsOn.length === 0) {
    return null;
  }
  const count = await changes.countNeeded(change, limit);
  return count > limit
    ? `dropped: change ${change.number},${change.patchset} has too many dependencies (more than max_dependencies ${limit})`
    : null;
}

/** The connection and project name of a canonical project on one of these connections, or null. */
function locateOn(
  sources: ReadonlyMap<string, GerritSource>,
  projects: GitProjects,
  project: string,
): { source: GerritSource; name: string } | null {
  const location = projects.locate(project);
  const source = location ? sources.get(location.connection) : undefined;
  return location && source ? { source, name: location.name } : null;
}

/**
 * The file comments of a report (docs/gerrit.md#file-comments): those the builds returned, on the
 * files the patch set has, with the warnings of those left out; asked of Gerrit only when a build
 * returned some.
 */
async function reportComments(
  report: ItemReport,
  located: { source: GerritSource; name: string },
  log: DriverLog,
): Promise<{ comments: Record<string, CommentInput[]>; warnings: string[] }> {
  const { change } = report;
  const returned = returnedFileComments(report);
  if (Object.keys(returned.comments).length === 0 || change.number === null || change.patchset === null) {
    return returned;
  }
  try {
    const files = await located.source.client.revisionFiles(located.name, change.number, change.patchset);
    const kept = commentsOnFiles(returned.comments, files);
    return { comments: kept.comments, warnings: [...returned.warnings, ...kept.warnings] };
  } catch (err) {
    log.warn({ err, pipeline: report.pipeline, change: change.url }, 'Gerrit files of the patch set not read');
    return {
      comments: {},
      warnings: [...returned.warnings, 'File comments not sent: the files of the patch set could not be read'],
    };
  }
}

/** Votes, the report text as the review's message, `notify` and file comments, for each Gerrit reporter of the phase. */
function gerritReporter(
  sources: ReadonlyMap<string, GerritSource>,
  projects: GitProjects,
  log: DriverLog,
  retries: ReviewRetryOptions,
): ChangeReporter {
  return {
    report: async (report) => {
      const { change } = report;
      const located = locateOn(sources, projects, change.project);
      if (!located || change.kind !== 'change' || change.number === null || change.patchset === null) {
        return;
      }
      const mine = report.reporters.filter((reporter) => reporter.connection === located.source.name);
      const { comments, warnings } =
        mine.length === 0 ? { comments: {}, warnings: [] } : await reportComments(report, located, log);
      if (warnings.length > 0) {
        log.warn({ pipeline: report.pipeline, change: change.url, warnings }, 'Gerrit file comments left out');
      }
      const withComments = Object.keys(comments).length === 0 ? {} : { comments };
      const failures: string[] = [];
      for (const reporter of mine) {
        const labels = reporterVotes(reporter.options);
        const text = reporter.options.comment === false || report.message === '' ? undefined : report.message;
        const message = withWarnings(text, warnings);
        if (Object.keys(labels).length === 0 && message === undefined && withComments.comments === undefined) {
          continue;
        }
        const notify = reporter.options.notify === undefined ? {} : { notify: String(reporter.options.notify) };
        const target = { project: located.name, number: change.number, patchset: change.patchset };
        await postReview(located.source.client, target, { message, labels, ...notify, ...withComments }, retries).catch(
          (err: unknown) => {
            log.warn({ err, pipeline: report.pipeline, change: change.url }, 'Gerrit review not posted');
            failures.push(sendFailure(`Gerrit review on ${change.url ?? change.ref}`, err));
          },
        );
      }
      throwIfNotSent(failures);
    },
  };
}

export function gerritRuntime(context: DriverContext<GerritConnectionConfig>): DriverRuntime {
  const sources = new Map(
    [...context.connections].map(([name, settings]) => [
      name,
      {
        name,
        canonicalHostname: settings.canonical_hostname ?? settings.server,
        client: new GerritClient(settings),
        delaySeconds: settings.event_delay,
        maxDependencies: settings.max_dependencies ?? null,
      },
    ]),
  );
  const changes = new GerritChangeSource(sources, context.projects, context.changeOfUrl);
  const intake = gerritIntake({
    knex: context.knex,
    sources,
    changes,
    tenantsOf: (canonical) => context.projects.tenantsOf(canonical),
    record: (tenant, event, trx) => context.triggers.record(tenant, event, trx),
    wake: (tenant) => context.triggers.wake(tenant),
    now: context.now,
    log: context.log,
  });
  const connectionEvents = new ConnectionEventRepository(context.knex);
  /**
   * Catch-ups under way (one per stream opening), awaited when the streams stop, so that none
   * reads or writes the database after the service stopped; once stopping, a catch-up does no
   * further step and none starts.
   */
  const catchingUp = new Set<Promise<unknown>>();
  let stopping = false;
  const stopped = () => stopping;
  // The events-log plugin is read first where the connection allows it (docs/gerrit.md#the-events-log-plugin).
  const eventsLogs = new Map(
    [...context.connections].map(([connection, settings]) => [
      connection,
      new EventsLog(connection, (sources.get(connection) as GerritSource).client, settings.events_log, context.log),
    ]),
  );
  const streams = [...context.connections].map(
    ([connection, settings]) =>
      new GerritEventStream({
        connection,
        settings,
        knownHosts: sshKnownHostsFile(context.dataDir),
        events: connectionEvents,
        now: context.now,
        onStored: () => intake.wake(),
        onOpen: () => {
          if (stopping) {
            return;
          }
          const { client } = sources.get(connection) as GerritSource;
          const common = { connection, client, events: connectionEvents, now: context.now, log: context.log, stopped };
          const run = (eventsLogs.get(connection) as EventsLog)
            .catchUp(common)
            .then(async (logged) => {
              // The events-log holds the stream's own events (the ref updates too); else read the changes.
              let stored = logged ?? (await catchUp(common));
              if (logged === null) {
                const projects = stopping ? [] : context.projects.projectsOf(connection);
                stored += await catchUpRefs({ ...common, projects });
              }
              const filters = stopping ? [] : context.projects.triggerFiltersOf(connection);
              return stored + (await catchUpPendingChecks({ ...common, filters }));
            })
            .then((stored) => stored > 0 && !stopping && intake.wake())
            .catch((err: unknown) =>
              context.log.warn({ connection, err }, 'Gerrit events missed while no stream listened not read'),
            )
            .finally(() => catchingUp.delete(run));
          catchingUp.add(run);
        },
        log: context.log,
      }),
  );
  /** A poll of one connection, by the process holding its lease, which the stop gives up. */
  const leased = (connection: string, lease: PollLease, task: PeriodicTask, firstInMs?: number) => ({
    start: () => task.start(firstInMs),
    stop: async () => {
      await task.stop();
      await lease
        .release()
        .catch((err: unknown) => context.log.warn({ connection, err }, 'Gerrit poll lease not released'));
    },
  });
  const pollOptions = (connection: string) => ({
    connection,
    client: (sources.get(connection) as GerritSource).client,
    events: connectionEvents,
    now: context.now,
    log: context.log,
    stopped,
    onStored: () => intake.wake(),
    timers: context.timers,
  });
  // The pending checks are also polled every 30 s, as the reference polls them (docs/gerrit.md#pending-checks),
  // by one process per connection.
  const pollers = [...context.connections].map(([connection, settings]) => {
    const ttl = pollLeaseTtl(PENDING_CHECKS_POLL_MS);
    const checksLease = new PollLease(context.knex, `pending-checks@gerrit:${connection}`, ttl);
    const filters = () => context.projects.triggerFiltersOf(connection);
    const checks = leased(
      connection,
      checksLease,
      pendingChecksPoller({ ...pollOptions(connection), filters, lease: checksLease }),
    );
    if (settings.sshkey !== undefined) {
      return [checks];
    }
    // No `sshkey`: the events come by polling, the first poll at start (docs/gerrit.md#events-by-polling).
    const intervalMs = settings.poll_interval * 1000;
    const lease = new PollLease(context.knex, `events@gerrit:${connection}`, pollLeaseTtl(intervalMs));
    const projects = () => context.projects.projectsOf(connection);
    return [
      checks,
      leased(
        connection,
        lease,
        eventsPoller({
          ...pollOptions(connection),
          lease,
          intervalMs,
          projects,
          eventsLog: eventsLogs.get(connection),
        }),
        0,
      ),
    ];
  });
  /**
   * Whether Gerrit would submit the change now (docs/gerrit.md#submit-requirements): its
   * `submittable`, with the reason read from its labels and submit requirements; null when not a
   * change of these connections, or already merged.
   */
  const submittability = async (item: MergeItem) => {
    const located = locateOn(sources, context.projects, item.project);
    if (!located || item.number === null) {
      return null;
    }
    const json = await located.source.client.change(located.name, item.number);
    if (json === null || json.status === 'MERGED' || json.submittable !== false) {
      return { located, mergeable: true as const };
    }
    const why = gerritMergeRefusal(gerritState(json), []) ?? `Gerrit says it can not be submitted (${json.status})`;
    return { located, mergeable: false as const, error: `Change ${item.number} can not be submitted: ${why}` };
  };
  return {
    changes,
    canMergeToBranch: async (item) => {
      const answer = await submittability(item);
      return answer === null
        ? null
        : answer.mergeable
          ? { mergeable: true }
          : { mergeable: false, error: answer.error };
    },
    mergeToBranch: async (item) => {
      const checked = item.branch === null ? null : await submittability(item);
      if (checked === null || item.number === null || item.branch === null) {
        return null;
      }
      if (!checked.mergeable) {
        return { merged: false, error: checked.error };
      }
      const { located } = checked;
      const { client } = located.source;
      try {
        await client.submit(located.name, item.number);
      } catch (err) {
        const merged = err instanceof GerritApiError && (await client.change(located.name, item.number))?.status;
        if (merged !== 'MERGED') {
          return { merged: false, error: (err as Error).message };
        }
      }
      return { merged: true, oldrev: null, newrev: await client.branchRevision(located.name, item.branch) };
    },
    reporter: gerritReporter(sources, context.projects, context.log, {
      delaysMs: REVIEW_RETRY_DELAYS_MS,
      sleep: sleepOn(context.timers ?? systemClock),
      now: context.now,
      onRetry: (err, attempt, waitMs) =>
        context.log.info({ err: (err as Error).message, attempt, waitMs }, 'Gerrit review failed, trying again'),
    }),
    // The executor fetches `<baseurl>/a/<project>` with the HTTP password, or over SSH (docs/gerrit.md#repositories).
    repositories: new Map(
      [...context.connections].map(([name, settings]) => [
        name,
        {
          baseurl: (project: string) => gerritGitUrl(settings, project).slice(0, -(project.length + 1)),
          canonicalHostname: settings.canonical_hostname ?? settings.server,
          gitEnv: gerritGitEnv(settings, sshKnownHostsFile(context.dataDir)),
        },
      ]),
    ),
    tasks: [
      { name: 'gerrit-events', role: 'scheduler', start: () => intake.start(), stop: () => intake.stop() },
      {
        name: 'gerrit-streams',
        role: 'scheduler',
        start: () => {
          stopping = false;
          streams.forEach((stream) => stream.start());
          pollers.flat().forEach((poller) => poller.start());
        },
        stop: async () => {
          stopping = true;
          const polls = pollers.flat().map((poller) => poller.stop());
          await Promise.all([...streams.map((stream) => stream.stop()), ...polls]);
          await Promise.all([...catchingUp]);
        },
      },
    ],
    wake: () => intake.wake(),
    idle: () => intake.idle(),
  };
}
