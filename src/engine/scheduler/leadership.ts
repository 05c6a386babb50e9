/**
 * Scheduler leadership of a tenant (docs/operations.md#leadership-model): a lease row with a
 * fencing epoch (src/store/repositories/scheduler-leases.ts). A scheduler acts for a tenant only
 * while it holds the lease: every pass proves it with `fencePass` inside the transaction that
 * writes the tenant's state, and side effects outside a transaction check that the lease cannot have
 * run out since it was last proven (`isHeld`, on this process's monotonic clock).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { TenantEventQueueState } from '../../model/pipeline-state';
import type { Database } from '../../store/database';
import { SchedulerLeaseRepository } from '../../store/repositories/scheduler-leases';

export interface LeadershipSettings {
  /** How long a lease lasts without renewal; another scheduler takes over after it runs out. */
  ttlMs: number;
  /** Renew the lease when it was last proven this long ago (default: a third of `ttlMs`). */
  renewAfterMs?: number;
  /** How often a scheduler standing by tries to take the lead (default: a third of `ttlMs`). */
  standbyRetryMs?: number;
  /**
   * Background renewals stop when the scheduler has not started a step of its loop for this long
   * (default: ten times `ttlMs`), so a scheduler stuck in one step lets the lease run out.
   */
  stalledAfterMs?: number;
  /** A monotonic clock in ms (tests). */
  monotonic?: () => number;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

/** The lease is treated as lost locally this share of its duration before it runs out in the database. */
const SAFETY_SHARE = 0.2;

/** Thrown inside a pass whose scheduler no longer leads its tenant: the transaction rolls back. */
export class LeadershipLostError extends Error {
  constructor(tenant: string, why: string) {
    super(`scheduler of tenant ${tenant} lost the lead: ${why}`);
    this.name = 'LeadershipLostError';
  }
}

export class TenantLeadership {
  /** Who holds the lease, as the `scheduler_leases` row shows it: host, process and this scheduler. */
  readonly holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly leases: SchedulerLeaseRepository;
  private readonly monotonic: () => number;
  private held: number | null = null;
  /** Until when (monotonic) the lease is certainly still ours. */
  private validUntil = 0;
  /** When (monotonic) the lease was last proven. */
  private provenAt = 0;
  /** The background renewal timer while the lease is kept (`keep`). */
  private keeper: ReturnType<typeof setInterval> | null = null;
  /** The background renewal under way. */
  private renewal: Promise<void> | null = null;
  /** When (monotonic) the scheduler last started a step of its loop (`progressed`). */
  private progressAt = 0;

  constructor(
    database: Database,
    private readonly tenant: string,
    private readonly settings: LeadershipSettings,
  ) {
    this.leases = new SchedulerLeaseRepository(database.knex);
    this.monotonic = settings.monotonic ?? (() => performance.now());
  }

  /** The epoch of the held lease (null while not leading). */
  get epoch(): number | null {
    return this.held;
  }

  get renewAfterMs(): number {
    return this.settings.renewAfterMs ?? this.settings.ttlMs / 3;
  }

  get standbyRetryMs(): number {
    return this.settings.standbyRetryMs ?? this.settings.ttlMs / 3;
  }

  get stalledAfterMs(): number {
    return this.settings.stalledAfterMs ?? this.settings.ttlMs * 10;
  }

  /**
   * Renew the held lease in the background whenever it is due, whatever the scheduler is doing
   * (loading the tenant after a takeover, reading git before a pass, side effects after one), so
   * work outside a pass's transaction that takes longer than the lease under load does not lose
   * the lead (docs/operations.md#leadership-model). Renewals stop when the scheduler has not
   * started a step for `stalledAfterMs` (`progressed`), and with `stopKeeping`.
   */
  keep(onError: (error: unknown) => void): void {
    this.progressed();
    if (this.keeper !== null) {
      return;
    }
    this.keeper = setInterval(() => this.keepTick(onError), Math.max(10, this.renewAfterMs / 2));
    this.keeper.unref?.();
  }

  /** The scheduler started a step of its loop: background renewals go on. */
  progressed(): void {
    this.progressAt = this.monotonic();
  }

  /** No more background renewals; waits for the one under way. */
  async stopKeeping(): Promise<void> {
    if (this.keeper !== null) {
      clearInterval(this.keeper);
      this.keeper = null;
    }
    await this.renewal;
  }

  /** Take the lead when the lease is free; false when another scheduler holds it. */
  async acquire(): Promise<boolean> {
    const asked = this.monotonic();
    const epoch = await this.leases.acquire(this.tenant, this.holder, this.settings.ttlMs);
    this.held = epoch;
    if (epoch !== null) {
      this.proven(asked);
    }
    return epoch !== null;
  }

  /** True while the lease is held and cannot have run out since it was last proven. */
  isHeld(): boolean {
    return this.held !== null && this.monotonic() < this.validUntil;
  }

