/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A point in time, serialized as an ISO-8601 string in UTC (for example 2026-01-31T12:00:00.000Z). */
  DateTime: { input: string; output: string; }
  /** Any JSON value: object, array, string, number, boolean or null. */
  JSON: { input: unknown; output: unknown; }
};

/** Filters of a build list; every field is optional. Values of one field are OR'ed, fields are AND'ed. */
export type BuildFilter = {
  /** Branch of the build's ref; `*` is a wildcard (`*ster`). */
  branch?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Change number of the build's ref. */
  change?: InputMaybe<Array<Scalars['Int']['input']>>;
  /** true: finished builds only; false: running builds only. */
  complete?: InputMaybe<Scalars['Boolean']['input']>;
  /** Not these results; as in the REST API this also drops builds still running. */
  excludeResult?: InputMaybe<Array<BuildResult>>;
  /** Only final builds (true) or only completed builds that were retried (false). */
  final?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only builds whose nodes were held (true) or not held (false). */
  held?: InputMaybe<Scalars['Boolean']['input']>;
  /** Largest database id to include (inclusive). */
  idxMax?: InputMaybe<Scalars['Int']['input']>;
  /** Smallest database id to include (inclusive). */
  idxMin?: InputMaybe<Scalars['Int']['input']>;
  /** Job names; `*` is a wildcard (`*-merge`). */
  jobName?: InputMaybe<Array<Scalars['String']['input']>>;
  /** New revision of the build's ref. */
  newrev?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Nodeset names. */
  nodeset?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Patchset of the build's ref. */
  patchset?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Pipeline of the buildset; `*` is a wildcard (`gat*`). */
  pipeline?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Project of the build's ref; `*` is a wildcard (`org/*`). */
  project?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Exact git ref of the build's ref, e.g. `refs/heads/master`. */
  ref?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only these results. */
  result?: InputMaybe<Array<BuildResult>>;
  /** Build uuids. */
  uuid?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only voting (true) or non-voting (false) builds. */
  voting?: InputMaybe<Scalars['Boolean']['input']>;
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

/** Where a build is in its life; independent of its result. */
export type BuildStatus =
  /** Finished; `result` says how. */
  | 'COMPLETED'
  /** Recorded but not started yet (no start time, no result). */
  | 'QUEUED'
  /** Started and without a result yet. */
  | 'RUNNING';

/** Filters of build times; every field is optional. Values are exact (no wildcards); values of one field are OR'ed, fields AND'ed. */
export type BuildTimeFilter = {
  /** Branch of the build's ref. */
  branch?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Builds that ended at or before this time (REST `end_time`). */
  endTimeMax?: InputMaybe<Scalars['DateTime']['input']>;
  /** Builds that ended at or after this time (REST `start_time`). */
  endTimeMin?: InputMaybe<Scalars['DateTime']['input']>;
  /** Not these results. */
  excludeResult?: InputMaybe<Array<BuildResult>>;
  /** Only final builds (true) or only retried builds (false). */
  final?: InputMaybe<Scalars['Boolean']['input']>;
  /** Job names. */
  jobName?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Pipeline of the buildset. */
  pipeline?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Project of the build's ref. */
  project?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Git ref of the build's ref. */
  ref?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only these results. */
  result?: InputMaybe<Array<BuildResult>>;
};

/** Filters of a buildset list; every field is optional. Values of one field are OR'ed, fields are AND'ed. Ref conditions (project, branch, change, patchset, ref, newrev) must hold for one ref of the buildset. */
export type BuildsetFilter = {
  /** Branches of any ref; `*` is a wildcard (`*ster`). */
  branch?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Change numbers. */
  change?: InputMaybe<Array<Scalars['Int']['input']>>;
  /** true: finished buildsets only; false: running buildsets only. */
  complete?: InputMaybe<Scalars['Boolean']['input']>;
  /** Not these results; as in the REST API this also drops buildsets still running. */
  excludeResult?: InputMaybe<Array<BuildsetResult>>;
  /** Largest database id to include (inclusive). */
  idxMax?: InputMaybe<Scalars['Int']['input']>;
  /** Smallest database id to include (inclusive). */
  idxMin?: InputMaybe<Scalars['Int']['input']>;
  /** New revisions of ref updates. */
  newrev?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Patchsets. */
  patchset?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Pipeline names; `*` is a wildcard (`gat*`). */
  pipeline?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Project names of any ref; `*` is a wildcard (`org/*`). */
  project?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Exact git refs, e.g. `refs/heads/master`. */
  ref?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only these results. */
  result?: InputMaybe<Array<BuildsetResult>>;
  /** Buildset uuids. */
  uuid?: InputMaybe<Array<Scalars['String']['input']>>;
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

/** Where a buildset is in its life; independent of its result. */
export type BuildsetStatus =
  /** Reported or dequeued; `result` says how. */
  | 'COMPLETED'
  /** Its builds are running or waiting; no result has been reported. */
  | 'RUNNING';

/** Exact-match filters of configuration errors; every field is optional and they combine with AND. */
export type ConfigErrorFilter = {
  /** Branch of the error's source context. */
  branch?: InputMaybe<Scalars['String']['input']>;
  /** Kind of problem, e.g. `Job Not Found`. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** Short project name of the error's source context. */
  project?: InputMaybe<Scalars['String']['input']>;
  /** Only errors or only warnings. */
  severity?: InputMaybe<ConfigErrorSeverity>;
};

/** How serious a configuration problem is; the REST API spells them in lower case. */
export type ConfigErrorSeverity =
  /** The object was not loaded. */
  | 'ERROR'
  /** The object was loaded but something about it is questionable or deprecated. */
  | 'WARNING';

/** Life of an image build artifact. */
export type ImageBuildArtifactState =
  /** Being deleted. */
  | 'DELETING'
  /** Usable; uploads may be made from it. */
  | 'READY';

/** Where an image comes from. */
export type ImageType =
  /** Provided by the cloud itself. */
  | 'CLOUD'
  /** Built by an image-build job of the tenant and uploaded to provider endpoints. */
  | 'ZUUL';

/** Life of an upload of an image build artifact to a provider endpoint. */
export type ImageUploadState =
  /** Being deleted. */
  | 'DELETING'
  /** Waiting to be uploaded. */
  | 'PENDING'
  /** Uploaded and usable by the provider. */
  | 'READY'
  /** Being uploaded. */
  | 'UPLOADING';

/** Whether identical builds of this job are shared between items of a dependency cycle. */
export type JobDeduplication =
  /** Always deduplicate. */
  | 'ALWAYS'
  /** Deduplicate when the frozen jobs are identical (the default). */
  | 'AUTO'
  /** Never deduplicate. */
  | 'NEVER';

/** Where a role comes from. */
export type JobRoleType =
  /** A role from an external role registry. */
  | 'GALAXY'
  /** A role from a project known to the tenant. */
  | 'ZUUL';

/** How changes of a project are merged for testing and submission; the REST API spells them in lower case with dashes. */
export type MergeMode =
  /** Each commit is cherry-picked onto the branch. */
  | 'CHERRY_PICK'
  /** A merge commit (fast-forward when possible is not attempted). */
  | 'MERGE'
  /** A merge with the "ort" strategy. */
  | 'MERGE_ORT'
  /** A merge with the "recursive" strategy. */
  | 'MERGE_RECURSIVE'
  /** A merge with the "resolve" strategy. */
  | 'MERGE_RESOLVE'
  /** The commits are rebased onto the branch. */
  | 'REBASE'
  /** All commits are squashed into one on the branch. */
  | 'SQUASH_MERGE';

/** How a pipeline queues and tests items (spec/engine.md §2). */
export type PipelineManager =
  /** Items of a shared queue are tested speculatively on top of the items ahead (gating). */
  | 'DEPENDENT'
  /** Every item is tested on its own, in parallel. */
  | 'INDEPENDENT'
  /** One item of a queue at a time, in order. */
  | 'SERIAL'
  /** Only the newest item per project and branch runs; older waiting ones are superseded. */
  | 'SUPERCEDENT';

/** Priority of the pipeline's node requests relative to other pipelines. */
export type PipelinePrecedence =
  /** Served before normal and low. */
  | 'HIGH'
  /** Served after high and normal. */
  | 'LOW'
  /** The default. */
  | 'NORMAL';

/** Trust level of a project in the tenant. */
export type ProjectType =
  /** A config (trusted) project: its configuration is applied only after merge. */
  | 'CONFIG'
  /** An untrusted project: proposed configuration is tested speculatively. */
  | 'UNTRUSTED';

/** Filters of system events; every field is optional. */
export type SystemEventFilter = {
  /** Only these kinds of event (OR'ed). */
  eventTypes?: InputMaybe<Array<SystemEventType>>;
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

/** How a dependent pipeline's window grows on success or shrinks on failure. */
export type WindowAdjustment =
  /** Multiply or divide by the factor. */
  | 'EXPONENTIAL'
  /** Add or subtract the factor. */
  | 'LINEAR';

/** Whether project repositories are checked out in the workspace. */
export type WorkspaceCheckout =
  /** Check out every project (the default). */
  | 'ALWAYS'
  /** Check out only when the nodes need it. */
  | 'AUTO'
  /** Prepare repositories without a checkout. */
  | 'NEVER';

/** How project repositories are laid out in the job workspace. */
export type WorkspaceScheme =
  /** `src/<project short name>`. */
  | 'FLAT'
  /** `src/<canonical hostname>/<project name>` (the default). */
  | 'GOLANG'
  /** A unique directory per project, safe for names that collide. */
  | 'UNIQUE';

export type RestInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type RestInfoQuery = { info: { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null }> } } } };


export const RestInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"info"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestInfoQuery, RestInfoQueryVariables>;