/**
 * Durable engine work (`engine_work`, docs/gating.md#engine-work): rows a scheduler pass inserts
 * with its state, claimed by the tenant's leader, which makes the calls outside any transaction
 * and completes each row together with the engine event that brings its outcome back. A row is
 * claimed under the leader's lease epoch: a leader of a later epoch takes over rows a former one
 * left running, and a completion under a superseded epoch writes nothing, so each row's outcome
 * is recorded exactly once. Payloads are stored as given; the engine validates them when read.
 */
import type { Knex } from 'knex';
import type { EngineEvent } from '../../model/engine-events';
import { EngineEventRepository } from './engine-events';
import { runStatement } from '../direct-statement';
import { pickFields } from '../row-fields';
import { UNFLUSHED_CONDITION, UNFLUSHED_CTE } from '../unflushed-commit';
import { writeTogether, type QueuedWrite } from '../writes-together';

export type EngineWorkKind = 'report' | 'speculative-merge' | 'tag-branches' | 'branch-merge';

export interface NewEngineWork {
  kind: EngineWorkKind;
  payload: unknown;
}

/** A row done: its outcome text and the event that brings the outcome to the tenant's scheduler. */
export interface WorkCompletion {
  record: EngineWorkRecord;
  outcome: string;
  event: EngineEvent;
}

export interface EngineWorkRecord {
  id: number;
  tenant: string;
  kind: EngineWorkKind;
  state: 'requested' | 'running' | 'completed';
  payload: unknown;
  progress: unknown;
  epoch: number | null;
  outcome: string | null;
}

const ENGINE_WORK_COLUMNS = [
  'id',
  'tenant',
  'kind',
  'state',
  'payload',
  'progress',
  'epoch',
  'outcome',
  'created',
  'updated',
] as const satisfies ReadonlyArray<keyof EngineWorkRow>;

interface EngineWorkRow {
  id: number | string;
  tenant: string;
  kind: EngineWorkKind;
  state: 'requested' | 'running' | 'completed';
  payload: unknown;
  progress: unknown;
  epoch: number | string | null;
  outcome: string | null;
  created: Date;
  updated: Date;
}

/**
 * Work whose completion may be lost with PostgreSQL (src/store/unflushed-commit.ts): done again, it
 * changes nothing outside (a merge into a branch already made is answered as merged; a speculative
 * merge and a branch look-up only read). A report is seen outside: its completion is flushed.
 */
const SAFE_TO_REPEAT: ReadonlySet<EngineWorkKind> = new Set(['speculative-merge', 'tag-branches', 'branch-merge']);

/**
 * The open rows, as the partial index `engine_work_open` (migration 0028) is defined. The states a
 * statement looks for are written into its text, never bound: a generic plan (every statement of a
 * scheduler pass, and a prepared statement after its first executions) cannot prove from a
 * parameter that a row is open, so it would read every completed row kept for a day
 * (docs/gating.md#engine-work) instead of the index (test/integration/store/engine-work-plans.test.ts).
 */
const OPEN = `state <> 'completed'`;

export class EngineWorkRepository {
  constructor(private readonly knex: Knex) {}

  /** Insert a pass's work (in the pass's transaction). */
  async create(tenant: string, work: readonly NewEngineWork[], now: Date, trx: Knex): Promise<void> {
    await writeTogether(trx, [this.createWrite(tenant, work, now)]);
  }

  /**
   * `create` as a write to send with others (`writeTogether`); null when there is no work.
   * `plain` gives the plain data behind each object of a payload before it is serialised: a
   * scheduler pass hands payloads holding parts of its tracked items, whose reads through their
   * proxies would cost far more than the serialising (src/engine/scheduler/item-changes.ts).
   */
  createWrite(
    tenant: string,
    work: readonly NewEngineWork[],
    now: Date,
    plain: (value: object) => object = (value) => value,
  ): QueuedWrite | null {
    if (work.length === 0) {
      return null;
    }
    const plainValues = (_key: string, value: unknown): unknown =>
      value !== null && typeof value === 'object' ? plain(value) : value;
    return {
      sql: `INSERT INTO engine_work (tenant, kind, state, payload, created, updated) VALUES ${work
        .map(() => `(?, ?, 'requested', ?, ?, ?)`)
        .join(', ')}`,
      bindings: work.flatMap((entry) => [tenant, entry.kind, JSON.stringify(entry.payload, plainValues), now, now]),
    };
  }

