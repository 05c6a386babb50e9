/**
 * Builds: one run (or retry) of a job for a buildset, with artifacts, provides and events.
 * Tenant entry points: `builds` and `build(uuid)`; also `Buildset.builds`.
 */
import type { ArtifactRecord, BuildEventRecord, BuildRecord } from '../src/store/repositories/builds';
import type { BuildsetRecord } from '../src/store/repositories/buildsets';
import type { RefRecord } from '../src/store/repositories/refs';
import { readableRows } from './infra/access';
import { builder } from './infra/builder';
import type { GraphQLContext } from './infra/context';
import { Buildset, readableBuildsets } from './buildset';
import { groupBy } from './infra/group-by';
import { historyStore } from './infra/history-store';
import { parseDatabaseId } from './infra/pagination';
import { type RelationPrefetch } from './infra/prefetch';
import { groupedRequestLoader, requestLoader } from './infra/request-loader';
import { Ref } from './ref';
import { buildStatus, BuildResult, BuildStatus } from './results';
import { historyFilterFields, recordByUuidField, recordIdentityFields } from './infra/history-fields';
import { tenantListField } from './infra/tenant-list';
import { Tenant } from './tenant';

export const Build = builder.loadableNodeRef('Build', {
  load: async (ids: number[], ctx) =>
    readableRows(ctx, await historyStore(ctx).builds.findByIds(ids), (row) => row.tenant),
  sort: (build: BuildRecord) => build.id,
  id: { resolve: (build) => build.id, parse: parseDatabaseId },
});

const Artifact = builder.objectRef<ArtifactRecord>('Artifact').implement({
  description: 'A file or URL a build produced (logs, docs, packages), listed by name.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the artifact, unique within the build.' }),
    url: t.exposeString('url', { nullable: false, description: 'Absolute URL of the artifact.' }),
    metadata: t.expose('metadata', {
      type: 'JSON',
      description: 'Free-form metadata the job attached; null when none.',
    }),
  }),
});

const BuildEvent = builder.objectRef<BuildEventRecord>('BuildEvent').implement({
  description: 'Something that happened while a build ran: it paused (waiting for child jobs) or resumed.',
  fields: (t) => ({
    eventTime: t.expose('eventTime', { type: 'DateTime', nullable: false, description: 'When it happened.' }),
    eventType: t.exposeString('eventType', { nullable: false, description: 'Kind of event: `paused` or `resumed`.' }),
    description: t.exposeString('description', { description: 'Human-readable description; null when none.' }),
  }),
});

/**
 * The buildset of a build: the caller may read the build, hence its buildset (the tenant
 * check of `readableRows` stays, as for any buildset row loaded by id).
 */
