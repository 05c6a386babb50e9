/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Which part of the tenant's history to sum (values OR'ed; absent: all). */
export type AnalyticsFilter = {
  /** Job names (only the job figures: runs, durations, rates, node waits). */
  jobs?: Array<string> | null | undefined;
  /** Pipeline names. */
  pipelines?: Array<string> | null | undefined;
  /** Project names or canonical names. */
  projects?: Array<string> | null | undefined;
};

/** The size of the buckets of an analytics series (UTC; weeks start on Monday). */
export type AnalyticsInterval =
  /** One UTC day. */
  | 'DAY'
  /** One hour. */
  | 'HOUR'
  /** One ISO week, from Monday 00:00 UTC. */
  | 'WEEK';

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

/** Where a buildset is in its life; independent of its result. */
export type BuildsetStatus =
  /** Reported or dequeued; `result` says how. */
  | 'COMPLETED'
  /** Its builds are running or waiting; no result has been reported. */
  | 'RUNNING';

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

/** Which recent runs an estimate comes from (docs/analytics.md#job-estimates), narrowest first. */
export type EstimateBasis =
  /** The job's runs on the same project and branch. */
  | 'BRANCH'
  /** The pipeline's items of any project. */
  | 'ITEM_PIPELINE'
  /** The pipeline's items of the same project. */
  | 'ITEM_PROJECT'
  /** The job's runs on any project of the tenant. */
  | 'JOB'
  /** The job's runs on the same project, any branch. */
  | 'PROJECT';

/** The key of an estimate. */
export type EstimateKeyInput = {
  /** Branch (jobs); null for a ref without a branch. */
  branch?: string | null | undefined;
  /** Job or item. */
  kind: EstimateKind;
  /** Job name, or pipeline name for items. */
  name: string;
  /** Canonical project name. */
  project: string;
};

/** What an estimate is for. */
export type EstimateKind =
  /** A pipeline's queue items of a project (their whole run). */
  | 'ITEM'
  /** A job on a project and branch. */
  | 'JOB';

/** What made an item start over (docs/analytics.md#gate-resets). */
export type GateResetCause =
  /** Reset cause `dependency-dequeued` (docs/analytics.md#gate-resets). */
  | 'DEPENDENCY_DEQUEUED'
  /** Reset cause `item-ahead-dequeued` (docs/analytics.md#gate-resets). */
  | 'ITEM_AHEAD_DEQUEUED'
  /** Reset cause `item-ahead-failed` (docs/analytics.md#gate-resets). */
  | 'ITEM_AHEAD_FAILED'
  /** Reset cause `merge-failed` (docs/analytics.md#gate-resets). */
  | 'MERGE_FAILED'
  /** Reset cause `promoted` (docs/analytics.md#gate-resets). */
  | 'PROMOTED'
  /** Reset cause `requirements-not-met` (docs/analytics.md#gate-resets). */
  | 'REQUIREMENTS_NOT_MET';

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

/** Why an item does not run jobs yet. */
export type ItemWaitReason =
  /** Its speculative merge is being prepared. */
  | 'MERGE'
  /** It is outside the active window of its queue. */
  | 'WINDOW';

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

/** Why the client must take a new status snapshot. */
export type ResnapshotReason =
  /** The deltas after `afterSeq` are no longer in the replay buffer. */
  | 'REPLAY_UNAVAILABLE'
  /** This server missed deltas (event bus interruption). */
  | 'SEQUENCE_GAP'
  /** The client did not keep up; its backlog was dropped. */
  | 'SLOW_CONSUMER';

/** Why a build was retried (docs/analytics.md#flake-aware-gating). */
export type RetryReason =
  /** It failed, and its job is known-flaky in a pipeline or job that retries those in place. */
  | 'FLAKY'
  /** It ended without a result of its own (aborted, lost its node...) and attempts were left. */
  | 'INFRASTRUCTURE';

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

type TypedErrorFields_ConflictError_Fragment = { __typename: 'ConflictError', message: string };

type TypedErrorFields_InvalidInputError_Fragment = { __typename: 'InvalidInputError', field: string | null, message: string };

type TypedErrorFields_JobGraphError_Fragment = { __typename: 'JobGraphError', message: string };

type TypedErrorFields_NotFoundError_Fragment = { __typename: 'NotFoundError', message: string };

export type TypedErrorFieldsFragment =
  | TypedErrorFields_ConflictError_Fragment
  | TypedErrorFields_InvalidInputError_Fragment
  | TypedErrorFields_JobGraphError_Fragment
  | TypedErrorFields_NotFoundError_Fragment
;

export type EnqueueMutationVariables = Exact<{
  input: EnqueueInput;
}>;


export type EnqueueMutation = { enqueue:
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'ManagementEventAccepted', eventId: number }
    | { __typename: 'NotFoundError', message: string }
   | null };

export type DequeueMutationVariables = Exact<{
  input: DequeueInput;
}>;


export type DequeueMutation = { dequeue:
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'ManagementEventAccepted', eventId: number }
    | { __typename: 'NotFoundError', message: string }
   | null };

export type PromoteMutationVariables = Exact<{
  input: PromoteInput;
}>;


export type PromoteMutation = { promote:
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'ManagementEventAccepted', eventId: number }
    | { __typename: 'NotFoundError', message: string }
   | null };

export type TenantStateSetMutationVariables = Exact<{
  input: TenantStateSetInput;
}>;


export type TenantStateSetMutation = { tenantStateSet:
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'TenantEventQueueState', reason: string | null, triggerQueuePaused: boolean, triggerQueueDiscarding: boolean, resultQueuePaused: boolean }
   | null };

export type AutoholdCreateMutationVariables = Exact<{
  input: AutoholdCreateInput;
}>;


export type AutoholdCreateMutation = { autoholdCreate:
    | { __typename: 'Autohold', id: string }
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'NotFoundError', message: string }
   | null };

export type AutoholdDeleteMutationVariables = Exact<{
  input: AutoholdDeleteInput;
}>;


export type AutoholdDeleteMutation = { autoholdDelete:
    | { __typename: 'AutoholdDeleted', id: string }
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'NotFoundError', message: string }
   | null };

export type NodeHoldMutationVariables = Exact<{
  input: NodeHoldInput;
}>;


export type NodeHoldMutation = { nodeHold:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ProviderNode', uuid: string, state: NodeState }
   };

export type ImageBuildMutationVariables = Exact<{
  input: ImageBuildInput;
}>;


export type ImageBuildMutation = { imageBuild:
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'ImageBuildRequested', eventId: number }
    | { __typename: 'InvalidInputError', field: string | null, message: string }
    | { __typename: 'NotFoundError', message: string }
   };

export type ManagementEventOutcomeSubscriptionVariables = Exact<{
  tenant: string;
  eventId: number;
}>;


export type ManagementEventOutcomeSubscription = { managementEventOutcome: { eventId: number, succeeded: boolean, outcome: string } };

export type AnalyticsBucketFieldsFragment = { start: string, end: string, itemsEnqueued: number, itemsReported: number, itemsSucceeded: number, timeToMerge: number | null, timeToReport: number | null, queueLength: number, nodeWaits: number, nodeWait: number | null, gateResets: number, runs: number, failures: number, retries: number, flaky: number, flakyRetries: number, failureRate: number | null, flakeRate: number | null, meanDuration: number | null, nodeHours: number, resetCauses: Array<{ cause: GateResetCause, resets: number }> };

export type TenantAnalyticsQueryVariables = Exact<{
  tenant: string;
  from: string;
  to: string;
  interval?: AnalyticsInterval | null | undefined;
  filter?: AnalyticsFilter | null | undefined;
}>;


export type TenantAnalyticsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', analytics:
        | { __typename: 'Analytics', from: string, to: string, interval: AnalyticsInterval, series: Array<{ start: string, end: string, itemsEnqueued: number, itemsReported: number, itemsSucceeded: number, timeToMerge: number | null, timeToReport: number | null, queueLength: number, nodeWaits: number, nodeWait: number | null, gateResets: number, runs: number, failures: number, retries: number, flaky: number, flakyRetries: number, failureRate: number | null, flakeRate: number | null, meanDuration: number | null, nodeHours: number, resetCauses: Array<{ cause: GateResetCause, resets: number }> }>, totals: { start: string, end: string, itemsEnqueued: number, itemsReported: number, itemsSucceeded: number, timeToMerge: number | null, timeToReport: number | null, queueLength: number, nodeWaits: number, nodeWait: number | null, gateResets: number, runs: number, failures: number, retries: number, flaky: number, flakyRetries: number, failureRate: number | null, flakeRate: number | null, meanDuration: number | null, nodeHours: number, resetCauses: Array<{ cause: GateResetCause, resets: number }> }, jobs: Array<{ job: string, runs: number, failures: number, retries: number, flaky: number, failureRate: number | null, flakeRate: number | null, meanDuration: number | null }>, nodeHours: Array<{ label: string, hours: number }>, busiestHours: Array<{ weekday: number, hour: number, itemsEnqueued: number, runs: number }> }
        | { __typename: 'InvalidInputError', message: string, field: string | null }
       | null }
   | null };

export type AnalyticsDurationsQueryVariables = Exact<{
  tenant: string;
  from: string;
  to: string;
  interval?: AnalyticsInterval | null | undefined;
  filter?: AnalyticsFilter | null | undefined;
}>;


