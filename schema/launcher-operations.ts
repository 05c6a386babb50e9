/**
 * Launcher admin mutations: hold and release a node, cancel a nodeset request, build an image,
 * delete image build artifacts and uploads, validate an upload. Each takes one `input` and returns
 * its payload or a typed error. The records they act on are in `launcher-runtime.ts`.
 */
import { randomUUID } from 'node:crypto';
import { createRepositories, defaultDrivers, type LauncherContext } from '../src/launcher/context';
import {
  imageBuild,
  imageBuildArtifactDelete,
  imageUploadDelete,
  imageUploadValidate,
  type LauncherOperationError,
  nodeHold,
  nodeRelease,
  nodesetRequestCancel,
  type OperationResult,
} from '../src/launcher/operations';
import { adminScope, beginControl } from './infra/access';
import { builder } from './infra/builder';
import { FREE_TEXT } from './infra/input-hygiene';
import type { GraphQLContext } from './infra/context';
import { ConflictError, InvalidInputError, NotFoundError } from './infra/errors';
import { ProviderNode } from './launcher-runtime';

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A launcher context for API requests (store and layouts; no loop). */
function launcherContext(ctx: GraphQLContext): LauncherContext {
  return {
    knex: ctx.services.knex,
    config: ctx.services.config,
    layouts: ctx.services.tenants,
    holder: `api-${ctx.requestId}`,
    now: () => ctx.services.now(),
    uuid: () => randomUUID().replace(/-/g, ''),
    logger: silentLogger,
    repos: createRepositories(ctx.services.knex),
    drivers: defaultDrivers(),
  };
}

function actor(ctx: GraphQLContext): string | null {
  return ctx.principal?.subject ?? null;
}

/** The value of a successful operation, or its failure thrown as the matching typed GraphQL error. */
function unwrap<T>(result: OperationResult<T>): T {
  if (result.ok) {
    return result.value;
  }
  const error: LauncherOperationError = result.error;
  switch (error.kind) {
    case 'not-found':
      throw new NotFoundError(error.resource ?? 'Object', error.key ?? '', error.message);
    case 'invalid-input':
      throw new InvalidInputError(error.message);
    case 'conflict':
      throw new ConflictError(error.message);
  }
}

const LAUNCHER_ERRORS = [NotFoundError, InvalidInputError, ConflictError];

const NodeInput = builder.inputType('NodeHoldInput', {
  description: 'A node to hold (`PUT T/nodes/{id}` with state `hold`).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    nodeId: t.string({ required: true, description: 'Node id.' }),
    comment: t.string({ description: 'Why the node is held.', extensions: FREE_TEXT }),
  }),
});

const NodeReleaseInput = builder.inputType('NodeReleaseInput', {
  description: 'A node to release (`PUT T/nodes/{id}` with state `used`); it is then deleted.',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    nodeId: t.string({ required: true, description: 'Node id.' }),
  }),
});

const RequestCancelInput = builder.inputType('NodesetRequestCancelInput', {
  description: 'A nodeset request to cancel (`DELETE T/nodeset-requests/{id}`).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    requestId: t.string({ required: true, description: 'Request id.' }),
  }),
});

const ImageBuildInput = builder.inputType('ImageBuildInput', {
  description: 'A zuul image to build (`POST T/image/{name}/build`).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name.' }),
    imageName: t.string({ required: true, description: 'Image name.' }),
  }),
});

const ArtifactInput = builder.inputType('ImageBuildArtifactDeleteInput', {
  description: 'An image build artifact to delete (`DELETE T/image-build-artifact/{id}`).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name (the build tenant).' }),
    artifactId: t.string({ required: true, description: 'Artifact id.' }),
  }),
});

const UploadInput = builder.inputType('ImageUploadInput', {
  description: 'An image upload (`DELETE T/image-upload/{id}`, `POST T/image-upload/{id}/validate`).',
  fields: (t) => ({
    tenant: t.string({ required: true, description: 'Tenant name (the build tenant).' }),
    uploadId: t.string({ required: true, description: 'Upload id.' }),
  }),
});

const Done = builder.simpleObject('LauncherOperationDone', {
  description: 'The operation was carried out.',
  fields: (t) => ({
    tenant: t.string({ nullable: false, description: 'Tenant name.' }),
    id: t.string({ nullable: false, description: 'Id of the object acted on.' }),
  }),
});

