/**
 * Tenant-level capabilities (REST `T/info` adds them to the service information). Dashboards
 * read them before logging in, so `Query.tenantCapabilities` is never protected (compat.md
 * §2.7, §6.3); `Tenant.info` gives the same object to callers who may read the tenant.
 */
import { defaultRealm } from '../src/auth/capabilities';
import type { Layout } from '../src/config/layout';
import { builder } from './builder';
import type { GraphQLContext } from './context';
import { Tenant } from './tenant';

interface CapabilitiesView {
  name: string;
  /** Undefined for catalogs that know tenant names only. */
  layout: Layout | undefined;
}

const TenantCapabilities = builder.objectRef<CapabilitiesView>('TenantCapabilities').implement({
  description: 'What a dashboard needs to know about one tenant before showing it.',
  fields: (t) => ({
    authenticationRealm: t.string({
      description: 'The tenant\'s authentication realm, replacing the deployment default; null when the tenant sets none.',
      resolve: (view) => view.layout?.tenant.authenticationRealm ?? null,
    }),
    defaultRealm: t.string({
      description:
        'The realm dashboards should use for this tenant: its authentication realm, else the default authenticator\'s (the api-root\'s realm applies to the root only); null without authenticators.',
      resolve: (view, _args, ctx) => defaultRealm(ctx.services.config.auth, view.layout?.tenant.authenticationRealm),
    }),
    readProtected: t.boolean({
      nullable: false,
      description: 'True when reading the tenant requires a token (the tenant has access rules).',
      resolve: (view, _args, ctx) => (ctx.services.auth.policies().tenantPolicy(view.name)?.accessRules.length ?? 0) > 0,
    }),
    niz: t.boolean({
      nullable: false,
      description: 'True when the tenant has providers (dashboards then show providers, images and flavors).',
      resolve: (view) => (view.layout?.providers.size ?? 0) > 0,
    }),
  }),
});

const capabilitiesOf = (ctx: GraphQLContext, name: string): CapabilitiesView => ({ name, layout: ctx.services.tenants.layout(name) });

builder.objectField(Tenant, 'info', (t) =>
  t.field({
    type: TenantCapabilities,
    nullable: false,
    description: 'Tenant-level capabilities.',
    resolve: (tenant, _args, ctx) => capabilitiesOf(ctx, tenant.name),
  }),
);

builder.queryField('tenantCapabilities', (t) =>
  t.field({
    type: TenantCapabilities,
    description: 'Capabilities of one tenant, readable without a token even when the tenant restricts reading (dashboards need them to log in); null for an unknown tenant.',
    args: { tenant: t.arg.string({ required: true, description: 'Name of the tenant.' }) },
    resolve: (_root, args, ctx) => (ctx.services.tenants.tenantNames().includes(args.tenant) ? capabilitiesOf(ctx, args.tenant) : null),
  }),
);