export type AnalyticsDurationsQuery = { tenant:
    | { __typename: 'NotFoundError' }
    | { __typename: 'Tenant', analytics:
        | { __typename: 'Analytics', durations: Array<{ start: string, runs: number, p50: number | null, p90: number | null }> }
        | { __typename: 'InvalidInputError' }
       | null }
   | null };

export type AnalyticsChoicesQueryVariables = Exact<{
  tenant: string;
}>;


export type AnalyticsChoicesQuery = { tenant:
    | { __typename: 'NotFoundError' }
    | { __typename: 'Tenant', pipelines: Array<{ name: string }>, projects: Array<{ name: string }>, jobs: Array<{ name: string }> }
   | null };

export type QuarantinedJobFieldsFragment = { job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string };

export type TenantQuarantineQueryVariables = Exact<{
  tenant: string;
}>;


export type TenantQuarantineQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', quarantine: Array<{ job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string }> }
   | null };

export type FlakyRetriesQueryVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
}>;


export type FlakyRetriesQuery = { tenant:
    | { __typename: 'NotFoundError' }
    | { __typename: 'Tenant', systemEvents: { totalCount: number, nodes: Array<{ databaseId: number, eventTime: string, description: string, data: unknown }> } }
   | null };

export type QuarantineAddMutationVariables = Exact<{
  input: QuarantineAddInput;
}>;


export type QuarantineAddMutation = { quarantineAdd:
    | { __typename: 'InvalidInputError', message: string, field: string | null }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'QuarantinedJob', job: string, project: string | null, reason: string, addedBy: string | null, addedAt: string }
   | null };

export type QuarantineRemoveMutationVariables = Exact<{
  input: QuarantineRemoveInput;
}>;


export type QuarantineRemoveMutation = { quarantineRemove:
    | { __typename: 'InvalidInputError', message: string, field: string | null }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'QuarantinedJob', job: string }
   | null };

export type AnalyticsHistoryUpdatesSubscriptionVariables = Exact<{
  tenant: string;
}>;


export type AnalyticsHistoryUpdatesSubscription = { buildsetUpdated: { uuid: string } };

export type AutoholdFieldsFragment = { id: string, project: string, job: string, refFilter: string, reason: string, maxCount: number, currentCount: number, nodeExpiration: number, created: string, expired: string | null, nodes: Array<{ build: string, nodes: Array<string> }> };

export type AutoholdsQueryVariables = Exact<{
  tenant: string;
}>;


export type AutoholdsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', autoholds: Array<{ id: string, project: string, job: string, refFilter: string, reason: string, maxCount: number, currentCount: number, nodeExpiration: number, created: string, expired: string | null, nodes: Array<{ build: string, nodes: Array<string> }> }> }
   | null };

export type AutoholdDetailQueryVariables = Exact<{
  tenant: string;
  id: string;
}>;


export type AutoholdDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', autohold:
        | { __typename: 'Autohold', id: string, project: string, job: string, refFilter: string, reason: string, maxCount: number, currentCount: number, nodeExpiration: number, created: string, expired: string | null, nodes: Array<{ build: string, nodes: Array<string> }> }
        | { __typename: 'NotFoundError', message: string }
       | null }
   | null };

export type RefFieldsFragment = { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null };

export type BuildRowFieldsFragment = { uuid: string, jobName: string, pipeline: string, result: BuildResult | null, status: BuildStatus, voting: boolean, held: boolean, final: boolean, attempt: number, startTime: string | null, endTime: string | null, duration: number | null, nodeset: string | null, logUrl: string | null, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null } | null, buildset: { uuid: string } };

export type BuildsQueryVariables = Exact<{
  tenant: string;
  filter?: BuildFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  offset?: number | null | undefined;
}>;


export type BuildsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', builds: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ uuid: string, jobName: string, pipeline: string, result: BuildResult | null, status: BuildStatus, voting: boolean, held: boolean, final: boolean, attempt: number, startTime: string | null, endTime: string | null, duration: number | null, nodeset: string | null, logUrl: string | null, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null } | null, buildset: { uuid: string } }> } }
   | null };

export type BuildUpdatesSubscriptionVariables = Exact<{
  tenant: string;
  filter?: BuildFilter | null | undefined;
}>;


export type BuildUpdatesSubscription = { buildUpdated: { uuid: string, jobName: string, pipeline: string, result: BuildResult | null, status: BuildStatus, voting: boolean, held: boolean, final: boolean, attempt: number, startTime: string | null, endTime: string | null, duration: number | null, nodeset: string | null, logUrl: string | null, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null } | null, buildset: { uuid: string } } };

export type BuildDetailQueryVariables = Exact<{
  tenant: string;
  uuid: string;
}>;


export type BuildDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', build:
        | { __typename: 'Build', errorDetail: string | null, eventId: string | null, provides: Array<string>, returnedData: unknown, uuid: string, jobName: string, pipeline: string, result: BuildResult | null, status: BuildStatus, voting: boolean, held: boolean, final: boolean, attempt: number, startTime: string | null, endTime: string | null, duration: number | null, nodeset: string | null, logUrl: string | null, artifacts: Array<{ name: string, url: string, metadata: unknown }>, events: Array<{ eventType: string, eventTime: string, description: string | null }>, buildset: { uuid: string, result: BuildsetResult | null, status: BuildsetStatus, message: string | null, builds: Array<{ uuid: string, jobName: string, attempt: number, result: BuildResult | null, status: BuildStatus, final: boolean }> }, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null } | null }
        | { __typename: 'NotFoundError', message: string }
       | null }
   | null };

export type BuildConsoleSubscriptionVariables = Exact<{
  tenant: string;
  uuid: string;
  offset?: number | null | undefined;
}>;


export type BuildConsoleSubscription = { consoleLog: { lines: Array<{ seq: number, text: string }> } };

export type BuildHeaderQueryVariables = Exact<{
  tenant: string;
  uuid: string;
}>;


export type BuildHeaderQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', build:
        | { __typename: 'Build', uuid: string, jobName: string, pipeline: string, result: BuildResult | null, status: BuildStatus, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null } | null }
        | { __typename: 'NotFoundError', message: string }
       | null }
   | null };

export type BuildTimesChartQueryVariables = Exact<{
  tenant: string;
  filter?: BuildTimeFilter | null | undefined;
  first?: number | null | undefined;
}>;


export type BuildTimesChartQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', buildTimes: { nodes: Array<{ uuid: string, jobName: string, startTime: string | null, endTime: string, duration: number | null, result: BuildResult, project: string | null, branch: string | null, pipeline: string }> } }
   | null };

export type BuildsetRowFieldsFragment = { uuid: string, pipeline: string, result: BuildsetResult | null, status: BuildsetStatus, createdAt: string, firstBuildStartTime: string | null, lastBuildEndTime: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null }> };

export type BuildsetsQueryVariables = Exact<{
  tenant: string;
  filter?: BuildsetFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  offset?: number | null | undefined;
}>;


export type BuildsetsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', buildsets: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ uuid: string, pipeline: string, result: BuildsetResult | null, status: BuildsetStatus, createdAt: string, firstBuildStartTime: string | null, lastBuildEndTime: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null }> }> } }
   | null };

export type BuildsetUpdatesSubscriptionVariables = Exact<{
  tenant: string;
  filter?: BuildsetFilter | null | undefined;
}>;


export type BuildsetUpdatesSubscription = { buildsetUpdated: { uuid: string, pipeline: string, result: BuildsetResult | null, status: BuildsetStatus, createdAt: string, firstBuildStartTime: string | null, lastBuildEndTime: string | null, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null }> } };

export type BuildsetDetailQueryVariables = Exact<{
  tenant: string;
  uuid: string;
}>;


export type BuildsetDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', buildset:
        | { __typename: 'Buildset', eventId: string | null, uuid: string, pipeline: string, result: BuildsetResult | null, status: BuildsetStatus, createdAt: string, firstBuildStartTime: string | null, lastBuildEndTime: string | null, reportMessage: string | null, events: Array<{ eventType: string, eventTime: string, description: string | null }>, builds: Array<{ uuid: string, jobName: string, pipeline: string, result: BuildResult | null, status: BuildStatus, voting: boolean, held: boolean, final: boolean, attempt: number, startTime: string | null, endTime: string | null, duration: number | null, nodeset: string | null, logUrl: string | null, ref: { project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null } | null, buildset: { uuid: string } }>, refs: Array<{ project: string, branch: string | null, change: number | null, patchset: string | null, ref: string, refUrl: string | null, newrev: string | null, oldrev: string | null }> }
        | { __typename: 'NotFoundError', message: string }
       | null }
   | null };

export type JobsQueryVariables = Exact<{
  tenant: string;
}>;


export type JobsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', jobs: Array<{ name: string, description: string | null, tags: Array<string>, variants: Array<{ parent: string | null, branches: Array<string> | null }> }> }
   | null };

export type JobDetailQueryVariables = Exact<{
  tenant: string;
  name: string;
  history?: number | null | undefined;
}>;


export type JobDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', job:
        | { __typename: 'Job', name: string, description: string | null, tags: Array<string>, variants: Array<{ parent: string | null, branches: Array<string> | null, abstract: boolean, final: boolean, protected: boolean | null, voting: boolean, timeout: number | null, attempts: number, variantDescription: string, nodeset: { name: string, nodes: Array<{ name: string, label: string }> } | null, dependencies: Array<{ name: string, soft: boolean }>, run: Array<{ path: string }>, semaphores: Array<{ name: string }>, sourceContext: { project: string, branch: string, path: string } | null }> }
        | { __typename: 'NotFoundError', message: string }
       | null, buildTimes: { nodes: Array<{ uuid: string, startTime: string | null, endTime: string, duration: number | null, result: BuildResult, project: string | null, pipeline: string }> } }
   | null };

