/** Pipelines of a tenant as configured: manager, triggers, precedence and window settings. */
import type { Pipeline as PipelineValue, TriggerConfig } from '../src/config/layout';
import { builder } from './infra/builder';
import { tenantLayout } from './infra/layout-store';
import { SourceContext } from './source-context';
import { Tenant } from './tenant';

export const PipelineManager = builder.enumType('PipelineManager', {
  description: 'How a pipeline queues and tests items (spec/engine.md §2).',
  values: {
    INDEPENDENT: { value: 'independent', description: 'Every item is tested on its own, in parallel.' },
    DEPENDENT: {
      value: 'dependent',
      description: 'Items of a shared queue are tested speculatively on top of the items ahead (gating).',
    },
    SERIAL: { value: 'serial', description: 'One item of a queue at a time, in order.' },
    SUPERCEDENT: {
      value: 'supercedent',
      description: 'Only the newest item per project and branch runs; older waiting ones are superseded.',
    },
  } as const,
});

export const PipelinePrecedence = builder.enumType('PipelinePrecedence', {
  description: "Priority of the pipeline's node requests relative to other pipelines.",
  values: {
    HIGH: { value: 'high', description: 'Served before normal and low.' },
    NORMAL: { value: 'normal', description: 'The default.' },
    LOW: { value: 'low', description: 'Served after high and normal.' },
  } as const,
});

export const WindowAdjustment = builder.enumType('WindowAdjustment', {
  description: "How a dependent pipeline's window grows on success or shrinks on failure.",
  values: {
    LINEAR: { value: 'linear', description: 'Add or subtract the factor.' },
    EXPONENTIAL: { value: 'exponential', description: 'Multiply or divide by the factor.' },
  } as const,
});

const PipelineTrigger = builder.objectRef<TriggerConfig>('PipelineTrigger').implement({
  description: 'A source of events that enqueue items into the pipeline.',
  fields: (t) => ({
    name: t.string({
      nullable: false,
      description: "Connection name (or the trigger's own name for timer triggers).",
      resolve: (tr) => tr.connection,
    }),
    driver: t.exposeString('driver', { nullable: false, description: 'Driver of the trigger (git, timer...).' }),
  }),
});

const PipelineWindow = builder.objectRef<PipelineValue>('PipelineWindow').implement({
  description: 'Window settings: how many items of a dependent queue are tested at once.',
  fields: (t) => ({
    initial: t.exposeInt('window', { nullable: false, description: 'Initial window size (0 = unlimited).' }),
    floor: t.exposeInt('windowFloor', { nullable: false, description: 'Smallest window size.' }),
    ceiling: t.int({ description: 'Largest window size; null = unlimited.', resolve: (p) => p.windowCeiling }),
    increaseType: t.field({
      type: WindowAdjustment,
      nullable: false,
      description: 'How the window grows on success.',
      resolve: (p) => p.windowIncreaseType,
    }),
    increaseFactor: t.exposeFloat('windowIncreaseFactor', {
      nullable: false,
      description: 'Growth step or multiplier.',
    }),
    decreaseType: t.field({
      type: WindowAdjustment,
      nullable: false,
      description: 'How the window shrinks on failure.',
      resolve: (p) => p.windowDecreaseType,
    }),
    decreaseFactor: t.exposeFloat('windowDecreaseFactor', { nullable: false, description: 'Shrink step or divisor.' }),
  }),
});

export const Pipeline = builder.objectRef<PipelineValue>('Pipeline').implement({
  description: 'A pipeline of the tenant, as configured.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the pipeline.' }),
    description: t.string({
      description: 'Description written in configuration.',
      resolve: (p) => p.description ?? null,
    }),
    manager: t.field({
      type: PipelineManager,
      nullable: false,
      description: 'Queueing strategy.',
      resolve: (p) => p.manager,
    }),
    precedence: t.field({
      type: PipelinePrecedence,
      nullable: false,
      description: 'Node request priority.',
      resolve: (p) => p.precedence,
    }),
    triggers: t.field({
      type: [PipelineTrigger],
      nullable: false,
      description: 'Triggers, in configuration order.',
      resolve: (p) => p.triggers,
    }),
    postReview: t.exposeBoolean('postReview', {
      nullable: false,
      description: 'True when the pipeline runs after review (may run post-review jobs).',
    }),
    supercedes: t.exposeStringList('supercedes', {
      nullable: false,
      description: 'Pipelines whose items this pipeline removes when it enqueues the same change.',
    }),
    dequeueOnNewPatchset: t.exposeBoolean('dequeueOnNewPatchset', {
      nullable: false,
      description: 'True when a new patchset removes the old one from the pipeline.',
    }),
    ignoreDependencies: t.exposeBoolean('ignoreDependencies', {
      nullable: false,
      description: 'True when change dependencies are not enqueued.',
    }),
    disableAfterConsecutiveFailures: t.int({
      description: 'Number of consecutive failures after which the pipeline disables itself; null = never.',
      resolve: (p) => p.disableAfterConsecutiveFailures ?? null,
    }),
    window: t.field({
      type: PipelineWindow,
      nullable: false,
      description: 'Window settings (used by dependent pipelines).',
      resolve: (p) => p,
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Where the pipeline is defined.',
      resolve: (p) => p.sourceContext,
    }),
  }),
});

builder.objectField(Tenant, 'pipelines', (t) =>
  t.field({
    type: [Pipeline],
    nullable: false,
    description: 'Pipelines of the tenant, in layout order.',
    resolve: (tenant, _args, ctx) => [...tenantLayout(ctx, tenant.name).pipelines.values()],
  }),
);
