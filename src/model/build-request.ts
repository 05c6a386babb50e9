/**
 * The contract between the engine and executors. The engine inserts a build request (a row of
 * `build_requests` whose `params` is a `BuildRequestParams`); an executor claims it, runs it and
 * reports through `engine_events` rows of category `result`: one `build-started`
 * (`BuildStartedPayload`), a `build-paused` (`BuildPausedPayload`) when the run phase asks to
 * pause, and one `build-completed` (`BuildCompletedPayload`).
 * docs/executor.md describes the behaviour behind each field. The request's schema is the
 * single source of its types: executors validate `params` with it when they read a request.
 */
import { z } from 'zod';
import { MERGE_MODES } from './merge-modes';
import type { BuildResult } from './results';

/**
 * Workspace schemes (docs/executor.md#merge-modes-and-workspace-schemes): where a project is checked out inside `src/`.
 */
export const WORKSPACE_SCHEMES = ['golang', 'flat', 'unique'] as const;
export type WorkspaceScheme = (typeof WORKSPACE_SCHEMES)[number];

const nullableString = z.string().nullable();
const recordSchema = z.record(z.string(), z.unknown());

/** The fields that say which change or ref (of which project, on which connection) a build is about. */
const refFields = {
  /** Name of the git connection (service configuration `connections.<name>`). */
  connection: z.string().min(1),
  project: z.string().min(1),
  /** Branch the change targets (or the branch a ref item updates); null for tags and other refs. */
  branch: nullableString,
  /** `refs/changes/NN/N/P` for a change, `refs/heads/...`/`refs/tags/...` for a ref item. */
  ref: z.string().min(1),
  /** Change number, null for ref items. */
  change: z.number().int().nullable(),
  patchset: nullableString,
  oldrev: nullableString,
  /** For ref items: the commit to test. For changes: the expected commit of the change ref (checked when given). */
  newrev: nullableString,
};

/** The ref being tested, as exposed to steps in the environment. */
export const buildItemRefSchema = z.object(refFields).strict();
export type BuildItemRef = z.infer<typeof buildItemRefSchema>;

/**
 * One change or ref of the speculative state. A build's `mergerItems` list the item ahead
 * first and the item under test last (docs/gating.md#preparing-an-item).
 */
export const mergerItemSchema = z.object({ ...refFields, mergeMode: z.enum(MERGE_MODES) }).strict();
export type MergerItem = z.infer<typeof mergerItemSchema>;

/** A project the job needs checked out besides those of the merger items (required-projects). */
export const projectCheckoutSchema = z
  .object({
    connection: z.string().min(1),
    project: z.string().min(1),
    /** Branch or tag to check out instead of the item's branch (`override-checkout`). */
    overrideCheckout: nullableString,
  })
  .strict();
export type ProjectCheckout = z.infer<typeof projectCheckoutSchema>;

export const buildStepSecretSchema = z
  .object({
    /** Key of the secret in the step's secrets file (the job's `secrets: name`). */
    alias: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/),
    /** Index into `BuildJob.secrets`. */
    secret: z.number().int().min(0),
  })
  .strict();
export type BuildStepSecret = z.infer<typeof buildStepSecretSchema>;

/**
 * A role a playbook uses (docs/executor.md#roles): a project of the tenant holding roles (a
 * `roles/` folder, or itself one role named `target`), checked out with the build; `galaxy`
 * roles are refused (the build ends ERROR).
 */
export const buildRoleSchema = z
  .object({
    type: z.enum(['zuul', 'galaxy']),
    /** The connection of a `zuul` role's project; '' for galaxy roles. */
    connection: z.string(),
    /** The project as its connection names it (galaxy: the role's galaxy name). */
    project: z.string().min(1),
    /** The role's name when the project itself is a role. */
    target: z.string().min(1),
    /** The defining project's own role (added to every playbook without being listed). */
    implicit: z.boolean(),
  })
  .strict();
export type BuildRole = z.infer<typeof buildRoleSchema>;

/**
 * One `pre-run`, `run` or `post-run` entry: a path inside the defining project's checkout, a
 * playbook when it ends in `.yaml`/`.yml`, else a script (docs/executor.md#steps).
 */
