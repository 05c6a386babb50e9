/**
 * The runner of a tenant's durable engine work (docs/gating.md#engine-work): while its scheduler
 * leads the tenant it claims the work the committed passes stored (reports, speculative merges,
 * tags' branch look-ups, merges into branches), makes the calls with no transaction open, and completes each row with
 * the engine event that brings the outcome back to the next pass. Woken after every pass that
 * stored work and when the lead is taken (then it takes over what a former leader left running).
 */
import type { Knex } from 'knex';
import type { EngineEvent } from '../../model/engine-events';
import { EngineWorkRepository, type EngineWorkRecord } from '../../store/repositories/engine-work';
import type { EngineGateways } from '../pass-context';
import type { Clock } from '../ports/clock';
import { Completions } from './completions';
import { MergesAhead, WaitingForMergeAhead } from './merges-ahead';
import { branchMergeCompleted, mergedSoFar, reportFailure, skippedMerge } from './outcome-events';
import {
  branchMergeProgressSchema,
  branchMergeWorkSchema,
  reportsOutside,
  reportWorkSchema,
  speculativeMergeWorkSchema,
  tagBranchesWorkSchema,
  withdrawableBuildset,
  type BranchMergeProgress,
  type BranchMergeWork,
} from './payloads';

export interface WorkRunnerOptions {
  knex: Knex;
  tenant: string;
  gateways: EngineGateways;
  clock: Clock;
  /** The lease epoch this scheduler leads with (null: no leadership in use). */
  epoch: () => number | null;
  /** False once the lead may have been lost: nothing more is claimed or done. */
  leading: () => boolean;
  /** Proves the lead again (before a change is merged into its branch); throws when lost. */
  prove?: () => Promise<void>;
  /** A row completed: its event waits for the tenant's scheduler. */
  onCompleted: () => void;
  logger?: { error(message: string, error?: unknown): void };
}

/** Rows claimed at once. */
const CLAIM_BATCH = 50;
/** After a failure (the database away, a call that threw), the runner tries again after this long (ms), doubling up to the maximum. */
const RETRY_MS = 200;
const RETRY_MAX_MS = 5000;
/** How long a completed row is kept (docs/gating.md#engine-work): one day. */
export const WORK_RETENTION_MS = 24 * 60 * 60_000;
/** Least time between two prunings of the tenant's completed rows (ms). */
const PRUNE_INTERVAL_MS = 10 * 60_000;
/** Completed rows deleted per statement: a backlog goes in short statements. */
const PRUNE_BATCH = 500;

export class WorkRunner {
  private readonly repo: EngineWorkRepository;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private retryMs = RETRY_MS;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Buildsets whose merges a committed pass withdrew since the last claim (their rows are completed). */
  private readonly withdrawn = new Set<string>();
  private readonly mergesAhead: MergesAhead;
  /** The lease epoch of the last drain that found nothing left to claim (null: none yet). */
  private drainedEpoch: number | null = null;
  /** When the completed rows were last pruned (ms on the clock; 0: not yet). */
  private prunedAt = 0;

  constructor(private readonly options: WorkRunnerOptions) {
    this.repo = new EngineWorkRepository(options.knex);
    this.mergesAhead = new MergesAhead(this.repo, options.tenant);
  }

