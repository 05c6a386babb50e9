/**
 * Calibrated estimates and ranges (docs/analytics.md#job-estimates, docs/analytics.md#item-etas):
 * the duration estimate of a job or of a pipeline's items from recent runs, the ranges a status
 * computes from them for its jobs and items, the estimates a status used, and a lookup of
 * estimates by key for clients that follow the status with deltas.
 */
import { estimatesFrom } from '../src/engine/build-estimates';
import type { EstimateEntry, ItemRange } from '../src/engine/status';
import {
  QUANTILE_POINTS,
  curveP50,
  curveP90,
  itemSampleKeys,
  jobSampleKeys,
  type DurationEstimate as DurationEstimateValue,
  type EstimateLevel,
} from '../src/model/estimates';
import type { JobEta as JobEtaValue } from '../src/model/eta';
import { DurationSampleRepository } from '../src/store/repositories/duration-samples';
import { InvalidInputError } from './infra/error-classes';
import { builder } from './infra/builder';
import { perServices } from './infra/context';
import { StatusItem, StatusJob, StatusRef, TenantStatus } from './status';
import { Tenant } from './tenant';

/** How many keys one `Tenant.estimates` query may ask for. */
export const MAX_ESTIMATE_KEYS = 500;

const durationSamples = perServices((knex) => new DurationSampleRepository(knex));

export const EstimateBasis = builder.enumType('EstimateBasis', {
  description: 'Which recent runs an estimate comes from (docs/analytics.md#job-estimates), narrowest first.',
  values: {
    BRANCH: { value: 'branch', description: "The job's runs on the same project and branch." },
    PROJECT: { value: 'project', description: "The job's runs on the same project, any branch." },
    JOB: { value: 'job', description: "The job's runs on any project of the tenant." },
    ITEM_PROJECT: { value: 'item-project', description: "The pipeline's items of the same project." },
    ITEM_PIPELINE: { value: 'item-pipeline', description: "The pipeline's items of any project." },
  } as const satisfies Record<string, { value: EstimateLevel; description: string }>,
});

export const EstimateKind = builder.enumType('EstimateKind', {
  description: 'What an estimate is for.',
  values: {
    JOB: { value: 'job', description: 'A job on a project and branch.' },
    ITEM: { value: 'item', description: "A pipeline's queue items of a project (their whole run)." },
  } as const,
});

const seconds = (curve: number[] | null, at: (curve: number[]) => number): number | null =>
  curve === null ? null : at(curve);

export const DurationEstimate = builder.objectRef<DurationEstimateValue>('DurationEstimate').implement({
  description:
    'How long runs take and how often they fail, from the newest 50 runs (docs/analytics.md#job-estimates). Durations in seconds.',
  fields: (t) => ({
    basis: t.field({
      type: EstimateBasis,
      nullable: false,
      description: 'Which runs the numbers come from.',
      resolve: (estimate) => estimate.basis,
    }),
    runs: t.exposeInt('runs', {
      nullable: false,
      description: 'Runs counted: successes, failures and retried attempts.',
    }),
    successes: t.exposeInt('successes', { nullable: false, description: 'Successful runs counted.' }),
    failures: t.exposeInt('failures', { nullable: false, description: 'Failed runs counted.' }),
    p50: t.float({
      description: 'Median duration of the successful runs; null without one.',
      resolve: (estimate) => seconds(estimate.success, curveP50),
    }),
    p90: t.float({
      description: '90th percentile duration of the successful runs; null without one.',
      resolve: (estimate) => seconds(estimate.success, curveP90),
    }),
    quantiles: t.floatList({
      description: 'Durations of the successful runs at each of `quantilePoints`; null without one.',
      resolve: (estimate) => estimate.success,
    }),
    failureP50: t.float({
      description: 'Median duration of the failed runs; null without one.',
      resolve: (estimate) => seconds(estimate.failure, curveP50),
    }),
    failureP90: t.float({
      description: '90th percentile duration of the failed runs; null without one.',
      resolve: (estimate) => seconds(estimate.failure, curveP90),
    }),
    failureQuantiles: t.floatList({
      description: 'Durations of the failed runs at each of `quantilePoints`; null without one.',
      resolve: (estimate) => estimate.failure,
    }),
    quantilePoints: t.floatList({
      nullable: false,
      description: 'The probabilities of `quantiles` and `failureQuantiles` (0, 0.1, ... 0.9, 0.95, 1).',
      resolve: () => [...QUANTILE_POINTS],
    }),
    failureProbability: t.exposeFloat('failureProbability', {
      nullable: false,
      description: 'Failed runs over finished runs (0 to 1).',
    }),
    retryProbability: t.exposeFloat('retryProbability', {
      nullable: false,
      description: 'Retried attempts over all runs counted (0 to 1).',
    }),
  }),
});

export const JobEta = builder.objectRef<JobEtaValue>('JobEta').implement({
  description: 'How long a job still runs, as a range (docs/analytics.md#job-estimates), as of the status.',
  fields: (t) => ({
    remainingP50: t.exposeFloat('remainingP50', {
      description: 'Milliseconds left at the median; 0 when finished; null without history.',
    }),
    remainingP90: t.exposeFloat('remainingP90', {
      description: 'Milliseconds left at the 90th percentile; 0 when finished; null without history.',
    }),
    overdue: t.exposeBoolean('overdue', {
      nullable: false,
      description: 'It has run longer than the 90th percentile of its successful runs (its usual duration).',
    }),
    overdueBy: t.exposeFloat('overdueBy', {
      description: 'Milliseconds over its usual duration; null unless overdue.',
    }),
  }),
});

