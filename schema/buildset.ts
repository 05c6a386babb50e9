/**
 * Buildsets: one attempt to test a queue item, with refs, events and (in build.ts) builds.
 * Tenant entry points: `buildsets`, `buildset(uuid)` and `badge`.
 */
import type { BuildsetResult as BuildsetResultValue } from '../src/model/results';
import type { BuildsetEventRecord, BuildsetRecord } from '../src/store/repositories/buildsets';
import type { RefRecord } from '../src/store/repositories/refs';
import { countedConnectionTypes, NON_NULL_CONNECTION, OFFSET_ARG_DESCRIPTION } from './infra/keyset-connection';
import { readableRows } from './infra/access';
import { builder } from './infra/builder';
import { filterConditions } from './infra/filter-input';
import type { GraphQLContext } from './infra/context';
import { NotFoundError } from './infra/errors';
import { groupBy } from './infra/group-by';
import { historyStore } from './infra/history-store';
import { PAGINATION_DESCRIPTION, parseDatabaseId, resolveIdConnection } from './infra/pagination';
import { prefetchRelations, type RelationPrefetch } from './infra/prefetch';
import { requestLoader } from './infra/request-loader';
import { Ref } from './ref';
import { buildsetStatus, BuildsetResult, BuildsetStatus } from './results';
import { Tenant } from './tenant';

/** Buildsets by id that the caller may read (others are left out, as if missing). */
export async function readableBuildsets(ctx: GraphQLContext, ids: readonly number[]): Promise<BuildsetRecord[]> {
  return readableRows(ctx, await historyStore(ctx).buildsets.findByIds(ids), (row) => row.tenant);
}

export const Buildset = builder.loadableNodeRef('Buildset', {
  load: (ids: number[], ctx) => readableBuildsets(ctx, ids),
  sort: (buildset: BuildsetRecord) => buildset.id,
  id: { resolve: (buildset) => buildset.id, parse: parseDatabaseId },
});

export const BuildsetEvent = builder.objectRef<BuildsetEventRecord>('BuildsetEvent').implement({
  description: 'Something that happened to a buildset; `triggered` records the event that started it.',
  fields: (t) => ({
    eventTime: t.expose('eventTime', { type: 'DateTime', nullable: false, description: 'When it happened.' }),
    eventType: t.exposeString('eventType', { nullable: false, description: 'Kind of event, e.g. `triggered`.' }),
    description: t.exposeString('description', {
      description: 'Human-readable description, e.g. "Triggered by change org/project 1,1".',
    }),
  }),
});

const buildsetRefs = requestLoader<number, RefRecord[]>(async (ids, ctx) =>
  groupBy(
    ids,
    await historyStore(ctx).refs.listForBuildsets(ids),
    (link) => link.buildsetId,
    (link) => link.ref,
  ),
);
const buildsetEvents = requestLoader<number, BuildsetEventRecord[]>(async (ids, ctx) =>
  groupBy(
    ids,
    await historyStore(ctx).buildsets.listEvents(ids),
    (event) => event.buildsetId,
    (event) => event,
  ),
);

const buildsetIds = (buildsets: readonly BuildsetRecord[]): number[] => buildsets.map((buildset) => buildset.id);

/** What a page of buildsets prefetches, by the Buildset field that needs it (schema/infra/prefetch.ts). */
const BUILDSET_RELATIONS: Record<string, RelationPrefetch<BuildsetRecord>> = {
  refs: (ctx, buildsets) => buildsetRefs(ctx).prefetch(buildsetIds(buildsets)),
  events: (ctx, buildsets) => buildsetEvents(ctx).prefetch(buildsetIds(buildsets)),
};

