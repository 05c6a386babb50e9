/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Filters of a build list; every field is optional. Values of one field are OR'ed, fields are AND'ed. */
export type BuildFilter = {
  /** Branch of the build's ref; `*` is a wildcard (`*ster`). */
  branch?: Array<string> | null | undefined;
  /** Change number of the build's ref. */
  change?: Array<number> | null | undefined;
  /** true: finished builds only; false: running builds only. */
  complete?: boolean | null | undefined;
  /** Not these results; as in the REST API this also drops builds still running. */
  excludeResult?: Array<BuildResult> | null | undefined;
  /** Only final builds (true) or only completed builds that were retried (false). */
  final?: boolean | null | undefined;
  /** Only builds whose nodes were held (true) or not held (false). */
  held?: boolean | null | undefined;
  /** Largest database id to include (inclusive). */
  idxMax?: number | null | undefined;
  /** Smallest database id to include (inclusive). */
  idxMin?: number | null | undefined;
  /** Job names; `*` is a wildcard (`*-merge`). */
  jobName?: Array<string> | null | undefined;
  /** New revision of the build's ref. */
  newrev?: Array<string> | null | undefined;
  /** Nodeset names. */
  nodeset?: Array<string> | null | undefined;
  /** Patchset of the build's ref. */
  patchset?: Array<string> | null | undefined;
  /** Pipeline of the buildset; `*` is a wildcard (`gat*`). */
  pipeline?: Array<string> | null | undefined;
  /** Project of the build's ref; `*` is a wildcard (`org/*`). */
  project?: Array<string> | null | undefined;
  /** Exact git ref of the build's ref, e.g. `refs/heads/master`. */
  ref?: Array<string> | null | undefined;
  /** Only these results. */
  result?: Array<BuildResult> | null | undefined;
  /** Build uuids. */
  uuid?: Array<string> | null | undefined;
  /** Only voting (true) or non-voting (false) builds. */
  voting?: boolean | null | undefined;
};

/** How a build ended (spec/engine.md §3.1). Null on a build that has not completed. */
export type BuildResult =
  /** The executor stopped the build (cancel or shutdown) of a buildset that is no longer current. */
  | 'ABORTED'
  /** Sluice canceled the build while its buildset stayed current (fail-fast, needed change failing). */
  | 'CANCELED'
  /** The build exceeded the disk limit of its workspace. */
  | 'DISK_FULL'
  /** The job definition could not be run (missing script, bad variable name, no branch). */
  | 'ERROR'
  /** A run step failed (non-zero exit), or a needed artifact provider failed. */
  | 'FAILURE'
  /** Legacy spelling of MERGE_CONFLICT; treated identically. */
  | 'MERGER_FAILURE'
  /** The repositories could not be prepared for the build. */
  | 'MERGE_CONFLICT'
  /** No node could be provided for the build. */
  | 'NODE_FAILURE'
  /** A post-run step failed while the run steps had succeeded. */
  | 'POST_FAILURE'
  /** The build will be run again (a pre-run step failed or the executor gave up); not final. */
  | 'RETRY'
  /** A retryable failure happened on the last allowed attempt. */
  | 'RETRY_LIMIT'
  /** The build never ran: a dependency failed, or the item left the pipeline first. */
  | 'SKIPPED'
  /** Every run step succeeded and no post-run step failed. */
  | 'SUCCESS'
  /** The run steps exceeded the job timeout; the process group was killed. */
  | 'TIMED_OUT';

/** Filters of build times; every field is optional. Values are exact (no wildcards); values of one field are OR'ed, fields AND'ed. */
export type BuildTimeFilter = {
  /** Branch of the build's ref. */
  branch?: Array<string> | null | undefined;
  /** Builds that ended at or before this time (REST `end_time`). */
  endTimeMax?: string | null | undefined;
  /** Builds that ended at or after this time (REST `start_time`). */
  endTimeMin?: string | null | undefined;
  /** Not these results. */
  excludeResult?: Array<BuildResult> | null | undefined;
  /** Only final builds (true) or only retried builds (false). */
  final?: boolean | null | undefined;
  /** Job names. */
  jobName?: Array<string> | null | undefined;
  /** Pipeline of the buildset. */
  pipeline?: Array<string> | null | undefined;
  /** Project of the build's ref. */
  project?: Array<string> | null | undefined;
  /** Git ref of the build's ref. */
  ref?: Array<string> | null | undefined;
  /** Only these results. */
  result?: Array<BuildResult> | null | undefined;
};

