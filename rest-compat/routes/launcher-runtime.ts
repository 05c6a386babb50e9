/**
 * Launcher runtime endpoints (docs/rest.md#nodes-nodeset-requests-and-image-actions,
 * docs/rest.md#deliberate-differences-from-the-reference): nodes and nodeset requests of the tenant, and the admin
 * actions on nodes, requests, images, artifacts and uploads. Every action runs one launcher mutation; its typed errors
 * carry the REST texts.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  RestImageBuildArtifactDeleteDocument,
  RestImageBuildDocument,
  RestImageUploadDeleteDocument,
  RestImageUploadValidateDocument,
  RestNodeHoldDocument,
  RestNodeReleaseDocument,
  RestNodesDocument,
  RestNodesetRequestCancelDocument,
  RestNodesetRequestsDocument,
  type RestNodesQuery,
  type RestNodesetRequestsQuery,
} from '../generated/graphql';
import { RestError, badRequest, notFound } from '../errors';
import { arrayOf, bool, int, isoNaive as isoNaiveSchema, nullable, object, str } from '../json-schema';
import type { BoundOperationRunner, RestEndpoint, RestRoute } from '../route';
import { isoNaive, orNotFound } from '../wire';

/** The reference returns whole lists; GraphQL pages hold at most this many records. */
const PAGE_SIZE = 1000;

const TENANT_404 = 'Tenant not found';

type TenantNodes = Extract<RestNodesQuery['tenant'], { __typename: 'Tenant' }>['nodes']['nodes'][number];
type TenantRequests = Extract<
  RestNodesetRequestsQuery['tenant'],
  { __typename: 'Tenant' }
>['nodesetRequests']['nodes'][number];

interface MutationOutcome {
  __typename: string;
  errorMessage?: string;
}

/** Typed launcher errors -> REST errors: 404 unknown, 400 invalid input, 409 conflict. */
function orLauncherError(outcome: MutationOutcome): void {
  const message = outcome.errorMessage ?? 'Unexpected error.';
  switch (outcome.__typename) {
    case 'NotFoundError':
      throw notFound(message);
    case 'InvalidInputError':
      throw badRequest(message);
    case 'ConflictError':
      throw new RestError(409, 'Conflict', message);
    default:
      return;
  }
}

/** Runs a launcher mutation whose only result field is `field`, mapping its typed errors. */
async function runAction<TResult, TVariables extends Record<string, unknown>>(
  run: BoundOperationRunner,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  field: keyof TResult,
): Promise<void> {
  const data = await run(document, variables);
  orLauncherError(data[field] as MutationOutcome);
}

/** Fetches every page of a tenant connection (the REST lists are not paged). */
async function allPages<T>(fetchPage: (offset: number) => Promise<{ hasNextPage: boolean; items: T[] }>): Promise<T[]> {
  const items: T[] = [];
  for (;;) {
    const page = await fetchPage(items.length);
    items.push(...page.items);
    if (!page.hasNextPage || page.items.length === 0) {
      return items;
    }
  }
}

const nodeSchema = object({
  id: str('Node id (equal to uuid)'),
  uuid: str(),
  type: arrayOf(str(), 'Label list (one label)'),
  label: str(),
  connection_type: nullable(str('`local` or `ssh`')),
  external_id: nullable(str()),
  state: str('requested, building, ready, failed, tempfailed, in-use, used, outdated or hold'),
  state_time: isoNaiveSchema(),
  comment: nullable(str()),
  max_ready_age: nullable(int()),
  interface_ip: nullable(str()),
  public_ipv4: nullable(str('Sluice drivers (static, local) have no cloud addresses: always null')),
  private_ipv4: nullable(str('Always null (see public_ipv4)')),
  public_ipv6: nullable(str('Always null (see public_ipv4)')),
  private_ipv6: nullable(str('Always null (see public_ipv4)')),
  slot: nullable(int('Always null: no slot accounting')),
  az: nullable(str('Always null: no availability zones')),
  cloud: nullable(str('Always null: no clouds')),
  provider: nullable(str('Canonical provider name; null while unplaced')),
  region: nullable(str('Always null: no regions')),
  username: nullable(str()),
  hold_expiration: nullable(int()),
  is_locked: bool(),
  lock_holder: nullable(str()),
});

