/**
 * The JSON columns of the engine's persisted state (src/store/repositories/engine-state.ts) as
 * zod schemas: a queue item's data (its buildset without jobs), a job's state, a queue's window
 * parameters and projects, a tenant's timer state. Rows are checked when they are loaded, so the
 * engine gets the types src/model/pipeline-state.ts declares, or a clear error naming the row.
 * Each schema is checked against its model type at compile time (`modelSchema`): it must produce
 * that type and name every one of its fields, optional ones included, so the two cannot drift
 * apart. Values are returned as stored (a key the schema does not know, from an older writer,
 * stays). The part of a frozen job only the executor reads (`EngineJob.params`) is checked to be
 * an object; the executor validates what it receives from it (src/model/build-request.ts).
 */
import { z } from 'zod';
import type { ChangeInfo, CodeReviewState, GerritChangeState, MergeItem } from '../../model/changes';
import type { FrozenJobExecution } from '../../model/frozen-job';
import { MERGE_MODES } from '../../model/merge-modes';
import { configDigestSchema, proposedConfigSchema } from '../../model/proposed-config';
import type {
  ArtifactInfo,
  BuildState,
  BuildsetState,
  DequeueReason,
  EngineJob,
  ItemState,
  JobState,
  NodeInfo,
  WindowParams,
} from '../../model/pipeline-state';
import { BUILD_RESULTS, BUILDSET_RESULTS, type BuildResult, type BuildsetResult } from '../../model/results';
import { isPlainObject } from '../../model/value-checks';

/**
 * The model type's fields that a schema's output lacks, and the fields it has that the model
 * does not: both must be empty.
 */
type KeyMismatch<T, S extends z.ZodType> = [Exclude<keyof T, keyof z.output<S>>, Exclude<keyof z.output<S>, keyof T>];

/**
 * A schema checked against its model type: its output must be assignable to `T` and have exactly
 * `T`'s keys, optional ones included (`modelSchema<T>()(z.object({...}))`).
 */
function modelSchema<T>() {
  return <S extends z.ZodType<T>>(
    schema: S & (KeyMismatch<T, S> extends [never, never] ? unknown : { keyMismatch: KeyMismatch<T, S> }),
  ): S => schema;
}

const text = z.string();
const nullableText = z.string().nullable();
const nullableNumber = z.number().nullable();
const jsonObject = z.record(z.string(), z.unknown());
const buildResult = z.enum(Object.keys(BUILD_RESULTS) as [BuildResult, ...BuildResult[]]);
const buildsetResult = z.enum(Object.keys(BUILDSET_RESULTS) as [BuildsetResult, ...BuildsetResult[]]);

const changeRefFields = {
  project: text,
  ref: text,
  branch: nullableText,
  number: nullableNumber,
  patchset: nullableText,
  oldrev: nullableText,
  newrev: nullableText,
};

/** A pull request's review state (docs/github.md#changes). */
const codeReviewSchema = modelSchema<CodeReviewState>()(
  z.object({
    state: text,
    draft: z.boolean(),
    title: text,
    labels: z.array(text),
    reviews: z.array(z.object({ username: text, type: text, permission: text, submittedAt: text })),
    statuses: z.array(text),
    checks: z.array(text),
  }),
);

/** A Gerrit change's review state (docs/gerrit.md#changes). */
const gerritStateSchema = modelSchema<GerritChangeState>()(
  z.object({
    status: text,
    wip: z.boolean(),
    topic: nullableText,
    hashtags: z.array(text),
    changeId: text,
    approvals: z.array(z.object({ label: text, value: z.number(), username: text, email: text, grantedOn: text })),
    missingLabels: z.array(text).optional(),
    submitRequirements: z.array(z.object({ name: text, status: text, expression: text })).optional(),
  }),
);

const changeInfoSchema = modelSchema<ChangeInfo>()(
  z.object({
    ...changeRefFields,
    kind: z.enum(['change', 'branch', 'tag', 'ref']),
    url: nullableText,
    owner: nullableText,
    dependsOn: z.array(z.object({ project: text, number: z.number() })),
    merged: z.boolean(),
    currentPatchset: z.boolean().optional(),
    review: codeReviewSchema.optional(),
    gerrit: gerritStateSchema.optional(),
  }),
);

const mergeItemSchema = modelSchema<MergeItem>()(
  z.object({
    ...changeRefFields,
    connection: text,
    mergeMode: z.enum(MERGE_MODES),
    buildsetUuid: text,
  }),
);

