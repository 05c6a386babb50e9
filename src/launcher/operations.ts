/**
 * Administrator operations on nodes, nodeset requests and images
 * (docs/rest.md#nodes-nodeset-requests-and-image-actions, docs/rest.md#deliberate-differences-from-the-reference). Each
 * returns a typed result: expected failures are values, not exceptions, so REST and GraphQL map them to the same
 * statuses and texts. Authorization (tenant admin) is the caller's job (schema scope).
 */
import type { NodeRecord } from '../model/launcher';
import type { SystemEventType } from '../store/repositories/system-events';
import type { LauncherContext } from './context';
import { providersOf } from './context';
import { emitImageBuild } from './image-manager';
import { cancelNodesetRequest } from './node-gateway';

export type LauncherErrorKind = 'not-found' | 'invalid-input' | 'conflict';

/** An expected failure of an admin operation; `message` is the REST error text. */
export class LauncherOperationError extends Error {
  constructor(
    readonly kind: LauncherErrorKind,
    message: string,
    /** For not-found: the kind of object looked up. */
    readonly resource: string | null = null,
    readonly key: string | null = null,
  ) {
    super(message);
    this.name = 'LauncherOperationError';
  }
}

export type OperationResult<T> = { ok: true; value: T } | { ok: false; error: LauncherOperationError };

const ok = <T>(value: T): OperationResult<T> => ({ ok: true, value });
const fail = <T>(error: LauncherOperationError): OperationResult<T> => ({ ok: false, error });

export const NODE_NOT_FOUND = 'Node not found';
export const REQUEST_NOT_FOUND = 'Request not found';
export const IMAGE_NOT_FOUND = 'Image not found in tenant';
export const ARTIFACT_NOT_FOUND = 'Image build artifact not found in tenant';
export const UPLOAD_NOT_FOUND = 'Image upload not found in tenant';

/** Whether a node is visible to a tenant: assigned to it, or unassigned on one of its providers. */
function nodeOfTenant(ctx: LauncherContext, tenant: string, node: NodeRecord): boolean {
  if (node.tenant === tenant) {
    return true;
  }
  return (
    node.tenant === null &&
    node.provider !== null &&
    providersOf(ctx, tenant).some((p) => p.canonicalName === node.provider)
  );
}

function actorText(actor: string | null): string {
  return actor === null ? '' : ` by ${actor}`;
}

/** `PUT T/nodes/{id}` with `{"state": "hold"}`: hold a node (kept until released), with an optional comment. */
export async function nodeHold(
  ctx: LauncherContext,
  input: { tenant: string; nodeId: string; comment?: string | null; actor?: string | null },
): Promise<OperationResult<NodeRecord>> {
  return setNodeState(ctx, { ...input, state: 'hold' });
}

/** `PUT T/nodes/{id}` with `{"state": "used"}`: release a node; it is deleted. */
export async function nodeRelease(
  ctx: LauncherContext,
  input: { tenant: string; nodeId: string; actor?: string | null },
): Promise<OperationResult<NodeRecord>> {
  return setNodeState(ctx, { ...input, state: 'used' });
}

/** `PUT T/nodes/{id}`: the state must be `hold` or `used` ("Invalid request body" otherwise). */
export async function setNodeState(
  ctx: LauncherContext,
  input: { tenant: string; nodeId: string; state: string; comment?: string | null; actor?: string | null },
): Promise<OperationResult<NodeRecord>> {
  if (input.state !== 'hold' && input.state !== 'used') {
    return fail(new LauncherOperationError('invalid-input', 'Invalid request body'));
  }
  const state = input.state;
  const actor = input.actor ?? null;
  const outcome = await ctx.knex.transaction(async (trx): Promise<OperationResult<NodeRecord>> => {
    const node = await ctx.repos.nodes.lock(input.nodeId, trx);
    if (!node || !nodeOfTenant(ctx, input.tenant, node)) {
      return fail(new LauncherOperationError('not-found', NODE_NOT_FOUND, 'Node', input.nodeId));
    }
    const now = ctx.now();
    if (state === 'hold') {
      await ctx.repos.nodes.update(
        node.uuid,
        { state: 'hold', comment: input.comment ?? node.comment, holdTime: now, holdExpiration: null },
        now,
        trx,
      );
    } else {
      await ctx.repos.nodes.update(
        node.uuid,
        { state: 'used', requestUuid: node.state === 'hold' ? null : node.requestUuid },
        now,
        trx,
      );
    }
    await ctx.repos.systemEvents.record(
      {
        tenant: input.tenant,
        eventType: state === 'hold' ? 'node-held' : 'node-released',
        description:
          state === 'hold'
            ? `Node ${node.uuid} (${node.label}) held${actorText(actor)}${input.comment ? `: ${input.comment}` : ''}`
            : `Node ${node.uuid} (${node.label}) released${actorText(actor)}`,
        eventTime: now,
        data: { nodeId: node.uuid, label: node.label, previousState: node.state },
      },
      trx,
    );
    const updated = await ctx.repos.nodes.get(node.uuid, trx);
    return updated ? ok(updated) : fail(new LauncherOperationError('not-found', NODE_NOT_FOUND, 'Node', input.nodeId));
  });
  return outcome;
}

