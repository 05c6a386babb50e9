/**
 * Handing an item's report in one phase to the code-review drivers' reporters through the
 * `ChangeReporter` port (docs/github.md#reporters), as engine work done after the pass commits;
 * the report that must precede a merge goes with the merge's work (reporting.ts).
 */
import { createHash } from 'node:crypto';
import type { BuildState, ItemState, JobState } from '../../model/pipeline-state';
import { jobsOfSameChange } from '../jobs/job-changes';
import type { PassContext } from '../pass-context';
import type { ReporterPhase } from '../ports/layout';
import type { ItemReport, ReportBuild } from '../ports/reporter';
import type { ManagedPipeline } from './types';

/**
 * The item's queue as the reference names it: a queue made for one item (independent and
 * supercedent pipelines) has no name, a shared queue the one it was given (its project's name
 * when the project names none).
 */
function queueName(pipeline: ManagedPipeline, item: ItemState): string {
  const queue = pipeline.state.queues.find((candidate) => candidate.items.includes(item));
  const dynamic = queue ? queue.dynamic : ['independent', 'supercedent'].includes(pipeline.config.manager);
  return dynamic ? '' : item.queueName;
}

/**
 * A job's uuid in the buildset's job graph (docs/reporters.md#message): the one kept with the
 * frozen job; a job frozen before Sluice kept one gets one derived from the buildset, the job's
 * name and its change (32 hex digits as well), the same in every report of the buildset.
 */
function jobUuid(buildsetUuid: string, job: JobState): string {
  if (job.uuid !== undefined) {
    return job.uuid;
  }
  return createHash('sha256')
    .update(`${buildsetUuid}\n${job.job.name}\n${job.change ?? 0}`)
    .digest('hex')
    .slice(0, 32);
}

/** A build as the notification reporters publish it. */
function reportBuild(build: BuildState): ReportBuild {
  return {
    uuid: build.uuid,
    startTime: build.startTime,
    endTime: build.endTime,
    executeTime: build.executeTime,
    logUrl: build.logUrl,
    result: build.result,
    data: build.data,
    artifacts: build.artifacts,
    events: build.events ?? [],
  };
}

/** The jobs of the item's buildset, each with its builds and the jobs of the graph it depends on. */
function reportJobs(item: ItemState): ItemReport['jobs'] {
  const uuid = (job: JobState) => jobUuid(item.buildset.uuid, job);
  return item.buildset.jobs.map((job) => {
    const sameChange = jobsOfSameChange(item, job);
    const dependencies = job.job.dependencies.flatMap(
      (dependency) => sameChange.find((candidate) => candidate.job.name === dependency.name) ?? [],
    );
    return {
      name: job.job.name,
      result: job.build?.result ?? null,
      voting: job.job.voting,
      uuid: uuid(job),
      change: job.change ?? 0,
      build: job.build && reportBuild(job.build),
      retryBuilds: job.retryBuilds.map(reportBuild),
      dependencies: dependencies.map((dependency) => dependency.job.name),
      dependencyUuids: Object.fromEntries(dependencies.map((dependency) => [dependency.job.name, uuid(dependency)])),
    };
  });
}

/** The report of an item in one phase, or null when nothing reports it. */
export function driverReport(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
  phase: ReporterPhase,
  message: string,
  result: string | null,
): ItemReport | null {
  const reporters = pipeline.config.reporters[phase].external ?? [];
  if (!ctx.gateways.reporter || reporters.length === 0 || !item.live || item.quiet) {
    return null;
  }
  return {
    tenant: ctx.tenant,
    pipeline: pipeline.name,
    phase,
    change: item.changes[item.changes.length - 1],
    ...(item.changes.length > 1 ? { otherChanges: item.changes.slice(0, -1) } : {}),
    buildsetUuid: item.buildset.uuid,
    message,
    result,
    queue: queueName(pipeline, item),
    jobs: reportJobs(item),
    item: {
      uuid: item.uuid,
      enqueueTime: item.enqueueTime,
      eventTimestamp: item.eventTimestamp,
      eventId: item.eventId,
    },
    startMessage: pipeline.config.messages.start.replaceAll('{pipeline.name}', pipeline.name),
    reporters,
  };
}

/**
 * Report after the pass commits: stored as engine work with the pass's state, made by the
 * tenant's work runner with no transaction open (docs/gating.md#engine-work).
 */
export function reportToDrivers(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
  phase: ReporterPhase,
  message: string,
  result: string | null,
): void {
  const report = driverReport(pipeline, ctx, item, phase, message, result);
  if (report) {
    ctx.requestWork({ kind: 'report', payload: { buildsetUuid: item.buildset.uuid, report } });
  }
}
