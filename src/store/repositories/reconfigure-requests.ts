/**
 * Reconfiguration requests: `management` events of type `reconfigure` (written by `sluice
 * reconfigure`, later by an admin mutation) and claimed by the process that holds the layouts.
 * The events live in `engine_events`, whose repository does the work.
 */
import type { Knex } from 'knex';
import { EngineEventRepository, type ReconfigureRequest } from './engine-events';

export class ReconfigureRequestRepository {
  private readonly events: EngineEventRepository;

  constructor(knex: Knex) {
    this.events = new EngineEventRepository(knex);
  }

  /** Queue a request for one tenant or (no tenant) all tenants, or (smart) the tenants whose entry changed. */
  request(tenant: string | undefined, at: Date, smart = false): Promise<number> {
    return this.events.requestReconfigure(tenant, at, smart);
  }

  /** Claim every pending request; concurrent processes never take the same one. */
  claimPending(at: Date): Promise<ReconfigureRequest[]> {
    return this.events.claimReconfigureRequests(at);
  }
}
