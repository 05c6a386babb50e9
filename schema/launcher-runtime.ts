/**
 * Launcher runtime records (docs/rest.md#nodes-nodeset-requests-and-image-actions, docs/rest.md#launcher-objects,
 * docs/rest.md#deliberate-differences-from-the-reference): nodes and nodeset requests of a tenant (connections with
 * filters). The admin mutations on them are in `launcher-operations.ts`; labels, flavors, providers, images and image
 * artifacts are in `launcher.ts`.
 */
import type { NodeRecord, NodesetRequestRecord } from '../src/model/launcher';
import { NODE_STATES, NODESET_REQUEST_STATES } from '../src/model/launcher';
import { createRepositories, providersOf } from '../src/launcher/context';
import { builder } from './infra/builder';
import { tenantListField } from './infra/tenant-list';
import { Tenant } from './tenant';

const enumName = (value: string): string => value.toUpperCase().replace(/-/g, '_');

const NODE_STATE_TEXT: Record<(typeof NODE_STATES)[number], string> = {
  requested: 'Created, not launched yet (waiting for quota or a free host).',
  building: 'Being launched; counts toward quota.',
  ready: 'Up and scanned; reusable when unassigned.',
  failed: 'Launch failed permanently (counts toward the provider’s launch attempts).',
  tempfailed: 'Launch failed for lack of quota; retried without counting.',
  'in-use': 'Used by a build.',
  used: 'Returned after a build; to be deleted.',
  outdated: 'Unassigned and past its max-ready-age (or its label configuration is gone); to be deleted.',
  hold: 'Held for an autohold request or by an administrator.',
};

const REQUEST_STATE_TEXT: Record<(typeof NODESET_REQUEST_STATES)[number], string> = {
  requested: 'Waiting for a launcher (or for quota).',
  accepted: 'Nodes are being provided.',
  fulfilled: 'Every node is ready and handed to the job.',
  failed: 'No provider could provide the nodes; the job gets NODE_FAILURE.',
};

export const NodeStateEnum = builder.enumType('NodeState', {
  description:
    'States of a provider node (docs/launcher.md#node-and-request-states); REST spells them in lower case with dashes.',
  values: Object.fromEntries(
    NODE_STATES.map((state) => [enumName(state), { value: state, description: NODE_STATE_TEXT[state] }]),
  ),
});

export const NodesetRequestStateEnum = builder.enumType('NodesetRequestState', {
  description: 'States of a nodeset request: requested -> accepted -> fulfilled | failed.',
  values: Object.fromEntries(
    NODESET_REQUEST_STATES.map((state) => [enumName(state), { value: state, description: REQUEST_STATE_TEXT[state] }]),
  ),
});

export const ProviderNode = builder.objectRef<NodeRecord>('ProviderNode').implement({
  description: 'A node from a launcher provider (REST `T/nodes`).',
  fields: (t) => ({
    uuid: t.exposeString('uuid', { nullable: false, description: 'Node id (REST `id` and `uuid`).' }),
    databaseId: t.exposeInt('id', {
      nullable: false,
      description: 'Database id: lists are newest first by it (a live list places a node it did not show yet by it).',
    }),
    label: t.exposeString('label', { nullable: false, description: 'Label the node was launched for.' }),
    state: t.field({
      type: NodeStateEnum,
      nullable: false,
      description: 'Current state.',
      resolve: (node) => node.state,
    }),
    stateTime: t.expose('stateTime', {
      type: 'DateTime',
      nullable: false,
      description: 'When the node entered its state.',
    }),
    provider: t.exposeString('provider', {
      description: 'Canonical name of the provider; null for a pool node not yet placed.',
    }),
    tenant: t.exposeString('tenant', { description: 'Tenant the node is assigned to; null while unassigned.' }),
    requestUuid: t.exposeString('requestUuid', { description: 'Nodeset request the node serves, if any.' }),
    connectionType: t.exposeString('connectionType', {
      description: '`local` (a directory on the executor host) or `ssh`.',
    }),
    externalId: t.exposeString('externalId', { description: 'Driver id: the static host name, or the local node id.' }),
    interfaceIp: t.exposeString('interfaceIp', { description: 'Address the executor connects to.' }),
    host: t.exposeString('host', { description: 'Host name.' }),
    port: t.exposeInt('port', { description: 'Connection port.' }),
    username: t.exposeString('username', { description: 'Login user.' }),
    comment: t.exposeString('comment', { description: 'Hold reason, or the reason a launch failed.' }),
    holdExpiration: t.exposeInt('holdExpiration', {
      description: 'Seconds a held node is kept (null or 0: until released).',
    }),
    maxReadyAge: t.exposeInt('maxReadyAge', { description: 'Seconds an unassigned ready node is kept.' }),
    imageUploadUuid: t.exposeString('imageUploadUuid', { description: 'Image upload the node booted from.' }),
    isLocked: t.boolean({
      nullable: false,
      description: 'Whether a launcher holds the node.',
      resolve: (node) => node.lockHolder !== null,
    }),
    lockHolder: t.exposeString('lockHolder', { description: 'Launcher holding the node, if any.' }),
  }),
});

const ProviderNodeData = builder.simpleObject('ProviderNodeData', {
  description: 'Per label index of a nodeset request: its node and the providers that failed it.',
  fields: (t) => ({
    uuid: t.string({ description: 'Node serving this label index.' }),
    executorZone: t.string({ description: 'Executor zone of the node.' }),
    failedProviders: t.stringList({ nullable: false, description: 'Providers whose launches failed for this index.' }),
  }),
});