export const buildStepSchema = z
  .object({
    connection: z.string().min(1),
    /** The project whose repository holds the script (the project that defined the job variant). */
    project: z.string().min(1),
    /** Path of the script relative to the project's checkout. */
    path: z.string().min(1),
    /** Secrets this step sees in its secrets file: alias -> index into `BuildJob.secrets`. */
    secrets: z.array(buildStepSecretSchema).optional(),
    /** Defined in a config project: a playbook runs unrestricted (absent: untrusted). */
    trusted: z.boolean().optional(),
    /** The branch of the configuration that defined the entry. */
    branch: nullableString.optional(),
    /** A post-run entry that runs even after a cancel (`cleanup: true`, `cleanup-run`). */
    cleanup: z.boolean().optional(),
    /** 0 for the job's own variants, growing towards the base job (docs/executor.md#results). */
    nestingLevel: z.number().int().min(0).optional(),
    /** Roles of a playbook (absent: none). */
    roles: z.array(buildRoleSchema).optional(),
  })
  .strict();
export type BuildStep = z.infer<typeof buildStepSchema>;

/**
 * A secret the build's steps use, still encrypted as written in the project's configuration
 * (docs/security.md#secrets): the executor decrypts it with `project`'s secrets key, so the row never
 * holds a decrypted value.
 */
export const buildSecretSchema = z
  .object({
    name: z.string().min(1),
    /** Canonical name of the project that defines the secret (whose key decrypts it). */
    project: z.string().min(1),
    /** Secret data; encrypted values are `{encrypted: 'pkcs1-oaep', chunks: [...]}`. */
    data: recordSchema,
    /** An `oidc` secret (data empty): the executor issues a token (docs/security.md#oidc-tokens). */
    oidc: z
      .object({
        ttl: z.number().int().positive(),
        iss: z.string().optional(),
        /** Absent: the executor's default (`oidc.defaultSigningAlgorithm`). */
        algorithm: z.string().min(1).optional(),
        claims: recordSchema,
      })
      .strict()
      .optional(),
  })
  .strict();
export type BuildSecret = z.infer<typeof buildSecretSchema>;

/** An artifact returned by a build (results file) or handed to a child job. */
export interface BuildArtifact {
  name: string;
  url: string;
  metadata: Record<string, unknown> | null;
}

/** An artifact of a parent (or required provider) build given to a job as input. */
export const parentArtifactSchema = z
  .object({
    name: z.string(),
    url: z.string(),
    metadata: recordSchema.nullable(),
    project: z.string(),
    change: z.number().int().nullable(),
    patchset: nullableString,
    job: z.string(),
  })
  .strict();
export type ParentArtifact = z.infer<typeof parentArtifactSchema>;

/** The frozen job as the executor needs it. */
export const buildJobSchema = z
  .object({
    name: z.string().min(1),
    /** Seconds for pre-run + run together; null = no limit. */
    timeout: z.number().positive().nullable(),
    /** Seconds for each post-run step; null = no limit. */
    postTimeout: z.number().positive().nullable(),
    /** Seconds for the pre-run steps together (within `timeout`); null or absent = no own limit. */
    preTimeout: z.number().positive().nullable().optional(),
    /** `ansible-split-streams`: command results of playbooks keep stderr apart from stdout. */
    ansibleSplitStreams: z.boolean().optional(),
    /** Tries allowed for retryable failures (pre-run failure, repository preparation failure). */
    attempts: z.number().int().min(1),
    workspaceScheme: z.enum(WORKSPACE_SCHEMES),
    /** Job-level `override-checkout`. */
    overrideCheckout: nullableString,
    vars: recordSchema,
    extraVars: recordSchema,
    /** `host-vars` / `group-vars`: variables per node name / nodeset group, in the node inventory. */
    hostVars: z.record(z.string(), recordSchema).optional(),
    groupVars: z.record(z.string(), recordSchema).optional(),
    preRun: z.array(buildStepSchema),
    run: z.array(buildStepSchema),
    postRun: z.array(buildStepSchema),
    /** Secrets of the steps (absent = none). */
    secrets: z.array(buildSecretSchema).optional(),
  })
  .strict()
  .refine(
    (job) =>
      [...job.preRun, ...job.run, ...job.postRun].every((step) =>
        (step.secrets ?? []).every((s) => s.secret < (job.secrets ?? []).length),
      ),
    { message: 'a step refers to a secret the job does not carry' },
  );
export type BuildJob = z.infer<typeof buildJobSchema>;