function mapNode(node: TenantNodes): Record<string, unknown> {
  return {
    id: node.uuid,
    uuid: node.uuid,
    type: [node.label],
    label: node.label,
    connection_type: node.connectionType,
    external_id: node.externalId,
    state: node.state.toLowerCase().replace(/_/g, '-'),
    state_time: isoNaive(node.stateTime),
    comment: node.comment,
    max_ready_age: node.maxReadyAge,
    interface_ip: node.interfaceIp,
    public_ipv4: null,
    private_ipv4: null,
    public_ipv6: null,
    private_ipv6: null,
    slot: null,
    az: null,
    cloud: null,
    provider: node.provider,
    region: null,
    username: node.username,
    hold_expiration: node.holdExpiration,
    is_locked: node.isLocked,
    lock_holder: node.lockHolder,
  };
}

const requestSchema = object({
  uuid: str(),
  state: str('requested, accepted, fulfilled or failed'),
  pipeline_name: nullable(str()),
  buildset_uuid: nullable(str()),
  job_name: nullable(str()),
  labels: arrayOf(str()),
  priority: int(),
  request_time: isoNaiveSchema(),
  zuul_event_id: nullable(str()),
  image_names: nullable(arrayOf(str())),
  image_upload_uuid: nullable(str()),
  relative_priority: int(),
  provider_node_data: arrayOf(
    object({ uuid: nullable(str()), executor_zone: nullable(str()), failed_providers: arrayOf(str()) }),
  ),
  is_locked: bool(),
  lock_holder: nullable(str()),
});

function mapRequest(request: TenantRequests): Record<string, unknown> {
  return {
    uuid: request.uuid,
    state: request.state.toLowerCase().replace(/_/g, '-'),
    pipeline_name: request.pipelineName,
    buildset_uuid: request.buildsetUuid,
    job_name: request.jobName,
    labels: request.labels,
    priority: request.priority,
    request_time: isoNaive(request.requestTime),
    zuul_event_id: request.zuulEventId,
    image_names: request.imageNames,
    image_upload_uuid: request.imageUploadUuid,
    relative_priority: request.relativePriority,
    provider_node_data: request.providerNodeData.map((data) => ({
      uuid: data.uuid,
      executor_zone: data.executorZone,
      failed_providers: data.failedProviders,
    })),
    is_locked: request.isLocked,
    lock_holder: request.lockHolder,
  };
}

export const nodesRoute: RestRoute = {
  name: 'nodes',
  pattern: 'tenant/{tenant_name}/nodes',
  endpoints: {
    GET: {
      summary: 'Nodes of the tenant',
      auth: 'public',
      operations: ['RestNodes'],
      responses: { current: { status: 200, schema: arrayOf(nodeSchema), description: 'Nodes, newest first' } },
      errors: { 404: TENANT_404 },
      handler: async (req) => {
        const nodes = await allPages(async (offset) => {
          const tenant = orNotFound(
            (await req.run(RestNodesDocument, { tenant: req.params.tenant_name, first: PAGE_SIZE, offset })).tenant,
            TENANT_404,
          );
          return { hasNextPage: tenant.nodes.pageInfo.hasNextPage, items: tenant.nodes.nodes };
        });
        return { body: nodes.map(mapNode) };
      },
    },
  },
};

/**
 * Body of `PUT T/nodes/{node_id}`: only these states are accepted
 * (docs/rest.md#nodes-nodeset-requests-and-image-actions).
 */
const NODE_ACTIONS = ['hold', 'used'] as const;

export const nodeRoute: RestRoute = {
  name: 'node',
  pattern: 'tenant/{tenant_name}/nodes/{node_id}',
  endpoints: {
    PUT: {
      summary: 'Hold a node (`hold`) or release it (`used`)',
      auth: 'admin',
      operations: ['RestNodeHold', 'RestNodeRelease'],
      body: { schema: object({}, { state: str('`hold` or `used`') }), required: false },
      responses: {
        current: { status: 201, schema: { type: 'null' }, description: 'The node changed state; body `null`' },
      },
      errors: {
        400: 'Invalid request body',
        401: 'Missing or invalid token',
        403: 'Not a tenant admin',
        404: 'Node not found',
        409: 'The node cannot change state now',
      },
      handler: async (req) => {
        const state = req.body.state;
        if (typeof state !== 'string' || !(NODE_ACTIONS as readonly string[]).includes(state)) {
          throw badRequest('Invalid request body');
        }
        const input = { tenant: req.params.tenant_name, nodeId: req.params.node_id };
        if (state === 'hold') {
          await runAction(req.run, RestNodeHoldDocument, { input }, 'nodeHold');
        } else {
          await runAction(req.run, RestNodeReleaseDocument, { input }, 'nodeRelease');
        }
        return { body: null };
      },
    },
  },
};

