/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** An autohold request; `change` and `ref` are mutually exclusive (neither = every ref). */
export type AutoholdCreateInput = {
  /** Change number whose refs to match. */
  change?: string | null | undefined;
  /** Number of failed builds to hold (0 or more). */
  count: number;
  /** Job name. */
  job: string;
  /** Seconds to keep held nodes; the deployment default when null. */
  nodeHoldExpiration?: number | null | undefined;
  /** Project (short or canonical name). */
  project: string;
  /** Why the nodes are held. */
  reason: string;
  /** Regular expression of refs to match. */
  ref?: string | null | undefined;
  /** Tenant name. */
  tenant: string;
};

/** The autohold request to delete. */
export type AutoholdDeleteInput = {
  /** Request id; zero padding is optional. */
  id: string;
  /** Tenant name. */
  tenant: string;
};

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
  /** Project of the build's ref: its name (`org/project`) or canonical name; `*` is a wildcard (`org/*`). */
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

/** How a build ended (docs/gating.md#results). Null on a build that has not completed. */
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
  /** Project of the build's ref: its name (`org/project`) or canonical name. */
  project?: Array<string> | null | undefined;
  /** Git ref of the build's ref. */
  ref?: Array<string> | null | undefined;
  /** Only these results. */
  result?: Array<BuildResult> | null | undefined;
};

/** Filters of a buildset list; every field is optional. Values of one field are OR'ed, fields are AND'ed. Ref conditions (project, branch, change, patchset, ref, newrev) must hold for one ref of the buildset. */
export type BuildsetFilter = {
  /** Branch of one of the buildset's refs; `*` is a wildcard (`*ster`). */
  branch?: Array<string> | null | undefined;
  /** Change number of one of the buildset's refs. */
  change?: Array<number> | null | undefined;
  /** true: finished buildsets only; false: running buildsets only. */
  complete?: boolean | null | undefined;
  /** Not these results; as in the REST API this also drops buildsets still running. */
  excludeResult?: Array<BuildsetResult> | null | undefined;
  /** Largest database id to include (inclusive). */
  idxMax?: number | null | undefined;
  /** Smallest database id to include (inclusive). */
  idxMin?: number | null | undefined;
  /** New revision of one of the buildset's refs. */
  newrev?: Array<string> | null | undefined;
  /** Patchset of one of the buildset's refs. */
  patchset?: Array<string> | null | undefined;
  /** Pipeline of the buildset; `*` is a wildcard (`gat*`). */
  pipeline?: Array<string> | null | undefined;
  /** Project of one of the buildset's refs: its name (`org/project`) or canonical name; `*` is a wildcard (`org/*`). */
  project?: Array<string> | null | undefined;
  /** Exact git ref of one of the buildset's refs, e.g. `refs/heads/master`. */
  ref?: Array<string> | null | undefined;
  /** Only these results. */
  result?: Array<BuildsetResult> | null | undefined;
  /** Buildset uuids. */
  uuid?: Array<string> | null | undefined;
};

/** How a buildset ended (docs/gating.md#results). Null on a buildset still running. */
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

/** Exact-match filters of configuration errors; every field is optional and they combine with AND. */
export type ConfigErrorFilter = {
  /** Branch of the error's source context. */
  branch?: string | null | undefined;
  /** Kind of problem, e.g. `Job Not Found`. */
  name?: string | null | undefined;
  /** Short project name of the error's source context. */
  project?: string | null | undefined;
  /** Only errors or only warnings. */
  severity?: ConfigErrorSeverity | null | undefined;
};

/** How serious a configuration problem is; the REST API spells them in lower case. */
export type ConfigErrorSeverity =
  /** The object was not loaded. */
  | 'ERROR'
  /** The object was loaded but something about it is questionable or deprecated. */
  | 'WARNING';

/** A live change (`change`) or ref (`ref`) to remove from a pipeline; exactly one of them. */
export type DequeueInput = {
  /** `<number>,<patchset>`. */
  change?: string | null | undefined;
  /** Pipeline to dequeue from. */
  pipeline: string;
  /** Project (short or canonical name). */
  project: string;
  /** Ref of a ref item. */
  ref?: string | null | undefined;
  /** Tenant name. */
  tenant: string;
};

/** A change (`change`) or a ref update (`ref`, `oldrev`, `newrev`) to enqueue; `change` wins when both are given. */
export type EnqueueInput = {
  /** `<number>,<patchset>`. */
  change?: string | null | undefined;
  /** New revision of a ref update. */
  newrev?: string | null | undefined;
  /** Old revision of a ref update. */
  oldrev?: string | null | undefined;
  /** Pipeline to enqueue into. */
  pipeline: string;
  /** Project (short or canonical name). */
  project: string;
  /** Ref of a ref update. */
  ref?: string | null | undefined;
  /** Tenant name. */
  tenant: string;
};

/** An image build artifact to delete (`DELETE T/image-build-artifact/{id}`). */
export type ImageBuildArtifactDeleteInput = {
  /** Artifact id. */
  artifactId: string;
  /** Tenant name (the build tenant). */
  tenant: string;
};

/** Life of an image build artifact. */
export type ImageBuildArtifactState =
  /** Being deleted. */
  | 'DELETING'
  /** Usable; uploads may be made from it. */
  | 'READY';

/** A zuul image to build (`POST T/image/{name}/build`). */
export type ImageBuildInput = {
  /** Image name. */
  imageName: string;
  /** Tenant name. */
  tenant: string;
};

/** Where an image comes from. */
export type ImageType =
  /** Provided by the cloud itself. */
  | 'CLOUD'
  /** Built by an image-build job of the tenant and uploaded to provider endpoints. */
  | 'ZUUL';

/** An image upload (`DELETE T/image-upload/{id}`, `POST T/image-upload/{id}/validate`). */
export type ImageUploadInput = {
  /** Tenant name (the build tenant). */
  tenant: string;
  /** Upload id. */
  uploadId: string;
};

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

/** A node to hold (`PUT T/nodes/{id}` with state `hold`). */
export type NodeHoldInput = {
  /** Why the node is held. */
  comment?: string | null | undefined;
  /** Node id. */
  nodeId: string;
  /** Tenant name. */
  tenant: string;
};

/** A node to release (`PUT T/nodes/{id}` with state `used`); it is then deleted. */
export type NodeReleaseInput = {
  /** Node id. */
  nodeId: string;
  /** Tenant name. */
  tenant: string;
};

/** States of a provider node (docs/launcher.md#node-and-request-states); REST spells them in lower case with dashes. */
export type NodeState =
  /** Being launched; counts toward quota. */
  | 'BUILDING'
  /** Launch failed permanently (counts toward the provider’s launch attempts). */
  | 'FAILED'
  /** Held for an autohold request or by an administrator. */
  | 'HOLD'
  /** Used by a build. */
  | 'IN_USE'
  /** Unassigned and past its max-ready-age (or its label configuration is gone); to be deleted. */
  | 'OUTDATED'
  /** Up and scanned; reusable when unassigned. */
  | 'READY'
  /** Created, not launched yet (waiting for quota or a free host). */
  | 'REQUESTED'
  /** Launch failed for lack of quota; retried without counting. */
  | 'TEMPFAILED'
  /** Returned after a build; to be deleted. */
  | 'USED';

/** A nodeset request to cancel (`DELETE T/nodeset-requests/{id}`). */
export type NodesetRequestCancelInput = {
  /** Request id. */
  requestId: string;
  /** Tenant name. */
  tenant: string;
};

/** States of a nodeset request: requested -> accepted -> fulfilled | failed. */
export type NodesetRequestState =
  /** Nodes are being provided. */
  | 'ACCEPTED'
  /** No provider could provide the nodes; the job gets NODE_FAILURE. */
  | 'FAILED'
  /** Every node is ready and handed to the job. */
  | 'FULFILLED'
  /** Waiting for a launcher (or for quota). */
  | 'REQUESTED';

/** State of a pipeline. */
export type PipelineHealth =
  /** The pipeline has a configuration error. */
  | 'ERROR'
  /** The pipeline works normally. */
  | 'NORMAL';

/** How a pipeline orders and gates its items. */
export type PipelineManagerKind =
  /** Changes are tested speculatively on top of the ones ahead (gating). */
  | 'DEPENDENT'
  /** Each change is tested on its own. */
  | 'INDEPENDENT'
  /** One item at a time per queue. */
  | 'SERIAL'
  /** A newer item replaces a waiting older one of the same ref. */
  | 'SUPERCEDENT';

