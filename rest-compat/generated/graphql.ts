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