const ImageBuildRequested = builder.simpleObject('ImageBuildRequested', {
  description: 'An image-build trigger event was queued.',
  fields: (t) => ({
    tenant: t.string({ nullable: false, description: 'Tenant name.' }),
    eventId: t.int({ nullable: false, description: 'Id of the queued trigger event.' }),
  }),
});

builder.mutationFields((t) => ({
  nodeHold: t.field({
    type: ProviderNode,
    nullable: false,
    description: 'Hold a node until it is released (no expiry).',
    args: { input: t.arg({ type: NodeInput, required: true, description: 'The node.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'NodeHoldResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      return unwrap(
        await nodeHold(launcherContext(ctx), {
          tenant: input.tenant,
          nodeId: input.nodeId,
          comment: input.comment ?? null,
          actor: actor(ctx),
        }),
      );
    },
  }),
  nodeRelease: t.field({
    type: ProviderNode,
    nullable: false,
    description: 'Release a node (state `used`); the launcher deletes it.',
    args: { input: t.arg({ type: NodeReleaseInput, required: true, description: 'The node.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'NodeReleaseResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      return unwrap(
        await nodeRelease(launcherContext(ctx), { tenant: input.tenant, nodeId: input.nodeId, actor: actor(ctx) }),
      );
    },
  }),
  nodesetRequestCancel: t.field({
    type: Done,
    nullable: false,
    description: 'Cancel a nodeset request; a job waiting for it gets NODE_FAILURE.',
    args: { input: t.arg({ type: RequestCancelInput, required: true, description: 'The request.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'NodesetRequestCancelResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      unwrap(
        await nodesetRequestCancel(launcherContext(ctx), {
          tenant: input.tenant,
          requestId: input.requestId,
          actor: actor(ctx),
        }),
      );
      return { tenant: input.tenant, id: input.requestId };
    },
  }),
  imageBuild: t.field({
    type: ImageBuildRequested,
    nullable: false,
    description: 'Request a build of a zuul image (an `image-build` trigger event).',
    args: { input: t.arg({ type: ImageBuildInput, required: true, description: 'The image.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'ImageBuildResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      const { eventId } = unwrap(
        await imageBuild(launcherContext(ctx), { tenant: input.tenant, imageName: input.imageName, actor: actor(ctx) }),
      );
      return { tenant: input.tenant, eventId };
    },
  }),
  imageBuildArtifactDelete: t.field({
    type: Done,
    nullable: false,
    description:
      'Delete an image build artifact and its uploads; refused (ConflictError) while a node uses one of them.',
    args: { input: t.arg({ type: ArtifactInput, required: true, description: 'The artifact.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'ImageBuildArtifactDeleteResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      unwrap(
        await imageBuildArtifactDelete(launcherContext(ctx), {
          tenant: input.tenant,
          artifactId: input.artifactId,
          actor: actor(ctx),
        }),
      );
      return { tenant: input.tenant, id: input.artifactId };
    },
  }),
  imageUploadDelete: t.field({
    type: Done,
    nullable: false,
    description: 'Delete an image upload; refused (ConflictError) while a node uses it.',
    args: { input: t.arg({ type: UploadInput, required: true, description: 'The upload.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'ImageUploadDeleteResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      unwrap(
        await imageUploadDelete(launcherContext(ctx), {
          tenant: input.tenant,
          uploadId: input.uploadId,
          actor: actor(ctx),
        }),
      );
      return { tenant: input.tenant, id: input.uploadId };
    },
  }),
  imageUploadValidate: t.field({
    type: Done,
    nullable: false,
    description: 'Mark a ready upload validated (operator attestation); ConflictError when it is not ready.',
    args: { input: t.arg({ type: UploadInput, required: true, description: 'The upload.' }) },
    authScopes: (_root, { input }, ctx) => adminScope(ctx, input.tenant),
    errors: { types: LAUNCHER_ERRORS, directResult: true, union: { name: 'ImageUploadValidateResult' } },
    resolve: async (_root, { input }, ctx) => {
      beginControl(ctx, input.tenant);
      unwrap(
        await imageUploadValidate(launcherContext(ctx), {
          tenant: input.tenant,
          uploadId: input.uploadId,
          actor: actor(ctx),
        }),
      );
      return { tenant: input.tenant, id: input.uploadId };
    },
  }),
}));