export const ItemEta = builder.objectRef<ItemRange>('ItemEta').implement({
  description:
    'When a queue item should report, as a range (docs/analytics.md#item-etas): from its jobs, its place in the queue, the window and the failure risk of the items ahead.',
  fields: (t) => ({
    remainingP50: t.exposeFloat('remainingP50', {
      description: 'Milliseconds until it reports, median; null when unknown.',
    }),
    remainingP90: t.exposeFloat('remainingP90', {
      description: 'Milliseconds until it reports, 90th percentile; null when unknown.',
    }),
    p50: t.field({
      type: 'DateTime',
      description: 'When it reports, median; null when unknown.',
      resolve: (eta) => (eta.remainingP50 === null ? null : new Date(eta.atMs + eta.remainingP50)),
    }),
    p90: t.field({
      type: 'DateTime',
      description: 'When it reports, 90th percentile; null when unknown.',
      resolve: (eta) => (eta.remainingP90 === null ? null : new Date(eta.atMs + eta.remainingP90)),
    }),
    failureProbability: t.exposeFloat('failureProbability', {
      nullable: false,
      description: 'The chance that one of its voting jobs fails (1 once one has).',
    }),
    resetProbability: t.exposeFloat('resetProbability', {
      nullable: false,
      description: 'The chance that an item ahead fails and resets it (dependent pipelines; 0 elsewhere).',
    }),
    overdue: t.exposeBoolean('overdue', { nullable: false, description: 'One of its running jobs is overdue.' }),
  }),
});

export const StatusEstimate = builder.objectRef<EstimateEntry>('StatusEstimate').implement({
  description: 'An estimate a status uses, with its key.',
  fields: (t) => ({
    kind: t.field({ type: EstimateKind, nullable: false, description: 'Job or item.', resolve: (entry) => entry.kind }),
    project: t.exposeString('project', { nullable: false, description: 'Canonical project name.' }),
    branch: t.exposeString('branch', {
      description: 'Branch of a job estimate; null for a ref without a branch and for items.',
    }),
    name: t.exposeString('name', { nullable: false, description: 'Job name, or pipeline name for items.' }),
    estimate: t.field({
      type: DurationEstimate,
      nullable: false,
      description: 'The estimate.',
      resolve: (entry) => entry.estimate as DurationEstimateValue,
    }),
  }),
});

builder.objectField(StatusRef, 'branch', (t) =>
  t.exposeString('branch', { description: 'Branch of the change; null for a ref without one (a tag).' }),
);

builder.objectFields(StatusJob, (t) => ({
  estimate: t.field({
    type: DurationEstimate,
    description:
      "The job's calibrated estimate (docs/analytics.md#job-estimates); null without history, and in queue deltas (read `TenantStatus.estimates` or `Tenant.estimates`).",
    resolve: (job) => job.estimate,
  }),
  eta: t.field({
    type: JobEta,
    description: 'How long it still runs, as of the status; null in queue deltas (compute it from `estimate`).',
    resolve: (job) => job.eta,
  }),
}));

builder.objectField(StatusItem, 'eta', (t) =>
  t.field({
    type: ItemEta,
    description: 'When the item should report, as of the status; null for non-live items.',
    resolve: (item) => item.eta,
  }),
);

builder.objectField(TenantStatus, 'estimates', (t) =>
  t.field({
    type: [StatusEstimate],
    nullable: false,
    description: "Every estimate the status's jobs and items use (keys without history are absent).",
    resolve: (snapshot) => snapshot.status.estimates,
  }),
);

export const EstimateKeyInput = builder.inputType('EstimateKeyInput', {
  description: 'The key of an estimate.',
  fields: (t) => ({
    kind: t.field({ type: EstimateKind, required: true, description: 'Job or item.' }),
    project: t.string({ required: true, description: 'Canonical project name.' }),
    branch: t.string({ description: 'Branch (jobs); null for a ref without a branch.' }),
    name: t.string({ required: true, description: 'Job name, or pipeline name for items.' }),
  }),
});

const EstimateList = builder.objectRef<{ entries: EstimateEntry[] }>('EstimateList').implement({
  description: 'Estimates by key.',
  fields: (t) => ({
    estimates: t.field({
      type: [StatusEstimate],
      nullable: false,
      description: 'The estimates of the keys asked for that have history, in no particular order.',
      resolve: (list) => list.entries,
    }),
  }),
});

builder.objectField(Tenant, 'estimates', (t) =>
  t.field({
    type: EstimateList,
    description: `The current estimates of these keys (at most ${MAX_ESTIMATE_KEYS}, else an InvalidInputError), read in one query: what a client following the status with deltas refreshes after jobs complete.`,
    args: { keys: t.arg({ type: [EstimateKeyInput], required: true, description: 'What to estimate.' }) },
    errors: {
      types: [InvalidInputError],
      directResult: true,
      union: {
        name: 'TenantEstimatesResult',
        description: 'The estimates, or an InvalidInputError for too many keys.',
      },
    },
    resolve: async (tenant, { keys }, ctx) => {
      if (keys.length > MAX_ESTIMATE_KEYS) {
        throw new InvalidInputError(`At most ${MAX_ESTIMATE_KEYS} keys`, 'keys');
      }
      const sampleKeys = keys.flatMap((key) =>
        key.kind === 'job'
          ? jobSampleKeys(key.project, key.branch ?? null, key.name)
          : itemSampleKeys(key.name, key.project),
      );
      const estimates = estimatesFrom(await durationSamples(ctx).read(tenant.name, sampleKeys));
      for (const key of keys) {
        if (key.kind === 'job') {
          estimates.job(key.project, key.branch ?? null, key.name);
        } else {
          estimates.item(key.name, key.project);
        }
      }
      return { entries: estimates.entries() };
    },
  }),
);
