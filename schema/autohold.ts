/** Autohold requests (docs/rest.md#autohold): queries; the mutations live in control.ts. */
import { GraphQLError } from 'graphql';
import type { AutoholdRecord } from '../src/store/repositories/autohold';
import { builder } from './infra/builder';
import { NotFoundError } from './infra/errors';
import { requireEngine } from './infra/control-errors';
import { Tenant } from './tenant';

const AutoholdNodes = builder.objectRef<{ build: string; nodes: string[] }>('AutoholdHeldNodes').implement({
  description: 'Nodes held for one failed build.',
  fields: (t) => ({
    build: t.exposeString('build', { nullable: false, description: 'Uuid of the build whose nodes are held.' }),
    nodes: t.exposeStringList('nodes', { nullable: false, description: 'Ids of the held nodes.' }),
  }),
});

export const Autohold = builder.objectRef<AutoholdRecord>('Autohold').implement({
  description: 'A request to hold the nodes of failing builds of a job for inspection.',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: false, description: 'Request id (10 digits, zero padded).' }),
    tenant: t.exposeString('tenant', { nullable: false, description: 'Tenant name.' }),
    project: t.exposeString('project', { nullable: false, description: 'Canonical project name.' }),
    job: t.exposeString('job', { nullable: false, description: 'Job name.' }),
    refFilter: t.exposeString('refFilter', {
      nullable: false,
      description: 'Regular expression the build ref must match.',
    }),
    reason: t.exposeString('reason', { nullable: false, description: 'Why the nodes are held.' }),
    maxCount: t.exposeInt('maxCount', { nullable: false, description: 'How many failed builds to hold.' }),
    currentCount: t.exposeInt('currentCount', { nullable: false, description: 'How many have been held so far.' }),
    nodeExpiration: t.exposeInt('nodeExpiration', {
      nullable: false,
      description: 'Seconds held nodes are kept (0 = indefinitely).',
    }),
    expired: t.expose('expired', {
      type: 'DateTime',
      description: 'When the request was exhausted; null while active.',
    }),
    created: t.expose('created', { type: 'DateTime', nullable: false, description: 'When the request was made.' }),
    nodes: t.field({
      type: [AutoholdNodes],
      nullable: false,
      description: 'Held nodes, per build.',
      resolve: (record) => record.nodes,
    }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  autoholds: t.field({
    type: [Autohold],
    nullable: false,
    description: 'Autohold requests of the tenant, oldest first.',
    args: { project: t.arg.string({ description: 'Only requests whose canonical project name ends with this.' }) },
    resolve: (tenant, { project }, ctx) => requireEngine(ctx).listAutoholds(tenant.name, project ?? undefined),
  }),
  autohold: t.field({
    type: Autohold,
    description: 'One autohold request; a NotFoundError when the tenant has none with this id.',
    args: { id: t.arg.string({ required: true, description: 'Request id; zero padding is optional.' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (tenant, { id }, ctx) => {
      const found = await requireEngine(ctx).getAutohold(tenant.name, id);
      if (!found.ok && found.error.code === 'INVALID_INPUT') {
        // An id beyond the store's range (docs/graphql.md#input-rules).
        throw new GraphQLError(found.error.message, { extensions: { code: 'BAD_USER_INPUT', field: 'id' } });
      }
      if (!found.ok) {
        throw new NotFoundError('Autohold', id, found.error.message);
      }
      return found.value;
    },
  }),
}));
