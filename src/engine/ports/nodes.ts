/** The node port: node requests to the launcher (fulfilment comes back as a `nodes-provisioned` result event). */
import type { NodeInfo } from '../../model/pipeline-state';

export interface NodeRequest {
  /** Chosen by the engine so that a request can be re-sent idempotently after a restart. */
  id: string;
  tenant: string;
  pipeline: string;
  buildsetUuid: string;
  jobName: string;
  labels: string[];
  /** Pipeline precedence: 100 high, 200 normal, 300 low. */
  priority: number;
  /** Every nodeset alternative, first choice (`labels`) first; the launcher moves on to the next one when one fails. */
  alternatives?: string[][];
  /** Canonical name of the item's project: the launcher lowers the relative priority of a project with many requests queued. */
  project?: string | null;
  /** The triggering event, for log correlation. */
  eventId?: string | null;
  /** image-validate items: the images and the upload whose nodes must boot from exactly that upload. */
  imageNames?: string[] | null;
  imageUploadUuid?: string | null;
}

export interface NodeGateway {
  /** Request nodes (idempotent by request id); fulfilment arrives later as a `nodes-provisioned` result event. */
  requestNodes(request: NodeRequest): Promise<void>;
  cancelRequest(tenant: string, requestId: string): Promise<void>;
  returnNodes(tenant: string, nodes: NodeInfo[]): Promise<void>;
  /** Hold nodes for an autohold request. */
  holdNodes(tenant: string, nodes: NodeInfo[], reason: string, expirationSeconds: number): Promise<void>;
  /** Mark an image upload validated (a zuul reporter `image-validated: true` on success); unknown uploads are ignored. */
  markUploadValidated?(tenant: string, uploadUuid: string): Promise<void>;
}
