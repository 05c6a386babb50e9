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

  async register(record: ComponentRecord): Promise<void> {
    await this.knex('components')
      .insert({ ...record, data: {} })
      .onConflict('id')
      .merge(['state', 'version', 'heartbeat', 'hostname', 'pid']);
  }

  async heartbeat(id: string, at: Date, state?: ComponentState): Promise<void> {
    await this.knex('components')
      .where({ id })
      .update({ heartbeat: at, ...(state ? { state } : {}) });
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
