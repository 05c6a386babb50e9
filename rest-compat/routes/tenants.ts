/** `GET /api/tenants` (compat.md §2.6; earlier shape §3). */
import { RestTenantsDocument } from '../generated/graphql';
import { RestError } from '../errors';
import { arrayOf, int, object, str } from '../json-schema';
import type { RestRoute } from '../route';

export const tenantsRoute: RestRoute = {
  name: 'tenants',
  pattern: 'tenants',
  endpoints: {
    GET: {
      summary: 'Tenants, sorted by name',
      auth: 'public',
      operations: ['RestTenants'],
      responses: {
        current: { status: 200, schema: arrayOf(object({ name: str() })), description: 'Tenant names' },
        earlier: {
          status: 200,
          schema: arrayOf(object({ name: str(), projects: int('Untrusted projects'), queue: int('Live queue items') })),
          description: 'Tenants with project and queue counts',
        },
      },
      errors: {},
      headers: { 'Cache-Control': 'public, max-age=1' },
      handler: async (req) => {
        if (req.shape === 'earlier') {
          // The counts come from the tenant layout and the engine, which GraphQL does not expose yet.
          throw new RestError(501, 'NotImplemented', 'The earlier tenant list (project and queue counts) is not served yet');
        }
        const { tenants } = await req.run(RestTenantsDocument, {});
        return { body: tenants.map((tenant) => ({ name: tenant.name })) };
      },
    },
  },
};