/** Trust level of a project in the tenant. */
export type ProjectType =
  /** A config (trusted) project: its configuration is applied only after merge. */
  | 'CONFIG'
  /** An untrusted project: proposed configuration is tested speculatively. */
  | 'UNTRUSTED';

/** Changes to move to the head of their queue, in this order. */
export type PromoteInput = {
  /** Changes as `<number>,<patchset>`. */
  changes: Array<string>;
  /** Pipeline of the changes. */
  pipeline: string;
  /** Tenant name. */
  tenant: string;
};

/** A job to quarantine, for one project or every project of the tenant. */
export type QuarantineAddInput = {
  /** Job name. */
  job: string;
  /** Project (short or canonical name); every project when absent. */
  project?: string | null | undefined;
  /** Why (shown with the list and in the audit event). */
  reason: string;
  /** Tenant name. */
  tenant: string;
};

/** A quarantined job to take off the list. */
export type QuarantineRemoveInput = {
  /** Job name. */
  job: string;
  /** Project (short or canonical name); the every-project entry when absent. */
  project?: string | null | undefined;
  /** Tenant name. */
  tenant: string;
};

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
  /** A known-flaky job failed and was retried in place instead of failing its item (docs/analytics.md#flake-aware-gating). */
  | 'FLAKY_RETRY'
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
  /** A tenant admin added a job to the quarantine list or removed one (actor in the description; docs/analytics.md#quarantine). */
  | 'QUARANTINE_CHANGED'
  /** The tenant layout was (re)loaded from configuration. */
  | 'RECONFIGURED'
  /** A report to a code-review system or notification service failed after its retries (docs/gating.md#engine-work). */
  | 'REPORT_FAILED'
  /** The tenant event queues were paused, resumed or set to discard. */
  | 'TENANT_STATE_CHANGED';

/** New event-queue state; omitted flags keep their value, the reason is replaced (cleared when omitted). */
export type TenantStateSetInput = {
  /** Free text (at most 4096 characters are kept). */
  reason?: string | null | undefined;
  /** Stop processing result events. */
  resultQueuePaused?: boolean | null | undefined;
  /** Tenant name. */
  tenant: string;
  /** Discard incoming trigger events. */
  triggerQueueDiscarding?: boolean | null | undefined;
  /** Stop processing trigger events. */
  triggerQueuePaused?: boolean | null | undefined;
};

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

export type RestAutoholdFieldsFragment = { id: string, tenant: string, project: string, job: string, refFilter: string, maxCount: number, currentCount: number, reason: string, nodeExpiration: number, expired: string | null, nodes: Array<{ build: string, nodes: Array<string> }> };

export type RestAutoholdsQueryVariables = Exact<{
  tenant: string;
  project?: string | null | undefined;
}>;


export type RestAutoholdsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', autoholds: Array<{ id: string, tenant: string, project: string, job: string, refFilter: string, maxCount: number, currentCount: number, reason: string, nodeExpiration: number, expired: string | null, nodes: Array<{ build: string, nodes: Array<string> }> }> }
   | null };

export type RestAutoholdQueryVariables = Exact<{
  tenant: string;
  id: string;
}>;


export type RestAutoholdQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', autohold:
        | { __typename: 'Autohold', id: string, tenant: string, project: string, job: string, refFilter: string, maxCount: number, currentCount: number, reason: string, nodeExpiration: number, expired: string | null, nodes: Array<{ build: string, nodes: Array<string> }> }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestTenantStatusQueryVariables = Exact<{
  tenant: string;
}>;


export type RestTenantStatusQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', configErrorCount: number }
   | null };

export type RestPipelinesQueryVariables = Exact<{
  tenant: string;
}>;


export type RestPipelinesQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', pipelines: Array<{ name: string, triggers: Array<{ name: string, driver: string }> }> }
   | null };

export type RestProjectsQueryVariables = Exact<{
  tenant: string;
}>;


export type RestProjectsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', projects: Array<{ name: string, connectionName: string, canonicalName: string, type: ProjectType }> }
   | null };

export type RestJobsQueryVariables = Exact<{
  tenant: string;
}>;


export type RestJobsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', jobs: Array<{ name: string, description: string | null, tags: Array<string>, variants: Array<{ parent: string | null, branches: Array<string> | null }> }> }
   | null };

export type RestConfigErrorsQueryVariables = Exact<{
  tenant: string;
  filter?: ConfigErrorFilter | null | undefined;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestConfigErrorsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', configErrors: { nodes: Array<{ error: string, shortError: string, severity: ConfigErrorSeverity, name: string, sourceContext: { project: string, branch: string, path: string } | null }> } }
   | null };

export type RestSemaphoresQueryVariables = Exact<{
  tenant: string;
}>;


export type RestSemaphoresQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', semaphores: Array<{ name: string, global: boolean, max: number, holders: { count: number, otherTenants: number, thisTenant: Array<{ buildsetUuid: string, jobName: string }> } }> }
   | null };

export type RestUploadFieldsFragment = { uuid: string, canonicalName: string, artifactUuid: string, endpointName: string, externalId: string | null, timestamp: string, validated: boolean, state: ImageUploadState, stateTime: string, isLocked: boolean, lockHolder: string | null };

export type RestArtifactFieldsFragment = { uuid: string, canonicalName: string, buildTenant: boolean, buildUuid: string | null, format: string, md5sum: string | null, sha256: string | null, url: string | null, timestamp: string, validated: boolean, state: ImageBuildArtifactState | null, stateTime: string, isLocked: boolean, lockHolder: string | null, uploads: Array<{ uuid: string, canonicalName: string, artifactUuid: string, endpointName: string, externalId: string | null, timestamp: string, validated: boolean, state: ImageUploadState, stateTime: string, isLocked: boolean, lockHolder: string | null }> };

export type RestLabelsQueryVariables = Exact<{
  tenant: string;
}>;


export type RestLabelsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', labels: Array<{ name: string, canonicalName: string, description: string | null }> }
   | null };

export type RestFlavorsQueryVariables = Exact<{
  tenant: string;
}>;


export type RestFlavorsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', flavors: Array<{ name: string, canonicalName: string, description: string | null }> }
   | null };

export type RestImagesQueryVariables = Exact<{
  tenant: string;
}>;


export type RestImagesQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', images: Array<{ name: string, canonicalName: string, projectCanonicalName: string, branch: string, type: ImageType, buildArtifacts: Array<{ uuid: string, canonicalName: string, buildTenant: boolean, buildUuid: string | null, format: string, md5sum: string | null, sha256: string | null, url: string | null, timestamp: string, validated: boolean, state: ImageBuildArtifactState | null, stateTime: string, isLocked: boolean, lockHolder: string | null, uploads: Array<{ uuid: string, canonicalName: string, artifactUuid: string, endpointName: string, externalId: string | null, timestamp: string, validated: boolean, state: ImageUploadState, stateTime: string, isLocked: boolean, lockHolder: string | null }> }> }> }
   | null };

export type RestProvidersQueryVariables = Exact<{
  tenant: string;
}>;


export type RestProvidersQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', providers: Array<{ name: string, canonicalName: string, flavors: Array<{ name: string, canonicalName: string }>, labels: Array<{ name: string, canonicalName: string }>, images: Array<{ name: string, canonicalName: string, type: ImageType, buildArtifacts: Array<{ uuid: string, canonicalName: string, buildTenant: boolean, buildUuid: string | null, format: string, md5sum: string | null, sha256: string | null, url: string | null, timestamp: string, validated: boolean, state: ImageBuildArtifactState | null, stateTime: string, isLocked: boolean, lockHolder: string | null, uploads: Array<{ uuid: string, canonicalName: string, artifactUuid: string, endpointName: string, externalId: string | null, timestamp: string, validated: boolean, state: ImageUploadState, stateTime: string, isLocked: boolean, lockHolder: string | null }> }> }> }> }
   | null };

export type RestEnqueueMutationVariables = Exact<{
  input: EnqueueInput;
}>;


export type RestEnqueueMutation = { enqueue:
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'ManagementEventAccepted' }
    | { __typename: 'NotFoundError', errorMessage: string }
   | null };

export type RestDequeueMutationVariables = Exact<{
  input: DequeueInput;
}>;


export type RestDequeueMutation = { dequeue:
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'ManagementEventAccepted' }
    | { __typename: 'NotFoundError', errorMessage: string }
   | null };

export type RestPromoteMutationVariables = Exact<{
  input: PromoteInput;
}>;


