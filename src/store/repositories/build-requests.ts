/**
 * Build requests: the executors' work queue (`build_requests`) and the result events executors
 * send back to the engine (`engine_events`, category `result`). Requests are claimed with
 * `FOR UPDATE SKIP LOCKED`, so several executor processes share the queue without blocking
 * each other; a request's completion and its `build-completed` event are written in one
 * transaction, exactly once. A build that pauses (`build-paused` event) leaves its executor:
 * the engine later asks for its resume or cancel, and an executor that holds its workspace
 * claims it again to finish it.
 */
import type { Knex } from 'knex';
import {
  completedWithoutRun,
  type BuildCompletedPayload,
  type BuildPausedPayload,
  type BuildRequestParams,
  type BuildStartedPayload,
  type CancelResult,
} from '../../model/build-request';
import type { BuildResult } from '../../model/results';
import { EngineEventRepository } from './engine-events';
import { pickFields } from '../row-fields';

export type BuildRequestState = 'requested' | 'running' | 'paused' | 'completed';

export interface BuildRequestRecord {
  id: number;
  buildUuid: string;
  tenant: string;
  state: BuildRequestState;
  precedence: number;
  /** As stored; validate with `buildRequestParamsSchema` before use. */
  params: unknown;
  worker: string | null;
  cancelRequested: boolean;
  cancelResult: CancelResult | null;
  /** The engine asked a paused build to continue. */
  resumeRequested: boolean;
  /** What the executor stored to continue a paused build (validate before use); null otherwise. */
  pauseState: unknown;
  result: BuildResult | null;
  logUrl: string | null;
  created: Date;
  started: Date | null;
  completed: Date | null;
}

interface BuildRequestRow {
  id: number;
  build_uuid: string;
  tenant: string;
  state: BuildRequestState;
  precedence: number;
  params: unknown;
  worker: string | null;
  cancel_requested: boolean;
  cancel_result: CancelResult | null;
  resume_requested: boolean;
  pause_state: unknown;
  result: BuildResult | null;
  log_url: string | null;
  created: Date;
  updated: Date;
  started: Date | null;
  completed: Date | null;
}

/** What `requestCancel` did. */
export type CancelOutcome =
  /** The request was not claimed yet: it is completed now with CANCELED (event written). */
  | 'canceled-unclaimed'
  /** An executor runs it: it will stop the build and report the chosen result. */
  | 'cancel-requested'
  /** Already completed, or unknown. */
  | 'not-cancelable';

export class BuildRequestRepository {
  private readonly events: EngineEventRepository;

  constructor(private readonly knex: Knex) {
    this.events = new EngineEventRepository(knex);
  }

  /** Queue a build for executors (used by the engine). Lower precedence values are served first. */
  async create(
    params: BuildRequestParams,
    options: { precedence?: number; now?: Date } = {},
    trx: Knex = this.knex,
  ): Promise<BuildRequestRecord> {
    const now = options.now ?? new Date();
    const [row] = await trx<BuildRequestRow>('build_requests')
      .insert({
        build_uuid: params.buildUuid,
        tenant: params.tenant,
        state: 'requested',
        precedence: options.precedence ?? 200,
        params: JSON.stringify(params) as unknown,
        created: now,
        updated: now,
      })
      .returning('*');
    return toRecord(row);
  }

  /**
   * Queue builds unless a request for their uuid exists (a restart re-submits builds without a
   * result), in one statement, in the given order; how many were queued now.
   */
  async createIfMissing(
    requests: ReadonlyArray<{ params: BuildRequestParams; precedence?: number }>,
    now: Date = new Date(),
  ): Promise<number> {
    if (requests.length === 0) {
      return 0;
    }
    const rows: Array<{ id: number }> = await this.knex<BuildRequestRow>('build_requests')
      .insert(
        requests.map(({ params, precedence }) => ({
          build_uuid: params.buildUuid,
          tenant: params.tenant,
          state: 'requested',
          precedence: precedence ?? 200,
          params: JSON.stringify(params) as unknown,
          created: now,
          updated: now,
        })),
      )
      .onConflict('build_uuid')
      .ignore()
      .returning('id');
    return rows.length;
  }

  async get(buildUuid: string): Promise<BuildRequestRecord | null> {
    const row = await this.knex<BuildRequestRow>('build_requests').where({ build_uuid: buildUuid }).first();
    return row ? toRecord(row) : null;
  }