export type ProjectsQueryVariables = Exact<{
  tenant: string;
}>;


export type ProjectsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', projects: Array<{ name: string, canonicalName: string, connectionName: string, type: ProjectType }> }
   | null };

export type ProjectDetailQueryVariables = Exact<{
  tenant: string;
  name: string;
}>;


export type ProjectDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', project:
        | { __typename: 'InvalidInputError', message: string }
        | { __typename: 'NotFoundError', message: string }
        | { __typename: 'Project', name: string, canonicalName: string, connectionName: string, type: ProjectType, branches: Array<string>, metadata: { defaultBranch: string, mergeMode: MergeMode, queueName: string | null }, configs: Array<{ isTemplate: boolean, branches: Array<string> | null, sourceContext: { branch: string, path: string }, pipelines: Array<{ name: string, jobs: Array<{ name: string }> }> }> }
       | null }
   | null };

export type FrozenJobsQueryVariables = Exact<{
  tenant: string;
  project: string;
  pipeline: string;
  branch?: string | null | undefined;
}>;


export type FrozenJobsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', freezeJobs:
        | { __typename: 'InvalidInputError', message: string }
        | { __typename: 'JobGraph', jobs: Array<{ name: string, voting: boolean, dependencies: Array<{ name: string, soft: boolean }> }> }
        | { __typename: 'JobGraphError', message: string }
        | { __typename: 'NotFoundError', message: string }
       | null }
   | null };

export type ConfigErrorsQueryVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
  offset?: number | null | undefined;
  filter?: ConfigErrorFilter | null | undefined;
}>;


export type ConfigErrorsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', configErrors: { totalCount: number, nodes: Array<{ name: string, severity: ConfigErrorSeverity, shortError: string, error: string, line: number | null, sourceContext: { project: string, branch: string, path: string } | null }> } }
   | null };

export type SemaphoresQueryVariables = Exact<{
  tenant: string;
}>;


export type SemaphoresQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', semaphores: Array<{ name: string, max: number, global: boolean, holders: { count: number, otherTenants: number } }> }
   | null };

export type FreezeJobQueryVariables = Exact<{
  tenant: string;
  pipeline: string;
  project: string;
  branch?: string | null | undefined;
  job: string;
}>;


export type FreezeJobQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', freezeJob:
        | { __typename: 'FrozenJob', name: string, description: string | null, parent: string | null, inheritancePath: Array<string>, voting: boolean, attempts: number, timeout: number | null, tags: Array<string>, childJobs: Array<string>, parameters: unknown, nodeset: { name: string, nodes: Array<{ name: string, label: string }> }, dependencies: Array<{ name: string, soft: boolean }>, semaphores: Array<{ name: string, resourcesFirst: boolean }>, sourceContext: { project: string, branch: string, path: string } }
        | { __typename: 'InvalidInputError', message: string }
        | { __typename: 'JobGraphError', message: string }
        | { __typename: 'NotFoundError', message: string }
       | null }
   | null };

export type SemaphoreDetailQueryVariables = Exact<{
  tenant: string;
}>;


export type SemaphoreDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', semaphores: Array<{ name: string, max: number, global: boolean, holders: { count: number, otherTenants: number, thisTenant: Array<{ buildsetUuid: string, jobName: string, acquired: string }> } }>, jobs: Array<{ name: string, variants: Array<{ branches: Array<string> | null, semaphores: Array<{ name: string }> }> }> }
   | null };

export type LabelsQueryVariables = Exact<{
  tenant: string;
}>;


export type LabelsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', labels: Array<{ name: string, description: string | null, image: string, flavor: string, minReady: number, maxReadyAge: number }> }
   | null };

export type NodeFieldsFragment = { uuid: string, databaseId: number, label: string, provider: string | null, state: NodeState, stateTime: string, host: string | null, comment: string | null, holdExpiration: number | null, isLocked: boolean };

export type NodeEventsSubscriptionVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type NodeEventsSubscription = { nodeEvents:
    | { __typename: 'ProviderNodeChanged', uuid: string, totalCount: number, record: { uuid: string, databaseId: number, label: string, provider: string | null, state: NodeState, stateTime: string, host: string | null, comment: string | null, holdExpiration: number | null, isLocked: boolean } | null }
    | { __typename: 'ProviderNodesSnapshot', totalCount: number, records: Array<{ uuid: string, databaseId: number, label: string, provider: string | null, state: NodeState, stateTime: string, host: string | null, comment: string | null, holdExpiration: number | null, isLocked: boolean }> }
   };

export type ProvidersQueryVariables = Exact<{
  tenant: string;
}>;


export type ProvidersQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', providers: Array<{ name: string, canonicalName: string, connection: string | null, section: string, labels: Array<{ name: string }>, images: Array<{ name: string }>, flavors: Array<{ name: string }> }> }
   | null };

export type ImagesQueryVariables = Exact<{
  tenant: string;
}>;


export type ImagesQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', images: Array<{ name: string, type: ImageType, description: string | null, branch: string, projectCanonicalName: string, buildArtifacts: Array<{ uuid: string, format: string, state: ImageBuildArtifactState | null, timestamp: string, validated: boolean }> }> }
   | null };

export type FlavorsQueryVariables = Exact<{
  tenant: string;
}>;


export type FlavorsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', flavors: Array<{ name: string, description: string | null, canonicalName: string }> }
   | null };

export type NodesetRequestFieldsFragment = { uuid: string, databaseId: number, state: NodesetRequestState, stateTime: string, requestTime: string, labels: Array<string>, jobName: string | null, pipelineName: string | null, project: string | null, buildsetUuid: string | null, failureReason: string | null };

export type NodesetRequestEventsSubscriptionVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type NodesetRequestEventsSubscription = { nodesetRequestEvents:
    | { __typename: 'NodesetRequestChanged', uuid: string, totalCount: number, record: { uuid: string, databaseId: number, state: NodesetRequestState, stateTime: string, requestTime: string, labels: Array<string>, jobName: string | null, pipelineName: string | null, project: string | null, buildsetUuid: string | null, failureReason: string | null } | null }
    | { __typename: 'NodesetRequestsSnapshot', totalCount: number, records: Array<{ uuid: string, databaseId: number, state: NodesetRequestState, stateTime: string, requestTime: string, labels: Array<string>, jobName: string | null, pipelineName: string | null, project: string | null, buildsetUuid: string | null, failureReason: string | null }> }
   };

export type ImageDetailFieldsFragment = { name: string, type: ImageType, description: string | null, branch: string, canonicalName: string, projectCanonicalName: string, sourceContext: { project: string, branch: string, path: string }, buildArtifacts: Array<{ uuid: string, buildUuid: string | null, buildTenant: boolean, format: string, state: ImageBuildArtifactState | null, stateTime: string, timestamp: string, validated: boolean, url: string | null, uploads: Array<{ uuid: string, endpointName: string, state: ImageUploadState, stateTime: string, externalId: string | null, validated: boolean }> }> };

export type LauncherDetailQueryVariables = Exact<{
  tenant: string;
}>;


export type LauncherDetailQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', providers: Array<{ name: string, canonicalName: string, connection: string | null, section: string, sourceContext: { project: string, branch: string, path: string }, labels: Array<{ name: string, image: string, flavor: string, minReady: number, description: string | null }>, images: Array<{ name: string }>, flavors: Array<{ name: string, description: string | null }> }>, images: Array<{ name: string, type: ImageType, description: string | null, branch: string, canonicalName: string, projectCanonicalName: string, sourceContext: { project: string, branch: string, path: string }, buildArtifacts: Array<{ uuid: string, buildUuid: string | null, buildTenant: boolean, format: string, state: ImageBuildArtifactState | null, stateTime: string, timestamp: string, validated: boolean, url: string | null, uploads: Array<{ uuid: string, endpointName: string, state: ImageUploadState, stateTime: string, externalId: string | null, validated: boolean }> }> }> }
   | null };

export type StatusEstimateFieldsFragment = { kind: EstimateKind, project: string, branch: string | null, name: string, estimate: { basis: EstimateBasis, runs: number, successes: number, failures: number, quantiles: Array<number> | null, failureQuantiles: Array<number> | null, failureProbability: number, retryProbability: number } };

export type StatusJobFieldsFragment = { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean };

export type StatusRefFieldsFragment = { id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null };

export type StatusItemFieldsFragment = { id: string, active: boolean, live: boolean, itemAhead: string | null, enqueueTime: number, failingReasons: Array<string>, waitingFor: ItemWaitReason | null, zuulRef: string | null, refs: Array<{ id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean }> };

export type QueueItemFieldsFragment = { id: string, active: boolean, live: boolean, itemAhead: string | null, enqueueTime: number, failingReasons: Array<string>, waitingFor: ItemWaitReason | null, zuulRef: string | null, refs: Array<{ id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean }> };

export type StatusPipelineFieldsFragment = { name: string, description: string | null, manager: PipelineManagerKind, state: PipelineHealth, disabled: boolean, consecutiveFailures: number, changeQueues: Array<{ key: number, name: string, branch: string | null, window: number, items: Array<{ id: string, active: boolean, live: boolean, itemAhead: string | null, enqueueTime: number, failingReasons: Array<string>, waitingFor: ItemWaitReason | null, zuulRef: string | null, refs: Array<{ id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean }> }> }> };