export const nodesetRequestsRoute: RestRoute = {
  name: 'nodeset-requests',
  pattern: 'tenant/{tenant_name}/nodeset-requests',
  endpoints: {
    GET: {
      summary: 'Nodeset requests of the tenant',
      auth: 'public',
      operations: ['RestNodesetRequests'],
      responses: { current: { status: 200, schema: arrayOf(requestSchema), description: 'Requests, newest first' } },
      errors: { 404: TENANT_404 },
      handler: async (req) => {
        const requests = await allPages(async (offset) => {
          const tenant = orNotFound(
            (await req.run(RestNodesetRequestsDocument, { tenant: req.params.tenant_name, first: PAGE_SIZE, offset }))
              .tenant,
            TENANT_404,
          );
          return { hasNextPage: tenant.nodesetRequests.pageInfo.hasNextPage, items: tenant.nodesetRequests.nodes };
        });
        return { body: requests.map(mapRequest) };
      },
    },
  },
};

/** An admin action answering `status` with body null (204 sends no body). */
function adminAction(
  summary: string,
  operation: string,
  status: 200 | 204,
  errors: Record<404 | 409, string> | Record<404, string>,
  handler: RestEndpoint['handler'],
): RestEndpoint {
  return {
    summary,
    auth: 'admin',
    operations: [operation],
    responses: {
      current:
        status === 204
          ? { status, description: 'Done; no body' }
          : { status, schema: { type: 'null' }, description: 'Done; body `null`' },
    },
    errors: { 401: 'Missing or invalid token', 403: 'Not a tenant admin', ...errors },
    handler,
  };
}

export const nodesetRequestRoute: RestRoute = {
  name: 'nodeset-request',
  pattern: 'tenant/{tenant_name}/nodeset-requests/{request_id}',
  endpoints: {
    DELETE: adminAction(
      'Cancel a nodeset request',
      'RestNodesetRequestCancel',
      204,
      { 404: 'Request not found' },
      async (req) => {
        await runAction(
          req.run,
          RestNodesetRequestCancelDocument,
          { input: { tenant: req.params.tenant_name, requestId: req.params.request_id } },
          'nodesetRequestCancel',
        );
        return { body: null };
      },
    ),
  },
};

export const imageBuildRoute: RestRoute = {
  name: 'image-build',
  pattern: 'tenant/{tenant_name}/image/{image_name}/build',
  endpoints: {
    POST: {
      ...adminAction(
        'Request a build of a `zuul` image',
        'RestImageBuild',
        200,
        { 404: 'Image not found in tenant' },
        async (req) => {
          await runAction(
            req.run,
            RestImageBuildDocument,
            { input: { tenant: req.params.tenant_name, imageName: req.params.image_name } },
            'imageBuild',
          );
          return { body: null };
        },
      ),
      body: { schema: object({}), required: false },
    },
  },
};

export const imageBuildArtifactRoute: RestRoute = {
  name: 'image-build-artifact',
  pattern: 'tenant/{tenant_name}/image-build-artifact/{artifact_id}',
  endpoints: {
    DELETE: adminAction(
      'Delete an image build artifact (build tenant only)',
      'RestImageBuildArtifactDelete',
      204,
      { 404: 'Image build artifact not found in tenant', 409: 'A node uses one of its uploads' },
      async (req) => {
        await runAction(
          req.run,
          RestImageBuildArtifactDeleteDocument,
          { input: { tenant: req.params.tenant_name, artifactId: req.params.artifact_id } },
          'imageBuildArtifactDelete',
        );
        return { body: null };
      },
    ),
  },
};

export const imageUploadRoute: RestRoute = {
  name: 'image-upload',
  pattern: 'tenant/{tenant_name}/image-upload/{upload_id}',
  endpoints: {
    DELETE: adminAction(
      'Delete an image upload (build tenant only)',
      'RestImageUploadDelete',
      204,
      { 404: 'Image upload not found in tenant', 409: 'A node uses the upload' },
      async (req) => {
        await runAction(
          req.run,
          RestImageUploadDeleteDocument,
          { input: { tenant: req.params.tenant_name, uploadId: req.params.upload_id } },
          'imageUploadDelete',
        );
        return { body: null };
      },
    ),
  },
};

export const imageUploadValidateRoute: RestRoute = {
  name: 'image-upload-validate',
  pattern: 'tenant/{tenant_name}/image-upload/{upload_id}/validate',
  endpoints: {
    POST: {
      ...adminAction(
        'Mark a ready upload validated (operator attestation)',
        'RestImageUploadValidate',
        200,
        { 404: 'Image upload not found in tenant', 409: 'The upload is not ready' },
        async (req) => {
          await runAction(
            req.run,
            RestImageUploadValidateDocument,
            { input: { tenant: req.params.tenant_name, uploadId: req.params.upload_id } },
            'imageUploadValidate',
          );
          return { body: null };
        },
      ),
      body: { schema: object({}), required: false },
    },
  },
};
