/**
 * Lost work (docs/operations.md#lost-work): build requests whose executor stopped heartbeating
 * are ended with `ABORTED`, as the reference ends a lost build request, and the engine retries
 * the build while attempts remain (docs/gating.md#build-completion). A reclaim is one
 * transaction: the dead component's row is locked and checked again (a heartbeat that arrived
 * meanwhile cancels it), each request is completed only if it is still in the state it was
 * found in, its `build-completed` event is written, and the launcher nodes the build held are
 * returned (`used`, their nodeset request deleted). Several processes may reclaim at once:
 * exactly one of them completes each request.
 */
import type { Knex } from 'knex';
import { completedWithoutRun, type BuildCompletedPayload } from '../../model/build-request';
import { pickFields } from '../row-fields';
import { EngineEventRepository } from './engine-events';

/** A worker holding running or paused build requests, with what the store knows of it. */
export interface WorkHolder {
  worker: string;
  /** Its component record, or null when it never registered one. */
  component: {
    hostname: string;
    pid: number;
    state: string;
    heartbeat: Date;
    data: Record<string, unknown>;
  } | null;
  running: number;
  paused: number;
  /** Latest change of any of its requests (the test for holders without a component). */
  lastUpdate: Date;
}

/** How the reclaimer judged the holder: the reclaim goes ahead only if the store still agrees. */
export interface ReclaimJudgement {
  /** The heartbeat seen when judging (null: no component record); a newer one cancels the reclaim. */
  heartbeat: Date | null;
  /** Requests of a holder without a component are reclaimed only when unchanged since before this. */
  unchangedSince: Date;
  /** Also end its paused builds (no live executor is left on its host to continue them). */
  paused: boolean;
  now: Date;
  /** `error_detail` of the ended builds. */
  detail: string;
}

export interface ReclaimedBuild {
  buildUuid: string;
  tenant: string;
  /** The state it was found in. */
  state: 'running' | 'paused';
  nodesReleased: number;
}

interface RequestRow {
  id: number | string;
  build_uuid: string;
  tenant: string;
  state: 'running' | 'paused';
  params: unknown;
  started: Date | null;
  updated: Date;
}

export class LostWorkRepository {
  private readonly events: EngineEventRepository;

  constructor(private readonly knex: Knex) {
    this.events = new EngineEventRepository(knex);
  }

  /** Every worker holding running or paused build requests. */
  async holders(): Promise<WorkHolder[]> {
    const rows = (await this.knex('build_requests as r')
      .leftJoin('components as c', 'c.id', 'r.worker')
      .whereIn('r.state', ['running', 'paused'])
      .whereNotNull('r.worker')
      .groupBy('r.worker', 'c.id')
      .select(
        'r.worker',
        'c.id as component_id',
        'c.hostname',
        'c.pid',
        'c.state as component_state',
        'c.heartbeat',
        'c.data',
        this.knex.raw("count(*) filter (where r.state = 'running') as running"),
        this.knex.raw("count(*) filter (where r.state = 'paused') as paused"),
        this.knex.raw('max(r.updated) as last_update'),
      )) as Array<{
      worker: string;
      component_id: string | null;
      hostname: string | null;
      pid: number | null;
      component_state: string | null;
      heartbeat: Date | null;
      data: Record<string, unknown> | null;
      running: string | number;
      paused: string | number;
      last_update: Date | string;
    }>;
    return rows.map((row) => ({
      worker: row.worker,
      component:
        row.component_id === null
          ? null
          : {
              hostname: row.hostname ?? '',
              pid: row.pid ?? 0,
              state: row.component_state ?? '',
              heartbeat: row.heartbeat ?? new Date(0),
              data: row.data ?? {},
            },
      running: Number(row.running),
      paused: Number(row.paused),
      lastUpdate: new Date(row.last_update),
    }));
  }