export type TenantQueueStateFieldsFragment = { reason: string | null, triggerQueuePaused: boolean, triggerQueueDiscarding: boolean, resultQueuePaused: boolean };

export type StatusSnapshotQueryVariables = Exact<{
  tenant: string;
}>;


export type StatusSnapshotQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', status:
        | { __typename: 'NotFoundError', message: string }
        | { __typename: 'TenantStatus', sequence: number, zuulVersion: string, lastReconfiguredAt: string | null, triggerEventQueue: { length: number }, managementEventQueue: { length: number }, resultEventQueue: { length: number }, state: { reason: string | null, triggerQueuePaused: boolean, triggerQueueDiscarding: boolean, resultQueuePaused: boolean }, pipelines: Array<{ name: string, description: string | null, manager: PipelineManagerKind, state: PipelineHealth, disabled: boolean, consecutiveFailures: number, changeQueues: Array<{ key: number, name: string, branch: string | null, window: number, items: Array<{ id: string, active: boolean, live: boolean, itemAhead: string | null, enqueueTime: number, failingReasons: Array<string>, waitingFor: ItemWaitReason | null, zuulRef: string | null, refs: Array<{ id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean }> }> }> }>, estimates: Array<{ kind: EstimateKind, project: string, branch: string | null, name: string, estimate: { basis: EstimateBasis, runs: number, successes: number, failures: number, quantiles: Array<number> | null, failureQuantiles: Array<number> | null, failureProbability: number, retryProbability: number } }> }
       | null }
   | null };

export type QueueDeltasSubscriptionVariables = Exact<{
  tenant: string;
  afterSeq?: number | null | undefined;
}>;


export type QueueDeltasSubscription = { queueEvents:
    | { __typename: 'QueueDelta', sequence: number, changes: Array<
        | { __typename: 'BuildsetChanged', pipeline: string | null }
        | { __typename: 'ItemChanged', itemId: string, active: boolean, live: boolean, enqueueTime: number, failingReasons: Array<string>, waitingFor: ItemWaitReason | null, zuulRef: string | null, pipeline: string | null, refs: Array<{ id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean }> | null }
        | { __typename: 'ItemDequeued', queue: number, itemId: string, pipeline: string | null }
        | { __typename: 'ItemEnqueued', queue: number, position: number, pipeline: string | null, item: { id: string, active: boolean, live: boolean, itemAhead: string | null, enqueueTime: number, failingReasons: Array<string>, waitingFor: ItemWaitReason | null, zuulRef: string | null, refs: Array<{ id: string, project: string, projectCanonical: string, branch: string | null, ref: string | null, url: string | null, owner: string | null }>, jobs: Array<{ name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean }> } }
        | { __typename: 'ItemMoved', queue: number, itemId: string, position: number, itemAhead: string | null, pipeline: string | null }
        | { __typename: 'ItemReported', pipeline: string | null }
        | { __typename: 'JobChanged', itemId: string, pipeline: string | null, job: { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean } }
        | { __typename: 'JobCompleted', itemId: string, pipeline: string | null, job: { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean } }
        | { __typename: 'JobPaused', itemId: string, pipeline: string | null, job: { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean } }
        | { __typename: 'JobResumed', itemId: string, pipeline: string | null, job: { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean } }
        | { __typename: 'JobStarted', itemId: string, pipeline: string | null, job: { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean } }
        | { __typename: 'JobWaiting', itemId: string, pipeline: string | null, job: { name: string, dependencies: Array<string>, uuid: string | null, result: string | null, queued: boolean, voting: boolean, retry: boolean | null, tries: number, paused: boolean | null, canceled: boolean | null, preFail: boolean | null, startTime: number | null, endTime: number | null, estimatedTime: number | null, waitingStatus: string | null, url: string | null, reportUrl: string | null, retryReason: RetryReason | null, flakyRetries: number, quarantined: boolean } }
        | { __typename: 'PipelineChanged', name: string, index: number, description: string | null, manager: PipelineManagerKind, state: PipelineHealth, disabled: boolean, consecutiveFailures: number, pipeline: string | null }
        | { __typename: 'PipelineRemoved', pipeline: string | null }
        | { __typename: 'QueueChanged', queue: number, index: number, name: string, branch: string | null, window: number, pipeline: string | null }
        | { __typename: 'QueueRemoved', queue: number, pipeline: string | null }
        | { __typename: 'TenantChanged', lastReconfiguredAt: string | null, pipeline: string | null, eventQueueState: { reason: string | null, triggerQueuePaused: boolean, triggerQueueDiscarding: boolean, resultQueuePaused: boolean } }
      > }
    | { __typename: 'ResnapshotRequired', cause: ResnapshotReason, sequence: number }
   };

export type TenantLevelEventsSubscriptionVariables = Exact<{
  tenant: string;
}>;


export type TenantLevelEventsSubscription = { systemEvents: { eventType: SystemEventType } };

export type StatusEstimatesQueryVariables = Exact<{
  tenant: string;
  keys: Array<EstimateKeyInput> | EstimateKeyInput;
}>;


export type StatusEstimatesQuery = { tenant:
    | { __typename: 'NotFoundError' }
    | { __typename: 'Tenant', estimates:
        | { __typename: 'EstimateList', estimates: Array<{ kind: EstimateKind, project: string, branch: string | null, name: string, estimate: { basis: EstimateBasis, runs: number, successes: number, failures: number, quantiles: Array<number> | null, failureQuantiles: Array<number> | null, failureProbability: number, retryProbability: number } }> }
        | { __typename: 'InvalidInputError' }
       | null }
   | null };

export type SystemEventFieldsFragment = { databaseId: number, eventId: string, eventTime: string, eventType: SystemEventType, description: string };