Buildset.implement({
  description:
    'One attempt to test a queue item: its refs, its builds and how it ended. A gate reset starts a new buildset.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', {
      nullable: false,
      description: 'Database id (the REST `_id`); usable with the `idxMin`/`idxMax` filters.',
    }),
    uuid: t.exposeString('uuid', {
      nullable: false,
      description: 'Buildset uuid (32 hex characters), as used by `buildset(uuid)` and REST paths.',
    }),
    tenant: t.exposeString('tenant', { nullable: false, description: 'Name of the tenant the buildset belongs to.' }),
    pipeline: t.exposeString('pipeline', { nullable: false, description: 'Pipeline the item was tested in.' }),
    status: t.field({
      type: BuildsetStatus,
      nullable: false,
      description: 'Where the buildset is in its life.',
      resolve: (buildset) => buildsetStatus(buildset),
    }),
    result: t.expose('result', {
      type: BuildsetResult,
      description: 'How the buildset ended; null while it is running.',
    }),
    message: t.exposeString('message', {
      description: 'The report text; null until a final report (dequeued buildsets have none).',
    }),
    eventId: t.exposeString('eventId', { description: 'Id of the trigger event that enqueued the item.' }),
    eventTimestamp: t.expose('eventTimestamp', { type: 'DateTime', description: 'When the trigger event happened.' }),
    firstBuildStartTime: t.expose('firstBuildStartTime', {
      type: 'DateTime',
      description: 'Start of its first build; null before any build started.',
    }),
    lastBuildEndTime: t.expose('lastBuildEndTime', {
      type: 'DateTime',
      description: 'End of its last build (at least the first build start), set when the buildset ends.',
    }),
    createdAt: t.expose('created', {
      type: 'DateTime',
      nullable: false,
      description: 'When the buildset was recorded.',
    }),
    updatedAt: t.expose('updated', {
      type: 'DateTime',
      nullable: false,
      description: 'When the buildset was last written.',
    }),
    refs: t.field({
      type: [Ref],
      nullable: false,
      description: 'The refs (changes) the buildset tested; several for a dependency cycle. Ordered by ref id.',
      resolve: (buildset, _args, ctx) => buildsetRefs(ctx).load(buildset.id),
    }),
    events: t.field({
      type: [BuildsetEvent],
      nullable: false,
      description: 'Events of the buildset, oldest first.',
      resolve: (buildset, _args, ctx) => buildsetEvents(ctx).load(buildset.id),
    }),
  }),
});

const Badge = builder.objectRef<BuildsetRecord & { result: BuildsetResultValue }>('Badge').implement({
  description: 'The newest finished buildset matching a badge query, as shown by the REST `badge` image.',
  fields: (t) => ({
    result: t.expose('result', { type: BuildsetResult, nullable: false, description: 'Result of that buildset.' }),
    passing: t.boolean({
      nullable: false,
      description: 'True when the result is SUCCESS (the "passing" badge); false otherwise ("failing").',
      resolve: (buildset) => buildset.result === 'SUCCESS',
    }),
    buildset: t.field({
      type: Buildset,
      nullable: false,
      description: 'The buildset itself.',
      resolve: (buildset) => buildset,
    }),
  }),
});