/**
 * `DELETE T/nodeset-requests/{id}`: cancel a request. A job still waiting for it gets NODE_FAILURE
 * (a failed `nodes-provisioned` event), as when the launcher gives up.
 */
export async function nodesetRequestCancel(
  ctx: LauncherContext,
  input: { tenant: string; requestId: string; actor?: string | null },
): Promise<OperationResult<null>> {
  const previous = await cancelNodesetRequest(ctx, input.tenant, input.requestId);
  if (previous === null) {
    return fail(new LauncherOperationError('not-found', REQUEST_NOT_FOUND, 'NodesetRequest', input.requestId));
  }
  const now = ctx.now();
  if (previous === 'requested' || previous === 'accepted') {
    await ctx.repos.events.append({
      tenant: input.tenant,
      event: { type: 'nodes-provisioned', requestId: input.requestId, fulfilled: false, nodes: [] },
      created: now,
    });
  }
  await ctx.repos.systemEvents.record({
    tenant: input.tenant,
    eventType: 'nodeset-request-canceled',
    description: `Nodeset request ${input.requestId} canceled${actorText(input.actor ?? null)}`,
    eventTime: now,
    data: { requestId: input.requestId, previousState: previous },
  });
  return ok(null);
}

/** `POST T/image/{name}/build`: enqueue an `image-build` trigger event for a zuul image of the tenant's providers. */
export async function imageBuild(
  ctx: LauncherContext,
  input: { tenant: string; imageName: string; actor?: string | null },
): Promise<OperationResult<{ eventId: number }>> {
  const image = providersOf(ctx, input.tenant)
    .flatMap((p) => [...p.images.values()])
    .find((i) => i.name === input.imageName);
  if (!image || image.type !== 'zuul' || image.projectCanonicalName === null || image.branch === null) {
    return fail(new LauncherOperationError('not-found', IMAGE_NOT_FOUND, 'Image', input.imageName));
  }
  const eventId = await emitImageBuild(ctx, input.tenant, image.projectCanonicalName, image.branch, [image.name]);
  await ctx.repos.systemEvents.record({
    tenant: input.tenant,
    eventType: 'image-build-requested',
    description: `Build of image ${image.name} requested${actorText(input.actor ?? null)}`,
    eventTime: ctx.now(),
    data: { image: image.name, eventId },
  });
  return ok({ eventId });
}

function inUse(what: string, count: number): LauncherOperationError {
  return new LauncherOperationError('conflict', `${what} is in use by ${count} node(s); release or delete them first`);
}

/** `DELETE T/image-build-artifact/{id}`: mark an artifact (and so its uploads) `deleting`; refused while nodes use it. */
export async function imageBuildArtifactDelete(
  ctx: LauncherContext,
  input: { tenant: string; artifactId: string; actor?: string | null },
): Promise<OperationResult<null>> {
  return ctx.knex.transaction(async (trx): Promise<OperationResult<null>> => {
    const artifact = await ctx.repos.images.lockArtifact(input.artifactId, trx);
    if (!artifact || artifact.tenant !== input.tenant) {
      return fail(new LauncherOperationError('not-found', ARTIFACT_NOT_FOUND, 'ImageBuildArtifact', input.artifactId));
    }
    const uploads = await ctx.repos.images.uploadsOfArtifacts([artifact.uuid], trx);
    const users = await ctx.repos.nodes.countUsingUploads(
      uploads.map((u) => u.uuid),
      trx,
    );
    if (users > 0) {
      return fail(inUse(`Image build artifact ${artifact.uuid}`, users));
    }
    await ctx.repos.images.setArtifactState(artifact.uuid, 'deleting', ctx.now(), trx);
    await ctx.repos.systemEvents.record(
      {
        tenant: input.tenant,
        eventType: 'image-artifact-deleted',
        description: `Image build artifact ${artifact.uuid} (${artifact.name ?? artifact.canonicalName}, ${artifact.format}) deleted${actorText(input.actor ?? null)}`,
        eventTime: ctx.now(),
        data: { artifactId: artifact.uuid },
      },
      trx,
    );
    return ok(null);
  });
}

