/**
 * `GET /api/tenants` (docs/rest.md#tenants; earlier shape docs/rest.md#earlier-shape-endpoints,
 * docs/rest.md#the-shape-rule).
 */
import { RestTenantCountsDocument, RestTenantsDocument, type RestTenantCountsQuery } from '../generated/graphql';
import { arrayOf, int, object, str } from '../json-schema';
import type { RestRoute } from '../route';

type TenantCounts = RestTenantCountsQuery['tenants'][number];

/** Live items of the tenant (the earlier `queue`); 0 while the engine has not loaded the tenant. */
function liveItems(tenant: TenantCounts): number {
  if (tenant.status?.__typename !== 'TenantStatus') {
    return 0;
  }
  return tenant.status.pipelines
    .flatMap((pipeline) => pipeline.changeQueues)
    .flatMap((queue) => queue.heads.flat())
    .filter((item) => item.live).length;
}

export const tenantsRoute: RestRoute = {
  name: 'tenants',
  pattern: 'tenants',
  endpoints: {
    GET: {
      summary: 'Tenants: sorted by name (current shape), in tenant-file order (earlier shape)',
      auth: 'public',
      operations: ['RestTenants', 'RestTenantCounts'],
      responses: {
        current: { status: 200, schema: arrayOf(object({ name: str() })), description: 'Tenant names' },
        earlier: {
          status: 200,
          schema: arrayOf(object({ name: str(), projects: int('Untrusted projects'), queue: int('Live queue items') })),
          description: 'Tenants with project and queue counts, in tenant-file order',
        },
      },
      errors: {},
      headers: { 'Cache-Control': 'public, max-age=1' },
      handler: async (req) => {
        if (req.shape === 'earlier') {
          const { tenants } = await req.run(RestTenantCountsDocument, {});
          return {
            body: tenants.map((tenant) => ({
              name: tenant.name,
              projects: tenant.projects.filter((project) => project.type === 'UNTRUSTED').length,
              queue: liveItems(tenant),
            })),
          };
        }
        const { tenants } = await req.run(RestTenantsDocument, {});
        return { body: tenants.map((tenant) => ({ name: tenant.name })) };
      },
    },
  },
};
