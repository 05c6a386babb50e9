/**
 * Gate resets as history (docs/analytics.md#gate-resets): each item reset in a pass is recorded
 * in that pass's transaction with its cause, for the analytics of resets and their causes.
 */
import type { GateResetCause } from '../../model/gate-resets';
import type { ItemState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';

/** Record the reset of an item that holds anything computed on its old state (a configured buildset). */
export async function recordGateReset(ctx: PassContext, item: ItemState, cause: GateResetCause): Promise<void> {
  if (!item.buildset.configured) {
    return;
  }
  await ctx.history.recordGateReset({
    tenant: ctx.tenant,
    pipeline: item.pipeline,
    project: item.changes[0]?.project ?? '',
    itemUuid: item.uuid,
    cause: cause.kind,
    causedBy: cause.by,
    at: ctx.now,
  });
}