export type RestPromoteMutation = { promote:
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'ManagementEventAccepted' }
    | { __typename: 'NotFoundError', errorMessage: string }
   | null };

export type RestTenantStateSetMutationVariables = Exact<{
  input: TenantStateSetInput;
}>;


export type RestTenantStateSetMutation = { tenantStateSet:
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'TenantEventQueueState' }
   | null };

export type RestAutoholdCreateMutationVariables = Exact<{
  input: AutoholdCreateInput;
}>;


export type RestAutoholdCreateMutation = { autoholdCreate:
    | { __typename: 'Autohold' }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
   | null };

export type RestAutoholdDeleteMutationVariables = Exact<{
  input: AutoholdDeleteInput;
}>;


export type RestAutoholdDeleteMutation = { autoholdDelete:
    | { __typename: 'AutoholdDeleted' }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
   | null };

type RestErrorFields_ConflictError_Fragment = { errorMessage: string };

type RestErrorFields_InvalidInputError_Fragment = { errorMessage: string };

type RestErrorFields_JobGraphError_Fragment = { errorMessage: string };

type RestErrorFields_NotFoundError_Fragment = { errorMessage: string };

export type RestErrorFieldsFragment =
  | RestErrorFields_ConflictError_Fragment
  | RestErrorFields_InvalidInputError_Fragment
  | RestErrorFields_JobGraphError_Fragment
  | RestErrorFields_NotFoundError_Fragment
;

export type RestRefFieldsFragment = { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null };

export type RestBuildFieldsFragment = { databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null };

export type RestBuildBuildsetFieldsFragment = { uuid: string, pipeline: string, eventId: string | null, eventTimestamp: string | null };

export type RestBuildsetFieldsFragment = { databaseId: number, uuid: string, result: BuildsetResult | null, message: string | null, pipeline: string, eventId: string | null, eventTimestamp: string | null, firstBuildStartTime: string | null, lastBuildEndTime: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null }> };

export type RestBuildsQueryVariables = Exact<{
  tenant: string;
  filter?: BuildFilter | null | undefined;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestBuildsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', builds: { nodes: Array<{ databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, buildset: { uuid: string, pipeline: string, eventId: string | null, eventTimestamp: string | null }, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null }> } }
   | null };

export type RestBuildQueryVariables = Exact<{
  tenant: string;
  uuid: string;
}>;


export type RestBuildQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', build:
        | { __typename: 'Build', databaseId: number, uuid: string, jobName: string, result: BuildResult | null, held: boolean, startTime: string | null, endTime: string | null, duration: number | null, voting: boolean, logUrl: string | null, nodeset: string | null, errorDetail: string | null, final: boolean, provides: Array<string>, buildset: { uuid: string, pipeline: string, eventId: string | null, eventTimestamp: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null }> }, artifacts: Array<{ name: string, url: string, metadata: unknown }>, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, oldrev: string | null, newrev: string | null, refUrl: string | null } | null }
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

export type RestInfoFieldsFragment = { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null, loadUserInfo: boolean | null }> } } };

export type RestInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type RestInfoQuery = { info: { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null, loadUserInfo: boolean | null }> } } } };

export type RestSourceContextFieldsFragment = { project: string, branch: string, path: string };

export type RestNodesetFieldsFragment = { name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> };

export type RestPlaybookFieldsFragment = { path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } };

export type RestJobVariantFieldsFragment = { name: string, branches: Array<string> | null, overrideCheckout: string | null, files: Array<string>, irrelevantFiles: Array<string>, variantDescription: string, description: string | null, variables: unknown, extraVariables: unknown, hostVariables: unknown, groupVariables: unknown, final: boolean, abstract: boolean, intermediate: boolean, protected: boolean | null, voting: boolean, preTimeout: number | null, timeout: number | null, postTimeout: number | null, tags: Array<string>, provides: Array<string>, requires: Array<string>, attempts: number, postReview: boolean | null, matchOnConfigUpdates: boolean, deduplicate: JobDeduplication, failureOutput: Array<string>, imageBuildName: string | null, parent: string | null, ansibleSplitStreams: boolean | null, ansibleVersion: string | null, workspaceScheme: WorkspaceScheme, workspaceCheckout: WorkspaceCheckout, sourceContext: { project: string, branch: string, path: string } | null, requiredProjects: Array<{ projectName: string, projectCanonicalName: string, overrideBranch: string | null, overrideCheckout: string | null }>, semaphores: Array<{ name: string, resourcesFirst: boolean }>, dependencies: Array<{ name: string, soft: boolean }>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, run: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, preRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, postRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, cleanupRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, includeVars: Array<{ name: string, projectName: string | null, required: boolean, useRef: boolean }>, nodeset: { name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> } | null, nodesetAlternatives: Array<{ name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> }> };

export type RestJobGraphFieldsFragment = { jobs: Array<{ name: string, dependencies: Array<{ name: string, soft: boolean }> }> };

export type RestJobQueryVariables = Exact<{
  tenant: string;
  name: string;
}>;


export type RestJobQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', job:
        | { __typename: 'Job', variants: Array<{ name: string, branches: Array<string> | null, overrideCheckout: string | null, files: Array<string>, irrelevantFiles: Array<string>, variantDescription: string, description: string | null, variables: unknown, extraVariables: unknown, hostVariables: unknown, groupVariables: unknown, final: boolean, abstract: boolean, intermediate: boolean, protected: boolean | null, voting: boolean, preTimeout: number | null, timeout: number | null, postTimeout: number | null, tags: Array<string>, provides: Array<string>, requires: Array<string>, attempts: number, postReview: boolean | null, matchOnConfigUpdates: boolean, deduplicate: JobDeduplication, failureOutput: Array<string>, imageBuildName: string | null, parent: string | null, ansibleSplitStreams: boolean | null, ansibleVersion: string | null, workspaceScheme: WorkspaceScheme, workspaceCheckout: WorkspaceCheckout, sourceContext: { project: string, branch: string, path: string } | null, requiredProjects: Array<{ projectName: string, projectCanonicalName: string, overrideBranch: string | null, overrideCheckout: string | null }>, semaphores: Array<{ name: string, resourcesFirst: boolean }>, dependencies: Array<{ name: string, soft: boolean }>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, run: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, preRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, postRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, cleanupRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, includeVars: Array<{ name: string, projectName: string | null, required: boolean, useRef: boolean }>, nodeset: { name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> } | null, nodesetAlternatives: Array<{ name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> }> }> }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestProjectQueryVariables = Exact<{
  tenant: string;
  name: string;
}>;


export type RestProjectQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', project:
        | { __typename: 'InvalidInputError', errorMessage: string }
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'Project', name: string, connectionName: string, canonicalName: string, metadata: { defaultBranch: string, mergeMode: MergeMode, queueName: string | null }, configs: Array<{ isTemplate: boolean, templates: Array<string>, defaultBranch: string | null, queueName: string | null, mergeMode: MergeMode | null, sourceContext: { project: string, branch: string, path: string }, pipelines: Array<{ name: string, jobs: Array<{ name: string, variants: Array<{ name: string, branches: Array<string> | null, overrideCheckout: string | null, files: Array<string>, irrelevantFiles: Array<string>, variantDescription: string, description: string | null, variables: unknown, extraVariables: unknown, hostVariables: unknown, groupVariables: unknown, final: boolean, abstract: boolean, intermediate: boolean, protected: boolean | null, voting: boolean, preTimeout: number | null, timeout: number | null, postTimeout: number | null, tags: Array<string>, provides: Array<string>, requires: Array<string>, attempts: number, postReview: boolean | null, matchOnConfigUpdates: boolean, deduplicate: JobDeduplication, failureOutput: Array<string>, imageBuildName: string | null, parent: string | null, ansibleSplitStreams: boolean | null, ansibleVersion: string | null, workspaceScheme: WorkspaceScheme, workspaceCheckout: WorkspaceCheckout, sourceContext: { project: string, branch: string, path: string } | null, requiredProjects: Array<{ projectName: string, projectCanonicalName: string, overrideBranch: string | null, overrideCheckout: string | null }>, semaphores: Array<{ name: string, resourcesFirst: boolean }>, dependencies: Array<{ name: string, soft: boolean }>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, run: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, preRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, postRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, cleanupRun: Array<{ path: string, cleanup: boolean, semaphores: Array<string>, roles: Array<{ targetName: string, type: JobRoleType, projectCanonicalName: string, implicit: boolean }>, secrets: Array<{ name: string, alias: string }>, sourceContext: { project: string, branch: string, path: string } }>, includeVars: Array<{ name: string, projectName: string | null, required: boolean, useRef: boolean }>, nodeset: { name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> } | null, nodesetAlternatives: Array<{ name: string, nodes: Array<{ name: string, aliases: Array<string>, label: string }>, groups: Array<{ name: string, nodes: Array<string> }> }> }> }> }> }> }
       | null }
   | null };

