/** Autohold (docs/gating.md#autohold): a failed build's nodes are held for the most specific matching request. */
import type { BuildState, ItemState, JobState, NodeInfo } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';

/** Autohold (docs/gating.md#autohold): the most specific matching request holds the build's nodes. */
export async function autoholdMatch(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  build: BuildState,
): Promise<boolean> {
  const change = item.changes[0];
  const candidates = await ctx.autohold.candidates(ctx.tenant, change.project, job.job.name, ctx.trx);
  let best: { id: string; rank: number; reason: string; nodeExpiration: number } | null = null;
  for (const request of candidates) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(request.refFilter);
    } catch {
      continue;
    }
    if (!pattern.test(change.ref)) {
      continue;
    }
    const rank = request.refFilter === change.ref ? 3 : request.refFilter === '.*' ? 1 : 2;
    if (!best || rank >= best.rank) {
      best = { id: request.id, rank, reason: request.reason, nodeExpiration: request.nodeExpiration };
    }
  }
  if (!best) {
    return false;
  }
  const nodes: NodeInfo[] = job.nodes;
  const updated = await ctx.autohold.recordHold(
    Number(best.id),
    { build: build.uuid, nodes: nodes.map((node) => node.id) },
    ctx.now,
    ctx.trx,
  );
  if (nodes.length > 0) {
    const { reason, nodeExpiration } = best;
    ctx.after(() => ctx.gateways.nodes.holdNodes(ctx.tenant, nodes, reason, nodeExpiration));
  }
  if (updated.expired !== null) {
    await ctx.systemEvent({
      eventType: 'autohold-exhausted',
      description: `Autohold request ${updated.id} for ${updated.project} ${updated.job} held ${updated.currentCount} build(s) and is exhausted`,
      data: { requestId: updated.id },
    });
  }
  return true;
}
