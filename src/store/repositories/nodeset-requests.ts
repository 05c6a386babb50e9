/**
 * Nodeset requests (docs/launcher.md#nodeset-requests, docs/launcher.md#node-and-request-states). Launchers work on a
 * request inside a transaction that holds its row lock (`FOR UPDATE SKIP LOCKED`), so several launcher processes never
 * handle the same request at once.
 */
import type { Knex } from 'knex';
import type { NodesetRequestRecord, NodesetRequestState, ProviderNodeData } from '../../model/launcher';
import { fetchIdPage, type KeysetPage } from './history-query';
import { recordLauncherChanges } from './launcher-changes';
import { pickFields } from '../row-fields';

interface NodesetRequestRow {
  id: number | string;
  uuid: string;
  tenant: string;
  state: NodesetRequestState;
  pipeline_name: string | null;
  buildset_uuid: string | null;
  job_name: string | null;
  project: string | null;
  labels: string[];
  alternatives: string[][];
  alternative_index: number;
  priority: number;
  relative_priority: number;
  zuul_event_id: string | null;
  image_names: string[] | null;
  image_upload_uuid: string | null;
  preferred_provider: string | null;
  provider_node_data: ProviderNodeData[];
  failure_reason: string | null;
  lock_holder: string | null;
  request_time: Date;
  state_time: Date;
}

export interface NewNodesetRequest {
  uuid: string;
  tenant: string;
  pipelineName: string | null;
  buildsetUuid: string | null;
  jobName: string | null;
  project: string | null;
  /** Nodeset alternatives, first choice first; each a list of labels. */
  alternatives: string[][];
  priority: number;
  relativePriority: number;
  zuulEventId: string | null;
  imageNames: string[] | null;
  imageUploadUuid: string | null;
  preferredProvider: string | null;
  requestTime: Date;
}

export interface NodesetRequestFilter {
  states?: NodesetRequestState[];
  /** Only these requests (a live subscription reading the requests that changed). */
  uuids?: readonly string[];
}

function applyFilter(query: Knex.QueryBuilder, filter: NodesetRequestFilter): Knex.QueryBuilder {
  if (filter.states && filter.states.length > 0) {
    query.whereIn('state', filter.states);
  }
  if (filter.uuids) {
    query.whereIn('uuid', filter.uuids);
  }
  return query;
}

const OPEN_STATES: NodesetRequestState[] = ['requested', 'accepted'];

function toRecord(row: NodesetRequestRow): NodesetRequestRecord {
  return {
    ...pickFields(row, [
      'id',
      'uuid',
      'tenant',
      'state',
      'pipelineName',
      'buildsetUuid',
      'jobName',
      'project',
      'labels',
      'alternatives',
      'alternativeIndex',
      'priority',
      'relativePriority',
      'zuulEventId',
      'imageNames',
      'imageUploadUuid',
      'preferredProvider',
      'providerNodeData',
      'failureReason',
      'lockHolder',
      'requestTime',
      'stateTime',
    ]),
    id: Number(row.id),
  };
}

/** Every write of a request goes to the change log live subscribers follow (docs/live.md#launcher-feeds). */
function noteChanges(trx: Knex, requests: ReadonlyArray<{ uuid: string; tenant: string }>): Promise<void> {
  return recordLauncherChanges(
    trx,
    requests.map((request) => ({
      kind: 'nodeset-request',
      uuid: request.uuid,
      tenant: request.tenant,
      provider: null,
    })),
  );
}

export class NodesetRequestRepository {
  constructor(private readonly knex: Knex) {}

  /** Create a request; idempotent by uuid (a re-sent request returns the stored one). */
  async create(input: NewNodesetRequest, trx: Knex = this.knex): Promise<NodesetRequestRecord> {
    const labels = input.alternatives[0] ?? [];
    const empty = labels.length === 0;
    await trx('nodeset_requests')
      .insert({
        uuid: input.uuid,
        tenant: input.tenant,
        state: empty ? 'fulfilled' : 'requested',
        pipeline_name: input.pipelineName,
        buildset_uuid: input.buildsetUuid,
        job_name: input.jobName,
        project: input.project,
        labels: JSON.stringify(labels),
        alternatives: JSON.stringify(input.alternatives),
        alternative_index: 0,
        priority: input.priority,
        relative_priority: input.relativePriority,
        zuul_event_id: input.zuulEventId,
        image_names: input.imageNames === null ? null : JSON.stringify(input.imageNames),
        image_upload_uuid: input.imageUploadUuid,
        preferred_provider: input.preferredProvider,
        provider_node_data: JSON.stringify(
          labels.map(() => ({ uuid: null, executor_zone: null, failed_providers: [] })),
        ),
        request_time: input.requestTime,
        state_time: input.requestTime,
      })
      .onConflict('uuid')
      .ignore();
    const stored = await this.get(input.uuid, trx);
    if (!stored) {
      throw new Error(`nodeset request ${input.uuid} vanished after insert`);
    }
    await noteChanges(trx, [stored]);
    return stored;
  }

  async get(uuid: string, trx: Knex = this.knex): Promise<NodesetRequestRecord | null> {
    const row: NodesetRequestRow | undefined = await trx('nodeset_requests').where({ uuid }).first();
    return row ? toRecord(row) : null;
  }