/**
 * A node the launcher gave the build (docs/launcher.md). `local` nodes are directories on the
 * executor host; `ssh` nodes are hosts the steps run on over SSH.
 */
export const buildNodeSchema = z
  .object({
    id: z.string().min(1),
    label: z.string(),
    connectionType: z.enum(['local', 'ssh']),
    /** The launcher connection (service configuration) the node belongs to; picks the SSH key. */
    connection: nullableString.optional(),
    /** The provider that launched the node (inventory `nodepool.provider`). */
    provider: nullableString.optional(),
    /** The address other nodes reach it at (inventory `nodepool.interface_ip`). */
    interfaceIp: nullableString.optional(),
    host: nullableString,
    port: z.number().int().min(1).max(65535).nullable(),
    username: nullableString,
    /** Local nodes: the node's directory. */
    path: nullableString,
    /** SSH nodes: `known_hosts` lines collected by the launcher's node scan (empty = no host key checking). */
    hostKeys: z.array(z.string()),
  })
  .strict();
export type BuildNode = z.infer<typeof buildNodeSchema>;

/** A node of the build's nodeset: its first name, the other names of the same host, its label. */
export const buildNodesetNodeSchema = z
  .object({ name: z.string().min(1), aliases: z.array(z.string().min(1)), label: z.string() })
  .strict();
export type BuildNodesetNode = z.infer<typeof buildNodesetNodeSchema>;

/**
 * The nodeset alternative the build's nodes were provided for (docs/project-configuration.md#nodesets): node names and
 * groups, in the order of `BuildRequestParams.nodes` (node i of the nodeset is `nodes[i]`).
 */
export const buildNodesetSchema = z
  .object({
    /** '' for an anonymous nodeset. */
    name: z.string(),
    nodes: z.array(buildNodesetNodeSchema),
    groups: z.array(z.object({ name: z.string().min(1), nodes: z.array(z.string().min(1)) }).strict()),
  })
  .strict();
export type BuildNodeset = z.infer<typeof buildNodesetSchema>;

/** Facts about the job and its item the `zuul` variables carry (docs/executor.md#the-zuul-variables). */
export const buildZuulInfoSchema = z
  .object({
    voting: z.boolean(),
    /** The job's `tags`, sorted. */
    jobtags: z.array(z.string()),
    /** How the job was assembled: one line per variant applied. */
    inheritancePath: z.array(z.string()),
    /** The jobs that depend on this one in the item's job graph. */
    childJobs: z.array(z.string()),
    /** The pipeline's `post-review`. */
    postReview: z.boolean(),
    /** The web address of the change under test (null when unknown). */
    changeUrl: nullableString,
    /** Canonical name (`<hostname>/<project>`) of every project the request names, by project name. */
    canonicalNames: z.record(z.string(), z.string()),
  })
  .strict();
export type BuildZuulInfo = z.infer<typeof buildZuulInfoSchema>;

/** `build_requests.params`: everything an executor needs to run one build; validated when read back from the store. */
export const buildRequestParamsSchema = z
  .object({
    buildUuid: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'build uuid: letters, digits and "-" only'),
    buildsetUuid: z.string().min(1),
    tenant: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .refine((t) => t !== '.' && t !== '..', 'invalid tenant name'),
    pipeline: z.string().min(1),
    /** 1-based number of this try (the reference's `tries`). */
    attempt: z.number().int().min(1),
    job: buildJobSchema,
    item: buildItemRefSchema,
    /** Speculative state: item ahead first, the item under test last. */
    mergerItems: z.array(mergerItemSchema),
    /** The branch heads the engine's speculative merge used, per `<connection>/<project>` (absent: the current tips). */
    repoState: z.record(z.string(), z.record(z.string(), z.string())).optional(),
    /** Extra projects to check out (required-projects); projects of merger items and steps are added automatically. */
    projects: z.array(projectCheckoutSchema),
    /** Result data of parent jobs, merged in job-graph order; exported as variables. */
    parentData: recordSchema,
    /** Artifacts of parent and required builds; written to the inputs file. */
    artifacts: z.array(parentArtifactSchema),
    /** Triggering event id, for log correlation. */
    eventId: nullableString,
    /** Nodes from the launcher; absent or empty = steps run in the executor's workspace. */
    nodes: z.array(buildNodeSchema).optional(),
    /** Names and groups of the nodes (the node inventory, docs/executor.md "Nodes"); absent = no nodeset. */
    nodeset: buildNodesetSchema.optional(),
    /** What the `zuul` variables say beyond the fields above (docs/executor.md#the-zuul-variables). */
    zuul: buildZuulInfoSchema.optional(),
  })
  .strict();