  /** Look for work soon (a pass stored some, or the lead was taken). */
  kick(): void {
    if (this.stopped) {
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /**
   * A committed pass withdrew these buildsets' speculative merges (their items were reset or
   * left): rows of them claimed before are skipped, not done for an outcome nobody reads.
   */
  withdraw(buildsetUuids: readonly string[]): void {
    for (const uuid of buildsetUuids) {
      this.withdrawn.add(uuid);
    }
  }

  /** True when nothing runs; else waits for the current round and resolves false. */
  async settled(): Promise<boolean> {
    const running = this.running;
    if (!running) {
      return true;
    }
    await running;
    return false;
  }

  /** Claim nothing more; waits for the call under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer !== null) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    while (this.running) {
      await this.running;
    }
  }

  private async drain(): Promise<void> {
    for (;;) {
      this.again = false;
      if (this.stopped || !this.options.leading()) {
        return;
      }
      const epoch = this.options.epoch() ?? 0;
      // Rows withdrawn before this claim are completed in the store: the claim cannot return them.
      this.withdrawn.clear();
      let rows: EngineWorkRecord[];
      try {
        rows = await this.repo.claim(this.options.tenant, epoch, this.options.clock.now(), CLAIM_BATCH);
      } catch (error) {
        if (this.stopped) {
          return; // left at shutdown (docs/operations.md#shutdown), failing as the database closes
        }
        this.options.logger?.error(`claiming engine work of tenant ${this.options.tenant} failed`, error);
        this.retryLater();
        return;
      }
      if (rows.length === 0 && !this.again) {
        this.drainedEpoch = epoch;
        await this.pruneIfDue();
        return;
      }
      const completions = new Completions(this.repo, epoch, this.options.clock, this.options.onCompleted);
      try {
        if (!(await this.runRound(rows, epoch, completions))) {
          return;
        }
      } finally {
        await this.flush(completions);
      }
      this.retryMs = RETRY_MS;
      if (rows.length < CLAIM_BATCH && !this.again && this.drainedEpoch === epoch) {
        // The claim took every open row, and no pass stored work since (it would have kicked):
        // nothing is left to claim until the next kick. Not so in the first drain of a lead,
        // which claims until nothing is left (a former leader's claim may have been under way).
        await this.pruneIfDue();
        return;
      }
    }
  }

  /**
   * Once the tenant's work is done, at most every `PRUNE_INTERVAL_MS`: delete the completed rows
   * older than `WORK_RETENTION_MS` that nothing reads any more, `PRUNE_BATCH` at a time, giving way
   * to new work (the rest goes on at the next idle moment).
   */
  private async pruneIfDue(): Promise<void> {
    const now = this.options.clock.now().getTime();
    if (this.prunedAt !== 0 && now - this.prunedAt < PRUNE_INTERVAL_MS) {
      return;
    }
    this.prunedAt = now;
    const before = new Date(now - WORK_RETENTION_MS);
    try {
      while (!this.stopped && !this.again && this.options.leading()) {
        if ((await this.repo.pruneCompleted(this.options.tenant, before, PRUNE_BATCH)) < PRUNE_BATCH) {
          return;
        }
      }
      this.prunedAt = 0; // interrupted with rows left: go on at the next idle moment
    } catch (error) {
      if (!this.stopped) {
        this.options.logger?.error(`pruning engine work of tenant ${this.options.tenant} failed`, error);
      }
    }
  }

  /**
   * Do a round's rows in order; false when the runner stops there (stopped, the lead lost, a
   * failure). A round gives way once a pass stored new work (a kick): the rows left are claimed
   * again with it, reports and branch merges first, so an item that finished does not wait for
   * a batch of speculative merges (docs/gating.md#engine-work).
   */
  private async runRound(rows: readonly EngineWorkRecord[], epoch: number, completions: Completions): Promise<boolean> {
    for (const row of rows) {
      if (this.again && withdrawableBuildset(row.kind, row.payload) !== null) {
        return true;
      }
      if (this.stopped || !this.options.leading()) {
        // Left running under this epoch: the next leader (or this one, leading again) takes it over.
        return false;
      }
      if (this.withdrawn.has(withdrawableBuildset(row.kind, row.payload) ?? '')) {
        continue;
      }
      if (reportsOutside(row.kind, row.payload)) {
        // Not reported while the store may be failing: the report would be made again.
        await completions.settle();
      }
      if (completions.failed) {
        return false; // rows left claimed, done again by the next round; the round's flush logs why
      }
      try {
        const { event, outcome } = await this.perform(row, epoch);
        completions.add({ record: row, outcome, event });
        if (event.type === 'merge-completed' && event.mode === 'branch') {
          this.mergesAhead.made(event.buildsetUuid, event.merged);
        }
      } catch (error) {
        if (this.stopped) {
          return false; // left at shutdown: still claimed under this epoch, the next leader takes it over
        }
        if (error instanceof WaitingForMergeAhead) {
          this.retryLater();
          return false;
        }
        this.options.logger?.error(
          `engine work ${row.id} (${row.kind}) of tenant ${this.options.tenant} failed`,
          error,
        );
        // Still running under this epoch: claimed again by the next round.
        this.retryLater();
        return false;
      }
      if (row.kind === 'branch-merge') {
        // Written behind the next merge (a merge made again is answered as merged): one statement
        // for a row of merges, not one each (docs/gating.md#engine-work).
        completions.send();
      } else if (row.kind !== 'speculative-merge' || completions.due()) {
        // A report repeated after a kill is seen outside: recorded at once, with the rows before it.
        const recorded = await completions.flush().then(
          () => true,
          () => false,
        );
        if (!recorded) {
          return false; // the round's flush logs the failure
        }
      }
    }
    return true;
  }

  /** Record what a round did and has not recorded yet (a failure leaves those rows to the next round). */
  private async flush(completions: Completions): Promise<void> {
    try {
      await completions.flush();
    } catch (error) {
      if (!this.stopped) {
        this.options.logger?.error(`completing engine work of tenant ${this.options.tenant} failed`, error);
        this.retryLater();
      }
    }
  }

  /** Try again after a failure, backing off, while this scheduler leads. */
  private retryLater(): void {
    if (this.stopped || this.retryTimer !== null) {
      return;
    }
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.kick();
    }, delay);
    this.retryTimer.unref?.();
  }

