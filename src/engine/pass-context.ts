/**
 * One scheduler pass: everything the pipeline managers need while handling a batch of events,
 * bound to the pass's database transaction. Actions on the outside world (executor, launcher)
 * are collected and run only after the transaction commits.
 */
import { randomUUID } from 'node:crypto';
import type { ChangeReporter } from './ports/reporter';
import type { Knex } from 'knex';
import { AutoholdRepository } from '../store/repositories/autohold';
import { EngineEventRepository } from '../store/repositories/engine-events';
import { SampleBatch } from '../store/repositories/duration-samples';
import { SemaphoreRepository } from '../store/repositories/semaphores';
import { SystemEventRepository, type NewSystemEvent } from '../store/repositories/system-events';
import type { HistoryIdRow } from '../store/repositories/history-batches';
import { writeTogether, type QueuedWrite } from '../store/writes-together';
import type { EngineDeltaBody } from './event-bus';
import { StoreHistoryWriter, type BuildIdReserve } from './history-writer';
import type { BuildHistoryWriter } from './ports/history';

type BuildsetDelta = Extract<EngineDeltaBody, { type: 'buildset-changed' }>;
import type { ChangeSource } from './ports/change-source';
import type { EngineLayout } from './ports/layout';
import type { BuildParams, ExecutorGateway } from './ports/executor';
import type { ConfigurationGateway } from './ports/configuration';
import type { MergerGateway } from './ports/merger';
import type { NodeGateway } from './ports/nodes';
import type { ManagementEvent, TriggerEvent } from '../model/engine-events';
import type { ItemState } from '../model/pipeline-state';
import type { NewEngineWork } from '../store/repositories/engine-work';

export interface EngineGateways {
  changes: ChangeSource;
  merger: MergerGateway;
  executor: ExecutorGateway;
  nodes: NodeGateway;
  /** Reports to code-review systems (absent: nothing beyond Sluice's own history). */
  reporter?: ChangeReporter;
  /** Reloads configuration that pending branch updates change, before the pass (absent: never). */
  configuration?: ConfigurationGateway;
}

export class PassContext {
  readonly history: BuildHistoryWriter;
  /** The duration samples of the pass's finished builds and buildsets, written together before its commit. */
  readonly samples = new SampleBatch();
  readonly semaphores: SemaphoreRepository;
  readonly autohold: AutoholdRepository;
  readonly systemEvents: SystemEventRepository;
  readonly engineEvents: EngineEventRepository;
  private pendingSystemEvents: NewSystemEvent[] = [];
  /** The last batch of builds to submit after the commit (`startBuildAfter`). */
  private launches: { params: BuildParams[]; action: () => Promise<void> } | null = null;
  /** The last calls made together (`after` with a kind). */
  private group: { kind: string; calls: Array<() => Promise<void>>; action: () => Promise<void> } | null = null;
  /** Run after commit, in order. */
  readonly afterCommit: Array<() => Promise<void>> = [];
  /**
   * Durable work the pass decided (docs/gating.md#engine-work): stored with the pass's state and
   * done by the tenant's work runner after the commit, its outcome coming back as an event.
   */
  readonly work: NewEngineWork[] = [];
  /**
   * Buildsets whose speculative merge (or tag look-up) was asked for and is no longer wanted: the
   * item was reset or left. Their work rows are withdrawn with the pass (docs/gating.md#engine-work).
   */
  readonly withdrawnMerges: string[] = [];
  readonly deltas: EngineDeltaBody[] = [];
  /** Items that left their pipeline in this pass (saved once with their dequeue time). */
  readonly dequeued: Array<{ item: ItemState; queueId: number }> = [];
  readonly deletedQueueIds: number[] = [];
  /** A semaphore was released: other tenants sharing global semaphores should look again. */
  semaphoreReleased = false;
  /** New events for this tenant were written in this pass (process another pass). */
  eventsEmitted = false;
  /**
   * The pass's bound on work (docs/operations.md#takeovers-under-repeated-kills): once spent,
   * the pass takes no further event. Never spent unless the scheduler sets one.
   */
  budgetSpent: () => boolean = () => false;
  /** Work was left for the next pass because the budget was spent (run another pass at once). */
  deferred = false;

  constructor(
    readonly tenant: string,
    readonly now: Date,
    readonly layout: EngineLayout,
    readonly trx: Knex.Transaction,
    readonly gateways: EngineGateways,
    private readonly uuidSource: () => string = () => randomUUID().replace(/-/g, ''),
    /**
     * Build ids ahead: history writes are collected and written at `history.flush`, and `flush`
     * fills the reserve up (docs/gating.md#performance).
     */
    private readonly buildIds?: BuildIdReserve,
  ) {
    // Buildset rows are announced themselves: a buildset can be created and finished without
    // any build (merge conflict, config error), so no job delta would name it.
    this.history = new StoreHistoryWriter(
      trx,
      () => {
        // Published in the order decided; filled in when the row is written (before the commit).
        const delta: BuildsetDelta = {
          type: 'buildset-changed',
          pipeline: '',
          buildsetId: 0,
          buildsetUuid: '',
          result: null,
        };
        this.publish(delta);
        return (buildset) =>
          Object.assign(delta, {
            pipeline: buildset.pipeline,
            buildsetId: buildset.id,
            buildsetUuid: buildset.uuid,
            result: buildset.result,
          });
      },
      this.samples,
      buildIds,
    );
    this.semaphores = new SemaphoreRepository(trx);
    this.autohold = new AutoholdRepository(trx);
    this.systemEvents = new SystemEventRepository(trx);
    this.engineEvents = new EngineEventRepository(trx);
  }

