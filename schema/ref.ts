/** Ref: a tested change, branch head or tag, shared by buildsets and builds. */
import type { RefRecord } from '../src/store/repositories/refs';
import { canReadTenant } from './infra/access';
import { builder } from './infra/builder';
import { historyStore } from './infra/history-store';
import { parseDatabaseId } from './infra/pagination';

export const Ref = builder.loadableNodeRef('Ref', {
  // A ref is visible when a buildset of a tenant the caller may read uses it.
  load: async (ids: number[], ctx) => {
    const rows = await historyStore(ctx).refs.findByIdsWithTenants(ids);
    return rows.filter(({ tenants }) => tenants.some((tenant) => canReadTenant(ctx, tenant))).map(({ ref }) => ref);
  },
  sort: (ref: RefRecord) => ref.id,
  id: { resolve: (ref) => ref.id, parse: parseDatabaseId },
});

Ref.implement({
  description: 'A ref that was tested: a change patchset, a branch head or a tag of one project.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { nullable: false, description: 'Database id of the ref.' }),
    project: t.exposeString('project', {
      nullable: false,
      description: 'Project name (not canonical), e.g. `org/project`, as the reference keeps it.',
    }),
    projectCanonicalName: t.exposeString('projectCanonical', {
      nullable: false,
      description: 'Canonical project name, e.g. `review.example.com/org/project`.',
    }),
    ref: t.exposeString('ref', {
      nullable: false,
      description: 'The git ref, e.g. `refs/changes/01/1/1`, `refs/heads/master`, `refs/tags/v1`.',
    }),
    refUrl: t.exposeString('refUrl', {
      description:
        "Web link of the change or ref: the connection's URL template, else Sluice's dashboard page " +
        '(docs/configuration.md#ref-url-templates); null for refs recorded before Sluice kept links.',
    }),
    change: t.exposeInt('change', { description: 'Change number; null for refs that are not changes.' }),
    patchset: t.exposeString('patchset', {
      description: 'Patchset of the change; null for refs that are not changes.',
    }),
    oldrev: t.exposeString('oldrev', { description: 'Revision before a ref update; null when not an update.' }),
    newrev: t.exposeString('newrev', { description: 'Revision after a ref update; null when not an update.' }),
    branch: t.exposeString('branch', { description: 'Target branch; null for tags and plain refs.' }),
  }),
});
