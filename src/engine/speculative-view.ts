/**
 * The engine's view of a speculative layout (docs/gating.md#speculative-layouts): the errors an item
 * is blamed for, as report text, and freezing with the proposed configuration, where a job the
 * proposal changes matches the change's files when it says `match-on-config-updates`. As in the
 * reference, the job is compared with the same job frozen with the layout of the item ahead (the
 * live layout for the item at the head), so a job an item ahead changed is not changed again for
 * the items behind it.
 */
import type { FreezeRequest, FrozenJob } from '../config/freeze';
import { freezeJobGraph } from '../config/freeze';
import type { Layout } from '../config/layout';
import type { SpeculativeBuild } from '../config/speculative-layouts';
import type { FreezeOutcome, SpeculativeLayout } from './ports/layout';

export function speculativeView(
  /** The layout of the item ahead (the live one when none is ahead). */
  before: Layout,
  build: SpeculativeBuild,
  freeze: (layout: Layout, request: FreezeRequest) => FreezeOutcome,
): SpeculativeLayout {
  return {
    errors: build.errors.map((error) => error.error),
    warnings: build.warnings.map((error) => error.error),
    freezeJobGraph(pipeline, project, branch, files, options = {}) {
      const { imageNames, ref } = options;
      const request: FreezeRequest = { pipeline, project, branch, files, imageNames, ref };
      if (build.layout === before) {
        return freeze(build.layout, request);
      }
      let jobsBefore: ReadonlyMap<string, string> | undefined;
      const updatesJobConfig = (job: FrozenJob): boolean => {
        // The same job as the layout ahead freezes it, file matchers not evaluated.
        jobsBefore ??= frozenJobs(before, { pipeline, project, branch, imageNames, ref });
        const old = jobsBefore.get(job.name);
        return old === undefined || old !== configOf(job);
      };
      return freeze(build.layout, { ...request, updatesJobConfig });
    },
  };
}

function frozenJobs(layout: Layout, request: FreezeRequest): ReadonlyMap<string, string> {
  const result = freezeJobGraph(layout, request);
  const jobs = result.status === 'ok' || result.status === 'error' ? result.jobs : [];
  return new Map(jobs.map((job) => [job.name, configOf(job)]));
}

/** A frozen job's configuration, without whether it matched the change. */
function configOf(job: FrozenJob): string {
  return JSON.stringify({ ...job, matchesChange: undefined });
}