  /** Make the row's calls; the event that brings the outcome back and a short outcome text. */
  private async perform(row: EngineWorkRecord, epoch: number): Promise<{ event: EngineEvent; outcome: string }> {
    const { gateways } = this.options;
    switch (row.kind) {
      case 'report': {
        const work = reportWorkSchema.parse(row.payload);
        const error = await this.report(work.report);
        const event: EngineEvent = {
          type: 'report-completed',
          work: row.id,
          buildsetUuid: work.buildsetUuid,
          error,
          ...(error === null ? {} : { failure: reportFailure(work.report, error) }),
        };
        return { event, outcome: error === null ? 'ok' : `error: ${error}` };
      }
      case 'speculative-merge': {
        const work = speculativeMergeWorkSchema.parse(row.payload);
        const merged = await gateways.merger
          .prepare(work.items, { configLocations: work.configLocations })
          .catch((error: unknown) => ({
            merged: false as const,
            error: error instanceof Error ? error.message : String(error),
          }));
        const event: EngineEvent = {
          type: 'merge-completed',
          work: row.id,
          mode: 'speculative',
          pipeline: work.pipeline,
          buildsetUuid: work.buildsetUuid,
          merged: merged.merged,
          error: merged.merged ? null : merged.error,
          files: merged.merged ? merged.files : null,
          repoState: merged.merged ? merged.repoState : null,
          ...(merged.merged && (merged.config?.length ?? 0) > 0 ? { config: merged.config } : {}),
        };
        return { event, outcome: merged.merged ? 'merged' : 'merge-conflict' };
      }
      case 'tag-branches':
        return this.tagBranches(row);
      case 'branch-merge':
        return this.branchMerge(row, epoch);
    }
  }

