/** `GET T/builds` and `GET T/build/{uuid}` in both shapes (compat.md §2.37, §2.38, §3). */
import { RestBuildDocument, RestBuildsDocument, type BuildFilter } from '../generated/graphql';
import { arrayOf } from '../json-schema';
import type { ParsedQuery } from '../query-params';
import {
  buildDetailSchema,
  buildListSchema,
  earlierBuildSchema,
  mapBuild,
  mapEarlierBuild,
  mapRef,
} from '../records/history';
import type { QuerySpec, RestRoute } from '../route';
import { orNotFound } from '../wire';
import { buildResults, flag, idRange, idRangeConditions, paging, refConditions, text, trueOrOther } from './params';

const currentQuery: QuerySpec = {
  project: text("Project of the build's ref; `*` is a wildcard"),
  pipeline: text('Pipeline; `*` is a wildcard'),
  change: text('Change number'),
  branch: text('Branch; `*` is a wildcard'),
  patchset: text('Patchset'),
  ref: text('Git ref'),
  newrev: text('New revision'),
  uuid: text('Build uuid'),
  job_name: text('Job name; `*` is a wildcard'),
  voting: flag('1/true: voting builds; 0/false: non-voting'),
  nodeset: text('Nodeset name'),
  result: text('Build result'),
  final: trueOrOther('true: final builds; any other value: retried builds'),
  held: flag('1/true: held builds; 0/false: others'),
  complete: trueOrOther('true: finished builds; any other value: running builds'),
  exclude_result: text('Not these results (also drops running builds)'),
  ...idRange,
  ...paging,
};

/** rest-api.md: the earlier builds query. */
const earlierQuery: QuerySpec = {
  project: text('Project'),
  pipeline: text('Pipeline'),
  job_name: text('Job name'),
  branch: text('Branch'),
  change: text('A change number'),
  patchset: text('A patchset number'),
  ref: text('Git ref'),
  newrev: text('A new revision hash'),
  uuid: text('A build uuid'),
  voting: flag('A build voting status'),
  result: text('A build result'),
  ...paging,
};

/** GraphQL filter of a builds request (the earlier shape simply has fewer parameters). */
export function buildFilter(query: ParsedQuery): BuildFilter {
  return {
    ...refConditions(query),
    jobName: query.strings('job_name'),
    voting: query.boolean('voting'),
    nodeset: query.strings('nodeset'),
    result: buildResults('result', query.strings('result')),
    final: query.boolean('final'),
    held: query.boolean('held'),
    complete: query.boolean('complete'),
    excludeResult: buildResults('exclude_result', query.strings('exclude_result')),
    ...idRangeConditions(query),
  };
}

const TENANT_404 = { 404: 'Tenant not found' };

export const buildsRoute: RestRoute = {
  name: 'builds',
  pattern: 'tenant/{tenant_name}/builds',
  endpoints: {
    GET: {
      summary: 'Builds of the tenant, newest first',
      auth: 'public',
      operations: ['RestBuilds'],
      query: { current: currentQuery, earlier: earlierQuery },
      responses: {
        current: {
          status: 200,
          schema: arrayOf(buildListSchema),
          description: 'Build records (buildset without refs)',
        },
        earlier: { status: 200, schema: arrayOf(earlierBuildSchema), description: 'Flat build records' },
      },
      errors: { 400: 'Bad query parameter', ...TENANT_404 },
      handler: async (req) => {
        const data = await req.run(RestBuildsDocument, {
          tenant: req.params.tenant_name,
          filter: buildFilter(req.query),
          first: req.query.integer('limit'),
          offset: req.query.integer('skip'),
        });
        const tenant = orNotFound(data.tenant, 'Tenant not found');
        const builds = tenant.builds.nodes;
        if (req.shape === 'earlier') {
          return { body: builds.map(mapEarlierBuild) };
        }
        return { body: builds.map((build) => mapBuild(build, { uuid: build.buildset.uuid })) };
      },
    },
  },
};

export const buildRoute: RestRoute = {
  name: 'build',
  pattern: 'tenant/{tenant_name}/build/{uuid}',
  endpoints: {
    GET: {
      summary: 'One build, with the refs of its buildset',
      auth: 'public',
      operations: ['RestBuild'],
      responses: {
        current: { status: 200, schema: buildDetailSchema, description: 'Build record with buildset.refs' },
        earlier: { status: 200, schema: earlierBuildSchema, description: 'Flat build record' },
      },
      errors: { 404: 'Tenant not found | Build not found' },
      handler: async (req) => {
        const data = await req.run(RestBuildDocument, { tenant: req.params.tenant_name, uuid: req.params.uuid });
        const tenant = orNotFound(data.tenant, 'Tenant not found');
        const build = orNotFound(tenant.build, 'Build not found');
        if (req.shape === 'earlier') {
          return { body: mapEarlierBuild(build) };
        }
        return { body: mapBuild(build, { uuid: build.buildset.uuid, refs: build.buildset.refs.map(mapRef) }) };
      },
    },
  },
};