export type RestFreezeJobsQueryVariables = Exact<{
  tenant: string;
  pipeline: string;
  project: string;
  branch?: string | null | undefined;
}>;


export type RestFreezeJobsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', freezeJobs:
        | { __typename: 'InvalidInputError', errorMessage: string }
        | { __typename: 'JobGraph', jobs: Array<{ name: string, dependencies: Array<{ name: string, soft: boolean }> }> }
        | { __typename: 'JobGraphError', errorMessage: string }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestFreezeJobQueryVariables = Exact<{
  tenant: string;
  pipeline: string;
  project: string;
  branch?: string | null | undefined;
  job: string;
}>;


export type RestFreezeJobQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', freezeJob:
        | { __typename: 'FrozenJob', parameters: unknown }
        | { __typename: 'InvalidInputError', errorMessage: string }
        | { __typename: 'JobGraphError', errorMessage: string }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestFreezePipelineQueryVariables = Exact<{
  tenant: string;
  project: string;
  pipeline: string;
  ref: string;
}>;


export type RestFreezePipelineQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', freezePipeline:
        | { __typename: 'ConflictError', errorMessage: string }
        | { __typename: 'InvalidInputError', errorMessage: string }
        | { __typename: 'JobGraph', jobs: Array<{ name: string, dependencies: Array<{ name: string, soft: boolean }> }> }
        | { __typename: 'JobGraphError', errorMessage: string }
        | { __typename: 'NotFoundError', errorMessage: string }
       | null }
   | null };

export type RestNodesQueryVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestNodesQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', nodes: { pageInfo: { hasNextPage: boolean }, nodes: Array<{ uuid: string, label: string, state: NodeState, stateTime: string, provider: string | null, connectionType: string | null, externalId: string | null, interfaceIp: string | null, username: string | null, comment: string | null, holdExpiration: number | null, maxReadyAge: number | null, isLocked: boolean, lockHolder: string | null }> } }
   | null };

export type RestNodesetRequestsQueryVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type RestNodesetRequestsQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', nodesetRequests: { pageInfo: { hasNextPage: boolean }, nodes: Array<{ uuid: string, state: NodesetRequestState, pipelineName: string | null, buildsetUuid: string | null, jobName: string | null, labels: Array<string>, priority: number, requestTime: string, zuulEventId: string | null, imageNames: Array<string> | null, imageUploadUuid: string | null, relativePriority: number, isLocked: boolean, lockHolder: string | null, providerNodeData: Array<{ uuid: string | null, executorZone: string | null, failedProviders: Array<string> }> }> } }
   | null };

export type RestNodeHoldMutationVariables = Exact<{
  input: NodeHoldInput;
}>;


export type RestNodeHoldMutation = { nodeHold:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'ProviderNode' }
   };

export type RestNodeReleaseMutationVariables = Exact<{
  input: NodeReleaseInput;
}>;


export type RestNodeReleaseMutation = { nodeRelease:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'ProviderNode' }
   };

export type RestNodesetRequestCancelMutationVariables = Exact<{
  input: NodesetRequestCancelInput;
}>;


export type RestNodesetRequestCancelMutation = { nodesetRequestCancel:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'LauncherOperationDone' }
    | { __typename: 'NotFoundError', errorMessage: string }
   };

export type RestImageBuildMutationVariables = Exact<{
  input: ImageBuildInput;
}>;


export type RestImageBuildMutation = { imageBuild:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'ImageBuildRequested' }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
   };

export type RestImageBuildArtifactDeleteMutationVariables = Exact<{
  input: ImageBuildArtifactDeleteInput;
}>;


export type RestImageBuildArtifactDeleteMutation = { imageBuildArtifactDelete:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'LauncherOperationDone' }
    | { __typename: 'NotFoundError', errorMessage: string }
   };

export type RestImageUploadDeleteMutationVariables = Exact<{
  input: ImageUploadInput;
}>;


export type RestImageUploadDeleteMutation = { imageUploadDelete:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'LauncherOperationDone' }
    | { __typename: 'NotFoundError', errorMessage: string }
   };

export type RestImageUploadValidateMutationVariables = Exact<{
  input: ImageUploadInput;
}>;


export type RestImageUploadValidateMutation = { imageUploadValidate:
    | { __typename: 'ConflictError', errorMessage: string }
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'LauncherOperationDone' }
    | { __typename: 'NotFoundError', errorMessage: string }
   };

export type RestQuarantineFieldsFragment = { job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string };

export type RestQuarantineQueryVariables = Exact<{
  tenant: string;
}>;


export type RestQuarantineQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', quarantine: Array<{ job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string }> }
   | null };

export type RestQuarantineAddMutationVariables = Exact<{
  input: QuarantineAddInput;
}>;


export type RestQuarantineAddMutation = { quarantineAdd:
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'QuarantinedJob', job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string }
   | null };

export type RestQuarantineRemoveMutationVariables = Exact<{
  input: QuarantineRemoveInput;
}>;


export type RestQuarantineRemoveMutation = { quarantineRemove:
    | { __typename: 'InvalidInputError', errorMessage: string }
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'QuarantinedJob', job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string }
   | null };

export type RestProjectSecretsKeyQueryVariables = Exact<{
  tenant: string;
  project: string;
}>;


export type RestProjectSecretsKeyQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', projectKeys:
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'ProjectKeys', secretsPublicKey: string }
       | null }
   | null };

export type RestProjectSshKeyQueryVariables = Exact<{
  tenant: string;
  project: string;
}>;


export type RestProjectSshKeyQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', projectKeys:
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'ProjectKeys', sshPublicKey: string }
       | null }
   | null };

export type RestTenantSshKeyQueryVariables = Exact<{
  tenant: string;
}>;


export type RestTenantSshKeyQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', sshPublicKey: string }
   | null };

export type RestAuthorizationsQueryVariables = Exact<{
  tenant?: string | null | undefined;
}>;


export type RestAuthorizationsQuery = { authorizations:
    | { __typename: 'Authorizations', admin: boolean, scope: Array<string> }
    | { __typename: 'NotFoundError', errorMessage: string }
   };

export type RestStatusJobFieldsFragment = { name: string, dependencies: Array<string>, elapsedTime: number | null, remainingTime: number | null, url: string | null, fingerUrl: string | null, reportUrl: string | null, result: string | null, voting: boolean, uuid: string | null, executeTime: number | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, pipeline: string | null, canceled: boolean | null, paused: boolean | null, preFail: boolean | null, retry: boolean | null, tries: number, queued: boolean, waitingStatus: string | null, nodeLabels: Array<string> };

export type RestStatusItemFieldsFragment = { id: string, active: boolean, live: boolean, itemAhead: string | null, itemsBehind: Array<string>, failingReasons: Array<string>, zuulRef: string | null, enqueueTime: number, remainingTime: number | null, refs: Array<{ id: string, url: string | null, ref: string | null, project: string, projectCanonical: string, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, elapsedTime: number | null, remainingTime: number | null, url: string | null, fingerUrl: string | null, reportUrl: string | null, result: string | null, voting: boolean, uuid: string | null, executeTime: number | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, pipeline: string | null, canceled: boolean | null, paused: boolean | null, preFail: boolean | null, retry: boolean | null, tries: number, queued: boolean, waitingStatus: string | null, nodeLabels: Array<string> }> };

export type RestTenantStateFieldsFragment = { triggerQueueDiscarding: boolean, triggerQueuePaused: boolean, resultQueuePaused: boolean, reason: string | null };

export type RestStatusVersionQueryVariables = Exact<{
  tenant: string;
}>;


export type RestStatusVersionQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', status:
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'TenantStatus', sequence: number, producedAt: string }
       | null }
   | null };

export type RestStatusQueryVariables = Exact<{
  tenant: string;
}>;


