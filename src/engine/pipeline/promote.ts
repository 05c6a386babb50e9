/**
 * Promote (docs/gating.md#leaving-a-pipeline): the listed items move to the head of their queue in the given
 * order; live items from the first difference on are canceled and re-added quietly with their
 * original enqueue time. Where the manager does not reorder items, only the queue order changes.
 * An item whose merge into its branch is out keeps its place at the head, with its buildset: the
 * promoted items line up behind it (docs/gating.md#items-being-merged).
 */
import type { ItemState, QueueState } from '../../model/pipeline-state';
import { isMergingIntoBranch } from '../item-predicates';
import type { PassContext } from '../pass-context';
import { resetItem } from './leaving';
import type { ManagedPipeline } from './types';

/** Promote the items; returns how many had a build running (restarted). */
export async function promote(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  items: Array<{ queue: QueueState; item: ItemState }>,
): Promise<number> {
  let restarted = 0;
  const queues = [...new Set(items.map((entry) => entry.queue))];
  for (const queue of [...queues].reverse()) {
    pipeline.state.queues = [queue, ...pipeline.state.queues.filter((candidate) => candidate !== queue)];
  }
  if (!pipeline.strategy.promoteReordersItems) {
    return 0;
  }
  for (const queue of queues) {
    const merging = queue.items.filter(isMergingIntoBranch);
    const promoted = items
      .filter((entry) => entry.queue === queue && !merging.includes(entry.item))
      .map((entry) => entry.item);
    const rest = queue.items.filter((item) => !promoted.includes(item) && !merging.includes(item));
    const desired = [...merging, ...promoted, ...rest];
    let firstDifference = 0;
    while (firstDifference < desired.length && desired[firstDifference] === queue.items[firstDifference]) {
      firstDifference += 1;
    }
    const moved = desired.slice(firstDifference);
    for (const item of moved) {
      if (item.buildset.jobs.some((job) => job.build !== null && job.build.result === null)) {
        restarted += 1;
      }
      await resetItem(ctx, item, { kind: 'promoted', by: null });
    }
    queue.items = desired;
    // Items before the first difference keep their place in the tree (re-parenting one would
    // reset it for nothing); the moved ones line up behind them.
    for (const [index, item] of queue.items.entries()) {
      if (index < firstDifference) {
        continue;
      }
      const itemAhead = index === 0 ? null : queue.items[index - 1].uuid;
      if (item.itemAhead !== itemAhead) {
        item.itemAhead = itemAhead;
        ctx.publish({ type: 'item-moved', pipeline: pipeline.name, queue: queue.name, itemUuid: item.uuid, itemAhead });
      }
      if (moved.includes(item)) {
        item.quiet = true;
      }
    }
  }
  return restarted;
}
