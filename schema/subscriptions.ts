/**
 * Subscription fields. Each is authorised when it starts (scope `tenantRead`) and again for
 * every event, reads only its tenant's bus topic, and resolves every event with a fresh context
 * (per-event Pothos caches), so objects are loaded as they are when the event is delivered.
 */
import { GraphQLError } from 'graphql';
import type { EngineDelta } from '../src/engine/event-bus';
import type { BuildRecord } from '../src/store/repositories/builds';
import { assertStillReadable, readAccessRecheck } from './infra/access';
import { builder } from './infra/builder';
import { filterConditions } from './infra/filter-input';
import { Build, BuildFilter } from './build';
import { Buildset, BuildsetFilter } from './buildset';
import type { GraphQLContext } from './infra/context';
import { historyStore } from './infra/history-store';
import type { LiveFeeds, QueueFeedEvent, StatusTick, SystemEventItem, SystemEventTick } from './infra/live-feeds';
import { LiveIterator } from './infra/live-iterator';
import { QueueEventOrResnapshot, withState, type QueueEventItem } from './queue-events';
import { loadStatusSnapshot, restrictToPipeline, type StatusSnapshot } from './infra/status-snapshot';
import { TenantStatus } from './status';
import { SystemEvent, SystemEventType } from './system-event';

