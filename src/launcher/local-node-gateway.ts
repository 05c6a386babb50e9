/**
 * The built-in node gateway of a single-process deployment: the executor runs job steps on its
 * own host, so every node request is fulfilled at once with one local node per label. The
 * launcher replaces it when real node providers are configured.
 */
import type { NodeGateway, NodeRequest } from '../engine/ports/nodes';
import type { NodeInfo } from '../model/pipeline-state';
import type { ResultEvent } from '../model/engine-events';

/** Where the gateway reports fulfilments (normally `engine.submitResult`). */
export type NodeResultSink = (tenant: string, event: ResultEvent) => Promise<unknown>;

export class LocalNodeGateway implements NodeGateway {
  constructor(private readonly sink: NodeResultSink) {}

  /** Fulfil the request with local nodes; the node ids derive from the request id, so a re-sent request gets the same nodes. */
  async requestNodes(request: NodeRequest): Promise<void> {
    const nodes: NodeInfo[] = request.labels.map((label, index) => ({
      id: `${request.id}-${index}`,
      label,
      provider: 'local',
      hostname: 'localhost',
    }));
    await this.sink(request.tenant, { type: 'nodes-provisioned', requestId: request.id, fulfilled: true, nodes });
  }

  /** Requests are fulfilled synchronously, so there is never one to cancel. */
  cancelRequest(): Promise<void> {
    return Promise.resolve();
  }

  /** Local nodes are the executor host itself: nothing to release. */
  returnNodes(): Promise<void> {
    return Promise.resolve();
  }

  /** The host cannot be held: autohold requests have no node to keep with the built-in gateway. */
  holdNodes(): Promise<void> {
    return Promise.resolve();
  }
}