/** The upload and its artifact, if the artifact was built by the tenant. */
async function tenantUpload(ctx: LauncherContext, tenant: string, uploadId: string, trx: UploadLock) {
  const upload = await ctx.repos.images.lockUpload(uploadId, trx);
  if (!upload) {
    return null;
  }
  const artifact = await ctx.repos.images.getArtifact(upload.artifactUuid, trx);
  if (!artifact || artifact.tenant !== tenant) {
    return null;
  }
  return { upload, artifact };
}

/** `DELETE T/image-upload/{id}`: mark an upload `deleting`; refused while nodes use it. */
export function imageUploadDelete(
  ctx: LauncherContext,
  input: { tenant: string; uploadId: string; actor?: string | null },
): Promise<OperationResult<null>> {
  return changeTenantUpload(ctx, input, async ({ upload }, trx) => {
    const users = await ctx.repos.nodes.countUsingUploads([upload.uuid], trx);
    if (users > 0) {
      return { refused: inUse(`Image upload ${upload.uuid}`, users) };
    }
    await ctx.repos.images.updateUpload(upload.uuid, { state: 'deleting' }, ctx.now(), trx);
    return {
      eventType: 'image-upload-deleted',
      description: `Image upload ${upload.uuid} (${upload.endpointName}) deleted${actorText(input.actor ?? null)}`,
    };
  });
}

/** `POST T/image-upload/{id}/validate`: mark a `ready` upload validated (409 when it is not ready). */
export function imageUploadValidate(
  ctx: LauncherContext,
  input: { tenant: string; uploadId: string; actor?: string | null },
): Promise<OperationResult<null>> {
  return changeTenantUpload(ctx, input, async ({ upload }, trx) => {
    if (upload.state !== 'ready') {
      return {
        refused: new LauncherOperationError('conflict', `Image upload ${upload.uuid} is ${upload.state}, not ready`),
      };
    }
    await ctx.repos.images.updateUpload(upload.uuid, { validated: true }, ctx.now(), trx);
    return {
      eventType: 'image-upload-validated',
      description: `Image upload ${upload.uuid} validated${actorText(input.actor ?? null)}`,
    };
  });
}

type UploadLock = Parameters<LauncherContext['repos']['images']['lockUpload']>[1];

/**
 * Change one of the tenant's uploads in a transaction (not found when the tenant did not build
 * it): `change` refuses, or says which system event records the change.
 */
function changeTenantUpload(
  ctx: LauncherContext,
  input: { tenant: string; uploadId: string },
  change: (
    found: NonNullable<Awaited<ReturnType<typeof tenantUpload>>>,
    trx: UploadLock,
  ) => Promise<{ refused: LauncherOperationError } | { eventType: SystemEventType; description: string }>,
): Promise<OperationResult<null>> {
  return ctx.knex.transaction(async (trx): Promise<OperationResult<null>> => {
    const found = await tenantUpload(ctx, input.tenant, input.uploadId, trx);
    if (!found) {
      return fail(new LauncherOperationError('not-found', UPLOAD_NOT_FOUND, 'ImageUpload', input.uploadId));
    }
    const outcome = await change(found, trx);
    if ('refused' in outcome) {
      return fail(outcome.refused);
    }
    await ctx.repos.systemEvents.record(
      {
        tenant: input.tenant,
        eventType: outcome.eventType,
        description: outcome.description,
        eventTime: ctx.now(),
        data: { uploadId: found.upload.uuid },
      },
      trx,
    );
    return ok(null);
  });
}
