/** Access to a tenant's current layout and to the repositories of the configuration side. */
import { GraphQLError } from 'graphql';
import type { Layout } from '../../src/config/layout';
import { ConfigErrorRepository } from '../../src/store/repositories/config-errors';
import { ImageArtifactRepository } from '../../src/store/repositories/image-artifacts';
import { SemaphoreRepository } from '../../src/store/repositories/semaphores';
import { perServices, type GraphQLContext } from './context';

export interface LayoutStore {
  configErrors: ConfigErrorRepository;
  semaphores: SemaphoreRepository;
  imageArtifacts: ImageArtifactRepository;
}

/** Repositories over the request's database; they hold no per-request state. */
export const layoutStore = perServices((knex): LayoutStore => ({
  configErrors: new ConfigErrorRepository(knex),
  semaphores: new SemaphoreRepository(knex),
  imageArtifacts: new ImageArtifactRepository(knex),
}));

/**
 * The current layout of a tenant that the catalog lists. Tenant values are only created for
 * listed tenants, so a missing layout means a tenant dropped by a reconfiguration during the
 * request, or one whose configuration has not loaded (a name-only catalog): to the caller the
 * tenant is not there (NOT_FOUND, HTTP 404 through REST), which is not a server fault.
 */
export function tenantLayout(ctx: GraphQLContext, tenant: string): Layout {
  const layout = ctx.services.tenants.layout(tenant);
  if (layout === undefined) {
    throw new GraphQLError(`Tenant ${tenant} has no loaded configuration`, { extensions: { code: 'NOT_FOUND' } });
  }
  return layout;
}
