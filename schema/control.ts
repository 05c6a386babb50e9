/**
 * Control mutations (docs/rest.md#tenant-event-queue-state, docs/rest.md#autohold,
 * docs/rest.md#enqueue-dequeue-and-promote): enqueue, dequeue, promote, autohold create and delete, tenant event-queue
 * state. Each takes one `input`, requires tenant admin, and returns its payload or a typed error (unknown
 * tenant/project: NotFoundError; invalid input, unknown pipeline, change not in the pipeline: InvalidInputError).
 */
import type { GraphQLContext } from './infra/context';
import { adminScope, beginControl } from './infra/access';
import { builder } from './infra/builder';
import { FREE_TEXT } from './infra/input-hygiene';
import { Autohold } from './autohold';
import { requireEngine, unwrap } from './infra/control-errors';
import { InvalidInputError, NotFoundError } from './infra/errors';
import { TenantEventQueueState } from './status';

const CONTROL_ERRORS = [NotFoundError, InvalidInputError];

/** Who asked, for the system event. */
function actor(ctx: GraphQLContext): string | null {
  return ctx.principal?.subject ?? null;
}

/** Tell live subscribers (in every process) that the tenant changed outside a scheduler pass. */
async function notifyLive(ctx: GraphQLContext, tenant: string): Promise<void> {
  await ctx.services.live?.statusChanged(tenant);
}

const EventAccepted = builder.simpleObject('ManagementEventAccepted', {
  description:
    'A management event was queued; the scheduler processes it asynchronously (follow it with `queueEvents`).',
  fields: (t) => ({
    eventId: t.int({ nullable: false, description: 'Id of the queued management event.' }),
    tenant: t.string({ nullable: false, description: 'Tenant name.' }),
  }),
});

const EnqueueInput = builder.inputType('EnqueueInput', {
  description:
    'A change (`change`) or a ref update (`ref`, `oldrev`, `newrev`) to enqueue; `change` wins when both are given.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    pipeline: t.string({ required: true, description: 'Pipeline to enqueue into.' }),
    project: t.string({ required: true, description: 'Project (short or canonical name).' }),
    change: t.string({ description: '`<number>,<patchset>`.' }),
    ref: t.string({ description: 'Ref of a ref update.' }),
    oldrev: t.string({ description: 'Old revision of a ref update.' }),
    newrev: t.string({ description: 'New revision of a ref update.' }),
  }),
});

const DequeueInput = builder.inputType('DequeueInput', {
  description: 'A live change (`change`) or ref (`ref`) to remove from a pipeline; exactly one of them.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    pipeline: t.string({ required: true, description: 'Pipeline to dequeue from.' }),
    project: t.string({ required: true, description: 'Project (short or canonical name).' }),
    change: t.string({ description: '`<number>,<patchset>`.' }),
    ref: t.string({ description: 'Ref of a ref item.' }),
  }),
});

const PromoteInput = builder.inputType('PromoteInput', {
  description: 'Changes to move to the head of their queue, in this order.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    pipeline: t.string({ required: true, description: 'Pipeline of the changes.' }),
    changes: t.stringList({ required: true, description: 'Changes as `<number>,<patchset>`.' }),
  }),
});

const AutoholdCreateInput = builder.inputType('AutoholdCreateInput', {
  description: 'An autohold request; `change` and `ref` are mutually exclusive (neither = every ref).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    project: t.string({ required: true, description: 'Project (short or canonical name).' }),
    job: t.string({ required: true, description: 'Job name.' }),
    count: t.int({ required: true, description: 'Number of failed builds to hold (0 or more).' }),
    reason: t.string({ required: true, description: 'Why the nodes are held.', extensions: FREE_TEXT }),
    nodeHoldExpiration: t.int({ description: 'Seconds to keep held nodes; the deployment default when null.' }),
    change: t.string({ description: 'Change number whose refs to match.' }),
    ref: t.string({ description: 'Regular expression of refs to match.' }),
  }),
});

const AutoholdDeleteInput = builder.inputType('AutoholdDeleteInput', {
  description: 'The autohold request to delete.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    id: t.string({ required: true, description: 'Request id; zero padding is optional.' }),
  }),
});

const TenantStateSetInput = builder.inputType('TenantStateSetInput', {
  description: 'New event-queue state; omitted flags keep their value, the reason is replaced (cleared when omitted).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    triggerQueueDiscarding: t.boolean({ description: 'Discard incoming trigger events.' }),
    triggerQueuePaused: t.boolean({ description: 'Stop processing trigger events.' }),
    resultQueuePaused: t.boolean({ description: 'Stop processing result events.' }),
    reason: t.string({ description: 'Free text (at most 4096 characters are kept).', extensions: FREE_TEXT }),
  }),
});

