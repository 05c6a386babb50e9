/**
 * Build, buildset and ref records in both shapes (docs/rest.md#builds, docs/rest.md#build-times,
 * docs/rest.md#buildsets, docs/rest.md#earlier-shape-records): the JSON schemas the route table publishes and the
 * mappers that produce them from the GraphQL fragments of operations/history.graphql.
 */
import type {
  RestBuildBuildsetFieldsFragment,
  RestBuildFieldsFragment,
  RestBuildsetFieldsFragment,
  RestRefFieldsFragment,
} from '../generated/graphql';
import {
  anyJson,
  arrayOf,
  bool,
  freeObject,
  int,
  isoNaive as isoNaiveSchema,
  nullable,
  num,
  object,
  str,
  type JsonSchema,
} from '../json-schema';
import { integerOrNull, isoNaive } from '../wire';

// ---- current shape -------------------------------------------------------------------------

export const refSchema = object({
  project: str(),
  branch: str('Branch; "" when the ref has none'),
  change: nullable(int('Change number')),
  patchset: nullable(str()),
  ref: str(),
  oldrev: nullable(str()),
  newrev: nullable(str()),
  ref_url: str('URL of the change; "" when unknown'),
});

const artifactSchema = object(
  { name: str(), url: str() },
  { metadata: freeObject('Present only when the artifact has metadata') },
);

const buildCore: Record<string, JsonSchema> = {
  _id: int('Database id, usable with idx_min/idx_max'),
  uuid: str(),
  job_name: str(),
  result: nullable(str('Null while the build runs')),
  held: nullable(bool()),
  start_time: nullable(isoNaiveSchema()),
  end_time: nullable(isoNaiveSchema()),
  duration: nullable(num('Seconds')),
  voting: bool(),
  log_url: nullable(str()),
  nodeset: nullable(str()),
  error_detail: nullable(str()),
  final: bool(),
  artifacts: arrayOf(artifactSchema),
  provides: arrayOf(object({ name: str() })),
  ref: nullable(refSchema),
};

const buildExtras = (buildset: JsonSchema): Record<string, JsonSchema> => ({
  pipeline: str(),
  event_id: nullable(str()),
  event_timestamp: nullable(isoNaiveSchema()),
  buildset,
});

/** A build in a list: `buildset` is `{uuid}`. */
export const buildListSchema = object({ ...buildCore, ...buildExtras(object({ uuid: str() })) });
/** The single build: `buildset` carries its `refs`. */
export const buildDetailSchema = object({
  ...buildCore,
  ...buildExtras(object({ uuid: str(), refs: arrayOf(refSchema) })),
});
/** A build inside a buildset detail: no top-level extras. */
export const buildInBuildsetSchema = object(buildCore);

const buildsetCore: Record<string, JsonSchema> = {
  _id: int(),
  uuid: str(),
  result: nullable(str('Null while the buildset runs')),
  message: nullable(str('The report text')),
  pipeline: str(),
  event_id: nullable(str()),
  event_timestamp: nullable(isoNaiveSchema()),
  first_build_start_time: nullable(isoNaiveSchema()),
  last_build_end_time: nullable(isoNaiveSchema()),
  refs: arrayOf(refSchema),
};

export const buildsetListSchema = object(buildsetCore);
export const buildsetDetailSchema = object(buildsetCore, {
  builds: arrayOf(buildInBuildsetSchema, 'Absent when the buildset has no builds'),
  events: arrayOf(
    object({ event_time: isoNaiveSchema(), event_type: str(), description: nullable(str()) }),
    'Absent when there are none',
  ),
});

type BuildFields = RestBuildFieldsFragment;
/** A listed or single build carries its buildset's uuid, pipeline and trigger event. */
type BuildExtras = { buildset: RestBuildBuildsetFieldsFragment };

/** The reference's ref object: empty branch and URL are `""`, never null. */
export function mapRef(ref: RestRefFieldsFragment): Record<string, unknown> {
  return {
    project: ref.project,
    branch: ref.branch ?? '',
    change: ref.change,
    patchset: ref.patchset,
    ref: ref.ref,
    oldrev: ref.oldrev,
    newrev: ref.newrev,
    ref_url: ref.refUrl ?? '',
  };
}

/** A current-shape build without the top-level extras (as inside a buildset). */
export function mapBuildCore(build: BuildFields): Record<string, unknown> {
  return {
    _id: build.databaseId,
    uuid: build.uuid,
    job_name: build.jobName,
    result: build.result,
    held: build.held,
    start_time: isoNaive(build.startTime),
    end_time: isoNaive(build.endTime),
    duration: build.duration,
    voting: build.voting,
    log_url: build.logUrl,
    nodeset: build.nodeset,
    error_detail: build.errorDetail,
    final: build.final,
    artifacts: build.artifacts.map((artifact) => ({
      name: artifact.name,
      url: artifact.url,
      ...(artifact.metadata !== null && artifact.metadata !== undefined ? { metadata: artifact.metadata } : {}),
    })),
    provides: build.provides.map((name) => ({ name })),
    ref: build.ref ? mapRef(build.ref) : null,
  };
}

