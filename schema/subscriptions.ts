/**
 * Subscription fields. Each is authorised when it starts (scope `tenantRead`) and again for
 * every event, reads only its tenant's bus topic, and resolves every event with a fresh context
 * (per-event Pothos caches), so objects are loaded as they are when the event is delivered.
 */
import type { InputObjectRef, ObjectRef } from '@pothos/core';
import { GraphQLError } from 'graphql';
import type { BuildRecord } from '../src/store/repositories/builds';
import { assertStillReadable, readAccessRecheck } from './infra/access';
import { builder, type SchemaTypes } from './infra/builder';
import { filterConditions, type FilterConditions } from './infra/filter-input';
import { Build, BuildFilter } from './build';
import { Buildset, BuildsetFilter } from './buildset';
import type { GraphQLContext } from './infra/context';
import { historyStore } from './infra/history-store';
import type { LiveFeeds, QueueFeedEvent, StatusTick, SystemEventItem, SystemEventTick } from './infra/live-feeds';
import { LiveIterator } from './infra/live-iterator';
import { QueueEventOrResnapshot, type QueueEventItem } from './queue-events';
import { loadStatusSnapshot, restrictToPipeline, type StatusSnapshot } from './infra/status-snapshot';
import { ChangeInterest } from './infra/change-interest';
import { ChangeFilter, sharedQueueDelta } from './infra/queue-delta-feed';
import { TenantStatus } from './status';
import { SystemEvent, SystemEventType } from './system-event';

type Types = PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>;

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

