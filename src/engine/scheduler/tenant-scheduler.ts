/**
 * The scheduler of one tenant (docs/gating.md#event-processing): while it leads the tenant
 * (docs/operations.md#leadership-model) it runs passes (src/engine/scheduler/pass.ts) whenever
 * it is woken or its poll interval passes, and tells waiters when it has nothing left to do.
 * After a failed pass it continues from the store. Without the lead it stands by and tries to
 * take it now and then; when it loses the lead it stops at once and, should it lead again,
 * starts over from the stored state.
 */
import { EngineEventRepository } from '../../store/repositories/engine-events';
import { EngineStateRepository } from '../../store/repositories/engine-state';
import { LeadershipLostError, TenantLeadership, type LeadershipSettings } from './leadership';
import { PassRunner, type PassOptions } from './pass';
import { resubmitOutstandingWork } from './recovery';
import { TenantState } from './tenant-state';
import { settledBy } from './settled-by';

/** A scheduler took or lost the lead of its tenant. */
export interface LeadershipChange {
  tenant: string;
  leading: boolean;
  /** The lease's epoch while leading; the lost one when it was lost. */
  epoch: number | null;
  reason: string;
}

export interface TenantSchedulerOptions extends Omit<
  PassOptions,
  'fence' | 'fenceAgain' | 'proveLead' | 'renewDue' | 'leading' | 'stopping' | 'leaseEpoch'
> {
  /** Poll fallback when no wake-up arrives. */
  pollIntervalMs: number;
  leadership: LeadershipSettings;
  onLeadershipChange?: (change: LeadershipChange) => void;
  warn?: (message: string) => void;
}

export class TenantScheduler {
  private readonly stateRepo: EngineStateRepository;
  private readonly events: EngineEventRepository;
  private readonly leadership: TenantLeadership;
  private readonly state: TenantState;
  private readonly passes: PassRunner;
  private leading = false;
  /** The epoch this scheduler leads with (kept for the announcement when the lead is lost). */
  private leadEpoch: number | null = null;
  private stopped = false;
  private wakeRequested = false;
  private wakeResolve: (() => void) | null = null;
  private loopPromise: Promise<void> | null = null;
  private idleWaiters: Array<() => void> = [];
  private idle = false;
  /**
   * A pass was rolled back and the state in memory may hold what it did: no pass runs until the
   * state is read again from the store (a pass on it would commit work the store never had).
   */
  private stateStale = false;

  constructor(private readonly options: TenantSchedulerOptions) {
    this.stateRepo = new EngineStateRepository(options.database.knex);
    this.events = new EngineEventRepository(options.database.knex);
    this.leadership = new TenantLeadership(options.database, options.tenant, options.leadership);
    this.state = new TenantState(this.stateRepo, options.tenant, {
      knex: options.database.knex,
      webRoot: options.webRoot ?? (() => null),
      changeUrl: options.changeUrl,
    });
    this.passes = new PassRunner(
      {
        ...options,
        fence: (trx) => this.leadership.fencePass(trx),
        fenceAgain: (trx) => this.leadership.fence(trx, true),
        proveLead: (knex) => this.leadership.proveRecent(knex),
        leading: () => this.leadership.isHeld(),
        renewDue: () => this.leadership.renewDue(),
        stopping: () => this.stopped,
        leaseEpoch: () => this.leadership.epoch,
        onWorkCompleted: () => this.wake(),
      },
      this.state,
    );
  }

  get tenant(): string {
    return this.options.tenant;
  }

  /** The lease epoch while this scheduler leads its tenant, else null. */
  get epoch(): number | null {
    return this.leading ? this.leadEpoch : null;
  }

  /** Try to take the lead, then keep running (leading or standing by); true when it leads now. */
  async start(): Promise<boolean> {
    const leading = await this.takeLead();
    if (!this.stopped) {
      this.loopPromise = this.loop();
    }
    return leading;
  }

  /**
   * Stop after the current pass and engine work call; gives the lease up. With `until` (epoch
   * ms), a pass or call still under way then is left (docs/operations.md#shutdown): its
   * transaction never commits (the database closes under it), a work row stays claimed under
   * this epoch, and the lease is kept until it runs out; the next leader takes both over.
   */
  async stop(until?: number): Promise<void> {
    this.stopped = true;
    this.wake();
    const stopping = (async () => {
      await this.loopPromise;
      await this.passes.work.stop();
    })();
    if (!(await settledBy(stopping, until))) {
      this.leading = false;
      // Not waited for: a renewal may wait for the lease row a transaction left open holds.
      void this.leadership.stopKeeping();
      this.leadership.drop();
      this.options.warn?.(
        `scheduler of tenant ${this.tenant} left its pass or engine work under way at shutdown; ` +
          'the next leader takes it over when the lease runs out',
      );
      return;
    }
    this.leading = false;
    try {
      await this.leadership.release(); // stops the background renewals first
    } catch (error) {
      // The lease runs out by itself; another scheduler takes over then.
      this.options.logger?.error(`releasing the lead of tenant ${this.tenant} failed`, error);
    }
  }

  /** Ask for a pass soon (new events). */
  wake(): void {
    this.wakeRequested = true;
    this.idle = false;
    this.wakeResolve?.();
  }

