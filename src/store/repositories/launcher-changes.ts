/**
 * The change log of nodes and nodeset requests (docs/live.md#launcher-feeds): every write of a
 * node or a request through their repositories adds a row in the same transaction, so live
 * subscribers in any process learn of it whichever component wrote it. Rows name the record,
 * never its content: subscribers read the record as it is when they deliver the change.
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export type LauncherChangeKind = 'node' | 'nodeset-request';

export interface NewLauncherChange {
  kind: LauncherChangeKind;
  uuid: string;
  /** The record's tenant after the write (null: an unassigned node). */
  tenant: string | null;
  /** The node's provider (null for requests and nodes not placed yet). */
  provider: string | null;
}

export interface LauncherChangeRecord extends NewLauncherChange {
  id: number;
  changedAt: Date;
}

interface LauncherChangeRow {
  id: number | string;
  kind: LauncherChangeKind;
  uuid: string;
  tenant: string | null;
  provider: string | null;
  changed_at: Date;
}

/** Note writes of nodes or requests; `trx` is the transaction of the write. */
export async function recordLauncherChanges(trx: Knex, changes: readonly NewLauncherChange[]): Promise<void> {
  if (changes.length === 0) {
    return;
  }
  await trx('launcher_changes').insert(
    changes.map((change) => ({
      kind: change.kind,
      uuid: change.uuid,
      tenant: change.tenant,
      provider: change.provider,
    })),
  );
}

export class LauncherChangeRepository {
  constructor(private readonly knex: Knex) {}

  /** Changes with an id above `afterId`, oldest first. */
  async listAfter(afterId: number, limit: number): Promise<LauncherChangeRecord[]> {
    const rows: LauncherChangeRow[] = await this.knex('launcher_changes')
      .where('id', '>', afterId)
      .orderBy('id', 'asc')
      .limit(limit);
    return rows.map((row) => ({
      ...pickFields(row, ['id', 'kind', 'uuid', 'tenant', 'provider', 'changedAt']),
      id: Number(row.id),
    }));
  }

  /** The highest change id, or 0. */
  async latestId(): Promise<number> {
    const row = (await this.knex('launcher_changes').max('id as id').first()) as
      { id: number | string | null } | undefined;
    return Number(row?.id ?? 0);
  }

  /**
   * Forget changes older than `seconds` by the database's clock (the one `changed_at` is written
   * with); live readers are long past them.
   */
  async pruneOlderThan(seconds: number): Promise<void> {
    await this.knex('launcher_changes')
      .where('changed_at', '<', this.knex.raw('now() - make_interval(secs => ?)', [seconds]))
      .delete();
  }
}
