/**
 * Buildsets: one attempt to test a queue item, with refs, events and (in build.ts) builds.
 * Tenant entry points: `buildsets`, `buildset(uuid)` and `badge`.
 */
import type { BuildsetResult as BuildsetResultValue } from '../src/model/results';
import type { BuildsetEventRecord, BuildsetRecord } from '../src/store/repositories/buildsets';
import type { RefRecord } from '../src/store/repositories/refs';
import { readableRows } from './infra/access';
import { builder } from './infra/builder';
import { filterConditions } from './infra/filter-input';
import type { GraphQLContext } from './infra/context';
import { NotFoundError } from './infra/errors';
import { historyStore } from './infra/history-store';
import { parseDatabaseId } from './infra/pagination';
import { type RelationPrefetch } from './infra/prefetch';
import { groupedRequestLoader } from './infra/request-loader';
import { Ref } from './ref';
import { buildsetStatus, BuildsetResult, BuildsetStatus } from './results';
import { historyFilterFields, recordByUuidField, recordIdentityFields } from './infra/history-fields';
import { tenantListField } from './infra/tenant-list';
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

const buildsetRefs = groupedRequestLoader(
  (ids, ctx) => historyStore(ctx).refs.listForBuildsets(ids),
  (link) => link.buildsetId,
  (link): RefRecord => link.ref,
);
const buildsetEvents = groupedRequestLoader(
  (ids, ctx) => historyStore(ctx).buildsets.listEvents(ids),
  (event) => event.buildsetId,
  (event): BuildsetEventRecord => event,
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
    ...recordIdentityFields(t, { noun: 'buildset', uuidUsedBy: '`buildset(uuid)` and REST paths' }),
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
  fields: (t) =>
    historyFilterFields(t, { noun: 'buildset', ofRef: "of one of the buildset's refs", result: BuildsetResult }),
});

builder.objectFields(Tenant, (t) => ({
  buildsets: tenantListField(t, {
    name: 'Buildset',
    type: Buildset,
    filter: BuildsetFilter,
    texts: {
      field: 'Buildsets of the tenant matching `filter`.',
      filter: 'Which buildsets to list; all when absent.',
      page: 'A page of buildsets, newest first.',
      item: 'A buildset',
      totalCount: 'Number of buildsets matching the filter, on all pages (counted only when selected).',
    },
    rows: (ctx, tenant, filter) => {
      const { buildsets } = historyStore(ctx);
      return { list: (page) => buildsets.list(tenant, filter, page), count: () => buildsets.count(tenant, filter) };
    },
    relations: BUILDSET_RELATIONS,
  }),
  buildset: recordByUuidField(t, {
    name: 'Buildset',
    type: Buildset,
    find: (ctx, tenant, uuid) => historyStore(ctx).buildsets.findByUuid(tenant, uuid),
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
