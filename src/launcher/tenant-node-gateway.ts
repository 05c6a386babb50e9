/**
 * The node gateway of `sluice serve`: a tenant whose layout has providers gets its nodes from the
 * launcher; a tenant without providers keeps the built-in LocalNodeGateway (one node per label,
 * fulfilled at once; steps run in the executor's own workspace).
 */
import type { Layout } from '../config/layout';
import type { NodeGateway, NodeRequest } from '../engine/ports/nodes';
import type { NodeInfo } from '../model/pipeline-state';

/** Whether the launcher serves a tenant's node requests: its layout has at least one provider. */
export function layoutUsesLauncher(layout: Layout | undefined): boolean {
  return layout !== undefined && layout.providers.size > 0;
}

/** Nodes the launcher provided carry the way the executor reaches them; the local gateway's do not. */
function launcherNodes(nodes: NodeInfo[]): boolean {
  return nodes.some((node) => typeof node.connectionType === 'string');
}

export class TenantNodeGateway implements NodeGateway {
  constructor(
    private readonly launcher: NodeGateway,
    private readonly local: NodeGateway,
    private readonly usesLauncher: (tenant: string) => boolean,
  ) {}

  requestNodes(request: NodeRequest): Promise<void> {
    return this.usesLauncher(request.tenant) ? this.launcher.requestNodes(request) : this.local.requestNodes(request);
  }

  /** Always asked of the launcher (it ignores ids it does not know), so a request made before a reconfiguration is still canceled. */
  async cancelRequest(tenant: string, requestId: string): Promise<void> {
    await this.launcher.cancelRequest(tenant, requestId);
    await this.local.cancelRequest(tenant, requestId);
  }

  /** Nodes go back to whoever provided them, whatever the tenant's layout says now. */
  returnNodes(tenant: string, nodes: NodeInfo[]): Promise<void> {
    return launcherNodes(nodes) ? this.launcher.returnNodes(tenant, nodes) : this.local.returnNodes(tenant, nodes);
  }

  /** Uploads exist only in the launcher's store. */
  async markUploadValidated(tenant: string, uploadUuid: string): Promise<void> {
    await this.launcher.markUploadValidated?.(tenant, uploadUuid);
  }

  holdNodes(tenant: string, nodes: NodeInfo[], reason: string, expirationSeconds: number): Promise<void> {
    return launcherNodes(nodes)
      ? this.launcher.holdNodes(tenant, nodes, reason, expirationSeconds)
      : this.local.holdNodes(tenant, nodes, reason, expirationSeconds);
  }
}