export type SystemEventsQueryVariables = Exact<{
  tenant: string;
  first?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type SystemEventsQuery = { tenant:
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Tenant', systemEvents: { totalCount: number, nodes: Array<{ databaseId: number, eventId: string, eventTime: string, eventType: SystemEventType, description: string }> } }
   | null };

export type SystemEventsLiveSubscriptionVariables = Exact<{
  tenant: string;
}>;


export type SystemEventsLiveSubscription = { systemEvents: { databaseId: number, eventId: string, eventTime: string, eventType: SystemEventType, description: string } };

export type ComponentsQueryVariables = Exact<{ [key: string]: never; }>;


export type ComponentsQuery = { components: Array<{ kind: string, hostname: string, state: string, version: string }> };

export type TenantsQueryVariables = Exact<{ [key: string]: never; }>;


export type TenantsQuery = { tenants: Array<{ name: string, projects: Array<{ name: string }>, status:
      | { __typename: 'NotFoundError' }
      | { __typename: 'TenantStatus', pipelines: Array<{ name: string, changeQueues: Array<{ heads: Array<Array<{ id: string }>> }> }> }
     | null }> };

export type DeploymentInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type DeploymentInfoQuery = { info: { version: string, capabilities: { auth: { defaultRealm: string | null, realms: Array<{ name: string, driver: string, authority: string | null, clientId: string | null, scope: string | null }> } } } };

export type TenantCapabilitiesQueryVariables = Exact<{
  tenant: string;
}>;


export type TenantCapabilitiesQuery = { tenantInfo: { defaultRealm: string | null, readProtected: boolean, niz: boolean } | null };

export type TenantAccessQueryVariables = Exact<{
  tenant: string;
}>;


export type TenantAccessQuery = { authorizations:
    | { __typename: 'Authorizations', admin: boolean }
    | { __typename: 'NotFoundError' }
   };

export type TokenCheckQueryVariables = Exact<{
  tenant?: string | null | undefined;
}>;


export type TokenCheckQuery = { authorizations:
    | { __typename: 'Authorizations', admin: boolean }
    | { __typename: 'NotFoundError' }
   };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const TypedErrorFieldsFragmentDoc = new TypedDocumentString(`
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}
    `, {"fragmentName":"TypedErrorFields"}) as unknown as TypedDocumentString<TypedErrorFieldsFragment, unknown>;
export const AnalyticsBucketFieldsFragmentDoc = new TypedDocumentString(`
    fragment AnalyticsBucketFields on AnalyticsBucket {
  start
  end
  itemsEnqueued
  itemsReported
  itemsSucceeded
  timeToMerge
  timeToReport
  queueLength
  nodeWaits
  nodeWait
  gateResets
  resetCauses {
    cause
    resets
  }
  runs
  failures
  retries
  flaky
  flakyRetries
  failureRate
  flakeRate
  meanDuration
  nodeHours
}
    `, {"fragmentName":"AnalyticsBucketFields"}) as unknown as TypedDocumentString<AnalyticsBucketFieldsFragment, unknown>;
export const QuarantinedJobFieldsFragmentDoc = new TypedDocumentString(`
    fragment QuarantinedJobFields on QuarantinedJob {
  job
  project
  reason
  addedBy
  addedAt
}
    `, {"fragmentName":"QuarantinedJobFields"}) as unknown as TypedDocumentString<QuarantinedJobFieldsFragment, unknown>;
export const AutoholdFieldsFragmentDoc = new TypedDocumentString(`
    fragment AutoholdFields on Autohold {
  id
  project
  job
  refFilter
  reason
  maxCount
  currentCount
  nodeExpiration
  created
  expired
  nodes {
    build
    nodes
  }
}
    `, {"fragmentName":"AutoholdFields"}) as unknown as TypedDocumentString<AutoholdFieldsFragment, unknown>;
export const RefFieldsFragmentDoc = new TypedDocumentString(`
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
    `, {"fragmentName":"RefFields"}) as unknown as TypedDocumentString<RefFieldsFragment, unknown>;
export const BuildRowFieldsFragmentDoc = new TypedDocumentString(`
    fragment BuildRowFields on Build {
  uuid
  jobName
  pipeline
  result
  status
  voting
  held
  final
  attempt
  startTime
  endTime
  duration
  nodeset
  logUrl
  ref {
    ...RefFields
  }
  buildset {
    uuid
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}`, {"fragmentName":"BuildRowFields"}) as unknown as TypedDocumentString<BuildRowFieldsFragment, unknown>;
export const BuildsetRowFieldsFragmentDoc = new TypedDocumentString(`
    fragment BuildsetRowFields on Buildset {
  uuid
  pipeline
  result
  status
  createdAt
  firstBuildStartTime
  lastBuildEndTime
  refs {
    ...RefFields
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}`, {"fragmentName":"BuildsetRowFields"}) as unknown as TypedDocumentString<BuildsetRowFieldsFragment, unknown>;
export const NodeFieldsFragmentDoc = new TypedDocumentString(`
    fragment NodeFields on ProviderNode {
  uuid
  databaseId
  label
  provider
  state
  stateTime
  host
  comment
  holdExpiration
  isLocked
}
    `, {"fragmentName":"NodeFields"}) as unknown as TypedDocumentString<NodeFieldsFragment, unknown>;
export const NodesetRequestFieldsFragmentDoc = new TypedDocumentString(`
    fragment NodesetRequestFields on NodesetRequest {
  uuid
  databaseId
  state
  stateTime
  requestTime
  labels
  jobName
  pipelineName
  project
  buildsetUuid
  failureReason
}
    `, {"fragmentName":"NodesetRequestFields"}) as unknown as TypedDocumentString<NodesetRequestFieldsFragment, unknown>;
export const ImageDetailFieldsFragmentDoc = new TypedDocumentString(`
    fragment ImageDetailFields on Image {
  name
  type
  description
  branch
  canonicalName
  projectCanonicalName
  sourceContext {
    project
    branch
    path
  }
  buildArtifacts {
    uuid
    buildUuid
    buildTenant
    format
    state
    stateTime
    timestamp
    validated
    url
    uploads {
      uuid
      endpointName
      state
      stateTime
      externalId
      validated
    }
  }
}
    `, {"fragmentName":"ImageDetailFields"}) as unknown as TypedDocumentString<ImageDetailFieldsFragment, unknown>;
export const StatusEstimateFieldsFragmentDoc = new TypedDocumentString(`
    fragment StatusEstimateFields on StatusEstimate {
  kind
  project
  branch
  name
  estimate {
    basis
    runs
    successes
    failures
    quantiles
    failureQuantiles
    failureProbability
    retryProbability
  }
}
    `, {"fragmentName":"StatusEstimateFields"}) as unknown as TypedDocumentString<StatusEstimateFieldsFragment, unknown>;
export const StatusRefFieldsFragmentDoc = new TypedDocumentString(`
    fragment StatusRefFields on StatusRef {
  id
  project
  projectCanonical
  branch
  ref
  url
  owner
}
    `, {"fragmentName":"StatusRefFields"}) as unknown as TypedDocumentString<StatusRefFieldsFragment, unknown>;
export const StatusJobFieldsFragmentDoc = new TypedDocumentString(`
    fragment StatusJobFields on StatusJob {
  name
  dependencies
  uuid
  result
  queued
  voting
  retry
  tries
  paused
  canceled
  preFail
  startTime
  endTime
  estimatedTime
  waitingStatus
  url
  reportUrl
  retryReason
  flakyRetries
  quarantined
}
    `, {"fragmentName":"StatusJobFields"}) as unknown as TypedDocumentString<StatusJobFieldsFragment, unknown>;
export const QueueItemFieldsFragmentDoc = new TypedDocumentString(`
    fragment QueueItemFields on QueueItem {
  id
  active
  live
  itemAhead
  enqueueTime
  failingReasons
  waitingFor
  zuulRef
  refs {
    ...StatusRefFields
  }
  jobs {
    ...StatusJobFields
  }
}
    fragment StatusJobFields on StatusJob {
  name
  dependencies
  uuid
  result
  queued
  voting
  retry
  tries
  paused
  canceled
  preFail
  startTime
  endTime
  estimatedTime
  waitingStatus
  url
  reportUrl
  retryReason
  flakyRetries
  quarantined
}
fragment StatusRefFields on StatusRef {
  id
  project
  projectCanonical
  branch
  ref
  url
  owner
}`, {"fragmentName":"QueueItemFields"}) as unknown as TypedDocumentString<QueueItemFieldsFragment, unknown>;
export const StatusItemFieldsFragmentDoc = new TypedDocumentString(`
    fragment StatusItemFields on StatusItem {
  id
  active
  live
  itemAhead
  enqueueTime
  failingReasons
  waitingFor
  zuulRef
  refs {
    ...StatusRefFields
  }
  jobs {
    ...StatusJobFields
  }
}
    fragment StatusJobFields on StatusJob {
  name
  dependencies
  uuid
  result
  queued
  voting
  retry
  tries
  paused
  canceled
  preFail
  startTime
  endTime
  estimatedTime
  waitingStatus
  url
  reportUrl
  retryReason
  flakyRetries
  quarantined
}
fragment StatusRefFields on StatusRef {
  id
  project
  projectCanonical
  branch
  ref
  url
  owner
}`, {"fragmentName":"StatusItemFields"}) as unknown as TypedDocumentString<StatusItemFieldsFragment, unknown>;
export const StatusPipelineFieldsFragmentDoc = new TypedDocumentString(`
    fragment StatusPipelineFields on StatusPipeline {
  name
  description
  manager
  state
  disabled
  consecutiveFailures
  changeQueues {
    key
    name
    branch
    window
    items {
      ...StatusItemFields
    }
  }
}
    fragment StatusJobFields on StatusJob {
  name
  dependencies
  uuid
  result
  queued
  voting
  retry
  tries
  paused
  canceled
  preFail
  startTime
  endTime
  estimatedTime
  waitingStatus
  url
  reportUrl
  retryReason
  flakyRetries
  quarantined
}
fragment StatusRefFields on StatusRef {
  id
  project
  projectCanonical
  branch
  ref
  url
  owner
}
fragment StatusItemFields on StatusItem {
  id
  active
  live
  itemAhead
  enqueueTime
  failingReasons
  waitingFor
  zuulRef
  refs {
    ...StatusRefFields
  }
  jobs {
    ...StatusJobFields
  }
}`, {"fragmentName":"StatusPipelineFields"}) as unknown as TypedDocumentString<StatusPipelineFieldsFragment, unknown>;
export const TenantQueueStateFieldsFragmentDoc = new TypedDocumentString(`
    fragment TenantQueueStateFields on TenantEventQueueState {
  reason
  triggerQueuePaused
  triggerQueueDiscarding
  resultQueuePaused
}
    `, {"fragmentName":"TenantQueueStateFields"}) as unknown as TypedDocumentString<TenantQueueStateFieldsFragment, unknown>;
export const SystemEventFieldsFragmentDoc = new TypedDocumentString(`
    fragment SystemEventFields on SystemEvent {
  databaseId
  eventId
  eventTime
  eventType
  description
}
    `, {"fragmentName":"SystemEventFields"}) as unknown as TypedDocumentString<SystemEventFieldsFragment, unknown>;
export const EnqueueDocument = new TypedDocumentString(`
    mutation Enqueue($input: EnqueueInput!) {
  enqueue(input: $input) {
    __typename
    ... on ManagementEventAccepted {
      eventId
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<EnqueueMutation, EnqueueMutationVariables>;
export const DequeueDocument = new TypedDocumentString(`
    mutation Dequeue($input: DequeueInput!) {
  dequeue(input: $input) {
    __typename
    ... on ManagementEventAccepted {
      eventId
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<DequeueMutation, DequeueMutationVariables>;
export const PromoteDocument = new TypedDocumentString(`
    mutation Promote($input: PromoteInput!) {
  promote(input: $input) {
    __typename
    ... on ManagementEventAccepted {
      eventId
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<PromoteMutation, PromoteMutationVariables>;
export const TenantStateSetDocument = new TypedDocumentString(`
    mutation TenantStateSet($input: TenantStateSetInput!) {
  tenantStateSet(input: $input) {
    __typename
    ... on TenantEventQueueState {
      ...TenantQueueStateFields
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}
fragment TenantQueueStateFields on TenantEventQueueState {
  reason
  triggerQueuePaused
  triggerQueueDiscarding
  resultQueuePaused
}`) as unknown as TypedDocumentString<TenantStateSetMutation, TenantStateSetMutationVariables>;
export const AutoholdCreateDocument = new TypedDocumentString(`
    mutation AutoholdCreate($input: AutoholdCreateInput!) {
  autoholdCreate(input: $input) {
    __typename
    ... on Autohold {
      id
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<AutoholdCreateMutation, AutoholdCreateMutationVariables>;
export const AutoholdDeleteDocument = new TypedDocumentString(`
    mutation AutoholdDelete($input: AutoholdDeleteInput!) {
  autoholdDelete(input: $input) {
    __typename
    ... on AutoholdDeleted {
      id
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<AutoholdDeleteMutation, AutoholdDeleteMutationVariables>;
export const NodeHoldDocument = new TypedDocumentString(`
    mutation NodeHold($input: NodeHoldInput!) {
  nodeHold(input: $input) {
    __typename
    ... on ProviderNode {
      uuid
      state
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<NodeHoldMutation, NodeHoldMutationVariables>;
export const ImageBuildDocument = new TypedDocumentString(`
    mutation ImageBuild($input: ImageBuildInput!) {
  imageBuild(input: $input) {
    __typename
    ... on ImageBuildRequested {
      eventId
    }
    ...TypedErrorFields
  }
}
    fragment TypedErrorFields on Error {
  __typename
  message
  ... on InvalidInputError {
    field
  }
}`) as unknown as TypedDocumentString<ImageBuildMutation, ImageBuildMutationVariables>;
export const ManagementEventOutcomeDocument = new TypedDocumentString(`
    subscription ManagementEventOutcome($tenant: String!, $eventId: Int!) {
  managementEventOutcome(tenant: $tenant, eventId: $eventId) {
    eventId
    succeeded
    outcome
  }
}
    `) as unknown as TypedDocumentString<ManagementEventOutcomeSubscription, ManagementEventOutcomeSubscriptionVariables>;
export const TenantAnalyticsDocument = new TypedDocumentString(`
    query TenantAnalytics($tenant: String!, $from: DateTime!, $to: DateTime!, $interval: AnalyticsInterval, $filter: AnalyticsFilter) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      analytics(from: $from, to: $to, interval: $interval, filter: $filter) {
        __typename
        ... on InvalidInputError {
          message
          field
        }
        ... on Analytics {
          from
          to
          interval
          series {
            ...AnalyticsBucketFields
          }
          totals {
            ...AnalyticsBucketFields
          }
          jobs {
            job
            runs
            failures
            retries
            flaky
            failureRate
            flakeRate
            meanDuration
          }
          nodeHours {
            label
            hours
          }
          busiestHours {
            weekday
            hour
            itemsEnqueued
            runs
          }
        }
      }
    }
  }
}
    fragment AnalyticsBucketFields on AnalyticsBucket {
  start
  end
  itemsEnqueued
  itemsReported
  itemsSucceeded
  timeToMerge
  timeToReport
  queueLength
  nodeWaits
  nodeWait
  gateResets
  resetCauses {
    cause
    resets
  }
  runs
  failures
  retries
  flaky
  flakyRetries
  failureRate
  flakeRate
  meanDuration
  nodeHours
}`) as unknown as TypedDocumentString<TenantAnalyticsQuery, TenantAnalyticsQueryVariables>;
export const AnalyticsDurationsDocument = new TypedDocumentString(`
    query AnalyticsDurations($tenant: String!, $from: DateTime!, $to: DateTime!, $interval: AnalyticsInterval, $filter: AnalyticsFilter) {
  tenant(name: $tenant) {
    __typename
    ... on Tenant {
      analytics(from: $from, to: $to, interval: $interval, filter: $filter) {
        __typename
        ... on Analytics {
          durations {
            start
            runs
            p50
            p90
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<AnalyticsDurationsQuery, AnalyticsDurationsQueryVariables>;
export const AnalyticsChoicesDocument = new TypedDocumentString(`
    query AnalyticsChoices($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Tenant {
      pipelines {
        name
      }
      projects {
        name
      }
      jobs {
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<AnalyticsChoicesQuery, AnalyticsChoicesQueryVariables>;
export const TenantQuarantineDocument = new TypedDocumentString(`
    query TenantQuarantine($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      quarantine {
        ...QuarantinedJobFields
      }
    }
  }
}
    fragment QuarantinedJobFields on QuarantinedJob {
  job
  project
  reason
  addedBy
  addedAt
}`) as unknown as TypedDocumentString<TenantQuarantineQuery, TenantQuarantineQueryVariables>;
export const FlakyRetriesDocument = new TypedDocumentString(`
    query FlakyRetries($tenant: String!, $first: Int) {
  tenant(name: $tenant) {
    __typename
    ... on Tenant {
      systemEvents(first: $first, filter: {eventTypes: [FLAKY_RETRY]}) {
        totalCount
        nodes {
          databaseId
          eventTime
          description
          data
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<FlakyRetriesQuery, FlakyRetriesQueryVariables>;
export const QuarantineAddDocument = new TypedDocumentString(`
    mutation QuarantineAdd($input: QuarantineAddInput!) {
  quarantineAdd(input: $input) {
    __typename
    ... on Error {
      message
    }
    ... on InvalidInputError {
      field
    }
    ... on QuarantinedJob {
      ...QuarantinedJobFields
    }
  }
}
    fragment QuarantinedJobFields on QuarantinedJob {
  job
  project
  reason
  addedBy
  addedAt
}`) as unknown as TypedDocumentString<QuarantineAddMutation, QuarantineAddMutationVariables>;
export const QuarantineRemoveDocument = new TypedDocumentString(`
    mutation QuarantineRemove($input: QuarantineRemoveInput!) {
  quarantineRemove(input: $input) {
    __typename
    ... on Error {
      message
    }
    ... on InvalidInputError {
      field
    }
    ... on QuarantinedJob {
      job
    }
  }
}
    `) as unknown as TypedDocumentString<QuarantineRemoveMutation, QuarantineRemoveMutationVariables>;
export const AnalyticsHistoryUpdatesDocument = new TypedDocumentString(`
    subscription AnalyticsHistoryUpdates($tenant: String!) {
  buildsetUpdated(tenant: $tenant) {
    uuid
  }
}
    `) as unknown as TypedDocumentString<AnalyticsHistoryUpdatesSubscription, AnalyticsHistoryUpdatesSubscriptionVariables>;
export const AutoholdsDocument = new TypedDocumentString(`
    query Autoholds($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      autoholds {
        ...AutoholdFields
      }
    }
  }
}
    fragment AutoholdFields on Autohold {
  id
  project
  job
  refFilter
  reason
  maxCount
  currentCount
  nodeExpiration
  created
  expired
  nodes {
    build
    nodes
  }
}`) as unknown as TypedDocumentString<AutoholdsQuery, AutoholdsQueryVariables>;
export const AutoholdDetailDocument = new TypedDocumentString(`
    query AutoholdDetail($tenant: String!, $id: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      autohold(id: $id) {
        __typename
        ... on Error {
          message
        }
        ... on Autohold {
          ...AutoholdFields
        }
      }
    }
  }
}
    fragment AutoholdFields on Autohold {
  id
  project
  job
  refFilter
  reason
  maxCount
  currentCount
  nodeExpiration
  created
  expired
  nodes {
    build
    nodes
  }
}`) as unknown as TypedDocumentString<AutoholdDetailQuery, AutoholdDetailQueryVariables>;
export const BuildsDocument = new TypedDocumentString(`
    query Builds($tenant: String!, $filter: BuildFilter, $first: Int, $after: String, $offset: Int) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      builds(filter: $filter, first: $first, after: $after, offset: $offset) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...BuildRowFields
        }
      }
    }
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
fragment BuildRowFields on Build {
  uuid
  jobName
  pipeline
  result
  status
  voting
  held
  final
  attempt
  startTime
  endTime
  duration
  nodeset
  logUrl
  ref {
    ...RefFields
  }
  buildset {
    uuid
  }
}`) as unknown as TypedDocumentString<BuildsQuery, BuildsQueryVariables>;
export const BuildUpdatesDocument = new TypedDocumentString(`
    subscription BuildUpdates($tenant: String!, $filter: BuildFilter) {
  buildUpdated(tenant: $tenant, filter: $filter) {
    ...BuildRowFields
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
fragment BuildRowFields on Build {
  uuid
  jobName
  pipeline
  result
  status
  voting
  held
  final
  attempt
  startTime
  endTime
  duration
  nodeset
  logUrl
  ref {
    ...RefFields
  }
  buildset {
    uuid
  }
}`) as unknown as TypedDocumentString<BuildUpdatesSubscription, BuildUpdatesSubscriptionVariables>;
export const BuildDetailDocument = new TypedDocumentString(`
    query BuildDetail($tenant: String!, $uuid: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      build(uuid: $uuid) {
        __typename
        ... on Error {
          message
        }
        ... on Build {
          ...BuildRowFields
          errorDetail
          eventId
          provides
          returnedData
          artifacts {
            name
            url
            metadata
          }
          events {
            eventType
            eventTime
            description
          }
          buildset {
            uuid
            result
            status
            message
            builds {
              uuid
              jobName
              attempt
              result
              status
              final
            }
          }
        }
      }
    }
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
fragment BuildRowFields on Build {
  uuid
  jobName
  pipeline
  result
  status
  voting
  held
  final
  attempt
  startTime
  endTime
  duration
  nodeset
  logUrl
  ref {
    ...RefFields
  }
  buildset {
    uuid
  }
}`) as unknown as TypedDocumentString<BuildDetailQuery, BuildDetailQueryVariables>;
export const BuildConsoleDocument = new TypedDocumentString(`
    subscription BuildConsole($tenant: String!, $uuid: String!, $offset: Int) {
  consoleLog(tenant: $tenant, uuid: $uuid, offset: $offset) {
    lines {
      seq
      text
    }
  }
}
    `) as unknown as TypedDocumentString<BuildConsoleSubscription, BuildConsoleSubscriptionVariables>;
export const BuildHeaderDocument = new TypedDocumentString(`
    query BuildHeader($tenant: String!, $uuid: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      build(uuid: $uuid) {
        __typename
        ... on Error {
          message
        }
        ... on Build {
          uuid
          jobName
          pipeline
          result
          status
          ref {
            ...RefFields
          }
        }
      }
    }
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}`) as unknown as TypedDocumentString<BuildHeaderQuery, BuildHeaderQueryVariables>;
export const BuildTimesChartDocument = new TypedDocumentString(`
    query BuildTimesChart($tenant: String!, $filter: BuildTimeFilter, $first: Int) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      buildTimes(filter: $filter, first: $first) {
        nodes {
          uuid
          jobName
          startTime
          endTime
          duration
          result
          project
          branch
          pipeline
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BuildTimesChartQuery, BuildTimesChartQueryVariables>;
export const BuildsetsDocument = new TypedDocumentString(`
    query Buildsets($tenant: String!, $filter: BuildsetFilter, $first: Int, $after: String, $offset: Int) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      buildsets(filter: $filter, first: $first, after: $after, offset: $offset) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...BuildsetRowFields
        }
      }
    }
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
fragment BuildsetRowFields on Buildset {
  uuid
  pipeline
  result
  status
  createdAt
  firstBuildStartTime
  lastBuildEndTime
  refs {
    ...RefFields
  }
}`) as unknown as TypedDocumentString<BuildsetsQuery, BuildsetsQueryVariables>;
export const BuildsetUpdatesDocument = new TypedDocumentString(`
    subscription BuildsetUpdates($tenant: String!, $filter: BuildsetFilter) {
  buildsetUpdated(tenant: $tenant, filter: $filter) {
    ...BuildsetRowFields
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
fragment BuildsetRowFields on Buildset {
  uuid
  pipeline
  result
  status
  createdAt
  firstBuildStartTime
  lastBuildEndTime
  refs {
    ...RefFields
  }
}`) as unknown as TypedDocumentString<BuildsetUpdatesSubscription, BuildsetUpdatesSubscriptionVariables>;
export const BuildsetDetailDocument = new TypedDocumentString(`
    query BuildsetDetail($tenant: String!, $uuid: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      buildset(uuid: $uuid) {
        __typename
        ... on Error {
          message
        }
        ... on Buildset {
          ...BuildsetRowFields
          reportMessage: message
          eventId
          events {
            eventType
            eventTime
            description
          }
          builds {
            ...BuildRowFields
          }
        }
      }
    }
  }
}
    fragment RefFields on Ref {
  project
  branch
  change
  patchset
  ref
  refUrl
  newrev
  oldrev
}
fragment BuildRowFields on Build {
  uuid
  jobName
  pipeline
  result
  status
  voting
  held
  final
  attempt
  startTime
  endTime
  duration
  nodeset
  logUrl
  ref {
    ...RefFields
  }
  buildset {
    uuid
  }
}
fragment BuildsetRowFields on Buildset {
  uuid
  pipeline
  result
  status
  createdAt
  firstBuildStartTime
  lastBuildEndTime
  refs {
    ...RefFields
  }
}`) as unknown as TypedDocumentString<BuildsetDetailQuery, BuildsetDetailQueryVariables>;
export const JobsDocument = new TypedDocumentString(`
    query Jobs($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      jobs {
        name
        description
        tags
        variants {
          parent
          branches
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<JobsQuery, JobsQueryVariables>;
export const JobDetailDocument = new TypedDocumentString(`
    query JobDetail($tenant: String!, $name: String!, $history: Int) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      job(name: $name) {
        __typename
        ... on Error {
          message
        }
        ... on Job {
          name
          description
          tags
          variants {
            parent
            branches
            abstract
            final
            protected
            voting
            timeout
            attempts
            variantDescription
            nodeset {
              name
              nodes {
                name
                label
              }
            }
            dependencies {
              name
              soft
            }
            run {
              path
            }
            semaphores {
              name
            }
            sourceContext {
              project
              branch
              path
            }
          }
        }
      }
      buildTimes(filter: {jobName: [$name]}, first: $history) {
        nodes {
          uuid
          startTime
          endTime
          duration
          result
          project
          pipeline
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<JobDetailQuery, JobDetailQueryVariables>;
export const ProjectsDocument = new TypedDocumentString(`
    query Projects($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      projects {
        name
        canonicalName
        connectionName
        type
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectsQuery, ProjectsQueryVariables>;
export const ProjectDetailDocument = new TypedDocumentString(`
    query ProjectDetail($tenant: String!, $name: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      project(name: $name) {
        __typename
        ... on Error {
          message
        }
        ... on Project {
          name
          canonicalName
          connectionName
          type
          branches
          metadata {
            defaultBranch
            mergeMode
            queueName
          }
          configs {
            isTemplate
            branches
            sourceContext {
              branch
              path
            }
            pipelines {
              name
              jobs {
                name
              }
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectDetailQuery, ProjectDetailQueryVariables>;
export const FrozenJobsDocument = new TypedDocumentString(`
    query FrozenJobs($tenant: String!, $project: String!, $pipeline: String!, $branch: String) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      freezeJobs(project: $project, pipeline: $pipeline, branch: $branch) {
        __typename
        ... on Error {
          message
        }
        ... on JobGraph {
          jobs {
            name
            dependencies {
              name
              soft
            }
            voting
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<FrozenJobsQuery, FrozenJobsQueryVariables>;
export const ConfigErrorsDocument = new TypedDocumentString(`
    query ConfigErrors($tenant: String!, $first: Int, $offset: Int, $filter: ConfigErrorFilter) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      configErrors(first: $first, offset: $offset, filter: $filter) {
        totalCount
        nodes {
          name
          severity
          shortError
          error
          line
          sourceContext {
            project
            branch
            path
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConfigErrorsQuery, ConfigErrorsQueryVariables>;
export const SemaphoresDocument = new TypedDocumentString(`
    query Semaphores($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      semaphores {
        name
        max
        global
        holders {
          count
          otherTenants
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SemaphoresQuery, SemaphoresQueryVariables>;
export const FreezeJobDocument = new TypedDocumentString(`
    query FreezeJob($tenant: String!, $pipeline: String!, $project: String!, $branch: String, $job: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      freezeJob(pipeline: $pipeline, project: $project, branch: $branch, job: $job) {
        __typename
        ... on Error {
          message
        }
        ... on FrozenJob {
          name
          description
          parent
          inheritancePath
          voting
          attempts
          timeout
          tags
          childJobs
          nodeset {
            name
            nodes {
              name
              label
            }
          }
          dependencies {
            name
            soft
          }
          semaphores {
            name
            resourcesFirst
          }
          sourceContext {
            project
            branch
            path
          }
          parameters
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<FreezeJobQuery, FreezeJobQueryVariables>;
export const SemaphoreDetailDocument = new TypedDocumentString(`
    query SemaphoreDetail($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      semaphores {
        name
        max
        global
        holders {
          count
          otherTenants
          thisTenant {
            buildsetUuid
            jobName
            acquired
          }
        }
      }
      jobs {
        name
        variants {
          branches
          semaphores {
            name
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SemaphoreDetailQuery, SemaphoreDetailQueryVariables>;
export const LabelsDocument = new TypedDocumentString(`
    query Labels($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      labels {
        name
        description
        image
        flavor
        minReady
        maxReadyAge
      }
    }
  }
}
    `) as unknown as TypedDocumentString<LabelsQuery, LabelsQueryVariables>;
export const NodeEventsDocument = new TypedDocumentString(`
    subscription NodeEvents($tenant: String!, $first: Int, $offset: Int) {
  nodeEvents(tenant: $tenant, first: $first, offset: $offset) {
    __typename
    ... on ProviderNodesSnapshot {
      totalCount
      records {
        ...NodeFields
      }
    }
    ... on ProviderNodeChanged {
      uuid
      totalCount
      record {
        ...NodeFields
      }
    }
  }
}
    fragment NodeFields on ProviderNode {
  uuid
  databaseId
  label
  provider
  state
  stateTime
  host
  comment
  holdExpiration
  isLocked
}`) as unknown as TypedDocumentString<NodeEventsSubscription, NodeEventsSubscriptionVariables>;
export const ProvidersDocument = new TypedDocumentString(`
    query Providers($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      providers {
        name
        canonicalName
        connection
        section
        labels {
          name
        }
        images {
          name
        }
        flavors {
          name
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProvidersQuery, ProvidersQueryVariables>;
export const ImagesDocument = new TypedDocumentString(`
    query Images($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      images {
        name
        type
        description
        branch
        projectCanonicalName
        buildArtifacts {
          uuid
          format
          state
          timestamp
          validated
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ImagesQuery, ImagesQueryVariables>;
export const FlavorsDocument = new TypedDocumentString(`
    query Flavors($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      flavors {
        name
        description
        canonicalName
      }
    }
  }
}
    `) as unknown as TypedDocumentString<FlavorsQuery, FlavorsQueryVariables>;
export const NodesetRequestEventsDocument = new TypedDocumentString(`
    subscription NodesetRequestEvents($tenant: String!, $first: Int, $offset: Int) {
  nodesetRequestEvents(tenant: $tenant, first: $first, offset: $offset) {
    __typename
    ... on NodesetRequestsSnapshot {
      totalCount
      records {
        ...NodesetRequestFields
      }
    }
    ... on NodesetRequestChanged {
      uuid
      totalCount
      record {
        ...NodesetRequestFields
      }
    }
  }
}
    fragment NodesetRequestFields on NodesetRequest {
  uuid
  databaseId
  state
  stateTime
  requestTime
  labels
  jobName
  pipelineName
  project
  buildsetUuid
  failureReason
}`) as unknown as TypedDocumentString<NodesetRequestEventsSubscription, NodesetRequestEventsSubscriptionVariables>;
export const LauncherDetailDocument = new TypedDocumentString(`
    query LauncherDetail($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      providers {
        name
        canonicalName
        connection
        section
        sourceContext {
          project
          branch
          path
        }
        labels {
          name
          image
          flavor
          minReady
          description
        }
        images {
          name
        }
        flavors {
          name
          description
        }
      }
      images {
        ...ImageDetailFields
      }
    }
  }
}
    fragment ImageDetailFields on Image {
  name
  type
  description
  branch
  canonicalName
  projectCanonicalName
  sourceContext {
    project
    branch
    path
  }
  buildArtifacts {
    uuid
    buildUuid
    buildTenant
    format
    state
    stateTime
    timestamp
    validated
    url
    uploads {
      uuid
      endpointName
      state
      stateTime
      externalId
      validated
    }
  }
}`) as unknown as TypedDocumentString<LauncherDetailQuery, LauncherDetailQueryVariables>;
export const StatusSnapshotDocument = new TypedDocumentString(`
    query StatusSnapshot($tenant: String!) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      status {
        __typename
        ... on Error {
          message
        }
        ... on TenantStatus {
          sequence
          zuulVersion
          lastReconfiguredAt
          triggerEventQueue {
            length
          }
          managementEventQueue {
            length
          }
          resultEventQueue {
            length
          }
          state {
            ...TenantQueueStateFields
          }
          pipelines {
            ...StatusPipelineFields
          }
          estimates {
            ...StatusEstimateFields
          }
        }
      }
    }
  }
}
    fragment StatusEstimateFields on StatusEstimate {
  kind
  project
  branch
  name
  estimate {
    basis
    runs
    successes
    failures
    quantiles
    failureQuantiles
    failureProbability
    retryProbability
  }
}
fragment StatusJobFields on StatusJob {
  name
  dependencies
  uuid
  result
  queued
  voting
  retry
  tries
  paused
  canceled
  preFail
  startTime
  endTime
  estimatedTime
  waitingStatus
  url
  reportUrl
  retryReason
  flakyRetries
  quarantined
}
fragment StatusRefFields on StatusRef {
  id
  project
  projectCanonical
  branch
  ref
  url
  owner
}
fragment StatusItemFields on StatusItem {
  id
  active
  live
  itemAhead
  enqueueTime
  failingReasons
  waitingFor
  zuulRef
  refs {
    ...StatusRefFields
  }
  jobs {
    ...StatusJobFields
  }
}
fragment StatusPipelineFields on StatusPipeline {
  name
  description
  manager
  state
  disabled
  consecutiveFailures
  changeQueues {
    key
    name
    branch
    window
    items {
      ...StatusItemFields
    }
  }
}
fragment TenantQueueStateFields on TenantEventQueueState {
  reason
  triggerQueuePaused
  triggerQueueDiscarding
  resultQueuePaused
}`) as unknown as TypedDocumentString<StatusSnapshotQuery, StatusSnapshotQueryVariables>;
export const QueueDeltasDocument = new TypedDocumentString(`
    subscription QueueDeltas($tenant: String!, $afterSeq: Int) {
  queueEvents(tenant: $tenant, afterSeq: $afterSeq) {
    __typename
    ... on QueueDelta {
      sequence
      changes {
        __typename
        pipeline
        ... on TenantChanged {
          eventQueueState {
            ...TenantQueueStateFields
          }
          lastReconfiguredAt
        }
        ... on PipelineChanged {
          name
          index
          description
          manager
          state
          disabled
          consecutiveFailures
        }
        ... on QueueChanged {
          queue
          index
          name
          branch
          window
        }
        ... on QueueRemoved {
          queue
        }
        ... on ItemEnqueued {
          queue
          position
          item {
            ...QueueItemFields
          }
        }
        ... on ItemMoved {
          queue
          itemId
          position
          itemAhead
        }
        ... on ItemDequeued {
          queue
          itemId
        }
        ... on ItemChanged {
          itemId
          active
          live
          enqueueTime
          failingReasons
          waitingFor
          zuulRef
          refs {
            ...StatusRefFields
          }
          jobs {
            ...StatusJobFields
          }
        }
        ... on JobChange {
          itemId
          job {
            ...StatusJobFields
          }
        }
      }
    }
    ... on ResnapshotRequired {
      cause
      sequence
    }
  }
}
    fragment StatusJobFields on StatusJob {
  name
  dependencies
  uuid
  result
  queued
  voting
  retry
  tries
  paused
  canceled
  preFail
  startTime
  endTime
  estimatedTime
  waitingStatus
  url
  reportUrl
  retryReason
  flakyRetries
  quarantined
}
fragment StatusRefFields on StatusRef {
  id
  project
  projectCanonical
  branch
  ref
  url
  owner
}
fragment QueueItemFields on QueueItem {
  id
  active
  live
  itemAhead
  enqueueTime
  failingReasons
  waitingFor
  zuulRef
  refs {
    ...StatusRefFields
  }
  jobs {
    ...StatusJobFields
  }
}
fragment TenantQueueStateFields on TenantEventQueueState {
  reason
  triggerQueuePaused
  triggerQueueDiscarding
  resultQueuePaused
}`) as unknown as TypedDocumentString<QueueDeltasSubscription, QueueDeltasSubscriptionVariables>;
export const TenantLevelEventsDocument = new TypedDocumentString(`
    subscription TenantLevelEvents($tenant: String!) {
  systemEvents(
    tenant: $tenant
    types: [TENANT_STATE_CHANGED, RECONFIGURED, PIPELINE_STATE_CHANGED]
  ) {
    eventType
  }
}
    `) as unknown as TypedDocumentString<TenantLevelEventsSubscription, TenantLevelEventsSubscriptionVariables>;
export const StatusEstimatesDocument = new TypedDocumentString(`
    query StatusEstimates($tenant: String!, $keys: [EstimateKeyInput!]!) {
  tenant(name: $tenant) {
    __typename
    ... on Tenant {
      estimates(keys: $keys) {
        __typename
        ... on EstimateList {
          estimates {
            ...StatusEstimateFields
          }
        }
      }
    }
  }
}
    fragment StatusEstimateFields on StatusEstimate {
  kind
  project
  branch
  name
  estimate {
    basis
    runs
    successes
    failures
    quantiles
    failureQuantiles
    failureProbability
    retryProbability
  }
}`) as unknown as TypedDocumentString<StatusEstimatesQuery, StatusEstimatesQueryVariables>;
export const SystemEventsDocument = new TypedDocumentString(`
    query SystemEvents($tenant: String!, $first: Int, $offset: Int) {
  tenant(name: $tenant) {
    __typename
    ... on Error {
      message
    }
    ... on Tenant {
      systemEvents(first: $first, offset: $offset) {
        totalCount
        nodes {
          ...SystemEventFields
        }
      }
    }
  }
}
    fragment SystemEventFields on SystemEvent {
  databaseId
  eventId
  eventTime
  eventType
  description
}`) as unknown as TypedDocumentString<SystemEventsQuery, SystemEventsQueryVariables>;
export const SystemEventsLiveDocument = new TypedDocumentString(`
    subscription SystemEventsLive($tenant: String!) {
  systemEvents(tenant: $tenant) {
    ...SystemEventFields
  }
}
    fragment SystemEventFields on SystemEvent {
  databaseId
  eventId
  eventTime
  eventType
  description
}`) as unknown as TypedDocumentString<SystemEventsLiveSubscription, SystemEventsLiveSubscriptionVariables>;
export const ComponentsDocument = new TypedDocumentString(`
    query Components {
  components {
    kind
    hostname
    state
    version
  }
}
    `) as unknown as TypedDocumentString<ComponentsQuery, ComponentsQueryVariables>;
export const TenantsDocument = new TypedDocumentString(`
    query Tenants {
  tenants {
    name
    projects {
      name
    }
    status {
      __typename
      ... on TenantStatus {
        pipelines {
          name
          changeQueues {
            heads {
              id
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TenantsQuery, TenantsQueryVariables>;
export const DeploymentInfoDocument = new TypedDocumentString(`
    query DeploymentInfo {
  info {
    version
    capabilities {
      auth {
        defaultRealm
        realms {
          name
          driver
          authority
          clientId
          scope
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DeploymentInfoQuery, DeploymentInfoQueryVariables>;
export const TenantCapabilitiesDocument = new TypedDocumentString(`
    query TenantCapabilities($tenant: String!) {
  tenantInfo(name: $tenant) {
    defaultRealm
    readProtected
    niz
  }
}
    `) as unknown as TypedDocumentString<TenantCapabilitiesQuery, TenantCapabilitiesQueryVariables>;
export const TenantAccessDocument = new TypedDocumentString(`
    query TenantAccess($tenant: String!) {
  authorizations(tenant: $tenant) {
    __typename
    ... on Authorizations {
      admin
    }
  }
}
    `) as unknown as TypedDocumentString<TenantAccessQuery, TenantAccessQueryVariables>;
export const TokenCheckDocument = new TypedDocumentString(`
    query TokenCheck($tenant: String) {
  authorizations(tenant: $tenant) {
    __typename
    ... on Authorizations {
      admin
    }
  }
}
    `) as unknown as TypedDocumentString<TokenCheckQuery, TokenCheckQueryVariables>;