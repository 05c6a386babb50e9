/** Registered Sluice processes (components) and their heartbeats. */
import type { Knex } from 'knex';

export type ComponentKind = 'api' | 'scheduler' | 'executor' | 'launcher';
export type ComponentState = 'initializing' | 'running' | 'paused' | 'stopped';

export interface ComponentRecord {
  id: string;
  kind: ComponentKind;
  hostname: string;
  pid: number;
  state: ComponentState;
  version: string;
  started: Date;
  heartbeat: Date;
}

export class ComponentRepository {
  constructor(private readonly knex: Knex) {}

  /** `data` holds what tells whether the process is gone (docs/operations.md#lost-work). */
  async register(record: ComponentRecord, data: Record<string, unknown> = {}): Promise<void> {
    await this.knex('components')
      .insert({ ...record, data: JSON.stringify(data) })
      .onConflict('id')
      .merge(['state', 'version', 'heartbeat', 'hostname', 'pid', 'data']);
  }

  /** Refresh the heartbeat of every component in `ids` (and set their state when given); resolves with the rows found. */
  async heartbeat(ids: string | readonly string[], at: Date, state?: ComponentState): Promise<number> {
    return this.knex('components')
      .whereIn('id', typeof ids === 'string' ? [ids] : ids)
      .update({ heartbeat: at, ...(state ? { state } : {}) });
  }

  /** The records of `ids` with their data (unknown ids are missing from the map). */
  async getMany(ids: readonly string[]): Promise<Map<string, ComponentRecord & { data: Record<string, unknown> }>> {
    if (ids.length === 0) {
      return new Map();
    }
    const rows: Array<ComponentRecord & { data: Record<string, unknown> }> = await this.knex('components')
      .whereIn('id', ids)
      .select('id', 'kind', 'hostname', 'pid', 'state', 'version', 'started', 'heartbeat', 'data');
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Delete components that stopped or whose heartbeat is older than `before`, except `keep`. */
  async deleteDead(before: Date, keep: readonly string[]): Promise<number> {
    return this.knex('components')
      .where((q) => q.where('heartbeat', '<', before).orWhere('state', 'stopped'))
      .whereNotIn('id', keep)
      .delete();
  }

  /** Components whose heartbeat is newer than `since`, oldest registration first. */
  async listAlive(since: Date): Promise<ComponentRecord[]> {
    return this.knex('components')
      .where('heartbeat', '>=', since)
      .whereNot('state', 'stopped')
      .orderBy([{ column: 'kind' }, { column: 'started' }, { column: 'id' }])
      .select('id', 'kind', 'hostname', 'pid', 'state', 'version', 'started', 'heartbeat');
  }
}