  /** Open requests (requested, accepted) in processing order: priority, relative priority, age. */
  async openUuids(limit: number): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await this.knex('nodeset_requests')
      .whereIn('state', OPEN_STATES)
      .orderBy([{ column: 'priority' }, { column: 'relative_priority' }, { column: 'request_time' }, { column: 'id' }])
      .limit(limit)
      .select('uuid');
    return rows.map((r) => r.uuid);
  }

  /** Lock an open request for this transaction; null when another launcher holds it or it is closed. */
  async lockOpen(uuid: string, holder: string, trx: Knex.Transaction): Promise<NodesetRequestRecord | null> {
    const row: NodesetRequestRow | undefined = await trx('nodeset_requests')
      .where({ uuid })
      .whereIn('state', OPEN_STATES)
      .forUpdate()
      .skipLocked()
      .first();
    if (!row) {
      return null;
    }
    await trx('nodeset_requests').where({ uuid }).update({ lock_holder: holder });
    return toRecord({ ...row, lock_holder: holder });
  }

  /** Lock any request of a tenant (admin operations); waits for a launcher holding it. */
  async lockForTenant(tenant: string, uuid: string, trx: Knex.Transaction): Promise<NodesetRequestRecord | null> {
    const row: NodesetRequestRow | undefined = await trx('nodeset_requests')
      .where({ tenant, uuid })
      .forUpdate()
      .first();
    return row ? toRecord(row) : null;
  }

  async update(
    uuid: string,
    changes: Partial<
      Pick<
        NodesetRequestRecord,
        | 'state'
        | 'providerNodeData'
        | 'failureReason'
        | 'relativePriority'
        | 'labels'
        | 'alternativeIndex'
        | 'lockHolder'
      >
    >,
    now: Date,
    trx: Knex = this.knex,
  ): Promise<void> {
    const row: Record<string, unknown> = {};
    if (changes.state !== undefined) {
      row.state = changes.state;
      row.state_time = now;
    }
    if (changes.providerNodeData !== undefined) {
      row.provider_node_data = JSON.stringify(changes.providerNodeData);
    }
    if (changes.failureReason !== undefined) {
      row.failure_reason = changes.failureReason;
    }
    if (changes.relativePriority !== undefined) {
      row.relative_priority = changes.relativePriority;
    }
    if (changes.labels !== undefined) {
      row.labels = JSON.stringify(changes.labels);
    }
    if (changes.alternativeIndex !== undefined) {
      row.alternative_index = changes.alternativeIndex;
    }
    if (changes.lockHolder !== undefined) {
      row.lock_holder = changes.lockHolder;
    }
    const updated: Array<{ uuid: string; tenant: string }> = await trx('nodeset_requests')
      .where({ uuid })
      .update(row)
      .returning(['uuid', 'tenant']);
    // Who holds the lock is no news to anyone watching (the launcher takes and drops it each pass).
    if (!Object.keys(row).every((column) => column === 'lock_holder')) {
      await noteChanges(trx, updated);
    }
  }

  async delete(uuid: string, trx: Knex = this.knex): Promise<boolean> {
    const deleted: Array<{ uuid: string; tenant: string }> = await trx('nodeset_requests')
      .where({ uuid })
      .delete()
      .returning(['uuid', 'tenant']);
    await noteChanges(trx, deleted);
    return deleted.length > 0;
  }

  /** Requests of a tenant, newest first (keyset page on id). */
  async list(tenant: string, filter: NodesetRequestFilter, page: KeysetPage<number>): Promise<NodesetRequestRecord[]> {
    const query = applyFilter(this.knex('nodeset_requests').where({ tenant }), filter);
    const rows = await fetchIdPage<NodesetRequestRow & { id: number }>(query, 'id', page);
    return rows.map(toRecord);
  }

  async count(tenant: string, filter: NodesetRequestFilter): Promise<number> {
    const query = applyFilter(this.knex('nodeset_requests').where({ tenant }), filter);
    const [row] = (await query.count({ count: '*' })) as Array<{ count: string | number }>;
    return Number(row.count);
  }

  /**
   * Open requests of the same tenant, pipeline and project that are older than this one, counted
   * by buildset: the request's position among its project's queued work (relative priority,
   * docs/launcher.md#nodeset-requests).
   */
  async buildsetsAhead(
    request: Pick<NodesetRequestRecord, 'tenant' | 'pipelineName' | 'project' | 'buildsetUuid' | 'requestTime'> & {
      id?: number;
    },
    trx: Knex = this.knex,
  ): Promise<number> {
    if (request.project === null || request.pipelineName === null) {
      return 0;
    }
    const id = request.id;
    const [row] = (await trx('nodeset_requests')
      .where({ tenant: request.tenant, pipeline_name: request.pipelineName, project: request.project })
      .whereIn('state', OPEN_STATES)
      // Of requests made at one instant the lower id is older (a request not stored yet is the newest).
      .where((older) =>
        older.where('request_time', '<', request.requestTime).orWhere((same) => {
          same.where('request_time', request.requestTime);
          if (id !== undefined) {
            same.where('id', '<', id);
          }
        }),
      )
      .whereNot('buildset_uuid', request.buildsetUuid ?? '')
      .countDistinct({ count: 'buildset_uuid' })) as Array<{ count: string | number }>;
    return Number(row.count);
  }

  /** Every open request (relative priority revision). */
  async listOpen(trx: Knex = this.knex): Promise<NodesetRequestRecord[]> {
    const rows: NodesetRequestRow[] = await trx('nodeset_requests').whereIn('state', OPEN_STATES).orderBy('id');
    return rows.map(toRecord);
  }
}
