/**
 * The scheduler of one tenant (docs/gating.md#event-processing): while it leads the tenant it runs passes
 * (src/engine/scheduler/pass.ts) whenever it is woken or its poll interval passes, and tells
 * waiters when it has nothing left to do. After a failed pass it continues from the store.
 */
import { EngineStateRepository } from '../../store/repositories/engine-state';
import { TenantLeadership } from './leadership';
import { PassRunner, type PassOptions } from './pass';
import { resubmitOutstandingWork } from './recovery';
import { TenantState } from './tenant-state';

export interface TenantSchedulerOptions extends PassOptions {
  /** Poll fallback when no wake-up arrives. */
  pollIntervalMs: number;
}

export class TenantScheduler {
  private readonly stateRepo: EngineStateRepository;
  private readonly leadership: TenantLeadership;
  private readonly state: TenantState;
  private readonly passes: PassRunner;
  private running = false;
  private stopped = false;
  private wakeRequested = false;
  private wakeResolve: (() => void) | null = null;
  private loopPromise: Promise<void> | null = null;
  private idleWaiters: Array<() => void> = [];
  private idle = false;

  constructor(private readonly options: TenantSchedulerOptions) {
    this.stateRepo = new EngineStateRepository(options.database.knex);
    this.leadership = new TenantLeadership(options.database, options.tenant);
    this.state = new TenantState(this.stateRepo, options.tenant, options.webRoot);
    this.passes = new PassRunner(options, this.state);
  }

  get tenant(): string {
    return this.options.tenant;
  }

  /** Try to become the tenant's scheduler; false when another process holds the lock. */
  async start(): Promise<boolean> {
    if (!(await this.leadership.acquire())) {
      return false;
    }
    await this.stateRepo.ensureTenant(this.tenant, this.options.clock.now());
    await this.state.load();
    const layout = this.options.layout();
    if (layout) {
      await resubmitOutstandingWork(this.tenant, layout, this.state.pipelines, this.options.gateways);
    }
    this.running = true;
    this.loopPromise = this.loop();
    return true;
  }

  /** Stop after the current pass; releases the leadership lock. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    if (this.loopPromise) {
      await this.loopPromise;
    }
    this.running = false;
    await this.leadership.release();
  }

  /** Ask for a pass soon (new events). */
  wake(): void {
    this.wakeRequested = true;
    this.idle = false;
    if (this.wakeResolve) {
      this.wakeResolve();
      this.wakeResolve = null;
    }
  }

  /** Resolves once the scheduler has nothing left to do (no pending events, queues stable). */
  whenIdle(): Promise<void> {
    if (this.idle && !this.wakeRequested) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
    });
  }

  isRunning(): boolean {
    return this.running && !this.stopped;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.wakeRequested = false;
      let didWork = false;
      try {
        didWork = await this.passes.run();
      } catch (error) {
        this.options.logger?.error(`scheduler pass failed for tenant ${this.tenant}`, error);
        await delay(Math.min(this.options.pollIntervalMs, 200));
        // The pass was rolled back: continue from what the store holds.
        try {
          await this.state.load();
        } catch (reloadError) {
          this.options.logger?.error(`reloading the state of tenant ${this.tenant} failed`, reloadError);
        }
        didWork = true;
      }
      if (didWork || this.wakeRequested) {
        continue;
      }
      this.idle = true;
      this.releaseIdleWaiters();
      await new Promise<void>((resolve) => {
        this.wakeResolve = resolve;
        const timer = setTimeout(resolve, this.options.pollIntervalMs);
        timer.unref?.();
      });
      this.wakeResolve = null;
    }
    this.releaseIdleWaiters();
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}
