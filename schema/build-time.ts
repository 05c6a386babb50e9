/** Build times: finished builds with flat ref columns, for runtime charts (`T/build-times`). */
import type { BuildTimeRecord } from '../src/store/repositories/build-times';
import { countedConnectionTypes, NON_NULL_CONNECTION, OFFSET_ARG_DESCRIPTION } from './infra/keyset-connection';
import { builder } from './infra/builder';
import { filterConditions } from './infra/filter-input';
import { Build } from './build';
import { historyStore } from './infra/history-store';
import { endTimeCursor, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, resolveKeysetConnection } from './infra/pagination';
import { BuildResult } from './results';
import { Tenant } from './tenant';

const BuildTime = builder.objectRef<BuildTimeRecord>('BuildTime').implement({
  description: 'How long a finished build took, with the ref and pipeline it ran for.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { nullable: false, description: 'Database id of the build (the REST `_id`).' }),
    uuid: t.exposeString('uuid', { nullable: false, description: 'Build uuid.' }),
    jobName: t.exposeString('jobName', { nullable: false, description: 'Name of the job.' }),
    result: t.expose('result', { type: BuildResult, nullable: false, description: 'How the build ended.' }),
    startTime: t.expose('startTime', { type: 'DateTime', description: 'When the build started.' }),
    endTime: t.expose('endTime', { type: 'DateTime', nullable: false, description: 'When the build ended.' }),
    duration: t.float({
      description: 'Seconds from start to end; null when the start is unknown.',
      resolve: (row) => (row.startTime ? (row.endTime.getTime() - row.startTime.getTime()) / 1000 : null),
    }),
    final: t.exposeBoolean('final', { nullable: false, description: 'False for a build that was retried.' }),
    project: t.exposeString('project', { description: "Name of the build's project (`org/project`)." }),
    projectCanonicalName: t.exposeString('projectCanonical', {
      description: "Canonical name of the build's project (`host/org/project`).",
    }),
    branch: t.exposeString('branch', { description: "Branch of the build's ref." }),
    ref: t.exposeString('ref', { description: "Git ref of the build's ref." }),
    pipeline: t.exposeString('pipeline', { nullable: false, description: 'Pipeline of the buildset.' }),
    build: t.field({ type: Build, nullable: false, description: 'The build itself.', resolve: (row) => row.id }),
  }),
});

const BuildTimeFilter = builder.inputType('BuildTimeFilter', {
  description:
    "Filters of build times; every field is optional. Values are exact (no wildcards); values of one field are OR'ed, fields AND'ed.",
  fields: (t) => ({
    project: t.stringList({ description: "Project of the build's ref: its name (`org/project`) or canonical name." }),
    pipeline: t.stringList({ description: 'Pipeline of the buildset.' }),
    branch: t.stringList({ description: "Branch of the build's ref." }),
    ref: t.stringList({ description: "Git ref of the build's ref." }),
    jobName: t.stringList({ description: 'Job names.' }),
    result: t.field({ type: [BuildResult], description: 'Only these results.' }),
    excludeResult: t.field({ type: [BuildResult], description: 'Not these results.' }),
    final: t.boolean({ description: 'Only final builds (true) or only retried builds (false).' }),
    endTimeMin: t.field({
      type: 'DateTime',
      description: 'Builds that ended at or after this time (REST `start_time`).',
    }),
    endTimeMax: t.field({
      type: 'DateTime',
      description: 'Builds that ended at or before this time (REST `end_time`).',
    }),
  }),
});

builder.objectField(Tenant, 'buildTimes', (t) =>
  t.connection(
    {
      ...NON_NULL_CONNECTION,
      type: BuildTime,
      description:
        'Finished builds of the tenant with their durations, latest end time first. ' +
        `Pages hold ${DEFAULT_PAGE_SIZE} records by default and at most ${MAX_PAGE_SIZE} (larger \`first\`/\`last\` are clamped). ` +
        'Prefer the keyset cursors (`after`/`before`); `offset` is for REST-style paging.',
      args: {
        filter: t.arg({ type: BuildTimeFilter, description: 'Which builds to list; all finished builds when absent.' }),
        offset: t.arg.int({ description: OFFSET_ARG_DESCRIPTION }),
      },
      resolve: (tenant, args, ctx) => {
        const filter = filterConditions(args.filter);
        const { buildTimes } = historyStore(ctx);
        return resolveKeysetConnection({
          args,
          codec: endTimeCursor,
          cursorOf: (row: BuildTimeRecord) => ({ endTime: row.endTime, id: row.id }),
          fetch: (page) => buildTimes.listBuildTimes(tenant.name, filter, page),
          count: () => buildTimes.countBuildTimes(tenant.name, filter),
        });
      },
    },
    ...countedConnectionTypes('BuildTime', {
      page: 'A page of build times, latest end time first.',
      item: 'A build time',
      totalCount: 'Number of finished builds matching the filter, on all pages (counted only when selected).',
    }),
  ),
);
