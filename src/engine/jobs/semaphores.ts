/**
 * The semaphores of a job (docs/gating.md#jobs-inside-an-item): claimed before nodes or before the build, released when
 * it ends.
 */
import type { ItemState, JobState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';

function semaphoreClaims(
  ctx: PassContext,
  job: JobState,
  resourcesFirst: boolean,
): Array<{ name: string; max: number; global: boolean }> {
  return job.job.semaphores
    .filter((semaphore) => semaphore.resourcesFirst === resourcesFirst)
    .map((semaphore) => {
      const defined = ctx.layout.semaphores.get(semaphore.name);
      return { name: semaphore.name, max: defined?.max ?? 1, global: defined?.global ?? false };
    });
}

export async function acquireSemaphores(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  resourcesFirst: boolean,
): Promise<string[]> {
  const claims = semaphoreClaims(ctx, job, resourcesFirst);
  if (claims.length === 0) {
    return [];
  }
  const unavailable = await ctx.semaphores.acquireAll(
    ctx.tenant,
    { buildsetUuid: item.buildset.uuid, jobName: job.job.name },
    claims,
    ctx.now,
    ctx.trx,
  );
  if (unavailable.length === 0) {
    const names = claims.map((claim) => claim.name);
    job.semaphoresHeld = [...new Set([...job.semaphoresHeld, ...names])];
  }
  return unavailable;
}

export async function releaseSemaphores(ctx: PassContext, item: ItemState, job: JobState): Promise<void> {
  if (job.semaphoresHeld.length === 0) {
    return;
  }
  await ctx.semaphores.releaseAll(ctx.tenant, { buildsetUuid: item.buildset.uuid, jobName: job.job.name }, ctx.trx);
  job.semaphoresHeld = [];
  ctx.semaphoreReleased = true;
}
