/**
 * Engine events: the durable input of a tenant's scheduler, stored as rows of `engine_events`
 * (docs/gating.md#event-processing). One discriminated union (on `type`) covers the three categories:
 * trigger events (git connection, timers, the zuul driver, the launcher), management events
 * (admin operations, reconfiguration, `supercedes`) and result events (executors, the launcher).
 * The schemas are the single source of the types: payloads read back from the store are
 * validated with them once, by the repository that owns the table.
 */
import { z } from 'zod';
import { proposedConfigSchema } from './proposed-config';
import { BUILD_RESULTS, type BuildResult } from './results';

export const ENGINE_EVENT_CATEGORIES = ['trigger', 'management', 'result'] as const;
export type EngineEventCategory = (typeof ENGINE_EVENT_CATEGORIES)[number];

const nullableString = z.string().nullable();
const record = z.record(z.string(), z.unknown());

/**
 * The id of an event that can enqueue a change (the reference's `zuul_event_id`, 32 hex digits):
 * given to the event when it is stored, then carried by the item, its buildset and its builds
 * (docs/gating.md#event-ids).
 */
const eventId = z.string().optional();

// ---------------------------------------------------------------------------------------------
// Trigger events
// ---------------------------------------------------------------------------------------------

export const TRIGGER_EVENT_TYPES = [
  'patchset-created',
  'ref-updated',
  'timer',
  'parent-change-enqueued',
  'project-change-merged',
  'image-build',
  'image-validate',
  // GitHub (docs/github.md#trigger-events)
  'pull_request',
  'pull_request_review',
  'push',
  'check_run',
  // Gerrit (docs/gerrit.md#trigger-events; `patchset-created` and `ref-updated` above are Gerrit's names too)
  'comment-added',
  'change-merged',
  'change-abandoned',
  'change-restored',
  'draft-published',
  'wip-state-changed',
  'hashtags-changed',
  'pending-check',
  'vote-deleted',
  'topic-changed',
  // GitLab (docs/gitlab.md#trigger-events)
  'gl_merge_request',
  'gl_push',
] as const;
export type TriggerEventType = (typeof TRIGGER_EVENT_TYPES)[number];

/** A trigger event: which change or ref of which project, and what happened to it. */
export const triggerEventSchema = z.object({
  type: z.enum(TRIGGER_EVENT_TYPES),
  /** Short or canonical project name. */
  project: z.string(),
  change: z.number().int().nullish(),
  patchset: nullableString.optional(),
  ref: z.string().optional(),
  branch: z.string().optional(),
  oldrev: nullableString.optional(),
  newrev: nullableString.optional(),
  /** timer: the pipeline that fired. */
  pipeline: z.string().optional(),
  /** parent-change-enqueued: the parent's pipeline. */
  parentPipeline: z.string().optional(),
  /** project-change-merged: the change that merged. */
  mergedChange: z.number().int().nullish(),
  /**
   * A branch update made by Sluice's own merge (emitted once by the git connection, docs/gating.md#sluices-own-rules).
   */
  own: z.boolean().optional(),
  /** image-build: the images to build; image-validate: the image of the upload. */
  imageNames: z.array(z.string()).optional(),
  /** image-validate: the upload to validate (its jobs' nodes boot from exactly this upload). */
  imageUploadUuid: z.string().optional(),
  timestamp: z.string().optional(),
  eventId,
  /** GitHub events: the connection the webhook came from and the reference's event attributes. */
  connection: z.string().optional(),
  action: z.string().optional(),
  comment: z.string().optional(),
  label: z.string().optional(),
  /** pull_request_review: the review state (`approved`, `changes_requested`, `commented`, `dismissed`). */
  state: z.string().optional(),
  /** status event: `<creator>:<context>:<state>`. */
  status: z.string().optional(),
  /** check_run event: the check run's name. */
  check: z.string().optional(),
  /** Who caused the event (the sender's login; Gerrit: the account's username). */
  account: z.string().optional(),
  /** Gerrit: the e-mail address of who caused the event. */
  email: z.string().optional(),
  /** Gerrit comment-added: the votes the comment carries (`oldValue` only where the vote changed). */
  approvals: z.array(z.object({ type: z.string(), value: z.number(), oldValue: z.number().optional() })).optional(),
  /** Gerrit hashtags-changed: the hashtags added and removed. */
  added: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
  /** Gerrit pending-check (the checks plugin): the checker's uuid and scheme. */
  uuid: z.string().optional(),
  scheme: z.string().optional(),
});
export type TriggerEvent = z.infer<typeof triggerEventSchema>;

export function isTriggerEventType(type: string): type is TriggerEventType {
  return (TRIGGER_EVENT_TYPES as readonly string[]).includes(type);
}

// ---------------------------------------------------------------------------------------------
// Management events
// ---------------------------------------------------------------------------------------------

/** Who asked (recorded in the system event); null when unknown. */
const by = nullableString;

/** The change (`change`, optionally `patchset`) or ref an admin operation names. */
const changeSpec = {
  change: z.number().int().optional(),
  patchset: z.string().optional(),
  ref: z.string().optional(),
};

