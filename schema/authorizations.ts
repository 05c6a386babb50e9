/**
 * What the caller may do (compat.md §6.4): `authorizations` at the root (scope `*`) and per
 * tenant. A valid token is required; a tenant with access rules also requires read access.
 */
import { authorizationsBody, ROOT_SCOPE } from '../src/auth/rules';
import { builder } from './infra/builder';
import { NotFoundError } from './infra/errors';

interface AuthorizationsShape {
  admin: boolean;
  scope: string[];
}

const Authorizations = builder.simpleObject('Authorizations', {
  description: 'The caller\'s rights (REST `{"zuul": {"admin", "scope"}}`).',
  fields: (t) => ({
    admin: t.boolean({ nullable: false, description: 'Whether the caller is admin of the scope.' }),
    scope: t.stringList({ nullable: false, description: 'The scope: the tenant name, or `*` for the root.' }),
  }),
});

function shapeOf(tenant: string, decision: Parameters<typeof authorizationsBody>[1]): AuthorizationsShape {
  return authorizationsBody(tenant, decision).zuul;
}

builder.queryField('authorizations', (t) =>
  t.field({
    type: Authorizations,
    nullable: false,
    description:
      "The caller's rights at the root (`*` admin) or, with `tenant`, in that tenant (REST `authorizations`).",
    args: { tenant: t.arg.string({ description: 'Tenant name; omitted for the root.' }) },
    errors: { types: [NotFoundError], directResult: true },
    // Unknown tenants pass the scope so that the resolver answers NotFound first.
    authScopes: (_root, { tenant }, ctx) =>
      tenant === null || tenant === undefined
        ? { $all: { authenticated: true, rootRead: true } }
        : ctx.auth.knowsTenant(tenant)
          ? { tenantToken: tenant }
          : { public: true },
    resolve: (_root, { tenant }, ctx) => {
      const scope = tenant ?? ROOT_SCOPE;
      if (!ctx.auth.knowsTenant(scope)) {
        throw new NotFoundError('Tenant', scope, 'Tenant not found');
      }
      return shapeOf(scope, ctx.auth.decision(scope));
    },
  }),
);