export type RestStatusQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', status:
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'TenantStatus', zuulVersion: string, lastReconfigured: number | null, triggerEventQueue: { length: number }, managementEventQueue: { length: number }, resultEventQueue: { length: number }, state: { triggerQueueDiscarding: boolean, triggerQueuePaused: boolean, resultQueuePaused: boolean, reason: string | null }, pipelines: Array<{ name: string, description: string | null, state: PipelineHealth, manager: PipelineManagerKind, triggers: Array<string>, triggerEvents: number, resultEvents: number, managementEvents: number, changeQueues: Array<{ name: string, window: number, branch: string | null, heads: Array<Array<{ id: string, active: boolean, live: boolean, itemAhead: string | null, itemsBehind: Array<string>, failingReasons: Array<string>, zuulRef: string | null, enqueueTime: number, remainingTime: number | null, refs: Array<{ id: string, url: string | null, ref: string | null, project: string, projectCanonical: string, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, elapsedTime: number | null, remainingTime: number | null, url: string | null, fingerUrl: string | null, reportUrl: string | null, result: string | null, voting: boolean, uuid: string | null, executeTime: number | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, pipeline: string | null, canceled: boolean | null, paused: boolean | null, preFail: boolean | null, retry: boolean | null, tries: number, queued: boolean, waitingStatus: string | null, nodeLabels: Array<string> }> }>> }> }> }
       | null }
   | null };

export type RestStatusChangeQueryVariables = Exact<{
  tenant: string;
  change: string;
}>;


export type RestStatusChangeQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', status:
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'TenantStatus', changeItems: Array<{ id: string, active: boolean, live: boolean, itemAhead: string | null, itemsBehind: Array<string>, failingReasons: Array<string>, zuulRef: string | null, enqueueTime: number, remainingTime: number | null, refs: Array<{ id: string, url: string | null, ref: string | null, project: string, projectCanonical: string, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, elapsedTime: number | null, remainingTime: number | null, url: string | null, fingerUrl: string | null, reportUrl: string | null, result: string | null, voting: boolean, uuid: string | null, executeTime: number | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, pipeline: string | null, canceled: boolean | null, paused: boolean | null, preFail: boolean | null, retry: boolean | null, tries: number, queued: boolean, waitingStatus: string | null, nodeLabels: Array<string> }> }> }
       | null }
   | null };

export type RestTenantStateQueryVariables = Exact<{
  tenant: string;
}>;


export type RestTenantStateQuery = { tenant:
    | { __typename: 'NotFoundError', errorMessage: string }
    | { __typename: 'Tenant', status:
        | { __typename: 'NotFoundError', errorMessage: string }
        | { __typename: 'TenantStatus', state: { triggerQueueDiscarding: boolean, triggerQueuePaused: boolean, resultQueuePaused: boolean, reason: string | null } }
       | null }
   | null };

export type RestTenantCountsQueryVariables = Exact<{ [key: string]: never; }>;


export type RestTenantCountsQuery = { tenants: Array<{ name: string, projects: Array<{ type: ProjectType }>, status:
      | { __typename: 'NotFoundError' }
      | { __typename: 'TenantStatus', pipelines: Array<{ changeQueues: Array<{ heads: Array<Array<{ live: boolean }>> }> }> }
     | null }> };

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


export type RestTenantInfoQuery = { info: { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null, loadUserInfo: boolean | null }> } } }, tenantInfo: { niz: boolean, readProtected: boolean, defaultRealm: string | null } | null };

export type RestComponentsQueryVariables = Exact<{ [key: string]: never; }>;


export type RestComponentsQuery = { components: Array<{ kind: string, hostname: string, state: string, version: string }> };

export type RestConnectionsQueryVariables = Exact<{ [key: string]: never; }>;


export type RestConnectionsQuery = { connections: Array<{ name: string, driver: string, baseurl: string, canonicalHostname: string, server: string | null, sshServer: string | null, port: number | null }> };

