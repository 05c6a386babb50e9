/**
 * The tenant limits on what an enqueue may bring in (docs/gating.md#tenant-limits, docs/gating.md#enqueue steps 3 and
 * 9): `max-dependencies` bounds the changes a change depends on, `max-changes-per-pipeline` the
 * changes one pipeline holds.
 */
import type { ChangeInfo } from '../model/changes';
import type { ChangeSource } from './ports/change-source';
import { changeId } from '../model/changes';
import { type PipelineState } from '../model/pipeline-state';

/**
 * The number of distinct unmerged changes a change depends on through `Depends-On:`,
 * transitively (the change itself not counted). The walk stops once the count passes `limit`,
 * so a huge graph costs no more than `limit + 1` look-ups.
 */
export async function countDependencies(source: ChangeSource, change: ChangeInfo, limit: number): Promise<number> {
  const key = (project: string, number: number) => `${project}#${number}`;
  const seen = new Set<string>([key(change.project, change.number ?? 0)]);
  const frontier: Array<{ project: string; number: number }> = [...change.dependsOn];
  let count = 0;
  while (frontier.length > 0 && count <= limit) {
    const next = frontier.shift() as { project: string; number: number };
    if (seen.has(key(next.project, next.number))) {
      continue;
    }
    seen.add(key(next.project, next.number));
    const needed = await source.getChange(next.project, next.number);
    if (!needed || needed.merged) {
      continue;
    }
    count += 1;
    frontier.push(...needed.dependsOn);
  }
  return count;
}

/** Why a change with this many dependencies may not be enqueued (null when within the limit). */
export function tooManyDependencies(change: ChangeInfo, count: number, limit: number | null): string | null {
  if (limit === null || count <= limit) {
    return null;
  }
  return `Change ${changeId(change)} of ${change.project} depends on more than ${limit} changes (tenant max-dependencies is ${limit})`;
}

/** Changes (not items) in all queues of a pipeline, live and non-live. */
export function pipelineChangeCount(state: PipelineState): number {
  return state.queues.reduce(
    (total, queue) => total + queue.items.reduce((sum, item) => sum + item.changes.length, 0),
    0,
  );
}

/**
 * Why enqueueing `additional` more changes (the change plus those whose enqueue is in
 * progress above it) would break `max-changes-per-pipeline` (null when it would not).
 */
export function pipelineLimitExceeded(
  pipeline: string,
  state: PipelineState,
  additional: number,
  limit: number | null,
): string | null {
  if (limit === null) {
    return null;
  }
  if (additional > limit || pipelineChangeCount(state) + additional > limit) {
    return `Unable to enqueue change: pipeline ${pipeline} would hold more than ${limit} changes (tenant max-changes-per-pipeline is ${limit})`;
  }
  return null;
}