  /** Resolves once the scheduler has nothing left to do (no pending events, queues stable; or not leading). */
  whenIdle(): Promise<void> {
    if (!this.leading || (this.idle && !this.wakeRequested)) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
    });
  }

  /** True when no engine work runs (docs/gating.md#engine-work); else waits for the round under way and resolves false. */
  workSettled(): Promise<boolean> {
    return this.passes.work.settled();
  }

  isLeading(): boolean {
    return this.leading && !this.stopped;
  }

  /** Take the lease, then load the stored state and send again what may not have been sent. */
  private async takeLead(): Promise<boolean> {
    try {
      if (!(await this.leadership.acquire())) {
        return false;
      }
      // Loading the tenant can take longer than the lease under load: it is renewed meanwhile.
      this.leadership.keep((error) => this.renewalFailed(error));
      await this.stateRepo.ensureTenant(this.tenant, this.options.clock.now());
      await this.state.load();
      this.stateStale = false;
      const layout = this.options.layout();
      await this.passes.sideEffects.resume(this.leadership.epoch);
      if (layout) {
        const answered = await this.events.pendingNodeFulfilments(this.tenant);
        await resubmitOutstandingWork(this.tenant, layout, this.state.pipelines, this.options.gateways, answered);
      }
    } catch (error) {
      // The lease (if taken) stays ours until it runs out; the next try takes it again.
      await this.leadership.stopKeeping();
      this.options.logger?.error(`taking the lead of tenant ${this.tenant} failed`, error);
      return false;
    }
    this.leading = true;
    this.leadEpoch = this.leadership.epoch;
    this.idle = false;
    this.announce(true, 'took the lease', this.leadEpoch);
    // Work a former leader stored or left running (docs/gating.md#engine-work).
    this.passes.work.kick();
    return true;
  }

  /** Stop acting for the tenant at once: the lease is gone or cannot be proven. */
  private loseLead(reason: string): void {
    this.leadership.drop();
    void this.leadership.stopKeeping();
    if (!this.leading) {
      return;
    }
    this.leading = false;
    this.options.warn?.(`scheduler of tenant ${this.tenant} stopped: ${reason}`);
    this.announce(false, reason, this.leadEpoch);
    this.leadEpoch = null;
    this.releaseIdleWaiters();
  }

  private announce(leading: boolean, reason: string, epoch: number | null): void {
    try {
      this.options.onLeadershipChange?.({ tenant: this.tenant, leading, epoch, reason });
    } catch {
      // An observer's failure is its own.
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.leadership.progressed();
      if (!this.leading || !this.leadership.isHeld()) {
        await this.standBy();
        continue;
      }
      // What is already on its way to the store (event appends, the executor's results) gets there
      // first: on PGlite's one session a pass started at once takes the session ahead of it and
      // handles an event or two at a time (docs/gating.md#performance).
      await yieldToQueuedWork();
      this.wakeRequested = false;
      let didWork = false;
      try {
        didWork = this.stateStale && !(await this.reloadState()) ? await this.retryLater() : await this.passes.run();
      } catch (error) {
        if (error instanceof LeadershipLostError) {
          this.loseLead(error.message);
          continue;
        }
        if (this.stopped) {
          break; // a pass left at shutdown, failing as the database closes: nothing was committed
        }
        this.options.logger?.error(`scheduler pass failed for tenant ${this.tenant}`, error);
        // The pass was rolled back: continue from what the store holds, once it can be read.
        this.stateStale = true;
        didWork = await this.retryLater();
      }
      if (!(await this.renewIfDue())) {
        continue;
      }
      if (didWork || this.wakeRequested) {
        continue;
      }
      this.idle = true;
      this.releaseIdleWaiters();
      await this.pause(Math.min(this.options.pollIntervalMs, this.leadership.renewAfterMs));
    }
    this.releaseIdleWaiters();
  }

  /** Read the tenant's state again after a rolled-back pass; false while the store cannot answer. */
  private async reloadState(): Promise<boolean> {
    try {
      await this.state.load();
      this.stateStale = false;
      return true;
    } catch (error) {
      this.options.logger?.error(`reloading the state of tenant ${this.tenant} failed`, error);
      return false;
    }
  }

  /** A short wait before a failed step is tried again; true: the loop goes on at once after it. */
  private async retryLater(): Promise<boolean> {
    await this.pause(Math.min(this.options.pollIntervalMs, 200));
    return true;
  }

  /** Not leading (or no longer sure to): try to take the lead, else wait and try again. */
  private async standBy(): Promise<void> {
    if (this.leading) {
      this.loseLead('the lease could not be renewed in time');
    }
    if (await this.takeLead()) {
      return;
    }
    this.idle = true;
    this.releaseIdleWaiters();
    await this.pause(this.leadership.standbyRetryMs, false);
  }

  /** Renew the lease when it is due; false when it changed hands. */
  private async renewIfDue(): Promise<boolean> {
    if (!this.leadership.renewDue()) {
      return true;
    }
    try {
      if (!(await this.leadership.renew())) {
        this.loseLead('another scheduler holds the lease');
        return false;
      }
    } catch (error) {
      this.renewalFailed(error);
    }
    return true;
  }

  /** The database is away: the lease runs out locally unless a later renewal gets through. */
  private renewalFailed(error: unknown): void {
    this.options.logger?.error(`renewing the lead of tenant ${this.tenant} failed`, error);
  }

  /** Wait `ms`, or less when stopped (or woken, unless `wakeable` is false). */
  private async pause(ms: number, wakeable = true): Promise<void> {
    if (this.stopped) {
      return; // stop() may have come while this scheduler was busy, before anything could wake it
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeResolve = wakeable ? done : () => (this.stopped ? done() : undefined);
    });
    this.wakeResolve = null;
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  }
}

/** One turn of the event loop: the I/O callbacks and appends queued meanwhile run before what follows. */
function yieldToQueuedWork(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