export const RestAutoholdFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestAutoholdFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Autohold"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"tenant"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"refFilter"}},{"kind":"Field","name":{"kind":"Name","value":"maxCount"}},{"kind":"Field","name":{"kind":"Name","value":"currentCount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"nodeExpiration"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"build"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}}]} as unknown as DocumentNode<RestAutoholdFieldsFragment, unknown>;
export const RestUploadFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestUploadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUpload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"artifactUuid"}},{"kind":"Field","name":{"kind":"Name","value":"endpointName"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}}]}}]} as unknown as DocumentNode<RestUploadFieldsFragment, unknown>;
export const RestArtifactFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestArtifactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageBuildArtifact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"buildTenant"}},{"kind":"Field","name":{"kind":"Name","value":"buildUuid"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"md5sum"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}},{"kind":"Field","name":{"kind":"Name","value":"uploads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestUploadFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestUploadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUpload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"artifactUuid"}},{"kind":"Field","name":{"kind":"Name","value":"endpointName"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}}]}}]} as unknown as DocumentNode<RestArtifactFieldsFragment, unknown>;
export const RestErrorFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestErrorFieldsFragment, unknown>;
export const RestRefFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}}]} as unknown as DocumentNode<RestRefFieldsFragment, unknown>;
export const RestBuildFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}}]} as unknown as DocumentNode<RestBuildFieldsFragment, unknown>;
export const RestBuildBuildsetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}}]}}]} as unknown as DocumentNode<RestBuildBuildsetFieldsFragment, unknown>;
export const RestBuildsetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"firstBuildStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"lastBuildEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}}]} as unknown as DocumentNode<RestBuildsetFieldsFragment, unknown>;
export const RestInfoFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Info"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"loadUserInfo"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestInfoFieldsFragment, unknown>;
export const RestSourceContextFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestSourceContextFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SourceContext"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]} as unknown as DocumentNode<RestSourceContextFieldsFragment, unknown>;
export const RestPlaybookFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestPlaybookFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Playbook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cleanup"}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secrets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"alias"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestSourceContextFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SourceContext"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]} as unknown as DocumentNode<RestPlaybookFieldsFragment, unknown>;
export const RestNodesetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestNodesetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Nodeset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"aliases"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}}]} as unknown as DocumentNode<RestNodesetFieldsFragment, unknown>;
export const RestJobVariantFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestJobVariantFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"JobVariant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"branches"}},{"kind":"Field","name":{"kind":"Name","value":"overrideCheckout"}},{"kind":"Field","name":{"kind":"Name","value":"files"}},{"kind":"Field","name":{"kind":"Name","value":"irrelevantFiles"}},{"kind":"Field","name":{"kind":"Name","value":"variantDescription"}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"requiredProjects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectName"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"overrideBranch"}},{"kind":"Field","name":{"kind":"Name","value":"overrideCheckout"}}]}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"resourcesFirst"}}]}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"extraVariables"}},{"kind":"Field","name":{"kind":"Name","value":"hostVariables"}},{"kind":"Field","name":{"kind":"Name","value":"groupVariables"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"abstract"}},{"kind":"Field","name":{"kind":"Name","value":"intermediate"}},{"kind":"Field","name":{"kind":"Name","value":"protected"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"preTimeout"}},{"kind":"Field","name":{"kind":"Name","value":"timeout"}},{"kind":"Field","name":{"kind":"Name","value":"postTimeout"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"requires"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"soft"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"postRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cleanupRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"postReview"}},{"kind":"Field","name":{"kind":"Name","value":"matchOnConfigUpdates"}},{"kind":"Field","name":{"kind":"Name","value":"deduplicate"}},{"kind":"Field","name":{"kind":"Name","value":"failureOutput"}},{"kind":"Field","name":{"kind":"Name","value":"imageBuildName"}},{"kind":"Field","name":{"kind":"Name","value":"includeVars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"projectName"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"useRef"}}]}},{"kind":"Field","name":{"kind":"Name","value":"parent"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestNodesetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodesetAlternatives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestNodesetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ansibleSplitStreams"}},{"kind":"Field","name":{"kind":"Name","value":"ansibleVersion"}},{"kind":"Field","name":{"kind":"Name","value":"workspaceScheme"}},{"kind":"Field","name":{"kind":"Name","value":"workspaceCheckout"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestSourceContextFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SourceContext"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestPlaybookFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Playbook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cleanup"}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secrets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"alias"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestNodesetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Nodeset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"aliases"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}}]} as unknown as DocumentNode<RestJobVariantFieldsFragment, unknown>;
export const RestJobGraphFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestJobGraphFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"JobGraph"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"soft"}}]}}]}}]}}]} as unknown as DocumentNode<RestJobGraphFieldsFragment, unknown>;
export const RestQuarantineFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestQuarantineFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantinedJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"addedBy"}},{"kind":"Field","name":{"kind":"Name","value":"addedAt"}}]}}]} as unknown as DocumentNode<RestQuarantineFieldsFragment, unknown>;
export const RestStatusJobFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusJobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"}},{"kind":"Field","name":{"kind":"Name","value":"elapsedTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"fingerUrl"}},{"kind":"Field","name":{"kind":"Name","value":"reportUrl"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"executeTime"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"estimatedTime"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"canceled"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"preFail"}},{"kind":"Field","name":{"kind":"Name","value":"retry"}},{"kind":"Field","name":{"kind":"Name","value":"tries"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"waitingStatus"}},{"kind":"Field","name":{"kind":"Name","value":"nodeLabels"}}]}}]} as unknown as DocumentNode<RestStatusJobFieldsFragment, unknown>;
export const RestStatusItemFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"live"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonical"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}}]}},{"kind":"Field","name":{"kind":"Name","value":"itemAhead"}},{"kind":"Field","name":{"kind":"Name","value":"itemsBehind"}},{"kind":"Field","name":{"kind":"Name","value":"failingReasons"}},{"kind":"Field","name":{"kind":"Name","value":"zuulRef"}},{"kind":"Field","name":{"kind":"Name","value":"enqueueTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestStatusJobFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusJobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"}},{"kind":"Field","name":{"kind":"Name","value":"elapsedTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"fingerUrl"}},{"kind":"Field","name":{"kind":"Name","value":"reportUrl"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"executeTime"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"estimatedTime"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"canceled"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"preFail"}},{"kind":"Field","name":{"kind":"Name","value":"retry"}},{"kind":"Field","name":{"kind":"Name","value":"tries"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"waitingStatus"}},{"kind":"Field","name":{"kind":"Name","value":"nodeLabels"}}]}}]} as unknown as DocumentNode<RestStatusItemFieldsFragment, unknown>;
export const RestTenantStateFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestTenantStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantEventQueueState"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"triggerQueueDiscarding"}},{"kind":"Field","name":{"kind":"Name","value":"triggerQueuePaused"}},{"kind":"Field","name":{"kind":"Name","value":"resultQueuePaused"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<RestTenantStateFieldsFragment, unknown>;
export const RestAutoholdsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestAutoholds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"autoholds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestAutoholdFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestAutoholdFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Autohold"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"tenant"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"refFilter"}},{"kind":"Field","name":{"kind":"Name","value":"maxCount"}},{"kind":"Field","name":{"kind":"Name","value":"currentCount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"nodeExpiration"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"build"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}}]} as unknown as DocumentNode<RestAutoholdsQuery, RestAutoholdsQueryVariables>;
export const RestAutoholdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestAutohold"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"autohold"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Autohold"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestAutoholdFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestAutoholdFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Autohold"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"tenant"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"refFilter"}},{"kind":"Field","name":{"kind":"Name","value":"maxCount"}},{"kind":"Field","name":{"kind":"Name","value":"currentCount"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"nodeExpiration"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"build"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}}]} as unknown as DocumentNode<RestAutoholdQuery, RestAutoholdQueryVariables>;
export const RestTenantStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"configErrorCount"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestTenantStatusQuery, RestTenantStatusQueryVariables>;
export const RestPipelinesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestPipelines"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pipelines"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"triggers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestPipelinesQuery, RestPipelinesQueryVariables>;
export const RestProjectsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestProjects"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"connectionName"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestProjectsQuery, RestProjectsQueryVariables>;
export const RestJobsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestJobs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"variants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parent"}},{"kind":"Field","name":{"kind":"Name","value":"branches"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestJobsQuery, RestJobsQueryVariables>;
export const RestConfigErrorsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestConfigErrors"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConfigErrorFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"configErrors"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"shortError"}},{"kind":"Field","name":{"kind":"Name","value":"severity"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestConfigErrorsQuery, RestConfigErrorsQueryVariables>;
export const RestSemaphoresDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestSemaphores"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"semaphores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"global"}},{"kind":"Field","name":{"kind":"Name","value":"max"}},{"kind":"Field","name":{"kind":"Name","value":"holders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"otherTenants"}},{"kind":"Field","name":{"kind":"Name","value":"thisTenant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildsetUuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestSemaphoresQuery, RestSemaphoresQueryVariables>;
export const RestLabelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestLabels"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestLabelsQuery, RestLabelsQueryVariables>;
export const RestFlavorsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestFlavors"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"flavors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestFlavorsQuery, RestFlavorsQueryVariables>;
export const RestImagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestImages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"buildArtifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestArtifactFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestUploadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUpload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"artifactUuid"}},{"kind":"Field","name":{"kind":"Name","value":"endpointName"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestArtifactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageBuildArtifact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"buildTenant"}},{"kind":"Field","name":{"kind":"Name","value":"buildUuid"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"md5sum"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}},{"kind":"Field","name":{"kind":"Name","value":"uploads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestUploadFields"}}]}}]}}]} as unknown as DocumentNode<RestImagesQuery, RestImagesQueryVariables>;
export const RestProvidersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestProviders"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"flavors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"buildArtifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestArtifactFields"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestUploadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUpload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"artifactUuid"}},{"kind":"Field","name":{"kind":"Name","value":"endpointName"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestArtifactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImageBuildArtifact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"buildTenant"}},{"kind":"Field","name":{"kind":"Name","value":"buildUuid"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"md5sum"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"validated"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}},{"kind":"Field","name":{"kind":"Name","value":"uploads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestUploadFields"}}]}}]}}]} as unknown as DocumentNode<RestProvidersQuery, RestProvidersQueryVariables>;
export const RestEnqueueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestEnqueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EnqueueInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enqueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestEnqueueMutation, RestEnqueueMutationVariables>;
export const RestDequeueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestDequeue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DequeueInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dequeue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestDequeueMutation, RestDequeueMutationVariables>;
export const RestPromoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestPromote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PromoteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"promote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestPromoteMutation, RestPromoteMutationVariables>;
export const RestTenantStateSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestTenantStateSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TenantStateSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenantStateSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestTenantStateSetMutation, RestTenantStateSetMutationVariables>;
export const RestAutoholdCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestAutoholdCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AutoholdCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"autoholdCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestAutoholdCreateMutation, RestAutoholdCreateMutationVariables>;
export const RestAutoholdDeleteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestAutoholdDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AutoholdDeleteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"autoholdDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestAutoholdDeleteMutation, RestAutoholdDeleteMutationVariables>;
export const RestBuildsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuilds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BuildFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"builds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildFields"}},{"kind":"Field","name":{"kind":"Name","value":"buildset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildBuildsetFields"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}}]}}]} as unknown as DocumentNode<RestBuildsQuery, RestBuildsQueryVariables>;
export const RestBuildDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"build"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"uuid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildFields"}},{"kind":"Field","name":{"kind":"Name","value":"buildset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildBuildsetFields"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}}]}}]} as unknown as DocumentNode<RestBuildQuery, RestBuildQueryVariables>;
export const RestBuildsetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuildsets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BuildsetFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildsets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildsetFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"firstBuildStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"lastBuildEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]} as unknown as DocumentNode<RestBuildsetsQuery, RestBuildsetsQueryVariables>;
export const RestBuildsetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuildset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"uuid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildsetFields"}},{"kind":"Field","name":{"kind":"Name","value":"builds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestBuildFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventTime"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestRefFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Ref"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"patchset"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"oldrev"}},{"kind":"Field","name":{"kind":"Name","value":"newrev"}},{"kind":"Field","name":{"kind":"Name","value":"refUrl"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildsetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Buildset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"firstBuildStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"lastBuildEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestBuildFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Build"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"held"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"logUrl"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"}},{"kind":"Field","name":{"kind":"Name","value":"errorDetail"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"ref"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestRefFields"}}]}}]}}]} as unknown as DocumentNode<RestBuildsetQuery, RestBuildsetQueryVariables>;
export const RestBuildTimesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBuildTimes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BuildTimeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buildTimes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestBuildTimesQuery, RestBuildTimesQueryVariables>;
export const RestSystemEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestSystemEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SystemEventFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"systemEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventTime"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestSystemEventsQuery, RestSystemEventsQueryVariables>;
export const RestBadgeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestBadge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"branch"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"badge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"pipeline"},"value":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}}},{"kind":"Argument","name":{"kind":"Name","value":"branch"},"value":{"kind":"Variable","name":{"kind":"Name","value":"branch"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Badge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"passing"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestBadgeQuery, RestBadgeQueryVariables>;
export const RestInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"info"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInfoFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Info"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"loadUserInfo"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestInfoQuery, RestInfoQueryVariables>;
export const RestJobDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestJob"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"job"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestJobVariantFields"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestSourceContextFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SourceContext"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestPlaybookFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Playbook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cleanup"}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secrets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"alias"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestNodesetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Nodeset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"aliases"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestJobVariantFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"JobVariant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"branches"}},{"kind":"Field","name":{"kind":"Name","value":"overrideCheckout"}},{"kind":"Field","name":{"kind":"Name","value":"files"}},{"kind":"Field","name":{"kind":"Name","value":"irrelevantFiles"}},{"kind":"Field","name":{"kind":"Name","value":"variantDescription"}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"requiredProjects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectName"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"overrideBranch"}},{"kind":"Field","name":{"kind":"Name","value":"overrideCheckout"}}]}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"resourcesFirst"}}]}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"extraVariables"}},{"kind":"Field","name":{"kind":"Name","value":"hostVariables"}},{"kind":"Field","name":{"kind":"Name","value":"groupVariables"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"abstract"}},{"kind":"Field","name":{"kind":"Name","value":"intermediate"}},{"kind":"Field","name":{"kind":"Name","value":"protected"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"preTimeout"}},{"kind":"Field","name":{"kind":"Name","value":"timeout"}},{"kind":"Field","name":{"kind":"Name","value":"postTimeout"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"requires"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"soft"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"postRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cleanupRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"postReview"}},{"kind":"Field","name":{"kind":"Name","value":"matchOnConfigUpdates"}},{"kind":"Field","name":{"kind":"Name","value":"deduplicate"}},{"kind":"Field","name":{"kind":"Name","value":"failureOutput"}},{"kind":"Field","name":{"kind":"Name","value":"imageBuildName"}},{"kind":"Field","name":{"kind":"Name","value":"includeVars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"projectName"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"useRef"}}]}},{"kind":"Field","name":{"kind":"Name","value":"parent"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestNodesetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodesetAlternatives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestNodesetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ansibleSplitStreams"}},{"kind":"Field","name":{"kind":"Name","value":"ansibleVersion"}},{"kind":"Field","name":{"kind":"Name","value":"workspaceScheme"}},{"kind":"Field","name":{"kind":"Name","value":"workspaceCheckout"}}]}}]} as unknown as DocumentNode<RestJobQuery, RestJobQueryVariables>;
export const RestProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"connectionName"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultBranch"}},{"kind":"Field","name":{"kind":"Name","value":"mergeMode"}},{"kind":"Field","name":{"kind":"Name","value":"queueName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"configs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"isTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"templates"}},{"kind":"Field","name":{"kind":"Name","value":"defaultBranch"}},{"kind":"Field","name":{"kind":"Name","value":"queueName"}},{"kind":"Field","name":{"kind":"Name","value":"mergeMode"}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pipelines"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"variants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestJobVariantFields"}}]}}]}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestSourceContextFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SourceContext"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestPlaybookFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Playbook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cleanup"}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secrets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"alias"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestNodesetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Nodeset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"aliases"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestJobVariantFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"JobVariant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"branches"}},{"kind":"Field","name":{"kind":"Name","value":"overrideCheckout"}},{"kind":"Field","name":{"kind":"Name","value":"files"}},{"kind":"Field","name":{"kind":"Name","value":"irrelevantFiles"}},{"kind":"Field","name":{"kind":"Name","value":"variantDescription"}},{"kind":"Field","name":{"kind":"Name","value":"sourceContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestSourceContextFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"requiredProjects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectName"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"overrideBranch"}},{"kind":"Field","name":{"kind":"Name","value":"overrideCheckout"}}]}},{"kind":"Field","name":{"kind":"Name","value":"semaphores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"resourcesFirst"}}]}},{"kind":"Field","name":{"kind":"Name","value":"variables"}},{"kind":"Field","name":{"kind":"Name","value":"extraVariables"}},{"kind":"Field","name":{"kind":"Name","value":"hostVariables"}},{"kind":"Field","name":{"kind":"Name","value":"groupVariables"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"abstract"}},{"kind":"Field","name":{"kind":"Name","value":"intermediate"}},{"kind":"Field","name":{"kind":"Name","value":"protected"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"preTimeout"}},{"kind":"Field","name":{"kind":"Name","value":"timeout"}},{"kind":"Field","name":{"kind":"Name","value":"postTimeout"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"provides"}},{"kind":"Field","name":{"kind":"Name","value":"requires"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"soft"}}]}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"roles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonicalName"}},{"kind":"Field","name":{"kind":"Name","value":"implicit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"postRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cleanupRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestPlaybookFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"postReview"}},{"kind":"Field","name":{"kind":"Name","value":"matchOnConfigUpdates"}},{"kind":"Field","name":{"kind":"Name","value":"deduplicate"}},{"kind":"Field","name":{"kind":"Name","value":"failureOutput"}},{"kind":"Field","name":{"kind":"Name","value":"imageBuildName"}},{"kind":"Field","name":{"kind":"Name","value":"includeVars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"projectName"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"useRef"}}]}},{"kind":"Field","name":{"kind":"Name","value":"parent"}},{"kind":"Field","name":{"kind":"Name","value":"nodeset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestNodesetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodesetAlternatives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestNodesetFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ansibleSplitStreams"}},{"kind":"Field","name":{"kind":"Name","value":"ansibleVersion"}},{"kind":"Field","name":{"kind":"Name","value":"workspaceScheme"}},{"kind":"Field","name":{"kind":"Name","value":"workspaceCheckout"}}]}}]} as unknown as DocumentNode<RestProjectQuery, RestProjectQueryVariables>;
export const RestFreezeJobsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestFreezeJobs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"branch"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"freezeJobs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"pipeline"},"value":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"branch"},"value":{"kind":"Variable","name":{"kind":"Name","value":"branch"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestJobGraphFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestJobGraphFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"JobGraph"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"soft"}}]}}]}}]}}]} as unknown as DocumentNode<RestFreezeJobsQuery, RestFreezeJobsQueryVariables>;
export const RestFreezeJobDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestFreezeJob"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"branch"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"job"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"freezeJob"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"pipeline"},"value":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"branch"},"value":{"kind":"Variable","name":{"kind":"Name","value":"branch"}}},{"kind":"Argument","name":{"kind":"Name","value":"job"},"value":{"kind":"Variable","name":{"kind":"Name","value":"job"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FrozenJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parameters"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestFreezeJobQuery, RestFreezeJobQueryVariables>;
export const RestFreezePipelineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestFreezePipeline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ref"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"freezePipeline"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"pipeline"},"value":{"kind":"Variable","name":{"kind":"Name","value":"pipeline"}}},{"kind":"Argument","name":{"kind":"Name","value":"ref"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ref"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestJobGraphFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestJobGraphFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"JobGraph"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"soft"}}]}}]}}]}}]} as unknown as DocumentNode<RestFreezePipelineQuery, RestFreezePipelineQueryVariables>;
export const RestNodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestNodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateTime"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"connectionType"}},{"kind":"Field","name":{"kind":"Name","value":"externalId"}},{"kind":"Field","name":{"kind":"Name","value":"interfaceIp"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"comment"}},{"kind":"Field","name":{"kind":"Name","value":"holdExpiration"}},{"kind":"Field","name":{"kind":"Name","value":"maxReadyAge"}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestNodesQuery, RestNodesQueryVariables>;
export const RestNodesetRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestNodesetRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodesetRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"pipelineName"}},{"kind":"Field","name":{"kind":"Name","value":"buildsetUuid"}},{"kind":"Field","name":{"kind":"Name","value":"jobName"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"requestTime"}},{"kind":"Field","name":{"kind":"Name","value":"zuulEventId"}},{"kind":"Field","name":{"kind":"Name","value":"imageNames"}},{"kind":"Field","name":{"kind":"Name","value":"imageUploadUuid"}},{"kind":"Field","name":{"kind":"Name","value":"relativePriority"}},{"kind":"Field","name":{"kind":"Name","value":"providerNodeData"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"executorZone"}},{"kind":"Field","name":{"kind":"Name","value":"failedProviders"}}]}},{"kind":"Field","name":{"kind":"Name","value":"isLocked"}},{"kind":"Field","name":{"kind":"Name","value":"lockHolder"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestNodesetRequestsQuery, RestNodesetRequestsQueryVariables>;
export const RestNodeHoldDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestNodeHold"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NodeHoldInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodeHold"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestNodeHoldMutation, RestNodeHoldMutationVariables>;
export const RestNodeReleaseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestNodeRelease"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NodeReleaseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodeRelease"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestNodeReleaseMutation, RestNodeReleaseMutationVariables>;
export const RestNodesetRequestCancelDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestNodesetRequestCancel"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NodesetRequestCancelInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodesetRequestCancel"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestNodesetRequestCancelMutation, RestNodesetRequestCancelMutationVariables>;
export const RestImageBuildDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestImageBuild"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageBuildInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"imageBuild"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestImageBuildMutation, RestImageBuildMutationVariables>;
export const RestImageBuildArtifactDeleteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestImageBuildArtifactDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageBuildArtifactDeleteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"imageBuildArtifactDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestImageBuildArtifactDeleteMutation, RestImageBuildArtifactDeleteMutationVariables>;
export const RestImageUploadDeleteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestImageUploadDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUploadInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"imageUploadDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestImageUploadDeleteMutation, RestImageUploadDeleteMutationVariables>;
export const RestImageUploadValidateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestImageUploadValidate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUploadInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"imageUploadValidate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestImageUploadValidateMutation, RestImageUploadValidateMutationVariables>;
export const RestQuarantineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestQuarantine"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quarantine"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestQuarantineFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestQuarantineFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantinedJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"addedBy"}},{"kind":"Field","name":{"kind":"Name","value":"addedAt"}}]}}]} as unknown as DocumentNode<RestQuarantineQuery, RestQuarantineQueryVariables>;
export const RestQuarantineAddDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestQuarantineAdd"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantineAddInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quarantineAdd"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantinedJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestQuarantineFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestQuarantineFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantinedJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"addedBy"}},{"kind":"Field","name":{"kind":"Name","value":"addedAt"}}]}}]} as unknown as DocumentNode<RestQuarantineAddMutation, RestQuarantineAddMutationVariables>;
export const RestQuarantineRemoveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestQuarantineRemove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantineRemoveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quarantineRemove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantinedJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestQuarantineFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestQuarantineFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QuarantinedJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"job"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"addedBy"}},{"kind":"Field","name":{"kind":"Name","value":"addedAt"}}]}}]} as unknown as DocumentNode<RestQuarantineRemoveMutation, RestQuarantineRemoveMutationVariables>;
export const RestProjectSecretsKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestProjectSecretsKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectKeys"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectKeys"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secretsPublicKey"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestProjectSecretsKeyQuery, RestProjectSecretsKeyQueryVariables>;
export const RestProjectSshKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestProjectSshKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectKeys"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectKeys"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sshPublicKey"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestProjectSshKeyQuery, RestProjectSshKeyQueryVariables>;
export const RestTenantSshKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantSshKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sshPublicKey"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestTenantSshKeyQuery, RestTenantSshKeyQueryVariables>;
export const RestAuthorizationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestAuthorizations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authorizations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"tenant"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Authorizations"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"admin"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestAuthorizationsQuery, RestAuthorizationsQueryVariables>;
export const RestStatusVersionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestStatusVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"producedAt"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestStatusVersionQuery, RestStatusVersionQueryVariables>;
export const RestStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"zuulVersion"}},{"kind":"Field","name":{"kind":"Name","value":"triggerEventQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"managementEventQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"resultEventQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"length"}}]}},{"kind":"Field","name":{"kind":"Name","value":"state"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestTenantStateFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastReconfigured"}},{"kind":"Field","name":{"kind":"Name","value":"pipelines"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"manager"}},{"kind":"Field","name":{"kind":"Name","value":"triggers"}},{"kind":"Field","name":{"kind":"Name","value":"changeQueues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"window"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}},{"kind":"Field","name":{"kind":"Name","value":"heads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestStatusItemFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"triggerEvents"}},{"kind":"Field","name":{"kind":"Name","value":"resultEvents"}},{"kind":"Field","name":{"kind":"Name","value":"managementEvents"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusJobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"}},{"kind":"Field","name":{"kind":"Name","value":"elapsedTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"fingerUrl"}},{"kind":"Field","name":{"kind":"Name","value":"reportUrl"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"executeTime"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"estimatedTime"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"canceled"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"preFail"}},{"kind":"Field","name":{"kind":"Name","value":"retry"}},{"kind":"Field","name":{"kind":"Name","value":"tries"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"waitingStatus"}},{"kind":"Field","name":{"kind":"Name","value":"nodeLabels"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestTenantStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantEventQueueState"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"triggerQueueDiscarding"}},{"kind":"Field","name":{"kind":"Name","value":"triggerQueuePaused"}},{"kind":"Field","name":{"kind":"Name","value":"resultQueuePaused"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"live"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonical"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}}]}},{"kind":"Field","name":{"kind":"Name","value":"itemAhead"}},{"kind":"Field","name":{"kind":"Name","value":"itemsBehind"}},{"kind":"Field","name":{"kind":"Name","value":"failingReasons"}},{"kind":"Field","name":{"kind":"Name","value":"zuulRef"}},{"kind":"Field","name":{"kind":"Name","value":"enqueueTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestStatusJobFields"}}]}}]}}]} as unknown as DocumentNode<RestStatusQuery, RestStatusQueryVariables>;
export const RestStatusChangeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestStatusChange"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"change"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changeItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"change"},"value":{"kind":"Variable","name":{"kind":"Name","value":"change"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestStatusItemFields"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusJobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusJob"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dependencies"}},{"kind":"Field","name":{"kind":"Name","value":"elapsedTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"fingerUrl"}},{"kind":"Field","name":{"kind":"Name","value":"reportUrl"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"voting"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"executeTime"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"estimatedTime"}},{"kind":"Field","name":{"kind":"Name","value":"pipeline"}},{"kind":"Field","name":{"kind":"Name","value":"canceled"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"preFail"}},{"kind":"Field","name":{"kind":"Name","value":"retry"}},{"kind":"Field","name":{"kind":"Name","value":"tries"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"waitingStatus"}},{"kind":"Field","name":{"kind":"Name","value":"nodeLabels"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestStatusItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StatusItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"live"}},{"kind":"Field","name":{"kind":"Name","value":"refs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"projectCanonical"}},{"kind":"Field","name":{"kind":"Name","value":"owner"}}]}},{"kind":"Field","name":{"kind":"Name","value":"itemAhead"}},{"kind":"Field","name":{"kind":"Name","value":"itemsBehind"}},{"kind":"Field","name":{"kind":"Name","value":"failingReasons"}},{"kind":"Field","name":{"kind":"Name","value":"zuulRef"}},{"kind":"Field","name":{"kind":"Name","value":"enqueueTime"}},{"kind":"Field","name":{"kind":"Name","value":"remainingTime"}},{"kind":"Field","name":{"kind":"Name","value":"jobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestStatusJobFields"}}]}}]}}]} as unknown as DocumentNode<RestStatusChangeQuery, RestStatusChangeQueryVariables>;
export const RestTenantStateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Tenant"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestTenantStateFields"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestTenantStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantEventQueueState"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"triggerQueueDiscarding"}},{"kind":"Field","name":{"kind":"Name","value":"triggerQueuePaused"}},{"kind":"Field","name":{"kind":"Name","value":"resultQueuePaused"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<RestTenantStateQuery, RestTenantStateQueryVariables>;
export const RestTenantCountsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenants"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"order"},"value":{"kind":"EnumValue","value":"CONFIG"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"projects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TenantStatus"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pipelines"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changeQueues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"heads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"live"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestTenantCountsQuery, RestTenantCountsQueryVariables>;
export const RestTenantExistsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantExists"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"errorMessage"},"name":{"kind":"Name","value":"message"}}]}}]} as unknown as DocumentNode<RestTenantExistsQuery, RestTenantExistsQueryVariables>;
export const RestTenantsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<RestTenantsQuery, RestTenantsQueryVariables>;
export const RestTenantInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestTenantInfo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"info"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tenantInfo"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tenant"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"niz"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Info"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"loadUserInfo"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestTenantInfoQuery, RestTenantInfoQueryVariables>;
export const RestComponentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestComponents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"components"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hostname"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]}}]} as unknown as DocumentNode<RestComponentsQuery, RestComponentsQueryVariables>;
export const RestConnectionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"connections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"baseurl"}},{"kind":"Field","name":{"kind":"Name","value":"canonicalHostname"}},{"kind":"Field","name":{"kind":"Name","value":"server"}},{"kind":"Field","name":{"kind":"Name","value":"sshServer"}},{"kind":"Field","name":{"kind":"Name","value":"port"}}]}}]}}]} as unknown as DocumentNode<RestConnectionsQuery, RestConnectionsQueryVariables>;