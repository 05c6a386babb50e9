/** Query parameter specs and conversions shared by the list endpoints. */
import type { BuildResult, BuildsetResult, SystemEventType } from '../generated/graphql';
import { INT32_MAX } from '../../src/model/value-checks';
import { badRequest } from '../errors';
import type { ParsedQuery } from '../query-params';
import type { QueryParamSpec, QuerySpec } from '../route';

/** Pages hold 50 records by default and at most 1000 (docs/rest.md#deliberate-differences-from-the-reference). */
export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 1000;

export const text = (description: string): QueryParamSpec => ({ type: 'string', repeated: true, description });
export const single = (description: string): QueryParamSpec => ({ type: 'string', description });
export const flag = (description: string): QueryParamSpec => ({ type: 'flag', description });
export const trueOrOther = (description: string): QueryParamSpec => ({ type: 'true-or-other', description });

export const paging: QuerySpec = {
  limit: {
    type: 'integer',
    default: LIMIT_DEFAULT,
    maximum: LIMIT_MAX,
    description: 'Records per page; default 50, larger values are clamped to 1000',
  },
  skip: { type: 'integer', default: 0, description: 'Records to skip' },
};

export const idRange: QuerySpec = {
  idx_min: { type: 'integer', description: 'Smallest database id (_id) to include' },
  idx_max: { type: 'integer', description: 'Largest database id (_id) to include' },
};

const BUILD_RESULTS = [
  'ABORTED',
  'CANCELED',
  'DISK_FULL',
  'ERROR',
  'FAILURE',
  'MERGER_FAILURE',
  'MERGE_CONFLICT',
  'NODE_FAILURE',
  'POST_FAILURE',
  'RETRY',
  'RETRY_LIMIT',
  'SKIPPED',
  'SUCCESS',
  'TIMED_OUT',
] as const satisfies readonly BuildResult[];

const BUILDSET_RESULTS = [
  'CONFIG_ERROR',
  'DEQUEUED',
  'ERROR',
  'FAILURE',
  'MERGE_CONFLICT',
  'MERGE_FAILURE',
  'NO_JOBS',
  'SUCCESS',
] as const satisfies readonly BuildsetResult[];

const SYSTEM_EVENT_TYPES = [
  'AUTOHOLD_CREATED',
  'AUTOHOLD_DELETED',
  'AUTOHOLD_EXHAUSTED',
  'COMPONENT_STARTED',
  'COMPONENT_STOPPED',
  'CONFIG_ERRORS_CHANGED',
  'DEQUEUED',
  'ENQUEUED',
  'FLAKY_RETRY',
  'IMAGE_ARTIFACT_DELETED',
  'IMAGE_BUILD_REQUESTED',
  'IMAGE_UPLOAD_DELETED',
  'IMAGE_UPLOAD_VALIDATED',
  'NODESET_REQUEST_CANCELED',
  'NODE_HELD',
  'NODE_RELEASED',
  'PIPELINE_STATE_CHANGED',
  'PROMOTED',
  'QUARANTINE_CHANGED',
  'RECONFIGURED',
  'REPORT_FAILED',
  'TENANT_STATE_CHANGED',
] as const satisfies readonly SystemEventType[];
// Every type the schema has is a filter value (a type left out answered 400 to its own name).
const everySystemEventType: [Exclude<SystemEventType, (typeof SYSTEM_EVENT_TYPES)[number]>] extends [never]
  ? true
  : false = true;
void everySystemEventType;

function oneOf<T extends string>(
  allowed: readonly T[],
  name: string,
  values: string[] | undefined,
  what: string,
): T[] | undefined {
  return values?.map((value) => {
    const found = allowed.find((candidate) => candidate === value);
    if (found === undefined) {
      throw badRequest(`Query parameter ${name}: unknown ${what} "${value}"`);
    }
    return found;
  });
}

/** Build results named by a parameter; an unknown result answers 400. */
export const buildResults = (name: string, values: string[] | undefined): BuildResult[] | undefined =>
  oneOf(BUILD_RESULTS, name, values, 'build result');

export const buildsetResults = (name: string, values: string[] | undefined): BuildsetResult[] | undefined =>
  oneOf(BUILDSET_RESULTS, name, values, 'buildset result');

/** REST spells event types `config-errors-changed`; GraphQL `CONFIG_ERRORS_CHANGED`. */
export const systemEventTypes = (name: string, values: string[] | undefined): SystemEventType[] | undefined =>
  oneOf(
    SYSTEM_EVENT_TYPES,
    name,
    values?.map((value) => value.toUpperCase().replace(/-/g, '_')),
    'event type',
  );

export const restEventType = (type: SystemEventType): string => type.toLowerCase().replace(/_/g, '-');

/** Change numbers are integers; anything else answers 400. */
export function changeNumbers(values: string[] | undefined): number[] | undefined {
  return values?.map((value) => {
    if (!/^\d+$/.test(value)) {
      throw badRequest('Query parameter change must be an integer');
    }
    const number = Number(value);
    if (number > INT32_MAX) {
      throw badRequest(`Query parameter change must be at most ${INT32_MAX}`);
    }
    return number;
  });
}

/** The ref conditions build and buildset lists share (GraphQL `BuildFilter` and `BuildsetFilter` fields). */
export function refConditions(query: ParsedQuery) {
  return {
    project: query.strings('project'),
    pipeline: query.strings('pipeline'),
    change: changeNumbers(query.strings('change')),
    branch: query.strings('branch'),
    patchset: query.strings('patchset'),
    ref: query.strings('ref'),
    newrev: query.strings('newrev'),
    uuid: query.strings('uuid'),
  };
}

/** The `idx_min`/`idx_max` conditions (see `idRange`). */
export function idRangeConditions(query: ParsedQuery): { idxMin?: number; idxMax?: number } {
  return { idxMin: query.integer('idx_min'), idxMax: query.integer('idx_max') };
}

/** An ISO time (ISO-naive is read as UTC); anything else answers 400. */
export function isoTime(name: string, value: string | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const naive = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(value);
  const date = new Date(naive ? `${value.length === 10 ? `${value}T00:00:00` : value}Z` : value);
  if (Number.isNaN(date.getTime())) {
    throw badRequest(`Query parameter ${name} must be a time such as 2026-01-31T12:00:00`);
  }
  return date.toISOString();
}