const dequeueReasonSchema = modelSchema<DequeueReason>()(
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('reported'), result: buildsetResult }),
    z.object({ kind: z.literal('dequeued-by-admin'), by: nullableText }),
    z.object({ kind: z.literal('superseded'), by: text }),
    z.object({ kind: z.literal('new-patchset'), patchset: text }),
    z.object({ kind: z.literal('cycle-changed'), message: text }),
    z.object({ kind: z.literal('change-abandoned'), message: text }),
    z.object({ kind: z.literal('dependency-dequeued'), message: text }),
    z.object({ kind: z.literal('requirements-not-met'), message: text }),
    z.object({ kind: z.literal('too-many-dependencies'), message: text }),
    z.object({ kind: z.literal('non-live-no-items-behind') }),
    z.object({ kind: z.literal('reconfiguration'), message: text }),
    z.object({ kind: z.literal('promoted') }),
  ]),
);

export const windowParamsSchema = modelSchema<WindowParams>()(
  z.object({
    window: z.number(),
    floor: z.number(),
    ceiling: nullableNumber,
    increaseType: z.enum(['linear', 'exponential']),
    increaseFactor: z.number(),
    decreaseType: z.enum(['linear', 'exponential']),
    decreaseFactor: z.number(),
  }),
);

const frozenJobExecutionSchema = z.custom<FrozenJobExecution>(isPlainObject, 'expected the frozen job as an object');

const engineJobSchema = modelSchema<EngineJob>()(
  z.object({
    name: text,
    dependencies: z.array(z.object({ name: text, soft: z.boolean() })),
    voting: z.boolean(),
    attempts: z.number(),
    flakyRetries: z.number().optional(),
    timeout: nullableNumber,
    semaphores: z.array(z.object({ name: text, resourcesFirst: z.boolean() })),
    nodeset: modelSchema<EngineJob['nodeset']>()(
      z.object({ name: text, labels: z.array(text), alternatives: z.array(z.array(text)).optional() }),
    ),
    provides: z.array(text),
    requires: z.array(text),
    holdFollowingChanges: z.boolean(),
    deduplicate: z.union([z.boolean(), z.literal('auto')]).optional(),
    vars: jsonObject,
    params: frozenJobExecutionSchema,
  }),
);

const buildStateSchema = modelSchema<BuildState>()(
  z.object({
    uuid: text,
    historyId: nullableNumber,
    attempt: z.number(),
    executeTime: text,
    startTime: nullableText,
    endTime: nullableText,
    result: buildResult.nullable(),
    errorDetail: nullableText,
    logUrl: nullableText,
    canceled: z.boolean(),
    retry: z.boolean(),
    held: z.boolean(),
    data: jsonObject,
    artifacts: z.array(z.object({ name: text, url: text, metadata: jsonObject.nullable() })),
    submitted: z.boolean(),
    paused: z.boolean().optional(),
    resumeRequested: z.boolean().optional(),
    retryReason: z.enum(['infrastructure', 'flaky']).optional(),
    events: z
      .array(z.object({ eventType: z.enum(['paused', 'resumed']), eventTime: text, description: nullableText }))
      .optional(),
  }),
);

const nodeInfoSchema: z.ZodType<NodeInfo> = z.looseObject({ id: text, label: text });

const artifactInfoSchema = modelSchema<ArtifactInfo>()(
  z.object({
    name: text,
    url: text,
    project: text,
    change: nullableNumber,
    patchset: nullableText,
    job: text,
    metadata: jsonObject.nullable(),
  }),
);

/** `queue_item_jobs.frozen`: one job of an item. */
export const jobStateSchema = modelSchema<JobState>()(
  z.object({
    job: engineJobSchema,
    uuid: text.optional(),
    tries: z.number(),
    build: buildStateSchema.nullable(),
    retryBuilds: z.array(buildStateSchema),
    waitReason: z
      .enum([
        'window',
        'merge',
        'hold-following-changes',
        'requirements',
        'dependencies',
        'semaphores',
        'nodes',
        'executor',
      ])
      .nullable(),
    waitingStatus: nullableText,
    nodeRequestId: nullableText,
    nodesReady: z.boolean(),
    nodes: z.array(nodeInfoSchema),
    semaphoresHeld: z.array(text),
    artifacts: z.array(artifactInfoSchema),
    flakyRetries: z.number().optional(),
    quarantined: z.boolean().optional(),
    change: z.number().optional(),
    otherChanges: z.array(z.number()).optional(),
  }),
);

/**
 * An item's buildset as `queue_items.data` holds it: its jobs are rows of their own and its merge
 * list is a column of its own (`queue_items.merge_items`).
 */
export type StoredBuildset = Omit<BuildsetState, 'jobs' | 'mergeItems'>;
/** `queue_items.data`: the item with its buildset, without the buildset's jobs. */
export type StoredItem = Omit<ItemState, 'buildset'> & { buildset: StoredBuildset };

