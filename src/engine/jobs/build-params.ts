/** What the engine sends about a job: its node request and its build parameters. */
import type { ItemState, JobState } from '../../model/pipeline-state';
import type { BuildParams } from '../ports/executor';
import type { EnginePipeline } from '../ports/layout';
import type { NodeRequest } from '../ports/nodes';
import { isPaused } from './build-records';
import { changeOfJob, jobsOfSameChange } from './job-changes';

const PRECEDENCE: Record<EnginePipeline['precedence'], number> = { high: 100, normal: 200, low: 300 };

/** The precedence number of a pipeline (lower runs sooner). */
export function precedenceOf(pipeline: EnginePipeline): number {
  return PRECEDENCE[pipeline.precedence];
}

function transitiveDependencies(item: ItemState, job: JobState): JobState[] {
  const byName = new Map(jobsOfSameChange(item, job).map((candidate) => [candidate.job.name, candidate]));
  const result: JobState[] = [];
  const seen = new Set<string>();
  const stack = [...job.job.dependencies];
  while (stack.length > 0) {
    const dependency = stack.pop();
    if (!dependency || seen.has(dependency.name)) {
      continue;
    }
    seen.add(dependency.name);
    const found = byName.get(dependency.name);
    if (found) {
      result.push(found);
      stack.push(...found.job.dependencies);
    }
  }
  return result;
}

/**
 * A job's node request (docs/gating.md#build-completion): its nodeset alternatives in order, the pipeline
 * precedence as priority, and the item's project, by which the launcher ranks requests of one
 * project behind each other (relative priority).
 */
export function nodeRequest(
  tenant: string,
  pipeline: EnginePipeline,
  item: ItemState,
  job: JobState,
  requestId: string,
): NodeRequest {
  const labels = job.job.nodeset.labels;
  const alternatives = job.job.nodeset.alternatives;
  // Children of a paused parent go first: the parent holds its nodes until they are done.
  const parentPaused = job.job.dependencies.some((dependency) =>
    isPaused(jobsOfSameChange(item, job).find((candidate) => candidate.job.name === dependency.name)?.build ?? null),
  );
  return {
    id: requestId,
    tenant,
    pipeline: pipeline.name,
    buildsetUuid: item.buildset.uuid,
    jobName: job.job.name,
    labels,
    priority: Math.max(precedenceOf(pipeline) - (parentPaused ? 1 : 0), 0),
    alternatives: alternatives && alternatives.length > 0 ? alternatives : [labels],
    project: item.changes.length > 0 ? changeOfJob(item, job).project : null,
    eventId: item.eventId,
    imageNames: item.imageNames ?? null,
    imageUploadUuid: item.imageUploadUuid ?? null,
  };
}

/** Everything the executor needs for a job's current build. */
export function buildParams(tenant: string, pipeline: EnginePipeline, item: ItemState, job: JobState): BuildParams {
  const parentData: Record<string, unknown> = {};
  const artifacts = [...job.artifacts];
  for (const dependency of transitiveDependencies(item, job).reverse()) {
    const data = { ...(dependency.build?.data ?? {}) };
    delete data.zuul;
    Object.assign(parentData, data);
    for (const artifact of dependency.build?.artifacts ?? []) {
      const change = changeOfJob(item, dependency);
      artifacts.push({
        name: artifact.name,
        url: artifact.url,
        project: change.project,
        change: change.number,
        patchset: change.patchset,
        job: dependency.job.name,
        metadata: artifact.metadata,
      });
    }
  }
  return {
    tenant,
    pipeline: pipeline.name,
    buildUuid: job.build?.uuid ?? '',
    buildsetUuid: item.buildset.uuid,
    itemUuid: item.uuid,
    job: job.job,
    attempt: job.tries,
    precedence: precedenceOf(pipeline),
    // The job's own change first: the executor's `zuul.change` (a cycle's item holds several).
    changes: ownChangeFirst(item, job),
    mergeItems: item.buildset.mergeItems,
    repoState: item.buildset.repoState ?? null,
    parentData,
    artifacts,
    nodes: job.nodes,
    timeout: job.job.timeout,
    childJobs: jobsOfSameChange(item, job)
      .filter((other) => other.job.dependencies.some((dependency) => dependency.name === job.job.name))
      .map((other) => other.job.name),
    eventId: item.eventId,
    postReview: pipeline.postReview ?? false,
  };
}

function ownChangeFirst(item: ItemState, job: JobState): ItemState['changes'] {
  const own = job.change ?? 0;
  if (own === 0) {
    return item.changes;
  }
  return [item.changes[own], ...item.changes.filter((_change, index) => index !== own)];
}
