/**
 * Handing an item's report in one phase to the code-review drivers' reporters through the
 * `ChangeReporter` port (docs/github.md#reporters), as engine work done after the pass commits;
 * the report that must precede a merge goes with the merge's work (reporting.ts).
 */
import type { ItemState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import type { ReporterPhase } from '../ports/layout';
import type { ItemReport } from '../ports/reporter';
import type { ManagedPipeline } from './types';

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
    jobs: item.buildset.jobs.map((job) => ({
      name: job.job.name,
      result: job.build?.result ?? null,
      voting: job.job.voting,
      build: job.build && {
        uuid: job.build.uuid,
        startTime: job.build.startTime,
        endTime: job.build.endTime,
        executeTime: job.build.executeTime,
        logUrl: job.build.logUrl,
        data: job.build.data,
        artifacts: job.build.artifacts,
      },
      dependencies: job.job.dependencies.map((dependency) => dependency.name),
    })),
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
