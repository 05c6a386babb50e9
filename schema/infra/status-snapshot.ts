/**
 * A tenant status snapshot with the delta sequence it is consistent with. The sequence is read
 * before the status: the status may already include a few later deltas, which is harmless
 * because applying a delta (replacing the queue it touched) is idempotent.
 */
import { EngineStateRepository } from '../../src/store/repositories/engine-state';
import type { TenantStatus } from '../../src/engine/status';
import type { Services } from './context';

export interface StatusSnapshot {
  status: TenantStatus;
  /** Every delta with a higher sequence may not be reflected yet. */
  sequence: number;
}

/** Load the status of a tenant now; null when the engine does not know the tenant. */
export async function loadStatusSnapshot(services: Services, tenant: string): Promise<StatusSnapshot | null> {
  const engine = services.engine;
  if (!engine) {
    return null;
  }
  const record = await new EngineStateRepository(services.knex).loadTenant(tenant);
  const status = await engine.status(tenant);
  return status === null ? null : { status, sequence: record.busSequence };
}

/** The snapshot restricted to one pipeline (all pipelines when `pipeline` is null). */
export function restrictToPipeline(snapshot: StatusSnapshot, pipeline: string | null | undefined): StatusSnapshot {
  if (!pipeline) {
    return snapshot;
  }
  return {
    ...snapshot,
    status: {
      ...snapshot.status,
      pipelines: snapshot.status.pipelines.filter((candidate) => candidate.name === pipeline),
    },
  };
}