/** Filters of a buildset list; every field is optional. Values of one field are OR'ed, fields are AND'ed. Ref conditions (project, branch, change, patchset, ref, newrev) must hold for one ref of the buildset. */
export type BuildsetFilter = {
  /** Branches of any ref; `*` is a wildcard (`*ster`). */
  branch?: Array<string> | null | undefined;
  /** Change numbers. */
  change?: Array<number> | null | undefined;
  /** true: finished buildsets only; false: running buildsets only. */
  complete?: boolean | null | undefined;
  /** Not these results; as in the REST API this also drops buildsets still running. */
  excludeResult?: Array<BuildsetResult> | null | undefined;
  /** Largest database id to include (inclusive). */
  idxMax?: number | null | undefined;
  /** Smallest database id to include (inclusive). */
  idxMin?: number | null | undefined;
  /** New revisions of ref updates. */
  newrev?: Array<string> | null | undefined;
  /** Patchsets. */
  patchset?: Array<string> | null | undefined;
  /** Pipeline names; `*` is a wildcard (`gat*`). */
  pipeline?: Array<string> | null | undefined;
  /** Project names of any ref; `*` is a wildcard (`org/*`). */
  project?: Array<string> | null | undefined;
  /** Exact git refs, e.g. `refs/heads/master`. */
  ref?: Array<string> | null | undefined;
  /** Only these results. */
  result?: Array<BuildsetResult> | null | undefined;
  /** Buildset uuids. */
  uuid?: Array<string> | null | undefined;
};

/** How a buildset ended (spec/engine.md §3.2). Null on a buildset still running. */
export type BuildsetResult =
  /** The item carried a blocking configuration error. */
  | 'CONFIG_ERROR'
  /** The item left the pipeline without a result (dequeue, superseded, reset, reconfiguration). */
  | 'DEQUEUED'
  /** Reporting the item failed. */
  | 'ERROR'
  /** A voting job failed, a needed change failed, or pipeline requirements were missing. */
  | 'FAILURE'
  /** The speculative merge of the item failed. */
  | 'MERGE_CONFLICT'
  /** The jobs succeeded but the change could not be merged into its branch. */
  | 'MERGE_FAILURE'
  /** The project is not in the pipeline, or no job matched the change. */
  | 'NO_JOBS'
  /** All voting jobs succeeded (or were skipped) and, in a dependent pipeline, the change merged. */
  | 'SUCCESS';

/** Filters of system events; every field is optional. */
export type SystemEventFilter = {
  /** Only these kinds of event (OR'ed). */
  eventTypes?: Array<SystemEventType> | null | undefined;
};

/** Kinds of system events; the REST API spells them in lower case with dashes (`config-errors-changed`). */
export type SystemEventType =
  /** An autohold request was created. */
  | 'AUTOHOLD_CREATED'
  /** An autohold request was deleted. */
  | 'AUTOHOLD_DELETED'
  /** An autohold request held its last node set and expired. */
  | 'AUTOHOLD_EXHAUSTED'
  /** A Sluice component (api, scheduler, executor, launcher) started. */
  | 'COMPONENT_STARTED'
  /** A Sluice component stopped. */
  | 'COMPONENT_STOPPED'
  /** The set of configuration errors of the tenant changed. */
  | 'CONFIG_ERRORS_CHANGED'
  /** An administrator dequeued a change or ref (actor in the description). */
  | 'DEQUEUED'
  /** An administrator enqueued a change or ref (actor in the description). */
  | 'ENQUEUED'
  /** An image build artifact was deleted. */
  | 'IMAGE_ARTIFACT_DELETED'
  /** A build of an image was requested. */
  | 'IMAGE_BUILD_REQUESTED'
  /** An image upload was deleted. */
  | 'IMAGE_UPLOAD_DELETED'
  /** An image upload was marked validated. */
  | 'IMAGE_UPLOAD_VALIDATED'
  /** A nodeset request was canceled. */
  | 'NODESET_REQUEST_CANCELED'
  /** Nodes of a failed build were held for an autohold request. */
  | 'NODE_HELD'
  /** Held nodes were released. */
  | 'NODE_RELEASED'
  /** A pipeline changed state (normal, error) or was disabled or enabled. */
  | 'PIPELINE_STATE_CHANGED'
  /** An administrator promoted changes to the head of a queue (actor in the description). */
  | 'PROMOTED'
  /** The tenant layout was (re)loaded from configuration. */
  | 'RECONFIGURED'
  /** The tenant event queues were paused, resumed or set to discard. */
  | 'TENANT_STATE_CHANGED';

export type RestRefFieldsFragment = { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null };

export type RestBuildFieldsFragment = { databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null };

export type RestBuildsetFieldsFragment = { databaseId: number, uuid: string, result: BuildsetResult | null, message: string | null, pipeline: string, eventId: string | null, eventTimestamp: string | null, firstBuildStartTime: string | null, lastBuildEndTime: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null }> };

export type RestBuildsQueryVariables = Exact<{
  tenant: string;
  filter?: BuildFilter | null | undefined;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestBuildsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', builds: { nodes: Array<{ pipeline: string, eventId: string | null, eventTimestamp: string | null, databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, buildset: { uuid: string }, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null }> } }
   | null };

export type RestBuildQueryVariables = Exact<{
  tenant: string;
  uuid: string;
}>;