  /** The branches containing a tag's commit (docs/project-configuration.md#jobs); a failed look-up is the item's merge failure. */
  private async tagBranches(row: EngineWorkRecord): Promise<{ event: EngineEvent; outcome: string }> {
    const work = tagBranchesWorkSchema.parse(row.payload);
    const found = await this.options.gateways.merger.branchesContaining(work.item).then(
      (branches) => ({ ok: true as const, branches }),
      (error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }),
    );
    const event: EngineEvent = {
      type: 'merge-completed',
      work: row.id,
      mode: 'tag',
      pipeline: work.pipeline,
      buildsetUuid: work.buildsetUuid,
      merged: found.ok,
      error: found.ok ? null : found.error,
      files: null,
      repoState: null,
      ...(found.ok ? { containingBranches: found.branches } : {}),
    };
    return { event, outcome: found.ok ? `branches: ${found.branches.join(', ') || 'none'}` : `error: ${found.error}` };
  }

  /** Report (the driver retries transient failures); the error text when it still failed. */
  private async report(
    report: Parameters<NonNullable<EngineGateways['reporter']>['report']>[0],
  ): Promise<string | null> {
    const reporter = this.options.gateways.reporter;
    if (!reporter) {
      return null;
    }
    try {
      await reporter.report(report);
      return null;
    } catch (error) {
      this.options.logger?.error(`report of tenant ${this.options.tenant} failed`, error);
      return error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * The changes of a cycle merge all or none where the source can tell beforehand
   * (docs/gating.md#dependency-cycles): each is checked before any is merged. The refusal of
   * the first that would not merge; null when all would, or when there is one change.
   */
  private async unmergeableChange(items: BranchMergeWork['items']): Promise<string | null> {
    const check = this.options.gateways.merger.canMergeToBranch?.bind(this.options.gateways.merger);
    if (items.length < 2 || check === undefined) {
      return null;
    }
    for (const item of items) {
      await this.options.prove?.();
      const answer = await check(item).catch((failure: unknown) => ({
        mergeable: false as const,
        error: failure instanceof Error ? failure.message : String(failure),
      }));
      if (answer !== null && !answer.mergeable) {
        return `Change ${item.number ?? item.ref} of ${item.project} can not be merged: ${answer.error}`;
      }
    }
    return null;
  }

  /**
   * The success report, then each change merged into its branch, the row's progress recorded after
   * each step but the last, which the row's completion records: a leader taking the row over skips
   * what is recorded (a merge pushed but not yet recorded is made again, and the merger answers an
   * already merged change as merged).
   */
  private async branchMerge(row: EngineWorkRecord, epoch: number): Promise<{ event: EngineEvent; outcome: string }> {
    const work = branchMergeWorkSchema.parse(row.payload);
    const parsed = branchMergeProgressSchema.safeParse(row.progress);
    const progress: BranchMergeProgress = parsed.success ? parsed.data : { reported: false, merged: [] };
    if (work.after) {
      // Asked for while the merge of the item ahead was out: made only if that one was
      // (docs/gating.md#merges-in-a-row), else the item is tested again.
      const ahead = await this.mergesAhead.state(work.after, row.id);
      if (ahead === 'pending') {
        throw new WaitingForMergeAhead(`the merge of buildset ${work.after} is not done yet`);
      }
      if (ahead === 'not-merged') {
        return skippedMerge(row, work);
      }
    }
    const save = async (): Promise<void> => {
      if (!(await this.repo.recordProgress(row.id, epoch, progress, this.options.clock.now()))) {
        throw new Error('the work was taken over by another leader');
      }
    };
    if (!progress.reported) {
      progress.reported = true;
      if (work.report) {
        const reportError = await this.report(work.report);
        if (reportError !== null) {
          progress.reportFailure = reportFailure(work.report, reportError);
        }
        await save();
      }
    }
    let error = progress.merged.length === 0 ? await this.unmergeableChange(work.items) : null;
    for (const item of error === null ? work.items : []) {
      if (
        item.number === null ||
        progress.merged.some((done) => done.project === item.project && done.change === item.number)
      ) {
        continue;
      }
      await this.options.prove?.();
      const outcome = await this.options.gateways.merger.mergeToBranch(item).catch((failure: unknown) => ({
        merged: false as const,
        error: failure instanceof Error ? failure.message : String(failure),
      }));
      if (!outcome.merged) {
        error = outcome.error;
        break;
      }
      progress.merged.push({ project: item.project, change: item.number, newrev: outcome.newrev });
      if (item !== work.items[work.items.length - 1]) {
        // The last change's merge is recorded by the row's completion, written next (runRound).
        await save();
      }
    }
    if (error !== null && work.items.length > 1) {
      error = `${error} (${mergedSoFar(work.items, progress.merged)})`;
    }
    const event = branchMergeCompleted(row, work, error, progress.merged, { reportFailure: progress.reportFailure });
    return { event, outcome: error === null ? 'merged' : `refused: ${error}` };
  }
}