  /**
   * Complete, as `withdrawn` and with no outcome event, the open speculative merges and tag
   * look-ups of these buildsets (in the pass's transaction): their items were reset or left, so
   * an outcome would only be ignored as stale (docs/gating.md#engine-work).
   */
  async withdrawMerges(tenant: string, buildsetUuids: readonly string[], now: Date, trx: Knex): Promise<void> {
    if (buildsetUuids.length === 0) {
      return;
    }
    // Rows locked in id order, as the runner's completions lock theirs (`completeMany`): a pass
    // withdrawing rows the runner is completing waits for it instead of deadlocking with it.
    const rows = trx('engine_work')
      .select('id')
      .where({ tenant })
      .whereIn('kind', ['speculative-merge', 'tag-branches'])
      .whereRaw(OPEN)
      .whereRaw(`payload->>'buildsetUuid' = ANY(?)`, [buildsetUuids as string[]])
      .orderBy('id')
      .forUpdate();
    await trx('engine_work').whereIn('id', rows).update({ state: 'completed', outcome: 'withdrawn', updated: now });
  }

  /**
   * Claim the tenant's open work under lease `epoch`, reports and branch merges first, each kind
   * oldest first: requested rows, and rows left running under an earlier epoch (their leader is
   * gone or no longer leads) or under this one (a round of this leader's runner that failed or
   * gave way to newer work; its rounds never overlap).
   */
  async claim(tenant: string, epoch: number, now: Date, limit: number): Promise<EngineWorkRecord[]> {
    // One statement: the rows are chosen and locked (SKIP LOCKED, so concurrent claims never take
    // the same row) by the sub-query of the update that claims them.
    // Reports and branch merges first: an item that finished waits for nothing but them, while
    // speculative merges can be many (docs/gating.md#engine-work). A claim lost with PostgreSQL is
    // only claimed again; whatever was done under it and is not safe to do again is flushed by its
    // own commit, and that flushes the claim with it. Prepared (its text is fixed), so its columns
    // are named: ../prepared-statements.ts.
    // The rows are read from the oldest open one on. The open rows' index keeps an entry for each
    // row completed since the last vacuum, and the bitmap scan the planner takes for the claim
    // never marks one dead: every claim read them all again (20,000 entries for 4 open rows late
    // in a run of bench/engine-gate.ts with 6,000 changes, 2.8 ms). The oldest open row is found
    // by a plain index scan, which marks the entries it passes dead, so later scans skip them,
    // and the claim's own scan starts at that row (docs/gating.md#engine-work).
    const { rows } = await runStatement<EngineWorkRow>(
      this.knex,
      `WITH ${UNFLUSHED_CTE}
       UPDATE engine_work SET state = 'running', epoch = ?, updated = ?
       WHERE id IN (
         SELECT id FROM engine_work
         WHERE tenant = ? AND (state = 'requested' OR (state = 'running' AND epoch <= ?))
           AND id >= (SELECT min(id) FROM engine_work WHERE tenant = ? AND ${OPEN})
         ORDER BY CASE WHEN kind IN ('speculative-merge', 'tag-branches') THEN 1 ELSE 0 END, id
         LIMIT ? FOR UPDATE SKIP LOCKED)
       AND ${UNFLUSHED_CONDITION}
       RETURNING ${ENGINE_WORK_COLUMNS.join(', ')}`,
      [epoch, now, tenant, epoch, tenant, limit],
      true,
    );
    return rows.map(toRecord).sort((a, b) => claimOrder(a) - claimOrder(b) || a.id - b.id);
  }

  /** Record what a running row already did; false when it is no longer this epoch's. */
  async recordProgress(id: number, epoch: number, progress: unknown, now: Date): Promise<boolean> {
    const updated = await this.knex('engine_work')
      .where({ id, state: 'running', epoch })
      .update({ progress: JSON.stringify(progress) as unknown, updated: now })
      .returning('id');
    return updated.length > 0;
  }

  /**
   * Complete a running row of this epoch with its outcome and append `event` for the tenant's
   * scheduler, in one transaction; false (nothing written) when the row is no longer this epoch's.
   */
  async complete(record: EngineWorkRecord, epoch: number, outcome: string, event: EngineEvent, now: Date) {
    return (await this.completeMany([{ record, outcome, event }], epoch, now)) > 0;
  }

