/**
 * Flake-aware gating (docs/analytics.md#flake-aware-gating, docs/analytics.md#quarantine): why a
 * job's build was retried (a typed reason on status jobs and history builds), whether a run was
 * flaky, and the tenant's quarantine list with the admin mutations that edit it.
 */
import type { BuildRecord } from '../src/store/repositories/builds';
import type { QuarantineEntry } from '../src/store/repositories/quarantine';
import { FAILED_RUN } from '../src/store/repositories/run-outcomes';
import { Build } from './build';
import type { GraphQLContext } from './infra/context';
import { adminScope, beginControl } from './infra/access';
import { builder } from './infra/builder';
import { requireEngine, unwrap } from './infra/control-errors';
import { InvalidInputError, NotFoundError } from './infra/errors';
import { FREE_TEXT } from './infra/input-hygiene';
import { StatusJob } from './status';
import { Tenant } from './tenant';

export const RetryReason = builder.enumType('RetryReason', {
  description: 'Why a build was retried (docs/analytics.md#flake-aware-gating).',
  values: {
    INFRASTRUCTURE: {
      value: 'infrastructure',
      description: 'It ended without a result of its own (aborted, lost its node...) and attempts were left.',
    },
    FLAKY: {
      value: 'flaky',
      description: 'It failed, and its job is known-flaky in a pipeline or job that retries those in place.',
    },
  } as const,
});

builder.objectFields(StatusJob, (t) => ({
  retryReason: t.field({
    type: RetryReason,
    description: 'Why its latest build was retried; null when none was.',
    resolve: (job) => job.retryReason,
  }),
  flakyRetries: t.exposeInt('flakyRetries', {
    nullable: false,
    description: 'Builds of it retried in place because the job is known-flaky.',
  }),
  quarantined: t.exposeBoolean('quarantined', {
    nullable: false,
    description: 'It is quarantined and failed: its failure is reported but does not fail the item.',
  }),
}));

/** The retry reason of a history build: a retried attempt that failed was retried for flakiness. */
function buildRetryReason(build: BuildRecord): 'infrastructure' | 'flaky' | null {
  if (build.final || build.result === null) {
    return null;
  }
  return FAILED_RUN.includes(build.result) ? 'flaky' : 'infrastructure';
}

builder.objectFields(Build, (t) => ({
  retryReason: t.field({
    type: RetryReason,
    description: 'Why this build was retried (it is not final); null for a final build.',
    resolve: buildRetryReason,
  }),
  flaky: t.exposeBoolean('flaky', {
    nullable: false,
    description:
      'Its result differs from an earlier run of the job on the same change revision (docs/analytics.md#flaky-runs).',
  }),
}));

export const QuarantinedJob = builder.objectRef<QuarantineEntry>('QuarantinedJob').implement({
  description: 'A job whose failures are reported but do not fail their item (docs/analytics.md#quarantine).',
  fields: (t) => ({
    job: t.exposeString('job', { nullable: false, description: 'Job name.' }),
    project: t.exposeString('project', {
      description: 'Canonical project name; null for every project of the tenant.',
    }),
    reason: t.exposeString('reason', { nullable: false, description: 'Why it is quarantined.' }),
    addedBy: t.exposeString('addedBy', { description: 'Who added it.' }),
    addedAt: t.expose('addedAt', { type: 'DateTime', nullable: false, description: 'When it was added.' }),
  }),
});

builder.objectField(Tenant, 'quarantine', (t) =>
  t.field({
    type: [QuarantinedJob],
    nullable: false,
    description: 'The quarantine list, by job then project.',
    resolve: (tenant, _args, ctx) => requireEngine(ctx).listQuarantine(tenant.name),
  }),
);

const QuarantineAddInput = builder.inputType('QuarantineAddInput', {
  description: 'A job to quarantine, for one project or every project of the tenant.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    job: t.string({ required: true, description: 'Job name.' }),
    project: t.string({ description: 'Project (short or canonical name); every project when absent.' }),
    reason: t.string({
      required: true,
      description: 'Why (shown with the list and in the audit event).',
      extensions: FREE_TEXT,
    }),
  }),
});

const QuarantineRemoveInput = builder.inputType('QuarantineRemoveInput', {
  description: 'A quarantined job to take off the list.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    job: t.string({ required: true, description: 'Job name.' }),
    project: t.string({ description: 'Project (short or canonical name); the every-project entry when absent.' }),
  }),
});

/** Who asked, for the audit event. */
function actor(ctx: GraphQLContext): string | null {
  return ctx.principal?.subject ?? null;
}

builder.mutationFields((t) => ({
  quarantineAdd: t.field({
    type: QuarantinedJob,
    description: 'Quarantine a job (tenant admin; audited with a `quarantine-changed` system event).',
    args: { input: t.arg({ type: QuarantineAddInput, required: true, description: 'The job.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: {
      types: [NotFoundError, InvalidInputError],
      directResult: true,
      union: { name: 'QuarantineAddResult' },
    },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).quarantineJob(input.tenant, {
        job: input.job,
        project: input.project ?? null,
        reason: input.reason,
        by: actor(ctx),
      });
      return unwrap(result, input.project ?? input.tenant);
    },
  }),
  quarantineRemove: t.field({
    type: QuarantinedJob,
    description:
      'Take a job off the quarantine list (tenant admin; audited); a NotFoundError when it is not on it. Returns the entry removed.',
    args: { input: t.arg({ type: QuarantineRemoveInput, required: true, description: 'The job.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: {
      types: [NotFoundError, InvalidInputError],
      directResult: true,
      union: { name: 'QuarantineRemoveResult' },
    },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).releaseJob(input.tenant, {
        job: input.job,
        project: input.project ?? null,
        by: actor(ctx),
      });
      if (!result.ok && result.error.code === 'NOT_FOUND') {
        throw new NotFoundError('QuarantinedJob', input.job, result.error.message);
      }
      return unwrap(result, input.job);
    },
  }),
}));
