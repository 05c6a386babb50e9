/** Tenant-level capabilities (REST `T/info` adds them to the service information). */
import { defaultRealm } from '../src/auth/capabilities';
import { isReadRestricted } from '../src/auth/gate';
import type { Layout } from '../src/config/layout';
import { builder } from './infra/builder';
import type { GraphQLContext } from './infra/context';
import { Tenant } from './tenant';

interface TenantCapabilitiesSource {
  tenant: string;
  /** Undefined for catalogs that know tenant names only (tests). */
  layout: Layout | undefined;
}

const TenantCapabilities = builder.objectRef<TenantCapabilitiesSource>('TenantCapabilities').implement({
  description: 'What a dashboard needs to know about one tenant before showing it.',
  fields: (t) => ({
    authenticationRealm: t.string({
      description:
        "The tenant's authentication realm, replacing the deployment default; null when the tenant sets none.",
      resolve: ({ layout }) => layout?.tenant.authenticationRealm ?? null,
    }),
    defaultRealm: t.string({
      description:
        "The realm dashboards should use for this tenant: its authentication realm, else the default authenticator's (the api-root's realm applies to the root only); null without authenticators.",
      resolve: ({ layout }, _args, ctx) => defaultRealm(ctx.services.config.auth, layout?.tenant.authenticationRealm),
    }),
    readProtected: t.boolean({
      nullable: false,
      description:
        'True when reading the tenant requires a token (the tenant has access rules, or anonymous-read-access: false).',
      resolve: ({ tenant }, _args, ctx) => {
        const policy = ctx.services.auth.policies().tenantPolicy(tenant);
        return policy !== undefined && isReadRestricted(policy);
      },
    }),
    niz: t.boolean({
      nullable: false,
      description: 'True when the tenant has providers (dashboards then show providers, images and flavors).',
      resolve: ({ layout }) => (layout?.providers.size ?? 0) > 0,
    }),
  }),
});

const capabilitiesOf = (ctx: GraphQLContext, tenant: string): TenantCapabilitiesSource => ({
  tenant,
  layout: ctx.services.tenants.layout(tenant),
});

builder.objectField(Tenant, 'info', (t) =>
  t.field({
    type: TenantCapabilities,
    nullable: false,
    description: 'Tenant-level capabilities.',
    resolve: (tenant, _args, ctx) => capabilitiesOf(ctx, tenant.name),
  }),
);

// Dashboards read a tenant's realm before they can log in, so this answer is public even for
// read-protected tenants (as in the reference, where `T/info` is never protected).
builder.queryField('tenantInfo', (t) =>
  t.field({
    type: TenantCapabilities,
    description: 'The capabilities of one tenant, readable without a token; null when no tenant has that name.',
    args: { name: t.arg.string({ required: true, description: 'Name of the tenant.' }) },
    resolve: (_root, { name }, ctx) =>
      ctx.services.tenants.tenantNames().includes(name) ? capabilitiesOf(ctx, name) : null,
  }),
);