  /**
   * Complete running rows of this epoch, each with its outcome and event, in one statement (its own
   * commit); a row no longer this epoch's writes nothing. The number of rows completed.
   */
  async completeMany(entries: readonly WorkCompletion[], epoch: number, now: Date): Promise<number> {
    if (entries.length === 0) {
      return 0;
    }
    const values = entries.map(() => '(?::bigint, ?::text)').join(', ');
    // The rows are locked in id order first, as a pass withdrawing merges locks them
    // (`withdrawMerges`), so the two never wait for each other in a cycle. One row (a report, or a
    // merge into a branch written alone) is locked by its update alone: a cycle needs two rows on each side.
    const [first] = entries;
    const completing =
      entries.length === 1
        ? {
            sql: `UPDATE engine_work SET state = 'completed', outcome = ?, updated = ?
            WHERE id = ? AND state = 'running' AND epoch = ? RETURNING id`,
            bindings: [first.outcome, now, first.record.id, epoch],
          }
        : {
            sql: `UPDATE engine_work AS w SET state = 'completed', outcome = v.outcome, updated = ?
            FROM (VALUES ${values}) AS v(id, outcome),
              (SELECT id FROM engine_work WHERE id = ANY(?::bigint[]) ORDER BY id FOR UPDATE) AS locked
            WHERE w.id = v.id AND locked.id = w.id AND w.state = 'running' AND w.epoch = ?
            RETURNING w.id`,
            bindings: [
              now,
              ...entries.flatMap((entry) => [entry.record.id, entry.outcome]),
              entries.map((entry) => entry.record.id),
              epoch,
            ],
          };
    return new EngineEventRepository(this.knex).appendForCompletedWork(
      completing,
      entries.map((entry) => ({
        tenant: entry.record.tenant,
        event: entry.event,
        created: now,
        work: entry.record.id,
      })),
      entries.every((entry) => SAFE_TO_REPEAT.has(entry.record.kind)),
    );
  }

  /**
   * The state and outcome of a buildset's branch merge stored before row `before` (null: none).
   * Read backwards from that row by id: the merge looked for is one of the few stored just before.
   */
  async branchMergeBefore(
    tenant: string,
    buildsetUuid: string,
    before: number,
  ): Promise<Pick<EngineWorkRecord, 'state' | 'outcome'> | null> {
    const row: Pick<EngineWorkRow, 'state' | 'outcome'> | undefined = await this.knex('engine_work')
      .select('state', 'outcome')
      .where({ tenant, kind: 'branch-merge' })
      .andWhere('id', '<', before)
      .andWhereRaw(`payload->>'buildsetUuid' = ?`, [buildsetUuid])
      .orderBy('id', 'desc')
      .first();
    return row ?? null;
  }

  /**
   * Delete up to `limit` of the tenant's completed rows that nothing reads any more
   * (docs/gating.md#engine-work), oldest first, in one statement; the number deleted. A row goes
   * once it was completed before `before`, its outcome event was processed (no event of the
   * tenant completed with it or earlier is still unprocessed), and, for a branch merge, no open
   * branch merge stored after it may still look it up (`branchMergeBefore`). The tenant's oldest
   * unprocessed event is found in the order of the partial index of pending events, `(id + 0)`,
   * which the table cannot give: a plain `min` scanned every processed event kept, after
   * statistics taken during a burst (docs/gating.md#what-is-kept-of-engine-events).
   */
  async pruneCompleted(tenant: string, before: Date, limit: number): Promise<number> {
    const result: { rows: unknown[] } = await this.knex.raw(
      `DELETE FROM engine_work WHERE id IN (
         SELECT w.id FROM engine_work AS w
         WHERE w.tenant = :tenant AND w.state = 'completed' AND w.updated < :before
           AND w.updated < COALESCE(
             (SELECT min(pending.created) FROM (
                SELECT e.created FROM engine_events AS e WHERE e.tenant = :tenant AND e.processed IS NULL
                ORDER BY e.id + 0) AS pending),
             'infinity')
           AND (w.kind <> 'branch-merge' OR NOT EXISTS (
             SELECT 1 FROM engine_work AS o
             WHERE o.tenant = :tenant AND o.state <> 'completed' AND o.kind = 'branch-merge' AND o.id > w.id))
         ORDER BY w.updated
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      { tenant, before, limit },
    );
    return result.rows.length;
  }

  /** The tenant's work not completed yet, oldest first (tests, status). */
  async open(tenant: string): Promise<EngineWorkRecord[]> {
    const rows: EngineWorkRow[] = await this.knex('engine_work').where({ tenant }).whereRaw(OPEN).orderBy('id');
    return rows.map(toRecord);
  }

  /** Every row of the tenant, oldest first (tests). */
  async all(tenant: string): Promise<EngineWorkRecord[]> {
    const rows: EngineWorkRow[] = await this.knex('engine_work').where({ tenant }).orderBy('id');
    return rows.map(toRecord);
  }
}

/** 1 for the work that waits behind reports and branch merges when claimed together. */
function claimOrder(record: EngineWorkRecord): number {
  return record.kind === 'speculative-merge' || record.kind === 'tag-branches' ? 1 : 0;
}

function toRecord(row: EngineWorkRow): EngineWorkRecord {
  return {
    ...pickFields(row, ['id', 'tenant', 'kind', 'state', 'payload', 'progress', 'epoch', 'outcome']),
    id: Number(row.id),
    epoch: row.epoch === null ? null : Number(row.epoch),
  };
}
