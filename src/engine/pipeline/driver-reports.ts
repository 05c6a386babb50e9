/**
 * Handing an item's report in one phase to the code-review drivers' reporters through the
 * `ChangeReporter` port (docs/github.md#reporters), after the pass commits.
 */
import type { ItemState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import type { ReporterPhase } from '../ports/layout';
import type { ManagedPipeline } from './types';

export function reportToDrivers(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  item: ItemState,
  phase: ReporterPhase,
  message: string,
  result: string | null,
): void {
  const reporter = ctx.gateways.reporter;
  const reporters = pipeline.config.reporters[phase].external ?? [];
  if (!reporter || reporters.length === 0 || !item.live || item.quiet) {
    return;
  }
  const report = {
    tenant: ctx.tenant,
    pipeline: pipeline.name,
    phase,
    change: item.changes[item.changes.length - 1],
    buildsetUuid: item.buildset.uuid,
    message,
    result,
    jobs: item.buildset.jobs.map((job) => ({
      name: job.job.name,
      result: job.build?.result ?? null,
      voting: job.job.voting,
    })),
    reporters,
  };
  ctx.after(() => reporter.report(report));
}
