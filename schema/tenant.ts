/** Tenants: the root scope of everything else. Other modules add fields to `Tenant`. */
import { canReadTenant } from './infra/access';
import { builder } from './infra/builder';
import { NotFoundError } from './infra/errors';

/** The parent value of every Tenant field: just its name; fields load what they need. */
export interface TenantRef {
  name: string;
}

export const Tenant = builder.objectRef<TenantRef>('Tenant').implement({
  description: 'A tenant: an isolated set of projects, pipelines and their history.',
  // Everything about a tenant hangs below this type, so reading it is checked here (access-rules).
  authScopes: (tenant) => ({ tenantRead: tenant.name }),
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the tenant (URL-safe).' }),
  }),
});

const TenantOrder = builder.enumType('TenantOrder', {
  description: 'How a list of tenants is ordered.',
  values: {
    NAME: { value: 'name', description: 'Sorted by name.' },
    CONFIG: {
      value: 'config',
      description: 'In the order of the tenant file (the earlier REST shape lists tenants so).',
    },
  } as const,
});

builder.queryFields((t) => ({
  tenants: t.field({
    type: [Tenant],
    nullable: false,
    description: 'Every tenant of this deployment the caller may read (api-root access rules apply).',
    authScopes: { rootRead: true },
    args: {
      order: t.arg({
        type: TenantOrder,
        required: true,
        defaultValue: 'name',
        description: 'Order of the list; by name unless asked otherwise.',
      }),
    },
    resolve: (_root, { order }, ctx) => {
      const names = [...ctx.services.tenants.tenantNames()].filter((name) => canReadTenant(ctx, name));
      // By code point, as the reference sorts (compat.md §8.1 #3): `B` before `a`.
      return (order === 'name' ? names.sort() : names).map((name) => ({ name }));
    },
  }),
  tenant: t.field({
    type: Tenant,
    description: 'One tenant by name; a NotFoundError when no tenant has that name.',
    args: { name: t.arg.string({ required: true, description: 'Name of the tenant.' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_root, { name }, ctx) => requireTenant(ctx.services.tenants.tenantNames(), name),
  }),
}));

/** The tenant with this name, or a NotFoundError (`Tenant not found`). */
export function requireTenant(names: readonly string[], name: string): TenantRef {
  if (!names.includes(name)) {
    throw new NotFoundError('Tenant', name, 'Tenant not found');
  }
  return { name };
}
