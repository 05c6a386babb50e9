/**
 * Provider nodes (docs/launcher.md#node-and-request-states, docs/launcher.md#node-life-cycle). Assignment of a ready
 * node to a request is one `UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED)`; a partial unique index on
 * (provider, external_id) makes a second node on the same static host impossible.
 */
import type { Knex } from 'knex';
import type { NodeRecord, NodeState } from '../../model/launcher';
import { fetchIdPage, type KeysetPage } from './history-query';
import { recordLauncherChanges } from './launcher-changes';
import { pickFields } from '../row-fields';

interface NodeRow {
  id: number | string;
  uuid: string;
  tenant: string | null;
  provider: string | null;
  connection: string | null;
  label: string;
  label_config_hash: string | null;
  state: NodeState;
  state_time: Date;
  request_uuid: string | null;
  connection_type: string | null;
  external_id: string | null;
  interface_ip: string | null;
  host: string | null;
  port: number | null;
  username: string | null;
  comment: string | null;
  hold_expiration: number | null;
  hold_request_id: string | null;
  max_ready_age: number | null;
  image_upload_uuid: string | null;
  created: Date | null;
  ready_time: Date | null;
  hold_time: Date | null;
  lock_holder: string | null;
  data: Record<string, unknown>;
}

export interface NewNode {
  uuid: string;
  tenant: string | null;
  provider: string | null;
  connection: string | null;
  label: string;
  labelConfigHash: string | null;
  requestUuid: string | null;
  maxReadyAge: number | null;
  created: Date;
}

export type NodeUpdate = Partial<
  Pick<
    NodeRecord,
    | 'state'
    | 'tenant'
    | 'provider'
    | 'requestUuid'
    | 'connectionType'
    | 'externalId'
    | 'interfaceIp'
    | 'host'
    | 'port'
    | 'username'
    | 'comment'
    | 'holdExpiration'
    | 'holdRequestId'
    | 'imageUploadUuid'
    | 'readyTime'
    | 'holdTime'
    | 'lockHolder'
    | 'data'
  >
>;

export interface NodeFilter {
  states?: NodeState[];
  labels?: string[];
  providers?: string[];
  /** Only these nodes (a live subscription reading the nodes that changed). */
  uuids?: readonly string[];
}

const COLUMN_OF: Record<keyof NodeUpdate, string> = {
  state: 'state',
  tenant: 'tenant',
  provider: 'provider',
  requestUuid: 'request_uuid',
  connectionType: 'connection_type',
  externalId: 'external_id',
  interfaceIp: 'interface_ip',
  host: 'host',
  port: 'port',
  username: 'username',
  comment: 'comment',
  holdExpiration: 'hold_expiration',
  holdRequestId: 'hold_request_id',
  imageUploadUuid: 'image_upload_uuid',
  readyTime: 'ready_time',
  holdTime: 'hold_time',
  lockHolder: 'lock_holder',
  data: 'data',
};

function toRecord(row: NodeRow): NodeRecord {
  return {
    ...pickFields(row, [
      'id',
      'uuid',
      'tenant',
      'provider',
      'connection',
      'label',
      'labelConfigHash',
      'state',
      'stateTime',
      'requestUuid',
      'connectionType',
      'externalId',
      'interfaceIp',
      'host',
      'port',
      'username',
      'comment',
      'holdExpiration',
      'holdRequestId',
      'maxReadyAge',
      'imageUploadUuid',
      'created',
      'readyTime',
      'holdTime',
      'lockHolder',
      'data',
    ]),
    id: Number(row.id),
  };
}

function applyFilter(query: Knex.QueryBuilder, filter: NodeFilter): Knex.QueryBuilder {
  if (filter.states && filter.states.length > 0) {
    query.whereIn('state', filter.states);
  }
  if (filter.labels && filter.labels.length > 0) {
    query.whereIn('label', filter.labels);
  }
  if (filter.providers && filter.providers.length > 0) {
    query.whereIn('provider', filter.providers);
  }
  if (filter.uuids) {
    query.whereIn('uuid', filter.uuids);
  }
  return query;
}

