/** Semaphores visible to a tenant (its own and the global ones it may use), with their holders. */
import type { Semaphore as SemaphoreValue } from '../src/config/layout';
import type { SemaphoreHolderRecord } from '../src/store/repositories/semaphores';
import { builder } from './infra/builder';
import { layoutStore, tenantLayout } from './infra/layout-store';
import { Tenant } from './tenant';

interface SemaphoreView {
  semaphore: SemaphoreValue;
  tenant: string;
  /** Every holder of this semaphore (all tenants for global ones). */
  holders: SemaphoreHolderRecord[];
}

const SemaphoreHolder = builder.objectRef<SemaphoreHolderRecord>('SemaphoreHolder').implement({
  description: 'A job of a buildset that holds a semaphore.',
  fields: (t) => ({
    buildsetUuid: t.exposeString('buildsetUuid', { nullable: false, description: 'Uuid of the holding buildset.' }),
    jobName: t.exposeString('jobName', { nullable: false, description: 'Name of the holding job.' }),
    acquired: t.expose('acquired', {
      type: 'DateTime',
      nullable: false,
      description: 'When the semaphore was acquired.',
    }),
  }),
});

const SemaphoreHolders = builder.objectRef<SemaphoreView>('SemaphoreHolders').implement({
  description: 'Who holds a semaphore. Holders in other tenants are only counted, never detailed.',
  fields: (t) => ({
    count: t.int({
      nullable: false,
      description: 'Holders in this tenant plus holders in other tenants.',
      resolve: (s) => s.holders.length,
    }),
    thisTenant: t.field({
      type: [SemaphoreHolder],
      nullable: false,
      description: 'Holders in this tenant, oldest first.',
      resolve: (s) => s.holders.filter((h) => h.holderTenant === s.tenant),
    }),
    otherTenants: t.int({
      nullable: false,
      description: 'Number of holders in other tenants.',
      resolve: (s) => s.holders.filter((h) => h.holderTenant !== s.tenant).length,
    }),
  }),
});

const Semaphore = builder.objectRef<SemaphoreView>('Semaphore').implement({
  description: 'A semaphore limiting how many jobs run at once.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Name of the semaphore.', resolve: (s) => s.semaphore.name }),
    global: t.boolean({
      nullable: false,
      description: 'True for a global semaphore shared by several tenants.',
      resolve: (s) => s.semaphore.global,
    }),
    max: t.int({ nullable: false, description: 'Most holders at once.', resolve: (s) => s.semaphore.max }),
    holders: t.field({ type: SemaphoreHolders, nullable: false, description: 'Current holders.', resolve: (s) => s }),
  }),
});

builder.objectField(Tenant, 'semaphores', (t) =>
  t.field({
    type: [Semaphore],
    nullable: false,
    description: 'Semaphores of the tenant and the global semaphores it may use, sorted by name.',
    resolve: async (tenant, _args, ctx) => {
      const layout = tenantLayout(ctx, tenant.name);
      const holders = await layoutStore(ctx).semaphores.listForTenant(tenant.name);
      return [...layout.semaphores.values()]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((semaphore) => ({
          semaphore,
          tenant: tenant.name,
          holders: holders.filter((h) => h.semaphore === semaphore.name && h.global === semaphore.global),
        }));
    },
  }),
);