  /** A new hex uuid. */
  uuid(): string {
    return this.uuidSource();
  }

  /** ISO text of the pass time. */
  nowIso(): string {
    return this.now.toISOString();
  }

  publish(delta: EngineDeltaBody): void {
    this.deltas.push(delta);
  }

  /**
   * Make a call after the commit, in the order decided. Calls of one kind made one after another
   * (`together`, no other call between), each on its own build, node request or nodes, are
   * independent: they are made at the same time (docs/gating.md#performance).
   */
  after(action: () => Promise<void>, together?: 'start-build' | 'request-nodes'): void {
    const last = this.group;
    if (together !== undefined && last?.kind === together && this.afterCommit.at(-1) === last.action) {
      last.calls.push(action);
      return;
    }
    if (together === undefined) {
      this.afterCommit.push(action);
      return;
    }
    const calls = [action];
    this.group = { kind: together, calls, action: () => callTogether(calls) };
    this.afterCommit.push(this.group.action);
  }

  /**
   * Submit a build after the commit; builds started one after another (no other call between)
   * go to the executor together (docs/gating.md#performance): in one call, or, with an executor
   * that takes one build a call, in calls made at the same time.
   */
  startBuildAfter(params: BuildParams): void {
    const executor = this.gateways.executor;
    if (!executor.startBuilds) {
      this.after(() => executor.startBuild(params), 'start-build');
      return;
    }
    const last = this.launches;
    if (last !== null && this.afterCommit[this.afterCommit.length - 1] === last.action) {
      last.params.push(params);
      return;
    }
    const batch: { params: BuildParams[]; action: () => Promise<void> } = {
      params: [params],
      action: () => executor.startBuilds?.(batch.params) ?? Promise.resolve(),
    };
    this.launches = batch;
    this.afterCommit.push(batch.action);
  }

  /** Store work to be done after the commit, outside any transaction (reports, merges). */
  requestWork(work: NewEngineWork): void {
    this.work.push(work);
  }

  /** The buildset's speculative merge, if one is out, is no longer wanted (its item was reset or left). */
  withdrawMerge(buildset: { uuid: string; mergeState: string; mergeRequested?: boolean }): void {
    if (buildset.mergeRequested === true && buildset.mergeState === 'new') {
      this.withdrawnMerges.push(buildset.uuid);
    }
  }

  /** Record a system event: collected, and written with the pass's others at `flush`. */
  systemEvent(event: Omit<NewSystemEvent, 'tenant' | 'eventTime'>): Promise<void> {
    this.pendingSystemEvents.push({ ...event, tenant: this.tenant, eventTime: this.now });
    return Promise.resolve();
  }

  /**
   * Write what the pass collected (docs/gating.md#performance): its history rows in one statement
   * (./history-writer.ts); then in one statement `writes` (the pass's own: its events' outcomes, its work
   * rows), its system events and its duration samples, which also fills the build id reserve up.
   * None of these reads what another writes. Before the pass's state is saved.
   */
  async flush(writes: ReadonlyArray<QueuedWrite | null> = []): Promise<void> {
    await this.history.flush();
    const events = this.pendingSystemEvents;
    this.pendingSystemEvents = [];
    const together = [...writes, this.systemEvents.recordManyWrite(events), this.samples.take()].filter(
      (write) => write !== null,
    );
    // Ids only ride on a statement the pass sends anyway.
    const topUp = together.length > 0 ? (this.buildIds?.topUp() ?? null) : null;
    const rows = await writeTogether<HistoryIdRow>(this.trx, together, topUp?.query);
    topUp?.receive(rows);
  }

  /** Queue a follow-up event for this tenant (processed in a later pass of the same run). */
  async emit(event: TriggerEvent | ManagementEvent): Promise<void> {
    await this.engineEvents.append({ tenant: this.tenant, event, created: this.now }, this.trx);
    this.eventsEmitted = true;
  }
}

/**
 * Make independent calls at the same time; done once every call answered. The calls that
 * succeeded are taken out of `calls`, so a try again (side-effects.ts: the store away, a lapsed
 * lead taken again) makes only the others; the first error is thrown.
 */
async function callTogether(calls: Array<() => Promise<void>>): Promise<void> {
  const outcomes = await Promise.allSettled(calls.map((call) => call()));
  const failed = outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [index] : []));
  const left = failed.map((index) => calls[index]);
  calls.splice(0, calls.length, ...left);
  const first = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (first !== undefined) {
    throw first.reason;
  }
}