  assertHeld(): void {
    if (!this.isHeld()) {
      throw new LeadershipLostError(this.tenant, 'the lease was not renewed in time');
    }
  }

  /**
   * Prove the lead inside `trx` (its first statement): locks the lease row until the transaction
   * ends, so nobody takes the lease meanwhile, and extends it. Throws `LeadershipLostError`
   * when the lease changed hands or ran out. `again`: `trx` proved it before and holds the row,
   * so a lease that ran out during a long transaction is still this scheduler's.
   */
  async fence(trx: Knex, again = false): Promise<void> {
    await this.prove(async (epoch) =>
      (await this.leases.renew(this.tenant, this.holder, epoch, this.settings.ttlMs, trx, again)) ? true : null,
    );
  }

  /**
   * A scheduler pass's first statement: `fence`, and in the same statement, once the lead is
   * proven, the tenant's `tenant_state` row locked until `trx` ends and its event-queue flags
   * returned (docs/operations.md#leadership-model). Throws as `fence` does, having read and
   * locked nothing of the tenant.
   */
  async fencePass(trx: Knex): Promise<TenantEventQueueState> {
    return this.prove((epoch) =>
      this.leases.renewLockingTenant(this.tenant, this.holder, epoch, this.settings.ttlMs, trx),
    );
  }

  /** Prove the held lease with `renew` (null: not proven, the lease is dropped and this throws). */
  private async prove<T>(renew: (epoch: number) => Promise<T | null>): Promise<T> {
    const epoch = this.held;
    if (epoch === null) {
      throw new LeadershipLostError(this.tenant, 'not leading');
    }
    const asked = this.monotonic();
    const proof = await renew(epoch);
    if (proof === null) {
      this.dropEpoch(epoch);
      throw new LeadershipLostError(this.tenant, `another scheduler holds the lease (epoch ${epoch} ended)`);
    }
    this.proven(asked, epoch);
    return proof;
  }

  /**
   * Prove the lead before a side effect outside the database (a merge into a branch): when a
   * pass or a renewal proved it within the last `renewAfterMs`, that proof stands (nobody can take
   * the lease before it runs out, and at least 80% of the lease minus `renewAfterMs` of it is left
   * on this process's clock); else the fencing statement on its own. Passes prove the lead in
   * their transaction, whose row lock would hold a statement here up until their commit: a busy
   * gate's merges then went one per pass (docs/operations.md#leadership-model).
   */
  async proveRecent(knex: Knex): Promise<void> {
    if (this.isHeld() && this.monotonic() - this.provenAt < this.renewAfterMs) {
      return;
    }
    await this.fence(knex, true);
  }

  /** True when the lease should be renewed outside a pass. */
  renewDue(): boolean {
    return this.held !== null && this.monotonic() - this.provenAt >= this.renewAfterMs;
  }

  /** Renew the lease; false when it changed hands (then it is dropped). Connection errors propagate. */
  async renew(): Promise<boolean> {
    const epoch = this.held;
    if (epoch === null) {
      return false;
    }
    const asked = this.monotonic();
    if (!(await this.leases.renew(this.tenant, this.holder, epoch, this.settings.ttlMs))) {
      this.dropEpoch(epoch);
      return false;
    }
    this.proven(asked, epoch);
    return true;
  }

  /** Forget the lease locally (it was lost). */
  drop(): void {
    this.held = null;
    this.validUntil = 0;
  }

  /** Forget the lease of `epoch` if it is still the one held (a renewal may end after a newer lease was taken). */
  private dropEpoch(epoch: number): void {
    if (this.held === epoch) {
      this.drop();
    }
  }

  private keepTick(onError: (error: unknown) => void): void {
    if (this.renewal !== null || !this.renewDue() || this.monotonic() - this.progressAt >= this.stalledAfterMs) {
      return;
    }
    this.renewal = this.renew()
      .then(
        () => undefined,
        (error: unknown) => {
          if (this.keeper !== null) {
            onError(error); // else no longer kept (given up, lost, or left at shutdown as the database closes)
          }
        },
      )
      .finally(() => {
        this.renewal = null;
      });
  }

  /** Give the lease up so that another scheduler takes over at once. */
  async release(): Promise<void> {
    const epoch = this.held;
    this.drop();
    await this.stopKeeping();
    if (epoch !== null) {
      await this.leases.release(this.tenant, this.holder, epoch);
    }
  }

  /** The database extended the lease at some moment after `asked`: it is ours for a lease's duration from then. */
  private proven(asked: number, epoch = this.held): void {
    if (epoch !== this.held) {
      return; // a renewal of a lease given up or replaced meanwhile
    }
    this.provenAt = asked;
    this.validUntil = asked + this.settings.ttlMs * (1 - SAFETY_SHARE);
  }
}