builder.subscriptionFields((t) => ({
  tenantStatus: t.field({
    type: TenantStatus,
    nullable: false,
    description:
      'The tenant status now and after every change, at most once per coalescing interval (default 2 s). A slow client only ever gets the latest. To follow every change, use `queueEvents`.',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      pipeline: t.arg.string({ description: 'Only this pipeline.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: (_root, { tenant }, ctx) =>
      tenantFeed(ctx, tenant, requireLive(ctx).statusChanges(tenant), (tick: StatusTick) => [tick]),
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
      'What changed in the status, item by item and job by job, one `QueueDelta` per scheduler pass (docs/live.md#the-delta-protocol). Take `status { sequence }`, then subscribe with `afterSeq` set to it; after a disconnect, resubscribe with the last sequence you applied. A `ResnapshotRequired` event means deltas were lost.',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      pipeline: t.arg.string({ description: 'Only changes of this pipeline (tenant-level changes always pass).' }),
      change: t.arg.string({ description: 'Only changes of items carrying this change (`N,P` or new revision).' }),
      afterSeq: t.arg.int({ description: 'Replay the deltas after this sequence first (from a bounded buffer).' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: async (_root, { tenant, pipeline, change, afterSeq }, ctx, info) => {
      const live = requireLive(ctx);
      const interest = ChangeInterest.of(info);
      const changeFilter = change ? new ChangeFilter(change) : null;
      changeFilter?.seed(await loadStatusSnapshot(ctx.services, tenant));
      const source = await live.queueEvents(tenant, afterSeq ?? null, ['queue-delta']);
      return tenantFeed(ctx, tenant, source, (event: QueueFeedEvent): QueueEventItem[] => {
        if (event.kind === 'resnapshot') {
          return [{ kind: 'resnapshot', tenant: event.tenant, reason: event.reason, sequence: event.sequence }];
        }
        const { delta } = event;
        if (delta.type !== 'queue-delta') {
          return [];
        }
        const value = changeFilter
          ? changeFilter.filter(delta, pipeline ?? null, interest)
          : sharedQueueDelta(delta, pipeline ?? null, interest);
        return value === null ? [] : [value];
      });
    },
    resolve: (event) => event,
  }),
  buildUpdated: recordUpdatedField(t, {
    type: Build,
    filter: BuildFilter,
    noun: 'build',
    description:
      'Builds of the tenant matching the filter, each time one starts, pauses, resumes or completes (same filter as `Tenant.builds`).',
    matching: async (ctx, tenant, wanted, event) => {
      const build = await buildOf(ctx, tenant, event);
      if (!build || (wanted.uuid && !wanted.uuid.includes(build.uuid))) {
        return null;
      }
      const matches = await historyStore(ctx).builds.count(tenant, { ...wanted, uuid: [build.uuid] });
      return matches > 0 ? build.id : null;
    },
  }),
  buildsetUpdated: recordUpdatedField(t, {
    type: Buildset,
    filter: BuildsetFilter,
    noun: 'buildset',
    description:
      'Buildsets of the tenant matching the filter, each time one is recorded (its job graph is frozen), one of its builds starts, pauses, resumes or completes, or it gets its result (reported, dequeued, merge conflict, configuration error...).',
    matching: async (ctx, tenant, wanted, event) => {
      const recorded = event.kind === 'delta' && event.delta.type === 'buildset-changed' ? event.delta : null;
      const buildsetId = recorded ? recorded.buildsetId : (await buildOf(ctx, tenant, event))?.buildsetId;
      if (buildsetId === undefined) {
        return null;
      }
      if (recorded && recorded.result === null && (await supersededCreation(ctx, buildsetId))) {
        return null;
      }
      const matches = await historyStore(ctx).buildsets.count(tenant, {
        ...wanted,
        idxMin: Math.max(buildsetId, wanted.idxMin ?? 0),
        idxMax: Math.min(buildsetId, wanted.idxMax ?? buildsetId),
      });
      return matches > 0 ? buildsetId : null;
    },
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
      tenantFeed(
        ctx,
        tenant,
        await requireLive(ctx).systemEvents(tenant),
        (item: SystemEventItem): SystemEventTick[] => {
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
      ),
    resolve: (tick: SystemEventTick) => tick.record,
  }),
}));

/** A subscription over one of a tenant's feeds: read access is checked again for every value and when the rules change. */
export function tenantFeed<Source, Value>(
  ctx: GraphQLContext,
  tenant: string,
  source: AsyncIterator<Source>,
  transform: (value: Source) => Promise<readonly Value[]> | readonly Value[],
): LiveIterator<Source, Value> {
  return new LiveIterator(
    source,
    (value: Source) => {
      assertStillReadable(ctx, tenant);
      return transform(value);
    },
    readAccessRecheck(ctx, tenant),
  );
}

/** The arguments of `recordUpdatedField`, whose type Pothos leaves unresolved for a generic filter. */
const updatedArgs = <Filter>(args: object) => args as { tenant: string; filter?: Filter | null };

/**
 * `buildUpdated` and `buildsetUpdated`: for each queue delta, the id of the record it touched when
 * that record matches the filter (`matching` answers null otherwise); the record is loaded as it
 * is when the event is delivered.
 */
function recordUpdatedField<Filter extends object>(
  t: PothosSchemaTypes.SubscriptionFieldBuilder<Types, Types['Root']>,
  spec: {
    type: ObjectRef<Types, number | object, object>;
    filter: InputObjectRef<Types, Filter>;
    noun: 'build' | 'buildset';
    description: string;
    matching: (
      ctx: GraphQLContext,
      tenant: string,
      wanted: FilterConditions<Filter>,
      event: QueueFeedEvent,
    ) => Promise<number | null>;
  },
) {
  return t.field({
    type: spec.type,
    nullable: false,
    description: spec.description,
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      filter: t.arg({ type: spec.filter, description: `Which ${spec.noun}s; all when absent.` }),
    },
    authScopes: (_root, args) => ({ tenantRead: updatedArgs<Filter>(args).tenant }),
    subscribe: async (_root, args, ctx) => {
      const { tenant, filter } = updatedArgs<Filter>(args);
      const wanted = filterConditions(filter);
      const source = await requireLive(ctx).queueEvents(tenant, null);
      return tenantFeed(ctx, tenant, source, async (event: QueueFeedEvent): Promise<number[]> => {
        const id = await spec.matching(ctx, tenant, wanted, event);
        return id === null ? [] : [id];
      });
    },
    resolve: (id: number) => id,
  });
}

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
