/**
 * The refs each git poller last reported (docs/operations.md#durable-source-state), one row per
 * connection and project. `save` is a compare-and-set on the row's generation: the caller's
 * writes (the poll's trigger events) and the new refs commit together, or nothing is written
 * because another poller saved first.
 */
import type { Knex } from 'knex';

export interface StoredRefs {
  refs: Map<string, string>;
  /** Advanced by every save; a save names the generation its diff started from. */
  generation: number;
}

interface PollerStateRow {
  connection: string;
  project: string;
  refs: Record<string, string>;
  generation: number | string;
  updated: Date;
}

export class GitPollerStateRepository {
  constructor(private readonly knex: Knex) {}

  async load(connection: string, project: string): Promise<StoredRefs | null> {
    const row = await this.knex<PollerStateRow>('git_poller_state').where({ connection, project }).first();
    return row ? { refs: new Map(Object.entries(row.refs)), generation: Number(row.generation) } : null;
  }

  /**
   * In one transaction: check that the stored generation is still `expected` (null: no row yet),
   * store `refs` (null: leave the stored refs as they are), then run `write` with the transaction. Resolves false, having written nothing, when another saver moved
   * the row first.
   */
  async save(
    connection: string,
    project: string,
    expected: number | null,
    refs: ReadonlyMap<string, string> | null,
    now: Date,
    write: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      if (!(await this.compareAndSet(trx, connection, project, expected, refs, now))) {
        return false;
      }
      await write(trx);
      return true;
    });
  }

  private async compareAndSet(
    trx: Knex.Transaction,
    connection: string,
    project: string,
    expected: number | null,
    refs: ReadonlyMap<string, string> | null,
    now: Date,
  ): Promise<boolean> {
    const key = { connection, project };
    if (refs === null) {
      // Events without a baseline (an own update before the first poll): nothing to compare.
      const row = await trx<PollerStateRow>('git_poller_state').where(key).forUpdate().first();
      return expected === null ? row === undefined : row !== undefined && Number(row.generation) === expected;
    }
    const stored = JSON.stringify(Object.fromEntries(refs));
    if (expected === null) {
      const inserted = await trx('git_poller_state')
        .insert({ ...key, refs: stored, generation: 1, updated: now })
        .onConflict(['connection', 'project'])
        .ignore()
        .returning('generation');
      return inserted.length === 1;
    }
    // The row lock of the UPDATE makes concurrent savers wait; the loser re-reads a moved generation.
    const updated = await trx('git_poller_state')
      .where({ ...key, generation: expected })
      .update({ refs: stored, generation: expected + 1, updated: now })
      .returning('generation');
    return updated.length === 1;
  }
}
