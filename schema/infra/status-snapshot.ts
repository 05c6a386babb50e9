/**
 * A tenant status snapshot with the delta sequence it reflects: both are read in one
 * transaction, so applying the deltas with a higher sequence gives the status exactly
 * (docs/live.md#building-a-live-view).
 */
import type { TenantStatus } from '../../src/engine/status';
import { EngineStateRepository } from '../../src/store/repositories/engine-state';
import type { Services } from './context';

export interface StatusSnapshot {
  status: TenantStatus;
  /** The sequence of the last delta the status reflects. */
  sequence: number;
  /** When it was computed (epoch ms): its job times are as of this instant. */
  producedAt: number;
}

/** Load the status of a tenant now; null when the engine does not know the tenant. */
export function loadStatusSnapshot(services: Services, tenant: string): Promise<StatusSnapshot | null> {
  return services.engine ? services.engine.statusSnapshot(tenant) : Promise.resolve(null);
}

/** How old a shared snapshot may get while the tenant does not change (event counters, job times). */
export const SHARED_STATUS_MAX_AGE_MS = 1000;

interface SharedEntry {
  /** The tenant's engine record as read (its sequence, event-queue state, reconfiguration time). */
  version: string;
  loadedAt: number;
  snapshot: Promise<StatusSnapshot | null>;
}

const sharedSnapshots = new WeakMap<Services, Map<string, SharedEntry>>();

/**
 * The status of a tenant computed once for every reader of this process while the tenant's
 * engine record (committed delta sequence, event-queue state, last reconfiguration) stays the
 * same, for at most `SHARED_STATUS_MAX_AGE_MS` by the services' clock (docs/live.md#status-computation): one cheap read
 * of that record per call, one computation per change. Changes committed before the call are
 * always in the answer; only the pending-event counters and the job times may be that old.
 */
export async function sharedStatusSnapshot(services: Services, tenant: string): Promise<StatusSnapshot | null> {
  let byTenant = sharedSnapshots.get(services);
  if (!byTenant) {
    byTenant = new Map();
    sharedSnapshots.set(services, byTenant);
  }
  const record = await new EngineStateRepository(services.knex).loadTenant(tenant);
  const version = JSON.stringify([record.busSequence, record.eventQueues, record.lastReconfigured]);
  const now = services.now().getTime();
  const cached = byTenant.get(tenant);
  if (cached && cached.version === version && now - cached.loadedAt < SHARED_STATUS_MAX_AGE_MS) {
    return cached.snapshot;
  }
  const snapshot = loadStatusSnapshot(services, tenant);
  const entry: SharedEntry = { version, loadedAt: now, snapshot };
  byTenant.set(tenant, entry);
  snapshot.catch(() => {
    if (byTenant?.get(tenant) === entry) {
      byTenant.delete(tenant);
    }
  });
  return snapshot;
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
