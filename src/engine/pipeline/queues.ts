/** Change queues of a pipeline: which queue serves a project, and new queues (docs/gating.md#managers). */
import type { ItemState, QueueState, WindowParams } from '../../model/pipeline-state';
import type { EngineProject } from '../ports/layout';
import type { ManagedPipeline } from './types';

/** Whether the queue serves the project (on the branch, when the queue is per branch). */
export function queueServes(queue: QueueState, project: EngineProject, branch: string | null): boolean {
  return queue.projects.includes(project.canonicalName) && (queue.branch === null || queue.branch === branch);
}

/** Whether a change of this project would land in `queue` (it serves the project, or it is the project's named queue). */
export function wouldShareQueue(queue: QueueState, project: EngineProject, branch: string | null): boolean {
  if (queueServes(queue, project, branch)) {
    return true;
  }
  return (
    project.queueName !== null && project.queueName === queue.name && (queue.branch === null || queue.branch === branch)
  );
}

/** A new, empty queue (not yet part of the pipeline). */
export function newQueue(
  name: string,
  branch: string | null,
  projects: string[],
  dynamic: boolean,
  window: number,
  params: WindowParams,
): QueueState {
  return { id: 0, name, branch, projects, dynamic, window, params, items: [] };
}

/**
 * Shared queues (dependent and serial pipelines): the queue serving the project, else the
 * project's named queue (per branch when the queue says so), else a new queue of its own.
 */
export function sharedChangeQueue(
  pipeline: ManagedPipeline,
  project: EngineProject,
  branch: string | null,
  window: number,
  params: WindowParams,
): QueueState {
  const existing = pipeline.state.queues.find((queue) => queueServes(queue, project, branch));
  if (existing) {
    return existing;
  }
  if (project.queueName !== null) {
    const queueBranch = project.queuePerBranch ? branch : null;
    const named = pipeline.state.queues.find(
      (queue) => queue.name === project.queueName && queue.branch === queueBranch,
    );
    if (named) {
      named.projects.push(project.canonicalName);
      return named;
    }
    return newQueue(project.queueName, queueBranch, [project.canonicalName], false, window, params);
  }
  return newQueue(project.name, null, [project.canonicalName], false, window, params);
}

/** The window parameters of a queue that holds one active item at a time. */
export function singleItemWindow(params: WindowParams): WindowParams {
  return { ...params, window: 1, floor: 1, ceiling: 1 };
}

/** Every live and non-live item of the pipeline, queue by queue. */
export function allItems(pipeline: ManagedPipeline): Array<{ queue: QueueState; item: ItemState }> {
  return pipeline.state.queues.flatMap((queue) => queue.items.map((item) => ({ queue, item })));
}