const AutoholdDeleted = builder.simpleObject('AutoholdDeleted', {
  description: 'An autohold request was deleted.',
  fields: (t) => ({
    id: t.string({ nullable: false, description: 'Id of the deleted request.' }),
  }),
});

builder.mutationFields((t) => ({
  enqueue: t.field({
    type: EventAccepted,
    description: 'Enqueue a change or ref update into a pipeline (REST `project/{p}/enqueue`).',
    args: { input: t.arg({ type: EnqueueInput, required: true, description: 'What to enqueue.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: CONTROL_ERRORS, directResult: true, union: { name: 'EnqueueResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).enqueue(input.tenant, {
        pipeline: input.pipeline,
        project: input.project,
        change: input.change ?? undefined,
        ref: input.ref ?? undefined,
        oldrev: input.oldrev ?? undefined,
        newrev: input.newrev ?? undefined,
        by: actor(ctx),
      });
      return { eventId: unwrap(result, input.project).eventId, tenant: input.tenant };
    },
  }),
  dequeue: t.field({
    type: EventAccepted,
    description: 'Remove a live change or ref from a pipeline (REST `project/{p}/dequeue`).',
    args: { input: t.arg({ type: DequeueInput, required: true, description: 'What to dequeue.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: CONTROL_ERRORS, directResult: true, union: { name: 'DequeueResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).dequeue(input.tenant, {
        pipeline: input.pipeline,
        project: input.project,
        change: input.change ?? undefined,
        ref: input.ref ?? undefined,
        by: actor(ctx),
      });
      return { eventId: unwrap(result, input.project).eventId, tenant: input.tenant };
    },
  }),
  promote: t.field({
    type: EventAccepted,
    description: 'Move changes to the head of their queue in the given order (REST `promote`).',
    args: { input: t.arg({ type: PromoteInput, required: true, description: 'What to promote.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: CONTROL_ERRORS, directResult: true, union: { name: 'PromoteResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).promote(input.tenant, {
        pipeline: input.pipeline,
        changes: input.changes,
        by: actor(ctx),
      });
      return { eventId: unwrap(result, input.pipeline).eventId, tenant: input.tenant };
    },
  }),
  autoholdCreate: t.field({
    type: Autohold,
    description: 'Create an autohold request (REST `project/{p}/autohold` POST).',
    args: { input: t.arg({ type: AutoholdCreateInput, required: true, description: 'The request.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: CONTROL_ERRORS, directResult: true, union: { name: 'AutoholdCreateResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).createAutohold(input.tenant, {
        project: input.project,
        job: input.job,
        count: input.count,
        reason: input.reason,
        nodeHoldExpiration: input.nodeHoldExpiration ?? null,
        change: input.change ?? null,
        ref: input.ref ?? null,
      });
      const record = unwrap(result, input.project);
      await notifyLive(ctx, input.tenant);
      return record;
    },
  }),
  autoholdDelete: t.field({
    type: AutoholdDeleted,
    description: 'Delete an autohold request (REST `autohold/{id}` DELETE).',
    args: { input: t.arg({ type: AutoholdDeleteInput, required: true, description: 'The request to delete.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: CONTROL_ERRORS, directResult: true, union: { name: 'AutoholdDeleteResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      unwrap(await requireEngine(ctx).deleteAutohold(input.tenant, input.id), input.id);
      await notifyLive(ctx, input.tenant);
      return { id: input.id };
    },
  }),
  tenantStateSet: t.field({
    type: TenantEventQueueState,
    description: 'Pause, resume or discard the tenant event queues, with a reason (REST `state` POST).',
    args: { input: t.arg({ type: TenantStateSetInput, required: true, description: 'The new state.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: CONTROL_ERRORS, directResult: true, union: { name: 'TenantStateSetResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const result = await requireEngine(ctx).setTenantState(input.tenant, {
        triggerQueueDiscarding: input.triggerQueueDiscarding ?? undefined,
        triggerQueuePaused: input.triggerQueuePaused ?? undefined,
        resultQueuePaused: input.resultQueuePaused ?? undefined,
        reason: input.reason ?? null,
      });
      const state = unwrap(result, input.tenant);
      await notifyLive(ctx, input.tenant);
      return state;
    },
  }),
}));
