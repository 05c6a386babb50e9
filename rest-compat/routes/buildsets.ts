/** `GET T/buildsets` and `GET T/buildset/{uuid}` in both shapes (compat.md §2.40, §2.41, §3). */
import { RestBuildsetDocument, RestBuildsetsDocument, type BuildsetFilter } from '../generated/graphql';
import { arrayOf } from '../json-schema';
import type { ParsedQuery } from '../query-params';
import {
  buildsetDetailSchema,
  buildsetListSchema,
  earlierBuildsetDetailSchema,
  earlierBuildsetSchema,
  mapBuildCore,
  mapBuildset,
  mapEarlierBuildCore,
  mapEarlierBuildset,
} from '../records/history';
import type { QuerySpec, RestRoute } from '../route';
import { isoNaive, orNotFound } from '../wire';
import { buildsetResults, idRange, idRangeConditions, paging, refConditions, single, text } from './params';

const currentQuery: QuerySpec = {
  project: text('Project of any ref; `*` is a wildcard'),
  pipeline: text('Pipeline; `*` is a wildcard'),
  change: text('Change number'),
  branch: text('Branch of any ref; `*` is a wildcard'),
  patchset: text('Patchset'),
  ref: text('Git ref'),
  newrev: text('New revision'),
  uuid: text('Buildset uuid'),
  result: text('Buildset result'),
  complete: single('true: finished buildsets; any other non-empty value: running buildsets; empty: no filter'),
  exclude_result: text('Not these results (also drops running buildsets)'),
  ...idRange,
  ...paging,
};

/** rest-api.md: the earlier buildsets query. */
const earlierQuery: QuerySpec = {
  project: text('Project'),
  pipeline: text('Pipeline'),
  branch: text('Branch'),
  change: text('A change number'),
  patchset: text('A patchset number'),
  ref: text('Git ref'),
  newrev: text('A new revision hash'),
  uuid: text('A buildset uuid'),
  result: text('A buildset result'),
  ...paging,
};

function completeFilter(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') {
    return undefined;
  }
  return value.toLowerCase() === 'true';
}

/** GraphQL filter of a buildsets request. */
export function buildsetFilter(query: ParsedQuery): BuildsetFilter {
  return {
    ...refConditions(query),
    result: buildsetResults('result', query.strings('result')),
    complete: completeFilter(query.string('complete')),
    excludeResult: buildsetResults('exclude_result', query.strings('exclude_result')),
    ...idRangeConditions(query),
  };
}

export const buildsetsRoute: RestRoute = {
  name: 'buildsets',
  pattern: 'tenant/{tenant_name}/buildsets',
  endpoints: {
    GET: {
      summary: 'Buildsets of the tenant, newest first',
      auth: 'public',
      operations: ['RestBuildsets'],
      query: { current: currentQuery, earlier: earlierQuery },
      responses: {
        current: {
          status: 200,
          schema: arrayOf(buildsetListSchema),
          description: 'Buildset records (never builds/events)',
        },
        earlier: { status: 200, schema: arrayOf(earlierBuildsetSchema), description: 'Flat buildset records' },
      },
      errors: { 400: 'Bad query parameter', 404: 'Tenant not found' },
      handler: async (req) => {
        const data = await req.run(RestBuildsetsDocument, {
          tenant: req.params.tenant_name,
          filter: buildsetFilter(req.query),
          first: req.query.integer('limit'),
          offset: req.query.integer('skip'),
        });
        const buildsets = orNotFound(data.tenant, 'Tenant not found').buildsets.nodes;
        return { body: buildsets.map(req.shape === 'earlier' ? mapEarlierBuildset : mapBuildset) };
      },
    },
  },
};

export const buildsetRoute: RestRoute = {
  name: 'buildset',
  pattern: 'tenant/{tenant_name}/buildset/{uuid}',
  endpoints: {
    GET: {
      summary: 'One buildset with its builds (and events in the current shape)',
      auth: 'public',
      operations: ['RestBuildset'],
      responses: {
        current: {
          status: 200,
          schema: buildsetDetailSchema,
          description: 'Buildset detail; builds/events absent when empty',
        },
        earlier: {
          status: 200,
          schema: earlierBuildsetDetailSchema,
          description: 'Flat buildset with builds (absent when empty)',
        },
      },
      errors: { 404: 'Tenant not found | Buildset not found' },
      handler: async (req) => {
        const data = await req.run(RestBuildsetDocument, { tenant: req.params.tenant_name, uuid: req.params.uuid });
        const buildset = orNotFound(orNotFound(data.tenant, 'Tenant not found').buildset, 'Buildset not found');
        if (req.shape === 'earlier') {
          const body = mapEarlierBuildset(buildset);
          if (buildset.builds.length > 0) {
            body.builds = buildset.builds.map(mapEarlierBuildCore);
          }
          return { body };
        }
        const events = buildset.events.map((event) => ({
          event_time: isoNaive(event.eventTime),
          event_type: event.eventType,
          description: event.description,
        }));
        // Assigned rather than spread (see mapBuild); `builds`/`events` are absent when empty.
        const body = mapBuildset(buildset);
        if (buildset.builds.length > 0) {
          body.builds = buildset.builds.map(mapBuildCore);
        }
        if (events.length > 0) {
          body.events = events;
        }
        return { body };
      },
    },
  },
};
