/**
 * Live lists of nodes and nodeset requests (docs/live.md#launcher-feeds): `nodeEvents` and
 * `nodesetRequestEvents` send a page of the list at once, then every change of a record of the
 * tenant as the record now is (or its removal from the list). Changes come from the change log
 * every write of a node or request adds (whatever process wrote it), read through the live hub.
 */
import type { ObjectRef } from '@pothos/core';
import { GraphQLError } from 'graphql';
import type { GraphQLContext } from './infra/context';
import type { NodeRecord, NodeState, NodesetRequestRecord, NodesetRequestState } from '../src/model/launcher';
import { createRepositories, providersOf } from '../src/launcher/context';
import type { LauncherChangeKind, LauncherChangeRecord } from '../src/store/repositories/launcher-changes';
import { assertStillReadable, readAccessRecheck } from './infra/access';
import { builder, type SchemaTypes } from './infra/builder';
import { filterConditions } from './infra/filter-input';
import type { LauncherChangeItem } from './infra/live-feeds';
import { LiveIterator } from './infra/live-iterator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './infra/pagination';
import { NodeFilter, NodesetRequestFilter, NodesetRequest, ProviderNode } from './launcher-runtime';
import { requireLive } from './subscriptions';

/** What a live list sends: a page of the list, or one record that changed. */
type ListEvent<R> =
  | { kind: 'snapshot'; records: R[]; totalCount: number }
  | { kind: 'change'; uuid: string; record: R | null; totalCount: number };

/** Only these records: how a live list reads the record a change is about. */
interface UuidFilter {
  uuids?: readonly string[];
}

/** How one live list reads its records. */
interface LiveList<R, F> {
  kind: LauncherChangeKind;
  /** Whether a change may concern the tenant's list (the record is read to be sure). */
  concerns(ctx: GraphQLContext, tenant: string, change: LauncherChangeRecord): boolean;
  page(ctx: GraphQLContext, tenant: string, filter: F & UuidFilter, first: number, offset: number): Promise<R[]>;
  count(ctx: GraphQLContext, tenant: string, filter: F): Promise<number>;
}

function tenantProviders(ctx: GraphQLContext, tenant: string): string[] {
  return providersOf({ layouts: ctx.services.tenants, config: ctx.services.config }, tenant).map(
    (provider) => provider.canonicalName,
  );
}

interface NodeListFilter {
  states?: NodeState[];
  labels?: string[];
  providers?: string[];
}

const NODES: LiveList<NodeRecord, NodeListFilter> = {
  kind: 'node',
  // Unassigned nodes of the tenant's providers are on its list too (`Tenant.nodes`).
  concerns: (ctx, tenant, change) =>
    change.tenant === tenant || (change.provider !== null && tenantProviders(ctx, tenant).includes(change.provider)),
  page: (ctx, tenant, filter, first, offset) =>
    createRepositories(ctx.services.knex).nodes.list(tenant, tenantProviders(ctx, tenant), filter, {
      limit: first,
      offset,
      fromEnd: false,
    }),
  count: (ctx, tenant, filter) =>
    createRepositories(ctx.services.knex).nodes.count(tenant, tenantProviders(ctx, tenant), filter),
};

interface RequestListFilter {
  states?: NodesetRequestState[];
}

const REQUESTS: LiveList<NodesetRequestRecord, RequestListFilter> = {
  kind: 'nodeset-request',
  concerns: (_ctx, tenant, change) => change.tenant === tenant,
  page: (ctx, tenant, filter, first, offset) =>
    createRepositories(ctx.services.knex).requests.list(tenant, filter, { limit: first, offset, fromEnd: false }),
  count: (ctx, tenant, filter) => createRepositories(ctx.services.knex).requests.count(tenant, filter),
};

const START = { kind: 'start' } as const;
type ListSourceItem = LauncherChangeItem | typeof START;

