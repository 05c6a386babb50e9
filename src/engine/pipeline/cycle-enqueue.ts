/**
 * The checks a dependency cycle goes through before it enters a pipeline as one item
 * (docs/gating.md#dependency-cycles): which pipelines look for cycles, each member's
 * connection, and, in pipelines with shared queues, each member's queue.
 */
import { changeId, type ChangeInfo } from '../../model/changes';
import type { QueueState } from '../../model/pipeline-state';
import { CYCLE_GRAPH_LIMIT, describeCycle, findCycle } from '../cycles';
import type { PassContext } from '../pass-context';
import { foreignConnection } from '../requirements';
import { heldInAnotherQueue } from '../queue-index';
import { wouldShareQueue } from './queues';
import type { ManagedPipeline } from './types';

/**
 * The cycle a change enters with (`[change]` when none). Supercedent pipelines and pipelines that
 * ignore dependencies never see a cycle, as in the reference.
 */
export async function changeCycle(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
): Promise<ChangeInfo[]> {
  if (change.kind !== 'change' || pipeline.config.ignoreDependencies || pipeline.config.manager === 'supercedent') {
    return [change];
  }
  const byTopic = (project: string) => pipeline.layout.projects.get(project)?.queueDependenciesByTopic ?? false;
  return findCycle(ctx.gateways.changes, change, byTopic);
}

/** Why a member of the cycle may not enter the pipeline on its connection (null when all may). */
export function foreignMember(pipeline: ManagedPipeline, cycle: readonly ChangeInfo[]): string | null {
  for (const member of cycle) {
    const project = pipeline.layout.projects.get(member.project);
    if (!project) {
      return `Unknown project ${member.project}`;
    }
    const foreign = foreignConnection(pipeline.config, project.connection, member);
    if (foreign !== null) {
      return foreign;
    }
  }
  return null;
}

/**
 * In a pipeline with shared queues every member must land in the queue of the change (as a
 * Depends-On change must, docs/gating.md#dependencies); null when they all do. Independent
 * pipelines put the whole cycle in the change's own queue.
 */
export function memberOutsideQueue(
  pipeline: ManagedPipeline,
  queue: QueueState,
  cycle: readonly ChangeInfo[],
): string | null {
  if (pipeline.config.manager === 'independent') {
    return null;
  }
  const [change, ...others] = cycle;
  for (const member of others) {
    const project = pipeline.layout.projects.get(member.project);
    const elsewhere = heldInAnotherQueue(pipeline.state.queues, queue, member);
    if (!project || elsewhere || !wouldShareQueue(queue, project, member.branch)) {
      return `Change ${changeId(member)} in project ${member.project} does not share a change queue with ${changeId(change)} in project ${change.project}`;
    }
  }
  return null;
}

/** A cycle found only by meeting a change again during the enqueue: larger than the walk looks. */
export function cycleTooLarge(cycle: readonly ChangeInfo[]): string {
  return `Dependency cycle detected (cycle: ${describeCycle(cycle)}); a cycle is looked for among at most ${CYCLE_GRAPH_LIMIT} changes`;
}
