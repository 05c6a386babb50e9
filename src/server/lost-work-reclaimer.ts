/**
 * The reclaimer of lost work (docs/operations.md#lost-work): every sweep finds the workers that
 * hold running or paused build requests and judges each: dead when its component stopped, when
 * its heartbeat is older than the expiry, or when it was a process of this host that has ended;
 * a worker that never registered a component is dead once its requests stayed unchanged for the
 * expiry. The running builds of a dead worker are ended `ABORTED` (the engine retries them while
 * attempts remain); its paused builds too when no live executor is left on its host to continue
 * them. Image uploads a dead launcher was copying go back to `pending`, and launcher nodes still
 * `in-use` by builds that ended longer than the expiry ago are returned. Any number of processes
 * may sweep: the store decides, per request, which one ends it.
 */
import type { Knex } from 'knex';
import { ComponentRepository } from '../store/repositories/components';
import { LostWorkRepository, type ReclaimedBuild, type WorkHolder } from '../store/repositories/lost-work';
import { endedOnThisHost } from './host-identity';
import type { Logger } from './logger';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';

export interface LostWorkReclaimerOptions {
  knex: Knex;
  now: () => Date;
  /** Milliseconds without a heartbeat after which a component is dead. */
  expiryMs: number;
  /** Milliseconds between sweeps. */
  intervalMs: number;
  /** Runs the sweeps (src/engine/ports/periodic-task.ts); the system clock by default. */
  timers?: TimerClock;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** The components of this process: never judged by it. */
  own: () => readonly string[];
  /** Called with the builds a sweep ended (their result events are stored). */
  onReclaimed?: (builds: readonly ReclaimedBuild[]) => void;
}

/** Why a holder is dead, or null while it is alive. */
function deathOf(holder: WorkHolder, cutoff: Date): string | null {
  const { component } = holder;
  if (component === null) {
    return holder.lastUpdate < cutoff ? 'is not registered and its builds stopped changing' : null;
  }
  if (component.state === 'stopped') {
    return 'stopped';
  }
  if (component.heartbeat < cutoff) {
    return 'stopped heartbeating';
  }
  return endedOnThisHost(component.data, component.pid) ? 'ended' : null;
}

export class LostWorkReclaimer {
  private readonly lostWork: LostWorkRepository;
  private readonly components: ComponentRepository;
  private sweeping: Promise<unknown> = Promise.resolve();
  private readonly periodic: PeriodicTask;

  constructor(private readonly options: LostWorkReclaimerOptions) {
    this.lostWork = new LostWorkRepository(options.knex);
    this.components = new ComponentRepository(options.knex);
    this.periodic = new PeriodicTask({
      name: 'lost-work reclaimer',
      intervalMs: options.intervalMs,
      tick: () => this.sweep(),
      onError: (err) => this.options.logger.warn({ err }, 'reclaiming lost work failed'),
      clock: options.timers,
      // A sweep ends what it judged lost in its own transactions: stopping waits for it.
      stopWaitMs: null,
    });
  }

  /** Sweep soon (after the start finished) and then every `intervalMs` after the previous sweep, until `stop()`. */
  start(): void {
    this.periodic.start(0);
  }

  async stop(): Promise<void> {
    await this.periodic.stop();
    await this.sweeping;
  }

  /** One sweep (after any sweep in progress); resolves with the builds it ended. */
  sweep(): Promise<ReclaimedBuild[]> {
    const result = this.sweeping.then(() => this.sweepOnce());
    this.sweeping = result.catch(() => undefined);
    return result;
  }

  private async sweepOnce(): Promise<ReclaimedBuild[]> {
    const now = this.options.now();
    const cutoff = new Date(now.getTime() - this.options.expiryMs);
    const own = new Set(this.options.own());
    const holders = await this.lostWork.holders();
    let liveHosts: Set<string> | undefined;
    const ended: ReclaimedBuild[] = [];
    for (const holder of holders) {
      const death = own.has(holder.worker) ? null : deathOf(holder, cutoff);
      if (death === null) {
        continue;
      }
      liveHosts ??= await this.lostWork.hostsWithLiveExecutors(cutoff);
      // A paused build waits in its workspace: an executor on the same host may continue it.
      const paused = holder.paused > 0 && (holder.component === null || !liveHosts.has(holder.component.hostname));
      if (holder.running === 0 && !paused) {
        continue;
      }
      const builds = await this.lostWork.reclaim(holder.worker, {
        heartbeat: holder.component?.heartbeat ?? null,
        unchangedSince: cutoff,
        paused,
        now,
        detail: `Build request lost: executor ${holder.worker} ${death}`,
      });
      if (builds.length > 0) {
        this.options.logger.info(
          { worker: holder.worker, reason: death, builds: builds.map((build) => build.buildUuid) },
          'lost builds ended ABORTED',
        );
        ended.push(...builds);
      }
    }
    if (ended.length > 0) {
      this.options.onReclaimed?.(ended);
    }
    for (const { holder, component } of await this.lostWork.uploadHolders()) {
      const death = own.has(holder)
        ? null
        : deathOf({ worker: holder, component, running: 0, paused: 0, lastUpdate: now }, cutoff);
      if (death !== null) {
        const uploads = await this.lostWork.releaseUploads(holder, component.heartbeat, now);
        if (uploads > 0) {
          this.options.logger.info(
            { launcher: holder, reason: death, uploads },
            'uploads of a dead launcher queued again',
          );
        }
      }
    }
    const stranded = await this.lostWork.releaseStrandedNodes(cutoff, now);
    if (stranded.length > 0) {
      this.options.logger.info({ nodes: stranded }, 'nodes of ended builds returned');
    }
    // Records of dead components that hold nothing any more are of no use.
    await this.components.deleteDead(cutoff, [...own, ...holders.map((holder) => holder.worker)]);
    return ended;
  }
}
