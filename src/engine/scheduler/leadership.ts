/**
 * Scheduler leadership of a tenant: one process at a time runs a tenant's scheduler, holding the
 * tenant's advisory lock (src/store/repositories/engine-state.ts) for as long as it does.
 */
import type { Database } from '../../store/database';
import { EngineStateRepository, type LeadershipLock } from '../../store/repositories/engine-state';

export class TenantLeadership {
  private lock: LeadershipLock | null = null;

  constructor(
    private readonly database: Database,
    private readonly tenant: string,
    /** Told whenever this process takes or gives up the lead (the leadership metric). */
    private readonly held: (held: boolean) => void = () => undefined,
  ) {}

  /** Take the lead; false when another process holds it. */
  async acquire(): Promise<boolean> {
    this.lock = await new EngineStateRepository(this.database.knex).acquireLeadership(this.tenant, this.database.kind);
    this.held(this.lock !== null);
    return this.lock !== null;
  }

  async release(): Promise<void> {
    const lock = this.lock;
    this.lock = null;
    this.held(false);
    await lock?.release();
  }
}