  /**
   * Claim the next requested build (lowest precedence value, then oldest) for `worker`: it
   * becomes `running` with its start time. Requests locked by another claimer are skipped.
   */
  async claimNext(worker: string, now: Date): Promise<BuildRequestRecord | null> {
    return this.knex.transaction(async (trx) => {
      const candidate = await trx<BuildRequestRow>('build_requests')
        .select('id')
        .where({ state: 'requested', cancel_requested: false })
        .orderBy([{ column: 'precedence' }, { column: 'id' }])
        .limit(1)
        .forUpdate()
        .skipLocked()
        .first();
      if (!candidate) {
        return null;
      }
      const [row] = await trx<BuildRequestRow>('build_requests')
        .where({ id: candidate.id })
        .update({ state: 'running', worker, started: now, updated: now })
        .returning('*');
      return toRecord(row);
    });
  }

  /** Record where the build's log is and tell the engine the build started. */
  async recordStarted(payload: BuildStartedPayload, now: Date): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx<BuildRequestRow>('build_requests')
        .where({ build_uuid: payload.buildUuid })
        .update({ log_url: payload.logUrl, updated: now });
      await this.events.append(
        { tenant: payload.tenant, event: { ...payload, type: 'build-started' }, created: now },
        trx,
      );
    });
  }

  /**
   * Give a running build back unfinished (its executor shuts down, docs/operations.md#shutdown):
   * a first run becomes `requested` again, so the next executor runs it from the start under the
   * same uuid and attempt; a paused build that was being continued becomes `paused` again with
   * its resume still requested. Nothing is written when `worker` no longer holds it or its cancel
   * was requested meanwhile (then it completes as usual). Resolves with whether it was handed back.
   */
  async handBack(buildUuid: string, worker: string, now: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const row = await trx<BuildRequestRow>('build_requests')
        .where({ build_uuid: buildUuid, state: 'running', worker, cancel_requested: false })
        .forUpdate()
        .first('id', 'pause_state');
      if (!row) {
        return false;
      }
      const continued = row.pause_state !== null;
      await trx<BuildRequestRow>('build_requests')
        .where({ id: row.id })
        .update(
          continued
            ? { state: 'paused', updated: now }
            : { state: 'requested', worker: null, started: null, updated: now },
        );
      return true;
    });
  }

  /**
   * Complete a request and emit its `build-completed` event, unless it is already completed
   * (then nothing is written). Resolves with whether this call completed it.
   */
  async complete(payload: BuildCompletedPayload, now: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const updated = await trx<BuildRequestRow>('build_requests')
        .where({ build_uuid: payload.buildUuid })
        .whereNot({ state: 'completed' })
        .update({ state: 'completed', result: payload.result, completed: now, updated: now, log_url: payload.logUrl })
        .returning('id');
      if (updated.length === 0) {
        return false;
      }
      await this.events.append(
        { tenant: payload.tenant, event: { ...payload, type: 'build-completed' }, created: now },
        trx,
      );
      return true;
    });
  }

  /**
   * A running build paused after its run phase: it becomes `paused` with the state its executor
   * needs to continue, and the engine gets a `build-paused` event. False when the request is
   * not running (nothing is written).
   */
  async recordPaused(payload: BuildPausedPayload, pauseState: unknown, now: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const updated = await trx<BuildRequestRow>('build_requests')
        .where({ build_uuid: payload.buildUuid, state: 'running' })
        .update({ state: 'paused', pause_state: JSON.stringify(pauseState) as unknown, updated: now })
        .returning('id');
      if (updated.length === 0) {
        return false;
      }
      await this.events.append(
        { tenant: payload.tenant, event: { ...payload, type: 'build-paused' }, created: now },
        trx,
      );
      return true;
    });
  }

  /** Ask for a paused build to continue (used by the engine). False when it is not paused. */
  async requestResume(buildUuid: string, now: Date): Promise<boolean> {
    const updated = await this.knex<BuildRequestRow>('build_requests')
      .where({ build_uuid: buildUuid, state: 'paused' })
      .update({ resume_requested: true, updated: now })
      .returning('id');
    return updated.length > 0;
  }

  /** Paused builds whose resume or cancel was requested (lowest precedence value, then oldest). */
  async listContinuable(limit: number): Promise<BuildRequestRecord[]> {
    const rows = await this.knex<BuildRequestRow>('build_requests')
      .where({ state: 'paused' })
      .andWhere((query) => query.where({ resume_requested: true }).orWhere({ cancel_requested: true }))
      .orderBy([{ column: 'precedence' }, { column: 'id' }])
      .limit(limit);
    return rows.map(toRecord);
  }

  /** Claim a paused build for `worker` to continue it (it is `running` again); null when another claimed it first. */
  async claimPaused(buildUuid: string, worker: string, now: Date): Promise<BuildRequestRecord | null> {
    const [row] = await this.knex<BuildRequestRow>('build_requests')
      .where({ build_uuid: buildUuid, state: 'paused' })
      .update({ state: 'running', worker, updated: now })
      .returning('*');
    return row ? toRecord(row) : null;
  }

  /**
   * Cancel a build (docs/gating.md#canceling-jobs): an unclaimed request is completed at once with CANCELED
   * (and its event written); a running or paused one is flagged, and the executor that has it
   * (or, for a paused one, holds its workspace) stops it and reports `result` (CANCELED or
   * ABORTED).
   */
  async requestCancel(buildUuid: string, result: CancelResult, now: Date): Promise<CancelOutcome> {
    return this.knex.transaction(async (trx) => {
      const row = await trx<BuildRequestRow>('build_requests').where({ build_uuid: buildUuid }).forUpdate().first();
      if (!row || row.state === 'completed') {
        return 'not-cancelable';
      }
      if (row.state === 'requested') {
        await trx<BuildRequestRow>('build_requests').where({ id: row.id }).update({
          state: 'completed',
          result: 'CANCELED',
          cancel_requested: true,
          cancel_result: result,
          completed: now,
          updated: now,
        });
        await this.events.append(
          { tenant: row.tenant, event: { ...unclaimedCancel(row, now), type: 'build-completed' }, created: now },
          trx,
        );
        return 'canceled-unclaimed';
      }
      await trx<BuildRequestRow>('build_requests')
        .where({ id: row.id })
        .update({ cancel_requested: true, cancel_result: result, updated: now });
      return 'cancel-requested';
    });
  }

  /** Builds among `buildUuids` (running on `worker`) whose cancel was requested, with the result to record. */
  async cancelsRequested(worker: string, buildUuids: string[]): Promise<Map<string, CancelResult>> {
    if (buildUuids.length === 0) {
      return new Map();
    }
    const rows = await this.knex<BuildRequestRow>('build_requests')
      .select('build_uuid', 'cancel_result')
      .where({ worker, state: 'running', cancel_requested: true })
      .whereIn('build_uuid', buildUuids);
    return new Map(rows.map((r) => [r.build_uuid, r.cancel_result ?? 'CANCELED']));
  }

  /**
   * Builds among `buildUuids` (run by `worker`) that are not its any more: ended by a reclaim
   * after the worker was judged dead (docs/operations.md#lost-work), or running on another worker.
   */
  async takenFrom(worker: string, buildUuids: string[]): Promise<string[]> {
    if (buildUuids.length === 0) {
      return [];
    }
    return this.knex<BuildRequestRow>('build_requests')
      .whereIn('build_uuid', buildUuids)
      .andWhere((query) =>
        query
          .where({ state: 'completed' })
          .orWhere((running) => running.where({ state: 'running' }).whereNot({ worker })),
      )
      .pluck('build_uuid');
  }

  /** Result events (oldest first) of a tenant with their payloads as stored (tests read them). */
  resultEvents(tenant: string): Promise<Array<{ id: number; eventType: string; payload: Record<string, unknown> }>> {
    return this.events.list(tenant, 'result');
  }
}

/** The completion of a request canceled before any executor claimed it. */
function unclaimedCancel(row: BuildRequestRow, now: Date): BuildCompletedPayload {
  return completedWithoutRun(
    { buildUuid: row.build_uuid, tenant: row.tenant, params: row.params },
    { result: 'CANCELED', startTime: null, endTime: now.toISOString(), errorDetail: null, worker: null },
  );
}

function toRecord(row: BuildRequestRow): BuildRequestRecord {
  return pickFields(row, [
    'id',
    'buildUuid',
    'tenant',
    'state',
    'precedence',
    'params',
    'worker',
    'cancelRequested',
    'cancelResult',
    'resumeRequested',
    'pauseState',
    'result',
    'logUrl',
    'created',
    'started',
    'completed',
  ]);
}