export const BuildsetFilter = builder.inputType('BuildsetFilter', {
  description:
    "Filters of a buildset list; every field is optional. Values of one field are OR'ed, fields are AND'ed. " +
    'Ref conditions (project, branch, change, patchset, ref, newrev) must hold for one ref of the buildset.',
  fields: (t) => ({
    project: t.stringList({
      description: 'Projects of any ref: names (`org/project`) or canonical names; `*` is a wildcard (`org/*`).',
    }),
    pipeline: t.stringList({ description: 'Pipeline names; `*` is a wildcard (`gat*`).' }),
    branch: t.stringList({ description: 'Branches of any ref; `*` is a wildcard (`*ster`).' }),
    change: t.intList({ description: 'Change numbers.' }),
    patchset: t.stringList({ description: 'Patchsets.' }),
    ref: t.stringList({ description: 'Exact git refs, e.g. `refs/heads/master`.' }),
    newrev: t.stringList({ description: 'New revisions of ref updates.' }),
    uuid: t.stringList({ description: 'Buildset uuids.' }),
    result: t.field({ type: [BuildsetResult], description: 'Only these results.' }),
    excludeResult: t.field({
      type: [BuildsetResult],
      description: 'Not these results; as in the REST API this also drops buildsets still running.',
    }),
    complete: t.boolean({ description: 'true: finished buildsets only; false: running buildsets only.' }),
    idxMin: t.int({ description: 'Smallest database id to include (inclusive).' }),
    idxMax: t.int({ description: 'Largest database id to include (inclusive).' }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  buildsets: t.connection(
    {
      ...NON_NULL_CONNECTION,
      type: Buildset,
      description: `Buildsets of the tenant matching \`filter\`. ${PAGINATION_DESCRIPTION}`,
      args: {
        filter: t.arg({ type: BuildsetFilter, description: 'Which buildsets to list; all when absent.' }),
        offset: t.arg.int({ description: OFFSET_ARG_DESCRIPTION }),
      },
      resolve: (tenant, args, ctx, info) => {
        const filter = filterConditions(args.filter);
        const { buildsets } = historyStore(ctx);
        return resolveIdConnection(args, {
          fetch: (page) => buildsets.list(tenant.name, filter, page),
          count: () => buildsets.count(tenant.name, filter),
          prefetch: (page) => prefetchRelations(ctx, info, page, BUILDSET_RELATIONS),
        });
      },
    },
    ...countedConnectionTypes('Buildset', {
      page: 'A page of buildsets, newest first.',
      item: 'A buildset',
      totalCount: 'Number of buildsets matching the filter, on all pages (counted only when selected).',
    }),
  ),
  buildset: t.field({
    type: Buildset,
    description: 'The buildset with this uuid; a NotFoundError ("Buildset not found") when the tenant has none.',
    args: { uuid: t.arg.string({ required: true, description: 'Buildset uuid.' }) },
    errors: {
      types: [NotFoundError],
      directResult: true,
      union: {
        name: 'TenantBuildsetResult',
        description: 'The buildset, or a NotFoundError when the tenant has no buildset with that uuid.',
      },
    },
    resolve: async (tenant, { uuid }, ctx) => {
      const buildset = await historyStore(ctx).buildsets.findByUuid(tenant.name, uuid);
      if (!buildset) {
        throw new NotFoundError('Buildset', uuid, 'Buildset not found');
      }
      return buildset;
    },
  }),
  badge: t.field({
    type: Badge,
    description:
      "The result of the newest finished buildset for these projects, pipelines and branches (values OR'ed, " +
      '`*` wildcards); a NotFoundError ("No buildset found") when none matches.',
    args: {
      project: t.arg.stringList({ description: 'Project names or canonical names; `*` is a wildcard.' }),
      pipeline: t.arg.stringList({ description: 'Pipeline names; `*` is a wildcard.' }),
      branch: t.arg.stringList({ description: 'Branch names; `*` is a wildcard.' }),
    },
    errors: {
      types: [NotFoundError],
      directResult: true,
      union: {
        name: 'TenantBadgeResult',
        description: 'The badge, or a NotFoundError when no finished buildset matches.',
      },
    },
    resolve: async (tenant, args, ctx) => {
      const filter = filterConditions(args);
      const buildset = await historyStore(ctx).buildsets.newestComplete(tenant.name, filter);
      if (!buildset || buildset.result === null) {
        throw new NotFoundError('Buildset', describeBadgeQuery(filter), 'No buildset found');
      }
      return { ...buildset, result: buildset.result };
    },
  }),
}));

function describeBadgeQuery(filter: { project?: string[]; pipeline?: string[]; branch?: string[] }): string {
  const parts = Object.entries(filter).flatMap(([name, values]) => (values ?? []).map((value) => `${name}=${value}`));
  return parts.join('&');
}