  /** Hostnames with a live executor component (heartbeat at or after `since`, not stopped). */
  async hostsWithLiveExecutors(since: Date): Promise<Set<string>> {
    const hosts: string[] = await this.knex('components')
      .where({ kind: 'executor' })
      .where('heartbeat', '>=', since)
      .whereNot('state', 'stopped')
      .distinct()
      .pluck('hostname');
    return new Set(hosts);
  }

  /** Launchers (with a component record) holding image uploads in `uploading`. */
  async uploadHolders(): Promise<Array<{ holder: string; component: NonNullable<WorkHolder['component']> }>> {
    const rows = (await this.knex('image_uploads as u')
      .join('components as c', 'c.id', 'u.lock_holder')
      .where('u.state', 'uploading')
      .distinct('u.lock_holder', 'c.hostname', 'c.pid', 'c.state', 'c.heartbeat', 'c.data')) as Array<{
      lock_holder: string;
      hostname: string;
      pid: number;
      state: string;
      heartbeat: Date;
      data: Record<string, unknown>;
    }>;
    return rows.map((row) => ({
      holder: row.lock_holder,
      component: { hostname: row.hostname, pid: row.pid, state: row.state, heartbeat: row.heartbeat, data: row.data },
    }));
  }

  /**
   * Put the uploads a dead launcher was copying back to `pending` (docs/launcher.md#images step 4),
   * unless its heartbeat moved since `heartbeat`; resolves with how many.
   */
  async releaseUploads(holder: string, heartbeat: Date, now: Date): Promise<number> {
    return this.knex.transaction(async (trx) => {
      const component = await trx('components').where({ id: holder }).forUpdate().first('heartbeat', 'state');
      if (!stillJudgedDead(component as { heartbeat: Date; state: string } | undefined, heartbeat)) {
        return 0;
      }
      const released = await trx('image_uploads')
        .where({ lock_holder: holder, state: 'uploading' })
        .update({ state: 'pending', lock_holder: null, state_time: now })
        .returning('uuid');
      return released.length;
    });
  }

  /**
   * Return launcher nodes left `in-use` by a build that ended, when whoever should have returned
   * them is gone (a scheduler that died between storing a result and returning the nodes): no
   * requested, running or paused build uses them, and the last build of their lock holder that
   * used them ended before `cutoff` (or none did and they were locked before it). Resolves with
   * the nodes returned.
   */
  async releaseStrandedNodes(cutoff: Date, now: Date): Promise<string[]> {
    const candidates: Array<{ uuid: string; lock_holder: string | null }> = await this.knex('nodes')
      .where({ state: 'in-use' })
      .where('state_time', '<', cutoff)
      .select('uuid', 'lock_holder');
    const released: string[] = [];
    for (const node of candidates) {
      const usedBy = JSON.stringify({ nodes: [{ id: node.uuid }] });
      const open = await this.knex('build_requests')
        .whereIn('state', ['requested', 'running', 'paused'])
        .whereRaw('params @> ?::jsonb', [usedBy])
        .first('id');
      if (open) {
        continue;
      }
      const last = node.lock_holder
        ? ((await this.knex('build_requests')
            .where({ worker: node.lock_holder, state: 'completed' })
            .whereRaw('params @> ?::jsonb', [usedBy])
            .max({ completed: 'completed' })
            .first()) as { completed: Date | null } | undefined)
        : undefined;
      if (last?.completed && new Date(last.completed) >= cutoff) {
        continue; // Ended recently: the engine returns them (or holds them for an autohold).
      }
      const returned = await this.knex.transaction(async (trx) => {
        const locked = await trx('nodes')
          .where({ uuid: node.uuid })
          .forUpdate()
          .skipLocked()
          .first('state', 'lock_holder');
        if (locked?.state !== 'in-use' || locked.lock_holder !== node.lock_holder) {
          return false;
        }
        return (await releaseNodes(trx, [node.uuid], now)) > 0;
      });
      if (returned) {
        released.push(node.uuid);
      }
    }
    return released;
  }