/** `first`, then the source's values; ending it ends the source. */
function startingWith(first: ListSourceItem, source: AsyncIterator<LauncherChangeItem>): AsyncIterator<ListSourceItem> {
  let started = false;
  return {
    next: () => {
      if (!started) {
        started = true;
        return Promise.resolve({ value: first, done: false });
      }
      return source.next();
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
  };
}

/** The page size of a live list: DEFAULT_PAGE_SIZE when absent, at most MAX_PAGE_SIZE. */
function pageSize(first: number | null | undefined, offset: number | null | undefined): number {
  if ((first ?? 0) < 0 || (offset ?? 0) < 0) {
    throw new GraphQLError('`first` and `offset` must not be negative.', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return Math.min(first ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
}

/**
 * The events of one live list: the page at once (and again when this subscriber fell too far
 * behind), then each change of a record the tenant's list may hold, read when it is delivered.
 * The feed is joined before the page is read, so no change after the page is missed.
 */
async function listEvents<R, F extends object>(
  ctx: GraphQLContext,
  list: LiveList<R, F>,
  args: { tenant: string; filter: F; first: number; offset: number },
): Promise<AsyncIterableIterator<ListEvent<R>>> {
  const { tenant, filter, first, offset } = args;
  const source = await requireLive(ctx).launcherChanges();
  const snapshot = async (): Promise<ListEvent<R>> => ({
    kind: 'snapshot',
    records: await list.page(ctx, tenant, filter, first, offset),
    totalCount: await list.count(ctx, tenant, filter),
  });
  return new LiveIterator(
    startingWith(START, source),
    async (item: ListSourceItem): Promise<Array<ListEvent<R>>> => {
      assertStillReadable(ctx, tenant);
      if (item.kind !== 'change') {
        return [await snapshot()]; // the start, or this subscriber lost changes
      }
      const { change } = item;
      if (change.kind !== list.kind || !list.concerns(ctx, tenant, change)) {
        return [];
      }
      const [record] = await list.page(ctx, tenant, { ...filter, uuids: [change.uuid] }, 1, 0);
      return [
        {
          kind: 'change',
          uuid: change.uuid,
          record: record ?? null,
          totalCount: await list.count(ctx, tenant, filter),
        },
      ];
    },
    readAccessRecheck(ctx, tenant),
  );
}

/** The GraphQL types of one live list: its snapshot, its change and their union. */
function listEventTypes<R>(
  names: { snapshot: string; change: string; union: string; what: string; plural: string },
  recordType: ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>, R>,
) {
  const snapshot = builder.objectRef<Extract<ListEvent<R>, { kind: 'snapshot' }>>(names.snapshot).implement({
    description: `A page of the tenant's ${names.plural}, newest first: sent first, and again when the subscriber fell too far behind (replace the list with it).`,
    fields: (t) => ({
      records: t.field({
        type: [recordType],
        nullable: false,
        description: `The ${names.plural} of the page.`,
        resolve: (event) => event.records,
      }),
      totalCount: t.exposeInt('totalCount', { nullable: false, description: 'Matching records on all pages.' }),
    }),
  });
  const change = builder.objectRef<Extract<ListEvent<R>, { kind: 'change' }>>(names.change).implement({
    description: `A ${names.what} of the tenant was written: as it is now, or null when it is gone, is no longer the tenant's or no longer matches the filter (remove it from the list).`,
    fields: (t) => ({
      uuid: t.exposeString('uuid', { nullable: false, description: `Uuid of the ${names.what}.` }),
      record: t.expose('record', {
        type: recordType,
        nullable: true,
        description: `The ${names.what} now; null: remove it from the list. Place one the list does not show yet by its \`databaseId\` (newest first).`,
      }),
      totalCount: t.exposeInt('totalCount', { nullable: false, description: 'Matching records on all pages now.' }),
    }),
  });
  return builder.unionType(names.union, {
    description: `An event of a live list of ${names.plural}.`,
    types: [snapshot, change],
    resolveType: (event) => (event.kind === 'snapshot' ? names.snapshot : names.change),
  });
}

const ProviderNodeEvent = listEventTypes<NodeRecord>(
  {
    snapshot: 'ProviderNodesSnapshot',
    change: 'ProviderNodeChanged',
    union: 'ProviderNodeEvent',
    what: 'node',
    plural: 'nodes',
  },
  ProviderNode,
);

const NodesetRequestEvent = listEventTypes<NodesetRequestRecord>(
  {
    snapshot: 'NodesetRequestsSnapshot',
    change: 'NodesetRequestChanged',
    union: 'NodesetRequestEvent',
    what: 'nodeset request',
    plural: 'nodeset requests',
  },
  NodesetRequest,
);

const LIVE_LIST_TEXT =
  'Sends the page at once (`first`, default 50, and `offset` as for the query), then each change as it happens. After a dropped connection, subscribe again: the new page replaces the list.';

builder.subscriptionFields((t) => ({
  nodeEvents: t.field({
    type: ProviderNodeEvent,
    nullable: false,
    description: `The tenant's nodes (as \`Tenant.nodes\`), live. ${LIVE_LIST_TEXT}`,
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      filter: t.arg({ type: NodeFilter, description: 'Which nodes; all when absent.' }),
      first: t.arg.int({ description: 'Page size (default 50, at most 1000).' }),
      offset: t.arg.int({ description: 'Nodes to skip before the page.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: (_root, { tenant, filter, first, offset }, ctx) =>
      listEvents(ctx, NODES, {
        tenant,
        filter: filterConditions(filter),
        first: pageSize(first, offset),
        offset: offset ?? 0,
      }),
    resolve: (event) => event,
  }),
  nodesetRequestEvents: t.field({
    type: NodesetRequestEvent,
    nullable: false,
    description: `The tenant's nodeset requests (as \`Tenant.nodesetRequests\`), live. ${LIVE_LIST_TEXT}`,
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      filter: t.arg({ type: NodesetRequestFilter, description: 'Which requests; all when absent.' }),
      first: t.arg.int({ description: 'Page size (default 50, at most 1000).' }),
      offset: t.arg.int({ description: 'Requests to skip before the page.' }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: (_root, { tenant, filter, first, offset }, ctx) =>
      listEvents(ctx, REQUESTS, {
        tenant,
        filter: filterConditions(filter),
        first: pageSize(first, offset),
        offset: offset ?? 0,
      }),
    resolve: (event) => event,
  }),
}));