/**
 * A current-shape build listed on its own; `buildset` is the wire value (`{uuid}` or `{uuid, refs}`).
 * The extras are assigned onto the core record: V8 copies a spread record of this size far more
 * slowly (tens of microseconds per build; the builds list maps 50 to 1000 of them).
 */
export function mapBuild(build: BuildFields & BuildExtras, buildset: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(mapBuildCore(build), {
    pipeline: build.buildset.pipeline,
    event_id: build.buildset.eventId,
    event_timestamp: isoNaive(build.buildset.eventTimestamp),
    buildset,
  });
}

/** A current-shape buildset (list form; the detail adds builds and events). */
export function mapBuildset(buildset: RestBuildsetFieldsFragment): Record<string, unknown> {
  return {
    _id: buildset.databaseId,
    uuid: buildset.uuid,
    result: buildset.result,
    message: buildset.message,
    pipeline: buildset.pipeline,
    event_id: buildset.eventId,
    event_timestamp: isoNaive(buildset.eventTimestamp),
    first_build_start_time: isoNaive(buildset.firstBuildStartTime),
    last_build_end_time: isoNaive(buildset.lastBuildEndTime),
    refs: buildset.refs.map(mapRef),
  };
}

// ---- earlier shape -------------------------------------------------------------------------

const earlierRefFields: Record<string, JsonSchema> = {
  project: nullable(str()),
  branch: nullable(str()),
  change: nullable(int()),
  patchset: nullable(int()),
  ref: nullable(str()),
  newrev: nullable(str()),
  ref_url: nullable(str()),
};

const earlierBuildCore: Record<string, JsonSchema> = {
  uuid: str(),
  job_name: str(),
  result: nullable(str()),
  start_time: nullable(isoNaiveSchema()),
  end_time: nullable(isoNaiveSchema()),
  duration: nullable(int('Whole seconds')),
  voting: bool(),
  log_url: nullable(str()),
};

/** The earlier shape's flat build record (docs/rest.md#earlier-shape-records). */
export const earlierBuildSchema = object({ ...earlierBuildCore, ...earlierRefFields, pipeline: str() });
export const earlierBuildInBuildsetSchema = object(earlierBuildCore);
/** The earlier shape's flat buildset record (docs/rest.md#earlier-shape-records). */
export const earlierBuildsetSchema = object({
  uuid: str(),
  result: nullable(str()),
  message: nullable(anyJson('The report text')),
  pipeline: str(),
  event_id: nullable(str()),
  ...earlierRefFields,
});
export const earlierBuildsetDetailSchema = object(earlierBuildsetSchema.properties as Record<string, JsonSchema>, {
  builds: arrayOf(earlierBuildInBuildsetSchema, 'Absent when the buildset has no builds'),
});

function earlierRef(ref: RestRefFieldsFragment | null | undefined): Record<string, unknown> {
  return {
    project: ref?.project ?? null,
    branch: ref?.branch ?? null,
    change: ref?.change ?? null,
    patchset: integerOrNull(ref?.patchset ?? null),
    ref: ref?.ref ?? null,
    newrev: ref?.newrev ?? null,
    ref_url: ref?.refUrl ?? null,
  };
}

/** An earlier-shape build as inside a buildset (no ref or pipeline fields). */
export function mapEarlierBuildCore(build: BuildFields): Record<string, unknown> {
  return {
    uuid: build.uuid,
    job_name: build.jobName,
    result: build.result,
    start_time: isoNaive(build.startTime),
    end_time: isoNaive(build.endTime),
    duration: build.duration === null ? null : Math.round(build.duration),
    voting: build.voting,
    log_url: build.logUrl,
  };
}

/** An earlier-shape flat build listed on its own: ref fields flattened to the top level. */
export function mapEarlierBuild(build: BuildFields & BuildExtras): Record<string, unknown> {
  return Object.assign(mapEarlierBuildCore(build), earlierRef(build.ref), { pipeline: build.buildset.pipeline });
}

/** An earlier-shape flat buildset: the first ref's fields at the top level. */
export function mapEarlierBuildset(buildset: RestBuildsetFieldsFragment): Record<string, unknown> {
  return Object.assign(
    {
      uuid: buildset.uuid,
      result: buildset.result,
      message: buildset.message,
      pipeline: buildset.pipeline,
      event_id: buildset.eventId,
    },
    earlierRef(buildset.refs[0]),
  );
}