/** The live feeds of this process, or a SERVICE_UNAVAILABLE error. */
export function requireLive(ctx: GraphQLContext): LiveFeeds {
  if (!ctx.services.live) {
    throw new GraphQLError('Live feeds are not available in this process', {
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  }
  return ctx.services.live;
}

/** The current status, loaded once per tenant state version for all subscribers of this process. */
function sharedSnapshot(ctx: GraphQLContext, tenant: string): Promise<StatusSnapshot | null> {
  return requireLive(ctx).shared(tenant, 'status', () => loadStatusSnapshot(ctx.services, tenant));
}

/** Current state attached to a delta so the client can apply it by replacement. */
async function withCurrentState(ctx: GraphQLContext, delta: EngineDelta): Promise<QueueEventItem> {
  const snapshot = await sharedSnapshot(ctx, delta.tenant);
  const pipelineName = 'pipeline' in delta ? delta.pipeline : null;
  const pipelineStatus =
    pipelineName === null
      ? null
      : (snapshot?.status.pipelines.find((pipeline) => pipeline.name === pipelineName) ?? null);
  return { kind: 'delta', value: withState(delta, { pipelineStatus, tenantState: snapshot?.status.state ?? null }) };
}

/** Filters deltas by change: remembers which items carry the change. */
class ChangeFilter {
  private readonly items = new Set<string>();

  constructor(private readonly change: string) {}

  seed(snapshot: StatusSnapshot | null): void {
    for (const pipeline of snapshot?.status.pipelines ?? []) {
      for (const queue of pipeline.changeQueues) {
        for (const item of queue.heads.flat()) {
          if (item.refs.some((ref) => ref.id === this.change)) {
            this.items.add(item.id);
          }
        }
      }
    }
  }

  accepts(delta: EngineDelta): boolean {
    if (delta.type === 'item-enqueued' && delta.changeIds.includes(this.change)) {
      this.items.add(delta.itemUuid);
    }
    return 'itemUuid' in delta && this.items.has(delta.itemUuid);
  }
}

builder.subscriptionFields((t) => ({
  tenantStatus: t.field({
    type: TenantStatus,
    nullable: false,
    description:
      'The tenant status now and after every change, at most once per coalescing interval (default 250 ms). A slow client only ever gets the latest.',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      pipeline: t.arg.string({ description: 'Only this pipeline.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: (_root, { tenant }, ctx) =>
      new LiveIterator(
        requireLive(ctx).statusChanges(tenant),
        (tick: StatusTick) => {
          assertStillReadable(ctx, tenant);
          return [tick];
        },
        readAccessRecheck(ctx, tenant),
      ),
    resolve: async (_tick, { tenant, pipeline }, ctx) => {
      const snapshot = await sharedSnapshot(ctx, tenant);
      if (!snapshot) {
        throw new GraphQLError('Tenant not loaded', { extensions: { code: 'NOT_FOUND' } });
      }
      return restrictToPipeline(snapshot, pipeline);
    },
  }),
  queueEvents: t.field({
    type: QueueEventOrResnapshot,
    nullable: false,
    description:
      'Typed queue deltas with tenant-wide sequence numbers. Take `status { sequence }`, then subscribe with `afterSeq` set to it; after a disconnect, resubscribe with the last sequence you applied. A `ResnapshotRequired` event means deltas were lost.',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      pipeline: t.arg.string({ description: 'Only deltas of this pipeline (tenant-level deltas always pass).' }),
      change: t.arg.string({ description: 'Only deltas of items carrying this change (`N,P` or new revision).' }),
      afterSeq: t.arg.int({ description: 'Replay the deltas after this sequence first (from a bounded buffer).' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: async (_root, { tenant, pipeline, change, afterSeq }, ctx) => {
      const live = requireLive(ctx);
      const changeFilter = change ? new ChangeFilter(change) : null;
      changeFilter?.seed(await loadStatusSnapshot(ctx.services, tenant));
      const source = await live.queueEvents(tenant, afterSeq ?? null);
      return new LiveIterator(
        source,
        async (event: QueueFeedEvent): Promise<QueueEventItem[]> => {
          assertStillReadable(ctx, tenant);
          if (event.kind === 'resnapshot') {
            return [
              { kind: 'resnapshot', value: { tenant: event.tenant, reason: event.reason, sequence: event.sequence } },
            ];
          }
          const { delta } = event;
          if (pipeline && 'pipeline' in delta && delta.pipeline !== pipeline) {
            return [];
          }
          if (changeFilter && !changeFilter.accepts(delta)) {
            return [];
          }
          return [await withCurrentState(ctx, delta)];
        },
        readAccessRecheck(ctx, tenant),
      );
    },
    resolve: (event) => event.value,
  }),
  buildUpdated: t.field({
    type: Build,
    nullable: false,
    description:
      'Builds of the tenant matching the filter, each time one starts, pauses, resumes or completes (same filter as `Tenant.builds`).',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      filter: t.arg({ type: BuildFilter, description: 'Which builds; all when absent.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: async (_root, { tenant, filter }, ctx) => {
      const wanted = filterConditions(filter);
      const source = await requireLive(ctx).queueEvents(tenant, null);
      return new LiveIterator(
        source,
        async (event: QueueFeedEvent): Promise<number[]> => {
          assertStillReadable(ctx, tenant);
          const build = await buildOf(ctx, tenant, event);
          if (!build || (wanted.uuid && !wanted.uuid.includes(build.uuid))) {
            return [];
          }
          const { builds } = historyStore(ctx);
          const matches = await builds.count(tenant, { ...wanted, uuid: [build.uuid] });
          return matches > 0 ? [build.id] : [];
        },
        readAccessRecheck(ctx, tenant),
      );
    },
    resolve: (buildId) => buildId,
  }),
  buildsetUpdated: t.field({
    type: Buildset,
    nullable: false,
    description:
      'Buildsets of the tenant matching the filter, each time one is recorded (its job graph is frozen), one of its builds starts, pauses, resumes or completes, or it gets its result (reported, dequeued, merge conflict, configuration error...).',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      filter: t.arg({ type: BuildsetFilter, description: 'Which buildsets; all when absent.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: async (_root, { tenant, filter }, ctx) => {
      const wanted = filterConditions(filter);
      const source = await requireLive(ctx).queueEvents(tenant, null);
      return new LiveIterator(
        source,
        async (event: QueueFeedEvent): Promise<number[]> => {
          assertStillReadable(ctx, tenant);
          const buildsetId =
            event.kind === 'delta' && event.delta.type === 'buildset-changed'
              ? event.delta.buildsetId
              : (await buildOf(ctx, tenant, event))?.buildsetId;
          if (buildsetId === undefined) {
            return [];
          }
          const { buildsets } = historyStore(ctx);
          if (
            event.kind === 'delta' &&
            event.delta.type === 'buildset-changed' &&
            event.delta.result === null &&
            (await supersededCreation(ctx, buildsetId))
          ) {
            return [];
          }
          const matches = await buildsets.count(tenant, {
            ...wanted,
            idxMin: Math.max(buildsetId, wanted.idxMin ?? 0),
            idxMax: Math.min(buildsetId, wanted.idxMax ?? buildsetId),
          });
          return matches > 0 ? [buildsetId] : [];
        },
        readAccessRecheck(ctx, tenant),
      );
    },
    resolve: (buildsetId) => buildsetId,
  }),
  systemEvents: t.field({
    type: SystemEvent,
    nullable: false,
    description:
      'Every system event of the tenant recorded from now on (optionally only some types), once each, in the order they become visible. A subscriber too slow to keep up gets a `SLOW_CONSUMER` error rather than a gap.',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      types: t.arg({ type: [SystemEventType], description: 'Only these kinds of event.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: async (_root, { tenant, types }, ctx) =>
      new LiveIterator(
        await requireLive(ctx).systemEvents(tenant),
        (item: SystemEventItem): SystemEventTick[] => {
          assertStillReadable(ctx, tenant);
          if (item.kind === 'overflow') {
            throw new GraphQLError(
              'This subscription fell too far behind and lost system events; subscribe again and read the missed ones from `Tenant.systemEvents`',
              {
                extensions: { code: 'SLOW_CONSUMER' },
              },
            );
          }
          return !types || types.includes(item.tick.record.eventType) ? [item.tick] : [];
        },
        readAccessRecheck(ctx, tenant),
      ),
    resolve: (tick: SystemEventTick) => tick.record,
  }),
}));

/**
 * Whether a "buildset recorded" delta is followed by another about the same buildset: by the
 * time the delta is delivered its first build started or it has its result (often in the same
 * scheduler pass), and that later delta pushes the buildset; pushing it for both would
 * deliver the same state twice.
 */
async function supersededCreation(ctx: GraphQLContext, buildsetId: number): Promise<boolean> {
  const [buildset] = await historyStore(ctx).buildsets.findByIds([buildsetId]);
  return buildset !== undefined && (buildset.result !== null || buildset.firstBuildStartTime !== null);
}

/** The history row of the build a job delta is about, if any. */
async function buildOf(ctx: GraphQLContext, tenant: string, event: QueueFeedEvent): Promise<BuildRecord | null> {
  if (event.kind !== 'delta') {
    return null;
  }
  const { delta } = event;
  if (
    (delta.type !== 'job-started' &&
      delta.type !== 'job-paused' &&
      delta.type !== 'job-resumed' &&
      delta.type !== 'job-completed') ||
    delta.buildUuid === null
  ) {
    return null;
  }
  return historyStore(ctx).builds.findByUuid(tenant, delta.buildUuid);
}