export const NodesetRequest = builder.objectRef<NodesetRequestRecord>('NodesetRequest').implement({
  description: 'A request for the nodes of one job (REST `T/nodeset-requests`).',
  fields: (t) => ({
    uuid: t.exposeString('uuid', { nullable: false, description: 'Request id.' }),
    databaseId: t.exposeInt('id', {
      nullable: false,
      description:
        'Database id: lists are newest first by it (a live list places a request it did not show yet by it).',
    }),
    state: t.field({
      type: NodesetRequestStateEnum,
      nullable: false,
      description: 'Current state.',
      resolve: (r) => r.state,
    }),
    stateTime: t.expose('stateTime', {
      type: 'DateTime',
      nullable: false,
      description: 'When the request entered its state.',
    }),
    pipelineName: t.exposeString('pipelineName', { description: 'Pipeline of the job.' }),
    buildsetUuid: t.exposeString('buildsetUuid', { description: 'Buildset of the job.' }),
    jobName: t.exposeString('jobName', { description: 'Job the nodes are for.' }),
    project: t.exposeString('project', { description: 'Project of the item (relative priority is per project).' }),
    labels: t.exposeStringList('labels', {
      nullable: false,
      description: 'One label per node of the current alternative.',
    }),
    alternatives: t.field({
      type: ['String'],
      nullable: false,
      description: 'Every nodeset alternative as comma-separated labels, in order.',
      resolve: (r) => r.alternatives.map((a) => a.join(',')),
    }),
    alternativeIndex: t.exposeInt('alternativeIndex', {
      nullable: false,
      description: 'Index of the alternative being tried.',
    }),
    priority: t.exposeInt('priority', {
      nullable: false,
      description: 'Pipeline precedence priority (100 high, 200 normal, 300 low).',
    }),
    relativePriority: t.exposeInt('relativePriority', {
      nullable: false,
      description: 'Position among the queued work of the same project (quantized).',
    }),
    requestTime: t.expose('requestTime', {
      type: 'DateTime',
      nullable: false,
      description: 'When the request was made.',
    }),
    zuulEventId: t.exposeString('zuulEventId', { description: 'Triggering event id.' }),
    imageNames: t.exposeStringList('imageNames', { description: 'Images of an image build or validation item.' }),
    imageUploadUuid: t.exposeString('imageUploadUuid', {
      description: 'Upload the nodes must boot from (image validation).',
    }),
    preferredProvider: t.exposeString('preferredProvider', { description: 'Provider of a paused parent job’s nodes.' }),
    failureReason: t.exposeString('failureReason', {
      description: 'Why the request (or an earlier alternative) failed.',
    }),
    providerNodeData: t.field({
      type: [ProviderNodeData],
      nullable: false,
      description: 'Per label index: node and failed providers.',
      resolve: (r) =>
        r.providerNodeData.map((d) => ({
          uuid: d.uuid,
          executorZone: d.executor_zone,
          failedProviders: d.failed_providers,
        })),
    }),
    isLocked: t.boolean({
      nullable: false,
      description: 'Whether a launcher holds the request.',
      resolve: (r) => r.lockHolder !== null,
    }),
    lockHolder: t.exposeString('lockHolder', { description: 'Launcher that last worked on the request.' }),
  }),
});

export const NodeFilter = builder.inputType('NodeFilter', {
  description: 'Filters of nodes; every field is optional and values are OR’ed.',
  fields: (t) => ({
    states: t.field({ type: [NodeStateEnum], description: 'Only nodes in these states.' }),
    labels: t.stringList({ description: 'Only nodes of these labels.' }),
    providers: t.stringList({ description: 'Only nodes of these providers (canonical names).' }),
  }),
});

export const NodesetRequestFilter = builder.inputType('NodesetRequestFilter', {
  description: 'Filters of nodeset requests.',
  fields: (t) => ({
    states: t.field({ type: [NodesetRequestStateEnum], description: 'Only requests in these states.' }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  nodes: tenantListField(t, {
    name: 'ProviderNode',
    type: ProviderNode,
    filter: NodeFilter,
    texts: {
      field: 'Nodes assigned to the tenant or unassigned on its providers.',
      filter: 'Which nodes; all when absent.',
      page: 'A page of nodes, newest first.',
      item: 'A node',
      totalCount: 'Nodes matching the filter on all pages.',
    },
    rows: (ctx, tenant, filter) => {
      const { nodes } = createRepositories(ctx.services.knex);
      const providers = providersOf({ layouts: ctx.services.tenants, config: ctx.services.config }, tenant).map(
        (p) => p.canonicalName,
      );
      return {
        list: (page) => nodes.list(tenant, providers, filter, page),
        count: () => nodes.count(tenant, providers, filter),
      };
    },
  }),
  nodesetRequests: tenantListField(t, {
    name: 'NodesetRequest',
    type: NodesetRequest,
    filter: NodesetRequestFilter,
    texts: {
      field: 'Nodeset requests of the tenant.',
      filter: 'Which requests; all when absent.',
      page: 'A page of nodeset requests, newest first.',
      item: 'A nodeset request',
      totalCount: 'Requests matching the filter on all pages.',
    },
    rows: (ctx, tenant, filter) => {
      const { requests } = createRepositories(ctx.services.knex);
      return { list: (page) => requests.list(tenant, filter, page), count: () => requests.count(tenant, filter) };
    },
  }),
}));