/** A change as a follow-up event names it (`supercedes`). */
export const serialChangeSchema = z.object({
  project: z.string(),
  number: z.number().int().nullable(),
  patchset: nullableString,
  ref: z.string(),
  oldrev: nullableString,
  newrev: nullableString,
});
export type SerialChange = z.infer<typeof serialChangeSchema>;

export const enqueueEventSchema = z.object({
  type: z.literal('enqueue'),
  pipeline: z.string(),
  /** Canonical project name. */
  project: z.string(),
  ...changeSpec,
  oldrev: z.string().optional(),
  newrev: z.string().optional(),
  by,
  eventId,
});

export const dequeueEventSchema = z.object({
  type: z.literal('dequeue'),
  pipeline: z.string(),
  project: z.string(),
  ...changeSpec,
  by,
});

export const promoteEventSchema = z.object({
  type: z.literal('promote'),
  pipeline: z.string(),
  /** `N,P` of each change, in the wanted order. */
  changes: z.array(z.string()),
  by,
});

/** A pipeline's `supercedes`: the change leaves the named pipeline. */
export const supercedeEventSchema = z.object({
  type: z.literal('supercede'),
  pipeline: z.string(),
  change: serialChangeSchema,
  /** The superseding pipeline. */
  by: z.string(),
});

/** A reconfiguration request (the tenant's, or every tenant's when written by `sluice reconfigure` without one). */
export const reconfigureEventSchema = z.object({
  type: z.literal('reconfigure'),
  tenant: nullableString.optional(),
  /** `sluice reconfigure --smart`: only the tenants whose tenant-file entry changed. */
  smart: z.boolean().optional(),
});

export const managementEventSchema = z.discriminatedUnion('type', [
  enqueueEventSchema,
  dequeueEventSchema,
  promoteEventSchema,
  supercedeEventSchema,
  reconfigureEventSchema,
]);
export type ManagementEvent = z.infer<typeof managementEventSchema>;
export type EnqueueEvent = z.infer<typeof enqueueEventSchema>;
export type DequeueEvent = z.infer<typeof dequeueEventSchema>;
export type PromoteEvent = z.infer<typeof promoteEventSchema>;
export type SupercedeEvent = z.infer<typeof supercedeEventSchema>;

// ---------------------------------------------------------------------------------------------
// Result events
// ---------------------------------------------------------------------------------------------

const buildResult = z.enum(Object.keys(BUILD_RESULTS) as [BuildResult, ...BuildResult[]]);
const returnedArtifact = z.object({ name: z.string(), url: z.string(), metadata: record.nullish() });
/** A node as the launcher describes it: an id and a label, the launcher's other fields passed through. */
const nodeInfo = z.object({ id: z.string(), label: z.string() }).catchall(z.unknown());

export const buildStartedEventSchema = z.object({
  type: z.literal('build-started'),
  buildUuid: z.string(),
  startTime: z.string(),
  logUrl: nullableString.optional(),
});

/** What a build returns in its results file, for its dependents. */
const returnedResults = {
  artifacts: z.array(returnedArtifact).optional(),
  /** Result data returned by the job (passed to dependent jobs). */
  data: record.optional(),
  /** `child_jobs` returned by the job: null when absent, else the dependents to keep. */
  childJobs: z.array(z.string()).nullish(),
};

export const buildCompletedEventSchema = z.object({
  type: z.literal('build-completed'),
  buildUuid: z.string(),
  /** null, ABORTED (or a build-level MERGE_CONFLICT) are retried while attempts remain. */
  result: buildResult.nullable(),
  endTime: z.string(),
  errorDetail: nullableString.optional(),
  logUrl: nullableString.optional(),
  ...returnedResults,
  /**
   * Warnings of the build (a job's `zuul.warnings`, what the executor dropped from what it
   * returned): kept with the item's buildset and appended to its reports (docs/gating.md#reporting).
   */
  warnings: z.array(z.string()).optional(),
});

/**
 * The run phase succeeded and asked to pause (`zuul.pause`): the build waits for its dependents
 * (docs/gating.md#paused-builds), which get what it returned so far.
 */
export const buildPausedEventSchema = z.object({
  type: z.literal('build-paused'),
  buildUuid: z.string(),
  ...returnedResults,
});

export const nodesProvisionedEventSchema = z.object({
  type: z.literal('nodes-provisioned'),
  requestId: z.string(),
  fulfilled: z.boolean(),
  nodes: z.array(nodeInfo),
});

/** A report that failed after its driver's retries: what it was of, and why (a `report-failed` system event). */
export const reportFailureSchema = z.object({
  pipeline: z.string(),
  phase: z.string(),
  project: z.string(),
  change: z.string(),
  error: z.string(),
});
export type ReportFailure = z.infer<typeof reportFailureSchema>;

/** A report made by engine work (docs/gating.md#engine-work): `error` when the reporter failed. */
export const reportCompletedEventSchema = z.object({
  type: z.literal('report-completed'),
  work: z.number().int(),
  buildsetUuid: z.string(),
  error: nullableString,
  /** With `error`: what the report was of (absent in events stored before it was added). */
  failure: reportFailureSchema.optional(),
});

