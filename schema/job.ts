/** Jobs of a tenant: every definition (variant) of each job name. */
import type { JobVariant as JobVariantValue, Layout } from '../src/config/layout';
import { builder } from './infra/builder';
import { NotFoundError } from './infra/errors';
import { JobVariant, type JobVariantView } from './job-variant';
import { tenantLayout } from './infra/layout-store';
import { Tenant } from './tenant';

interface JobView {
  name: string;
  variants: readonly JobVariantValue[];
  layout: Layout;
}

export const Job = builder.objectRef<JobView>('Job').implement({
  description: 'A job name of the tenant with all of its variants.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the job.' }),
    description: t.string({
      description: 'First line of the description of the first variant that has one; null when none has.',
      resolve: (job) => {
        const described = job.variants.find((v) => v.attributes.description !== undefined);
        return described?.attributes.description?.split('\n')[0] ?? null;
      },
    }),
    tags: t.stringList({
      nullable: false,
      description: 'Union of the tags of all variants, sorted.',
      resolve: (job) => [...new Set(job.variants.flatMap((v) => v.attributes.tags ?? []))].sort(),
    }),
    variants: t.field({
      type: [JobVariant],
      nullable: false,
      description: 'Every variant, in layout order.',
      resolve: (job): JobVariantView[] => job.variants.map((variant) => ({ variant, layout: job.layout })),
    }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  jobs: t.field({
    type: [Job],
    nullable: false,
    description: 'Every job of the tenant (including the built-in `noop`), sorted by name.',
    resolve: (tenant, _args, ctx) => {
      const layout = tenantLayout(ctx, tenant.name);
      return [...layout.jobs.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, variants]) => ({ name, variants, layout }));
    },
  }),
  job: t.field({
    type: Job,
    description: 'One job by name with all its variants; a NotFoundError (`Job not found`) when no job has that name.',
    args: { name: t.arg.string({ required: true, description: 'Name of the job.' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (tenant, { name }, ctx) => {
      const layout = tenantLayout(ctx, tenant.name);
      const variants = layout.jobs.get(name);
      if (variants === undefined) {
        throw new NotFoundError('Job', name, 'Job not found');
      }
      return { name, variants, layout };
    },
  }),
}));