export type BuildRequestParams = z.infer<typeof buildRequestParamsSchema>;

/** Which build a result event is about: every result payload starts with these. */
export interface BuildEventSubject {
  buildUuid: string;
  buildsetUuid: string;
  tenant: string;
  pipeline: string;
  jobName: string;
  attempt: number;
}

/** The subject of a result event about the build these parameters requested. */
export function buildEventSubject(params: BuildRequestParams): BuildEventSubject {
  return {
    buildUuid: params.buildUuid,
    buildsetUuid: params.buildsetUuid,
    tenant: params.tenant,
    pipeline: params.pipeline,
    jobName: params.job.name,
    attempt: params.attempt,
  };
}

/** Payload of a `build-started` result event. */
export interface BuildStartedPayload extends BuildEventSubject {
  /** ISO time the executor started the build. */
  startTime: string;
  /** Executor identity (hostname:pid:id). */
  worker: string;
  /** Where the build's logs are (and will be) published; null when `logs.url` is not configured. */
  logUrl: string | null;
}

/**
 * Payload of a `build-paused` result event: the pre-run and run steps succeeded and the results
 * file asked to pause. The build keeps its workspace and nodes until the engine resumes it (its
 * post-run steps run then) or cancels it.
 */
export interface BuildPausedPayload extends BuildEventSubject {
  /** ISO time the build paused. */
  pauseTime: string;
  /** Artifacts and data for the dependent jobs, from the results file as it was when pausing. */
  artifacts: BuildArtifact[];
  data: Record<string, unknown>;
  childJobs: string[] | null;
  worker: string;
}

/**
 * Payload of a `build-completed` result event. `result` follows docs/gating.md#results from the
 * executor's point of view: `RETRY` means "retryable failure with tries left" (the engine
 * re-requests the build), `RETRY_LIMIT` the same failure on the last allowed attempt.
 */
export interface BuildCompletedPayload extends BuildEventSubject {
  result: BuildResult;
  /** ISO times; startTime is null when the build was canceled before it started. */
  startTime: string | null;
  endTime: string;
  errorDetail: string | null;
  logUrl: string | null;
  /** Artifacts from the results file (relative URLs resolved against `logUrl`). */
  artifacts: BuildArtifact[];
  /** Data (variables) for child jobs from the results file. */
  data: Record<string, unknown>;
  /** `child_jobs` from the results file: null when absent, else the child jobs to keep running. */
  childJobs: string[] | null;
  warnings: string[];
  worker: string | null;
  /** Files changed by the item's own changes (from the speculative merge); null when not computed. */
  changedFiles: string[] | null;
}

/** The subject fields of a request's stored params, whatever else they hold (unreadable ones left empty). */
const storedSubjectSchema = z
  .object({
    buildsetUuid: z.string().catch(''),
    pipeline: z.string().catch(''),
    job: z.object({ name: z.string().catch('') }).catch({ name: '' }),
    attempt: z.number().catch(1),
  })
  .catch({ buildsetUuid: '', pipeline: '', job: { name: '' }, attempt: 1 });

/**
 * The completion of a build that never ran: canceled before an executor claimed it, or whose
 * request could not be read. Nothing was produced; the subject comes from the stored request.
 */
export function completedWithoutRun(
  request: { buildUuid: string; tenant: string; params: unknown },
  outcome: Pick<BuildCompletedPayload, 'result' | 'startTime' | 'endTime' | 'errorDetail' | 'worker'>,
): BuildCompletedPayload {
  const stored = storedSubjectSchema.parse(request.params);
  return {
    buildUuid: request.buildUuid,
    buildsetUuid: stored.buildsetUuid,
    tenant: request.tenant,
    pipeline: stored.pipeline,
    jobName: stored.job.name,
    attempt: stored.attempt,
    ...outcome,
    logUrl: null,
    artifacts: [],
    data: {},
    childJobs: null,
    warnings: [],
    changedFiles: null,
  };
}

/** Result a caller may choose for a canceled build (docs/gating.md#results). */
export type CancelResult = Extract<BuildResult, 'CANCELED' | 'ABORTED'>;