type ChangedNode = Pick<NodeRow, 'uuid' | 'tenant' | 'provider'>;
const CHANGE_COLUMNS = ['uuid', 'tenant', 'provider'];

/** Every write of a node goes to the change log live subscribers follow (docs/live.md#launcher-feeds). */
function noteChanges(trx: Knex, nodes: readonly ChangedNode[]): Promise<void> {
  return recordLauncherChanges(
    trx,
    nodes.map((node) => ({ kind: 'node', uuid: node.uuid, tenant: node.tenant, provider: node.provider })),
  );
}

export class NodeRepository {
  constructor(private readonly knex: Knex) {}

  async create(input: NewNode, now: Date, trx: Knex = this.knex): Promise<NodeRecord> {
    const [row]: NodeRow[] = await trx('nodes')
      .insert({
        uuid: input.uuid,
        tenant: input.tenant,
        provider: input.provider,
        connection: input.connection,
        label: input.label,
        label_config_hash: input.labelConfigHash,
        state: 'requested',
        state_time: now,
        request_uuid: input.requestUuid,
        max_ready_age: input.maxReadyAge,
        created: input.created,
        data: {},
      })
      .returning('*');
    await noteChanges(trx, [row]);
    return toRecord(row);
  }

  async get(uuid: string, trx: Knex = this.knex): Promise<NodeRecord | null> {
    const row: NodeRow | undefined = await trx('nodes').where({ uuid }).first();
    return row ? toRecord(row) : null;
  }

  async getMany(uuids: readonly string[], trx: Knex = this.knex): Promise<NodeRecord[]> {
    if (uuids.length === 0) {
      return [];
    }
    const rows: NodeRow[] = await trx('nodes').whereIn('uuid', uuids);
    return rows.map(toRecord);
  }

  /** Lock one node for this transaction; `skipLocked` makes a busy node read as absent. */
  async lock(uuid: string, trx: Knex.Transaction, options: { skipLocked?: boolean } = {}): Promise<NodeRecord | null> {
    const query = trx('nodes').where({ uuid }).forUpdate();
    if (options.skipLocked) {
      query.skipLocked();
    }
    const row: NodeRow | undefined = await query.first();
    return row ? toRecord(row) : null;
  }