/**
 * A merge made by engine work (docs/gating.md#engine-work): the speculative merge of a buildset
 * (`files` changed, `repoState` the commits prepared) or the merge of an item's changes into
 * their branches (`error`: the first refusal).
 */
export const mergeCompletedEventSchema = z.object({
  type: z.literal('merge-completed'),
  work: z.number().int(),
  /** `tag`: the branches containing a tag's commit were looked up (docs/project-configuration.md#jobs). */
  mode: z.enum(['speculative', 'tag', 'branch']),
  pipeline: z.string(),
  buildsetUuid: z.string(),
  merged: z.boolean(),
  error: nullableString,
  files: z.array(z.string()).nullable(),
  repoState: record.nullable(),
  /** speculative: the configuration the merged state proposes (docs/gating.md#speculative-layouts). */
  config: z.array(proposedConfigSchema).optional(),
  /** tag: the branches containing the tagged commit. */
  containingBranches: z.array(z.string()).optional(),
  /** branch: the changes merged (with the commit each produced). */
  changes: z.array(z.object({ project: z.string(), change: z.number().int(), newrev: nullableString })).optional(),
  /** branch: not made, because the merge of the item ahead it waited for was not (docs/gating.md#merges-in-a-row). */
  skipped: z.boolean().optional(),
  /** branch: the success report made before the merge failed (the merge was still made). */
  reportFailure: reportFailureSchema.optional(),
});

export const resultEventSchema = z.discriminatedUnion('type', [
  buildStartedEventSchema,
  buildCompletedEventSchema,
  buildPausedEventSchema,
  nodesProvisionedEventSchema,
  reportCompletedEventSchema,
  mergeCompletedEventSchema,
]);
export type ResultEvent = z.infer<typeof resultEventSchema>;
export type MergeCompletedEvent = z.infer<typeof mergeCompletedEventSchema>;
export type ReportCompletedEvent = z.infer<typeof reportCompletedEventSchema>;
/** The result events of builds and node requests (not of engine work). */
export type BuildResultEvent = Exclude<ResultEvent, MergeCompletedEvent | ReportCompletedEvent>;
export type BuildCompletedEvent = z.infer<typeof buildCompletedEventSchema>;
export type BuildPausedEvent = z.infer<typeof buildPausedEventSchema>;

// ---------------------------------------------------------------------------------------------
// The union
// ---------------------------------------------------------------------------------------------

export const engineEventSchema = z.discriminatedUnion('type', [
  triggerEventSchema,
  ...managementEventSchema.options,
  ...resultEventSchema.options,
]);
export type EngineEvent = z.infer<typeof engineEventSchema>;

/** An event with its category, the category narrowing the event's type. */
export type CategorisedEvent =
  | { category: 'trigger'; event: TriggerEvent }
  | { category: 'management'; event: ManagementEvent }
  | { category: 'result'; event: ResultEvent };

const MANAGEMENT_TYPES: ReadonlySet<string> = new Set(
  managementEventSchema.options.map((option) => option.shape.type.value),
);
const RESULT_TYPES: ReadonlySet<string> = new Set(resultEventSchema.options.map((option) => option.shape.type.value));

function isResultEvent(event: EngineEvent): event is ResultEvent {
  return RESULT_TYPES.has(event.type);
}

function isManagementEvent(event: EngineEvent): event is ManagementEvent {
  return MANAGEMENT_TYPES.has(event.type);
}

/** The category of an event (the column the scheduler's queues are kept by). */
/** Whether an event gets an event id when stored: trigger events and admin enqueues. */
export function takesEventId(event: EngineEvent): event is TriggerEvent | EnqueueEvent {
  const { category } = categorise(event);
  return category === 'trigger' || (category === 'management' && event.type === 'enqueue');
}

export function categorise(event: EngineEvent): CategorisedEvent {
  if (isResultEvent(event)) {
    return { category: 'result', event };
  }
  if (isManagementEvent(event)) {
    return { category: 'management', event };
  }
  return { category: 'trigger', event };
}

/** A stored payload's fields when it is a JSON object (none otherwise), with no copy: the schema's parse makes one. */
function payloadFields(payload: unknown): Record<string, unknown> {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    ? (payload as Record<string, unknown>)
    : {};
}

/**
 * Validate a stored event: the row's type joins its payload (payloads written by executors do
 * not repeat it). An error text when the payload does not match its type or its category.
 */
export function parseEngineEvent(
  category: EngineEventCategory,
  type: string,
  payload: unknown,
): { ok: true; value: CategorisedEvent } | { ok: false; error: string } {
  const parsed = engineEventSchema.safeParse({ ...payloadFields(payload), type });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    return { ok: false, error: `invalid ${type} event: ${where}${issue.message}` };
  }
  const value = categorise(parsed.data);
  if (value.category !== category) {
    return { ok: false, error: `invalid ${type} event: not a ${category} event` };
  }
  return { ok: true, value };
}