  /** End the lost builds of `worker` as judged (see the file comment); returns what was ended. */
  async reclaim(worker: string, judgement: ReclaimJudgement): Promise<ReclaimedBuild[]> {
    return this.knex.transaction(async (trx) => {
      const component = await trx('components').where({ id: worker }).forUpdate().first('heartbeat', 'state');
      if (!stillJudgedDead(component as { heartbeat: Date; state: string } | undefined, judgement.heartbeat)) {
        return [];
      }
      const states = judgement.paused ? ['running', 'paused'] : ['running'];
      const query = trx('build_requests').where('worker', worker).whereIn('state', states);
      if (component === undefined) {
        query.where('updated', '<', judgement.unchangedSince);
      }
      const rows: RequestRow[] = await query.orderBy('id').forUpdate().skipLocked();
      const reclaimed: ReclaimedBuild[] = [];
      for (const row of rows) {
        const ended = await this.endRequest(trx, worker, row, judgement);
        if (ended) {
          reclaimed.push(ended);
        }
      }
      return reclaimed;
    });
  }

  private async endRequest(
    trx: Knex.Transaction,
    worker: string,
    row: RequestRow,
    judgement: ReclaimJudgement,
  ): Promise<ReclaimedBuild | null> {
    const { now } = judgement;
    const updated = await trx('build_requests')
      .where({ id: row.id, state: row.state, worker })
      .update({ state: 'completed', result: 'ABORTED', completed: now, updated: now })
      .returning('id');
    if (updated.length === 0) {
      return null;
    }
    const payload: BuildCompletedPayload = completedWithoutRun(
      { buildUuid: row.build_uuid, tenant: row.tenant, params: row.params },
      {
        result: 'ABORTED',
        startTime: row.started?.toISOString() ?? null,
        endTime: now.toISOString(),
        errorDetail: judgement.detail,
        worker,
      },
    );
    await this.events.append({ tenant: row.tenant, event: { ...payload, type: 'build-completed' }, created: now }, trx);
    return {
      ...pickFields(row, ['buildUuid', 'tenant', 'state']),
      nodesReleased: await releaseNodes(trx, nodeIdsOf(row.params), now),
    };
  }
}

/** The component as the transaction sees it still matches the judgement that it is dead. */
function stillJudgedDead(component: { heartbeat: Date; state: string } | undefined, judged: Date | null): boolean {
  if (component === undefined) {
    return judged === null;
  }
  if (judged === null) {
    return false; // It registered since: judge again.
  }
  return component.state === 'stopped' || new Date(component.heartbeat).getTime() <= judged.getTime();
}

/** Node ids of a stored request's params (empty when there are none or they are unreadable). */
function nodeIdsOf(params: unknown): string[] {
  const nodes = (params as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) {
    return [];
  }
  return nodes.flatMap((node) => {
    const id = (node as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
}

/** Return the build's launcher nodes as the engine would (docs/launcher.md#node-and-request-states). */
async function releaseNodes(trx: Knex.Transaction, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) {
    return 0;
  }
  const held: Array<{ uuid: string; request_uuid: string | null }> = await trx('nodes')
    .whereIn('uuid', ids)
    .whereIn('state', ['in-use', 'ready'])
    .forUpdate()
    .select('uuid', 'request_uuid');
  if (held.length === 0) {
    return 0;
  }
  await trx('nodes')
    .whereIn(
      'uuid',
      held.map((node) => node.uuid),
    )
    .update({ state: 'used', request_uuid: null, lock_holder: null, state_time: now });
  const requests = [...new Set(held.flatMap((node) => (node.request_uuid === null ? [] : [node.request_uuid])))];
  if (requests.length > 0) {
    await trx('nodeset_requests').whereIn('uuid', requests).delete();
  }
  return held.length;
}