  /**
   * Update a node. With `expectState`, only when it is still in that state (returns false otherwise),
   * so a state change never overwrites a concurrent one.
   */
  async update(
    uuid: string,
    changes: NodeUpdate,
    now: Date,
    trx: Knex = this.knex,
    expectState?: NodeState,
  ): Promise<boolean> {
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changes) as Array<[keyof NodeUpdate, unknown]>) {
      if (value === undefined) {
        continue;
      }
      row[COLUMN_OF[key]] = value;
    }
    if (changes.state !== undefined) {
      row.state_time = now;
    }
    const query = trx('nodes').where({ uuid });
    if (expectState !== undefined) {
      query.where({ state: expectState });
    }
    const updated: ChangedNode[] = await query.update(row).returning(CHANGE_COLUMNS);
    // Who holds the lock is no news to anyone watching (the launcher takes and drops it each pass).
    const lockOnly = Object.keys(row).every((column) => column === 'lock_holder');
    if (!lockOnly) {
      await noteChanges(trx, updated);
    }
    return updated.length > 0;
  }

  async delete(uuid: string, trx: Knex = this.knex): Promise<void> {
    await noteChanges(trx, await trx('nodes').where({ uuid }).delete().returning(CHANGE_COLUMNS));
  }

  /** Nodes whose uuid the launcher should look at: not ready-and-idle nor in use. */
  async actionableUuids(states: readonly NodeState[], limit: number): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await this.knex('nodes')
      .whereIn('state', states)
      .orderBy('id')
      .limit(limit)
      .select('uuid');
    return rows.map((r) => r.uuid);
  }

  async listByStates(states: readonly NodeState[], trx: Knex = this.knex): Promise<NodeRecord[]> {
    const rows: NodeRow[] = await trx('nodes').whereIn('state', states).orderBy('id');
    return rows.map(toRecord);
  }

  async listByRequest(requestUuid: string, trx: Knex = this.knex): Promise<NodeRecord[]> {
    const rows: NodeRow[] = await trx('nodes').where({ request_uuid: requestUuid }).orderBy('id');
    return rows.map(toRecord);
  }

  /**
   * Assign one unassigned ready node of the label on one of the providers to a request, atomically:
   * concurrent claims never get the same node.
   */
  async claimReady(
    input: {
      label: string;
      providers: readonly string[];
      labelConfigHashes: readonly string[];
      tenant: string;
      requestUuid: string;
    },
    now: Date,
    trx: Knex,
  ): Promise<NodeRecord | null> {
    if (input.providers.length === 0) {
      return null;
    }
    const candidate = trx('nodes')
      .select('id')
      .where({ state: 'ready', label: input.label })
      .whereNull('request_uuid')
      .whereIn('provider', input.providers)
      .whereIn('label_config_hash', input.labelConfigHashes)
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked();
    const rows: NodeRow[] = await trx('nodes')
      .whereIn('id', candidate)
      .update({ request_uuid: input.requestUuid, tenant: input.tenant, state_time: now })
      .returning('*');
    await noteChanges(trx, rows);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Count nodes per provider in the given states (quota use). */
  async countByProvider(states: readonly NodeState[], trx: Knex = this.knex): Promise<Map<string, number>> {
    const rows: Array<{ provider: string | null; count: string | number }> = await trx('nodes')
      .whereIn('state', states)
      .whereNotNull('provider')
      .groupBy('provider')
      .select('provider')
      .count({ count: '*' });
    return new Map(rows.filter((r) => r.provider !== null).map((r) => [r.provider as string, Number(r.count)]));
  }

  /** External ids (static hosts) of a provider held by live nodes. */
  async externalIdsInUse(provider: string, trx: Knex = this.knex): Promise<Set<string>> {
    const rows: Array<{ external_id: string }> = await trx('nodes')
      .where({ provider })
      .whereNotNull('external_id')
      .select('external_id');
    return new Set(rows.map((r) => r.external_id));
  }

  /** Unassigned nodes of a label (any state but failed/deleting), for min-ready. */
  async countUnassigned(label: string, labelConfigHashes: readonly string[], trx: Knex = this.knex): Promise<number> {
    const [row] = (await trx('nodes')
      .where({ label })
      .whereNull('request_uuid')
      .whereIn('state', ['requested', 'building', 'ready'])
      .whereIn('label_config_hash', labelConfigHashes)
      .count({ count: '*' })) as Array<{ count: string | number }>;
    return Number(row.count);
  }

  /** Nodes booted from an image upload that still exist (deletion guard). */
  async countUsingUploads(uploadUuids: readonly string[], trx: Knex = this.knex): Promise<number> {
    if (uploadUuids.length === 0) {
      return 0;
    }
    const [row] = (await trx('nodes').whereIn('image_upload_uuid', uploadUuids).count({ count: '*' })) as Array<{
      count: string | number;
    }>;
    return Number(row.count);
  }

  /** Nodes assigned to a tenant or unassigned on one of its providers, newest first (keyset page on id). */
  async list(
    tenant: string,
    providers: readonly string[],
    filter: NodeFilter,
    page: KeysetPage<number>,
  ): Promise<NodeRecord[]> {
    const query = this.knex('nodes').where((q) => {
      q.where({ tenant });
      if (providers.length > 0) {
        q.orWhere((inner) => inner.whereNull('tenant').whereIn('provider', providers));
      }
    });
    applyFilter(query, filter);
    const rows = await fetchIdPage<NodeRow & { id: number }>(query, 'id', page);
    return rows.map(toRecord);
  }

  async count(tenant: string, providers: readonly string[], filter: NodeFilter): Promise<number> {
    const query = this.knex('nodes').where((q) => {
      q.where({ tenant });
      if (providers.length > 0) {
        q.orWhere((inner) => inner.whereNull('tenant').whereIn('provider', providers));
      }
    });
    applyFilter(query, filter);
    const [row] = (await query.count({ count: '*' })) as Array<{ count: string | number }>;
    return Number(row.count);
  }
}