export type RestBuildQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', build:
        | { __typename: 'Build', pipeline: string, eventId: string | null, eventTimestamp: string | null, databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, buildset: { uuid: string, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null }> }, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestBuildsetsQueryVariables = Exact<{
  tenant: string;
  filter?: BuildsetFilter | null | undefined;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestBuildsetsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', buildsets: { nodes: Array<{ databaseId: number, uuid: string, result: BuildsetResult | null, message: string | null, pipeline: string, eventId: string | null, eventTimestamp: string | null, firstBuildStartTime: string | null, lastBuildEndTime: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null }> }> } }
   | null };

export type RestBuildsetQueryVariables = Exact<{
  tenant: string;
  uuid: string;
}>;


export type RestBuildsetQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', buildset:
        | { __typename: 'Buildset', databaseId: number, uuid: string, result: BuildsetResult | null, message: string | null, pipeline: string, eventId: string | null, eventTimestamp: string | null, firstBuildStartTime: string | null, lastBuildEndTime: string | null, builds: Array<{ databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null }>, events: Array<{ eventTime: string, eventType: string, description: string | null }>, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null }> }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestBuildTimesQueryVariables = Exact<{
  tenant: string;
  filter?: BuildTimeFilter | null | undefined;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestBuildTimesQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', buildTimes: { nodes: Array<{ databaseId: number, uuid: string, jobName: string, result: BuildResult, startTime: string | null, endTime: string, duration: number | null, final: boolean, project: string | null, branch: string | null, pipeline: string, ref: string | null }> } }
   | null };

export type RestSystemEventsQueryVariables = Exact<{
  tenant: string;
  filter?: SystemEventFilter | null | undefined;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestSystemEventsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', systemEvents: { nodes: Array<{ eventId: string, eventTime: string, eventType: SystemEventType, description: string }> } }
   | null };

export type RestBadgeQueryVariables = Exact<{
  tenant: string;
  project?: Array<string> | string | null | undefined;
  pipeline?: Array<string> | string | null | undefined;
  branch?: Array<string> | string | null | undefined;
}>;


export type RestBadgeQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', badge:
        | { __typename: 'Badge', passing: boolean }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type RestInfoQuery = { info: { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null }> } } } };

export type RestTenantExistsQueryVariables = Exact<{
  tenant: string;
}>;


export type RestTenantExistsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant' }
   | null };

export type RestTenantsQueryVariables = Exact<{ [key: string]: never; }>;


export type RestTenantsQuery = { tenants: Array<{ name: string }> };

export type RestTenantInfoQueryVariables = Exact<{
  tenant: string;
}>;


export type RestTenantInfoQuery = { info: { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null }> } } }, tenant:
    | { __typename: 'NotFoundError' }
    | { __typename: 'Tenant' }
   | null };

export const RestRefFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}}]} as unknown as DocumentNode<RestRefFieldsFragment, unknown>;
export const RestBuildFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}}]} as unknown as DocumentNode<RestBuildFieldsFragment, unknown>;
export const RestBuildsetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"firstBuildStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"lastBuildEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}}]} as unknown as DocumentNode<RestBuildsetFieldsFragment, unknown>;
export const RestBuildsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuilds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BuildFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"builds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildFields"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"buildset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]} as unknown as DocumentNode<RestBuildsQuery, RestBuildsQueryVariables>;
export const RestBuildDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"build"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"uuid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildFields"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"buildset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]} as unknown as DocumentNode<RestBuildQuery, RestBuildQueryVariables>;
export const RestBuildsetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuildsets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BuildsetFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildsets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildsetFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"firstBuildStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"lastBuildEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]} as unknown as DocumentNode<RestBuildsetsQuery, RestBuildsetsQueryVariables>;
export const RestBuildsetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuildset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"uuid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildsetFields"}},{"kind":"Field","name":{"kind":"Name","value":"builds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventTime"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"firstBuildStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"lastBuildEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]} as unknown as DocumentNode<RestBuildsetQuery, RestBuildsetQueryVariables>;
export const RestBuildTimesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuildTimes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BuildTimeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildTimes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestBuildTimesQuery, RestBuildTimesQueryVariables>;
export const RestSystemEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestSystemEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEventFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"systemEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTime"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestSystemEventsQuery, RestSystemEventsQueryVariables>;
export const RestBadgeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBadge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"branch"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"badge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"pipeline"},"value":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}}},{"kind":"Argument","name":{"kind":"Name","value":"branch"},"value":{"kind":"Variable","name":{"kind":"Name","value":"branch"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Badge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"passing"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestBadgeQuery, RestBadgeQueryVariables>;
export const RestInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"info"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestInfoQuery, RestInfoQueryVariables>;
export const RestTenantExistsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantExists"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RestTenantExistsQuery, RestTenantExistsQueryVariables>;
export const RestTenantsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<RestTenantsQuery, RestTenantsQueryVariables>;
export const RestTenantInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantInfo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"info"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}}]}}]}}]} as unknown as DocumentNode<RestTenantInfoQuery, RestTenantInfoQueryVariables>;