const storedBuildsetSchema = modelSchema<StoredBuildset>()(
  z.object({
    uuid: text,
    historyId: nullableNumber,
    historyRefId: nullableNumber.optional(),
    historyRefIds: z.array(z.number()).optional(),
    configured: z.boolean(),
    mergeState: z.enum(['new', 'complete']),
    mergeRequested: z.boolean().optional(),
    repoState: z.record(z.string(), z.unknown()).nullable().optional(),
    containingBranches: z.array(text).nullable().optional(),
    branchMerge: z
      .object({
        disabled: z.boolean(),
        reported: z.boolean(),
        done: z.boolean(),
        error: nullableText,
        after: nullableText.optional(),
        skipped: z.boolean().optional(),
      })
      .nullable()
      .optional(),
    proposedConfig: z.array(proposedConfigSchema).nullable().optional(),
    proposedDigests: z.array(configDigestSchema).nullable().optional(),
    speculativeLayout: z.boolean().optional(),
    configWarning: nullableText.optional(),
    warningMessages: z.array(text).optional(),
    files: z.array(text).nullable(),
    unableToMerge: z.boolean(),
    mergeError: nullableText,
    configError: nullableText,
    notInPipeline: z.boolean(),
    jobGraphFrozen: z.boolean(),
    failFast: z.boolean(),
    result: buildsetResult.nullable(),
    startTime: nullableText,
  }),
);

export const storedItemSchema = modelSchema<StoredItem>()(
  z.object({
    uuid: text,
    pipeline: text,
    queueName: text,
    changes: z.array(changeInfoSchema),
    live: z.boolean(),
    active: z.boolean(),
    quiet: z.boolean(),
    itemAhead: nullableText,
    enqueueTime: text,
    eventId: nullableText,
    eventTimestamp: nullableText,
    imageNames: z.array(text).nullable().optional(),
    imageUploadUuid: nullableText.optional(),
    triggeredBy: text,
    reportedStart: z.boolean(),
    reported: z.boolean(),
    dequeuedNeedingChange: nullableText,
    dequeuedMissingRequirements: nullableText.optional(),
    requirementsIgnored: z.boolean().optional(),
    failingReasons: z.array(text),
    firstJobStartTime: nullableText,
    buildset: storedBuildsetSchema,
    dequeueTime: nullableText,
    dequeueReason: dequeueReasonSchema.nullable(),
  }),
);

/** `change_queues.projects`: the canonical project names a queue serves. */
export const queueProjectsSchema = z.array(text);
/** `pipeline_state.state`. */
export const pipelineStateValueSchema = z.enum(['normal', 'error']);
/** `tenant_state.timer_state`: the last fire time (ISO) per timer pipeline. */
export const timerStateSchema = z.record(z.string(), z.string());

/** A stored engine-state row that does not hold what its schema says. */
export class InvalidEngineStateError extends Error {
  constructor(where: string, error: z.ZodError) {
    const issue = error.issues[0];
    const at = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.map(String).join('.')}`;
    super(`Invalid stored engine state (${where})${at}: ${issue?.message ?? error.message}`);
    this.name = 'InvalidEngineStateError';
  }
}

/** A small JSON column's value (window parameters, projects, timer state) as its schema types it. */
export function storedValue<T>(schema: z.ZodType<T>, value: unknown, where: () => string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new InvalidEngineStateError(where(), result.error);
  }
  return result.data;
}

/**
 * The JSON texts of one kind of large row (items, jobs), read as their schema types them. A text
 * that passed once is not checked again while it is remembered: status reads load the same rows
 * over and over, and the scheduler rewrites a row whenever it changes. The parsed value is
 * returned as stored, keys the schema does not list included, whether or not it was checked now.
 * What is remembered is bounded by its total length (oldest forgotten first).
 */
export class StoredJson<T> {
  private readonly valid = new Set<string>();
  private length = 0;

  constructor(
    private readonly schema: z.ZodType<T>,
    private readonly maxLength = 8_000_000,
  ) {}

  /** The value of `stored` (the column as text, or already parsed by the driver: then checked each time). */
  read(stored: unknown, where: () => string): T {
    const text = typeof stored === 'string' ? stored : null;
    const value: unknown = text === null ? stored : JSON.parse(text);
    if (text === null || !this.valid.has(text)) {
      storedValue(this.schema, value, where); // throws when the value does not satisfy the schema
      if (text !== null) {
        this.remember(text);
      }
    }
    return value as T; // it satisfied the schema (this exact text did, if it was not checked now)
  }

  private remember(text: string): void {
    this.valid.add(text);
    this.length += text.length;
    for (const oldest of this.valid) {
      if (this.length <= this.maxLength) {
        break;
      }
      this.valid.delete(oldest);
      this.length -= oldest.length;
    }
  }
}

/** Item data and job states of every tenant, read through their remembered texts. */
export const storedItems = new StoredJson(storedItemSchema);
export const storedJobs = new StoredJson(jobStateSchema);
/** `queue_items.merge_items`: an item's merge list. */
export const storedMergeItems = new StoredJson(z.array(mergeItemSchema));
