/**
 * The engine's NodeGateway backed by the launcher's store: requests become nodeset requests,
 * fulfilment arrives as `nodes-provisioned` result events written by the launcher loop.
 */
import type { NodeGateway, NodeRequest } from '../engine/ports/nodes';
import type { NodeInfo } from '../model/pipeline-state';
import { quantizeRelativePriority } from '../model/launcher';
import type { LauncherContext } from './context';
import { releaseRequestNodes } from './request-processor';

/**
 * A node request with the launcher extensions beyond the engine's (alternatives, project,
 * eventId): the provider of a paused parent's nodes, and for image validation jobs the upload to
 * boot from and the images.
 */
export interface LauncherNodeRequest extends NodeRequest {
  preferredProvider?: string | null;
  imageUploadUuid?: string | null;
  imageNames?: string[] | null;
}

export class LauncherNodeGateway implements NodeGateway {
  /** `changed` is called after every change the launcher loop should act on soon (its wake-up). */
  constructor(
    private readonly ctx: LauncherContext,
    private readonly changed: () => void = () => undefined,
  ) {}

  async requestNodes(request: LauncherNodeRequest): Promise<void> {
    const { ctx } = this;
    const alternatives =
      request.alternatives && request.alternatives.length > 0 ? request.alternatives : [request.labels];
    const requestTime = ctx.now();
    const project = request.project ?? null;
    const ahead =
      project === null
        ? 0
        : await ctx.repos.requests.buildsetsAhead({
            tenant: request.tenant,
            pipelineName: request.pipeline,
            project,
            buildsetUuid: request.buildsetUuid,
            requestTime,
          });
    const stored = await ctx.repos.requests.create({
      uuid: request.id,
      tenant: request.tenant,
      pipelineName: request.pipeline,
      buildsetUuid: request.buildsetUuid,
      jobName: request.jobName,
      project,
      alternatives,
      priority: request.priority,
      relativePriority: quantizeRelativePriority(ahead),
      zuulEventId: request.eventId ?? null,
      imageNames: request.imageNames ?? null,
      imageUploadUuid: request.imageUploadUuid ?? null,
      preferredProvider: request.preferredProvider ?? null,
      requestTime,
    });
    if (
      stored.state === 'fulfilled' &&
      stored.labels.length === 0 &&
      stored.requestTime.getTime() === requestTime.getTime()
    ) {
      await ctx.repos.events.append({
        tenant: request.tenant,
        event: { type: 'nodes-provisioned', requestId: request.id, fulfilled: true, nodes: [] },
        created: requestTime,
      });
    }
    this.changed();
  }

  async cancelRequest(tenant: string, requestId: string): Promise<void> {
    if ((await cancelNodesetRequest(this.ctx, tenant, requestId)) !== null) {
      this.changed();
    }
  }

  async returnNodes(tenant: string, nodes: NodeInfo[]): Promise<void> {
    const { ctx } = this;
    await ctx.knex.transaction(async (trx) => {
      const requests = new Set<string>();
      for (const info of nodes) {
        const node = await ctx.repos.nodes.lock(info.id, trx);
        if (!node || node.tenant !== tenant) {
          continue;
        }
        if (node.requestUuid !== null) {
          requests.add(node.requestUuid);
        }
        if (node.state === 'in-use' || node.state === 'ready') {
          await ctx.repos.nodes.update(
            node.uuid,
            { state: 'used', requestUuid: null, lockHolder: null },
            ctx.now(),
            trx,
          );
        }
      }
      // The request is done once its nodes come back (the reference's executor deletes it after locking them).
      for (const uuid of requests) {
        await ctx.repos.requests.delete(uuid, trx);
      }
    });
    // Used nodes are deleted by the next pass, which frees their quota.
    this.changed();
  }

  /** A validation pipeline passed the upload: normal nodes may boot from it now (docs/launcher.md#images step 5). */
  async markUploadValidated(tenant: string, uploadUuid: string): Promise<void> {
    const { ctx } = this;
    const marked = await ctx.knex.transaction(async (trx) => {
      const upload = await ctx.repos.images.lockUpload(uploadUuid, trx);
      if (!upload || upload.state !== 'ready' || upload.validated) {
        return false;
      }
      await ctx.repos.images.updateUpload(upload.uuid, { validated: true }, ctx.now(), trx);
      await ctx.repos.systemEvents.record(
        {
          tenant,
          eventType: 'image-upload-validated',
          description: `Image upload ${upload.uuid} validated by a validation pipeline`,
          eventTime: ctx.now(),
          data: { uploadId: upload.uuid },
        },
        trx,
      );
      return true;
    });
    if (marked) {
      this.changed();
    }
  }

  async holdNodes(tenant: string, nodes: NodeInfo[], reason: string, expirationSeconds: number): Promise<void> {
    const { ctx } = this;
    await ctx.knex.transaction(async (trx) => {
      for (const info of nodes) {
        const node = await ctx.repos.nodes.lock(info.id, trx);
        if (!node || node.tenant !== tenant || (node.state !== 'in-use' && node.state !== 'ready')) {
          continue;
        }
        if (node.requestUuid !== null) {
          await ctx.repos.requests.delete(node.requestUuid, trx);
        }
        await ctx.repos.nodes.update(
          node.uuid,
          {
            state: 'hold',
            comment: reason,
            holdExpiration: expirationSeconds,
            holdTime: ctx.now(),
            requestUuid: null,
            lockHolder: null,
          },
          ctx.now(),
          trx,
        );
      }
    });
  }
}

/**
 * Cancel (delete) a request and let go of its nodes. Returns the request's state before the
 * cancel, or null when the tenant has no such request.
 */
export async function cancelNodesetRequest(
  ctx: LauncherContext,
  tenant: string,
  requestId: string,
): Promise<string | null> {
  return ctx.knex.transaction(async (trx) => {
    const request = await ctx.repos.requests.lockForTenant(tenant, requestId, trx);
    if (!request) {
      return null;
    }
    await releaseRequestNodes(ctx, trx, request.uuid);
    await ctx.repos.requests.delete(request.uuid, trx);
    return request.state;
  });
}
