/**
 * One poller per Gerrit connection among the scheduler processes (docs/gerrit.md#events-by-polling):
 * a poll first takes or renews a lease in `scheduler_leases` (src/store/repositories/scheduler-leases.ts,
 * the table whose rows name who leads a tenant; a poll's key is `<what>@gerrit:<connection>`, so
 * only a tenant of exactly that name would share its row). The process holding it polls;
 * the others skip their turn until it runs out (the holder stopped or died), as the reference
 * elects one poller per connection. Times are the database's.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import { SchedulerLeaseRepository } from '../../store/repositories/scheduler-leases';

export class PollLease {
  /** Host, process and this poller, as the lease row shows it. */
  readonly holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly leases: SchedulerLeaseRepository;
  private epoch: number | null = null;

  /**
   * @param key what is polled and the connection, e.g. `events@gerrit:review`
   * @param ttlMs how long the lease lasts unrenewed: longer than one interval plus a poll
   */
  constructor(
    knex: Knex,
    readonly key: string,
    private readonly ttlMs: number,
  ) {
    this.leases = new SchedulerLeaseRepository(knex);
  }

  /** Take or renew the lease; false when another process holds it (then this one does not poll). */
  async hold(): Promise<boolean> {
    this.epoch = await this.leases.acquire(this.key, this.holder, this.ttlMs);
    return this.epoch !== null;
  }

  /** Give the lease up (on stop), so another process polls at its next turn. */
  async release(): Promise<void> {
    if (this.epoch !== null) {
      const epoch = this.epoch;
      this.epoch = null;
      await this.leases.release(this.key, this.holder, epoch);
    }
  }
}

/** The lease's duration for a poll every `intervalMs`: two intervals and a minute (a slow poll keeps it). */
export function pollLeaseTtl(intervalMs: number): number {
  return 2 * intervalMs + 60_000;
}