const buildBuildset = requestLoader<number, BuildsetRecord | null>(async (ids, ctx) => {
  const byId = new Map((await readableBuildsets(ctx, ids)).map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
});

/** A build's buildset, or an error when it is gone (a build always has one). */
function buildsetOf(build: BuildRecord, ctx: GraphQLContext): BuildsetRecord | Promise<BuildsetRecord> {
  const buildset = buildBuildset(ctx).load(build.buildsetId);
  return buildset instanceof Promise
    ? buildset.then((row) => existingBuildset(build, row))
    : existingBuildset(build, buildset);
}

function existingBuildset(build: BuildRecord, buildset: BuildsetRecord | null): BuildsetRecord {
  if (buildset === null) {
    throw new Error(`buildset ${build.buildsetId} of build ${build.uuid} is missing`);
  }
  return buildset;
}

/** A field of a build's buildset, synchronously once the buildset is loaded. */
function fromBuildset<T>(
  build: BuildRecord,
  ctx: GraphQLContext,
  pick: (buildset: BuildsetRecord) => T,
): T | Promise<T> {
  const buildset = buildsetOf(build, ctx);
  return buildset instanceof Promise ? buildset.then(pick) : pick(buildset);
}

/**
 * The ref of a build. The caller may read the build, so its ref needs no further check; the
 * tenant-filtered Ref loader is for `node(id)`, and its access query would cost every page.
 */
const buildRef = requestLoader<number, RefRecord | null>(async (ids, ctx) => {
  const byId = new Map((await historyStore(ctx).refs.findByIds(ids)).map((ref) => [ref.id, ref]));
  return ids.map((id) => byId.get(id) ?? null);
});
const buildArtifacts = groupedRequestLoader(
  (ids, ctx) => historyStore(ctx).builds.listArtifacts(ids),
  (row) => row.buildId,
  (row): ArtifactRecord => row,
);
const buildProvides = groupedRequestLoader(
  (ids, ctx) => historyStore(ctx).builds.listProvides(ids),
  (row) => row.buildId,
  (row) => row.name,
);
const buildEvents = groupedRequestLoader(
  (ids, ctx) => historyStore(ctx).builds.listEvents(ids),
  (row) => row.buildId,
  (row): BuildEventRecord => row,
);
const buildResultData = requestLoader<number, Record<string, unknown> | null>(async (ids, ctx) => {
  const byId = await historyStore(ctx).builds.listResultData(ids);
  return ids.map((id) => byId.get(id) ?? null);
});

const buildIds = (builds: readonly BuildRecord[]): number[] => builds.map((build) => build.id);
const prefetchBuildset: RelationPrefetch<BuildRecord> = (ctx, builds) =>
  buildBuildset(ctx).prefetch(builds.map((build) => build.buildsetId));

/** What a page of builds prefetches, by the Build field that needs it (schema/infra/prefetch.ts). */
const BUILD_RELATIONS: Record<string, RelationPrefetch<BuildRecord>> = {
  ref: (ctx, builds) => buildRef(ctx).prefetch(builds.flatMap((build) => (build.refId === null ? [] : [build.refId]))),
  buildset: prefetchBuildset,
  pipeline: prefetchBuildset,
  eventId: prefetchBuildset,
  eventTimestamp: prefetchBuildset,
  artifacts: (ctx, builds) => buildArtifacts(ctx).prefetch(buildIds(builds)),
  provides: (ctx, builds) => buildProvides(ctx).prefetch(buildIds(builds)),
  events: (ctx, builds) => buildEvents(ctx).prefetch(buildIds(builds)),
  returnedData: (ctx, builds) => buildResultData(ctx).prefetch(buildIds(builds)),
};

Build.implement({
  description: 'One run of a job for a buildset. A retried job has one build per attempt; only the last is final.',
  fields: (t) => ({
    ...recordIdentityFields(t, { noun: 'build', uuidUsedBy: '`build(uuid)`, log URLs and REST paths' }),
    jobName: t.exposeString('jobName', { nullable: false, description: 'Name of the job.' }),
    status: t.field({
      type: BuildStatus,
      nullable: false,
      description: 'Where the build is in its life.',
      resolve: (build) => buildStatus(build),
    }),
    result: t.expose('result', { type: BuildResult, description: 'How the build ended; null until it completes.' }),
    startTime: t.expose('startTime', {
      type: 'DateTime',
      description: 'When the build started (recording time for builds that never ran).',
    }),
    endTime: t.expose('endTime', { type: 'DateTime', description: 'When the build ended; null while it runs.' }),
    duration: t.float({
      description: 'Seconds from start to end; null unless both are known.',
      resolve: (build) =>
        build.startTime && build.endTime ? (build.endTime.getTime() - build.startTime.getTime()) / 1000 : null,
    }),
    voting: t.exposeBoolean('voting', {
      nullable: false,
      description: 'Whether the result counts towards the buildset result.',
    }),
    final: t.exposeBoolean('final', {
      nullable: false,
      description: 'True once the build completed for good; false while it runs and for a build that was retried.',
    }),
    held: t.exposeBoolean('held', {
      nullable: false,
      description: 'Whether its nodes were held by an autohold request.',
    }),
    attempt: t.exposeInt('attempt', {
      nullable: false,
      description: 'Attempt number of this job in its buildset, starting at 1.',
    }),
    logUrl: t.exposeString('logUrl', {
      description: 'URL of the build log directory (ends with `/`); null when not known.',
    }),
    nodeset: t.exposeString('nodeset', {
      description: 'Name of the nodeset used ("" for an anonymous one); null when none was used.',
    }),
    errorDetail: t.exposeString('errorDetail', { description: 'Why the build failed or was skipped, when known.' }),
    ref: t.field({
      type: Ref,
      description: 'The ref (change) this build tested; in a cycle, one of the buildset refs.',
      resolve: (build, _args, ctx) => (build.refId === null ? null : buildRef(ctx).load(build.refId)),
    }),
    buildset: t.field({
      type: Buildset,
      nullable: false,
      description: 'The buildset the build belongs to.',
      resolve: (build, _args, ctx) => buildsetOf(build, ctx),
    }),
    pipeline: t.string({
      nullable: false,
      description: 'Pipeline of the buildset.',
      resolve: (build, _args, ctx) => fromBuildset(build, ctx, (buildset) => buildset.pipeline),
    }),
    eventId: t.string({
      description: 'Id of the trigger event of the buildset.',
      resolve: (build, _args, ctx) => fromBuildset(build, ctx, (buildset) => buildset.eventId),
    }),
    eventTimestamp: t.field({
      type: 'DateTime',
      description: 'When the trigger event of the buildset happened.',
      resolve: (build, _args, ctx) => fromBuildset(build, ctx, (buildset) => buildset.eventTimestamp),
    }),
    artifacts: t.field({
      type: [Artifact],
      nullable: false,
      description: 'Artifacts of the build, by name.',
      resolve: (build, _args, ctx) => buildArtifacts(ctx).load(build.id),
    }),
    provides: t.stringList({
      nullable: false,
      description: 'Names the job provides to jobs that require them, sorted.',
      resolve: (build, _args, ctx) => buildProvides(ctx).load(build.id),
    }),
    events: t.field({
      type: [BuildEvent],
      nullable: false,
      description: 'Pause and resume events, oldest first.',
      resolve: (build, _args, ctx) => buildEvents(ctx).load(build.id),
    }),
    returnedData: t.field({
      type: 'JSON',
      description:
        "The data the job returned for its dependent jobs (the `data` of its results file, the reference's `zuul_return` data): recorded when the build pauses or ends; null when it returned none.",
      resolve: (build, _args, ctx) => buildResultData(ctx).load(build.id),
    }),
  }),
});

builder.objectField(Buildset, 'builds', (t) =>
  t.loadableList({
    type: Build,
    nullable: false,
    description: 'Builds of the buildset, oldest first (by database id), retries included.',
    load: async (ids: number[], ctx) =>
      groupBy(
        ids,
        await historyStore(ctx).builds.listForBuildsets(ids),
        (build) => build.buildsetId,
        (build) => build,
      ),
    resolve: (buildset) => buildset.id,
  }),
);

export const BuildFilter = builder.inputType('BuildFilter', {
  description: "Filters of a build list; every field is optional. Values of one field are OR'ed, fields are AND'ed.",
  fields: (t) => ({
    ...historyFilterFields(t, { noun: 'build', ofRef: "of the build's ref", result: BuildResult }),
    jobName: t.stringList({ description: 'Job names; `*` is a wildcard (`*-merge`).' }),
    nodeset: t.stringList({ description: 'Nodeset names.' }),
    voting: t.boolean({ description: 'Only voting (true) or non-voting (false) builds.' }),
    final: t.boolean({ description: 'Only final builds (true) or only completed builds that were retried (false).' }),
    held: t.boolean({ description: 'Only builds whose nodes were held (true) or not held (false).' }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  builds: tenantListField(t, {
    name: 'Build',
    type: Build,
    filter: BuildFilter,
    texts: {
      field: 'Builds of the tenant matching `filter`.',
      filter: 'Which builds to list; all when absent.',
      page: 'A page of builds, newest first.',
      item: 'A build',
      totalCount: 'Number of builds matching the filter, on all pages (counted only when selected).',
    },
    rows: (ctx, tenant, filter) => {
      const { builds } = historyStore(ctx);
      return { list: (page) => builds.list(tenant, filter, page), count: () => builds.count(tenant, filter) };
    },
    relations: BUILD_RELATIONS,
  }),
  build: recordByUuidField(t, {
    name: 'Build',
    type: Build,
    find: (ctx, tenant, uuid) => historyStore(ctx).builds.findByUuid(tenant, uuid),
  }),
}));
