/**
 * Launcher records and states (docs/launcher.md#node-and-request-states, docs/launcher.md#image-states,
 * docs/launcher.md#reference-behaviour): nodeset requests, provider nodes, image build artifacts and image uploads, as
 * stored and as shown by the API.
 */

export const NODESET_REQUEST_STATES = ['requested', 'accepted', 'fulfilled', 'failed'] as const;
export type NodesetRequestState = (typeof NODESET_REQUEST_STATES)[number];

export const NODE_STATES = [
  'requested',
  'building',
  'ready',
  'failed',
  'tempfailed',
  'in-use',
  'used',
  'outdated',
  'hold',
] as const;
export type NodeState = (typeof NODE_STATES)[number];

/**
 * States that count toward a provider's quota (docs/launcher.md#node-and-request-states, plus `requested` when
 * accepting work).
 */
export const QUOTA_STATES: readonly NodeState[] = [
  'requested',
  'building',
  'ready',
  'in-use',
  'used',
  'outdated',
  'hold',
];
/** Nodes the launcher deletes. */
export const DELETABLE_STATES: readonly NodeState[] = ['failed', 'tempfailed', 'used', 'outdated'];

export const IMAGE_ARTIFACT_STATES = ['ready', 'deleting'] as const;
export type ImageArtifactState = (typeof IMAGE_ARTIFACT_STATES)[number];

export const IMAGE_UPLOAD_STATES = ['pending', 'uploading', 'ready', 'deleting'] as const;
export type ImageUploadState = (typeof IMAGE_UPLOAD_STATES)[number];

/** Per label index: the node that serves it and the providers that failed it (`provider_node_data`). */
export interface ProviderNodeData {
  uuid: string | null;
  executor_zone: string | null;
  failed_providers: string[];
}

export interface NodesetRequestRecord {
  id: number;
  uuid: string;
  tenant: string;
  state: NodesetRequestState;
  pipelineName: string | null;
  buildsetUuid: string | null;
  jobName: string | null;
  project: string | null;
  labels: string[];
  alternatives: string[][];
  alternativeIndex: number;
  priority: number;
  relativePriority: number;
  zuulEventId: string | null;
  imageNames: string[] | null;
  imageUploadUuid: string | null;
  preferredProvider: string | null;
  providerNodeData: ProviderNodeData[];
  failureReason: string | null;
  lockHolder: string | null;
  requestTime: Date;
  stateTime: Date;
}

export interface NodeRecord {
  id: number;
  uuid: string;
  tenant: string | null;
  provider: string | null;
  connection: string | null;
  label: string;
  labelConfigHash: string | null;
  state: NodeState;
  stateTime: Date;
  requestUuid: string | null;
  connectionType: string | null;
  externalId: string | null;
  interfaceIp: string | null;
  host: string | null;
  port: number | null;
  username: string | null;
  comment: string | null;
  /** Seconds a held node is kept; null or 0 = forever. */
  holdExpiration: number | null;
  holdRequestId: string | null;
  maxReadyAge: number | null;
  imageUploadUuid: string | null;
  created: Date | null;
  readyTime: Date | null;
  holdTime: Date | null;
  lockHolder: string | null;
  /** Driver data (local: workspace path; static: host key). */
  data: Record<string, unknown>;
}

export interface ImageBuildArtifactRecord {
  id: number;
  uuid: string;
  /** The build tenant (only it may delete the artifact). */
  tenant: string;
  /** Image canonical name. */
  canonicalName: string;
  name: string | null;
  projectCanonicalName: string | null;
  projectBranch: string | null;
  buildUuid: string | null;
  artifactName: string | null;
  format: string;
  md5sum: string | null;
  sha256: string | null;
  url: string | null;
  /** null = just recorded, uploads not created yet. */
  state: ImageArtifactState | null;
  stateTime: Date;
  timestamp: Date;
  validated: boolean;
  lockHolder: string | null;
}

export interface ImageUploadRecord {
  id: number;
  uuid: string;
  artifactUuid: string;
  canonicalName: string;
  endpointName: string;
  providers: string[];
  configHash: string | null;
  externalId: string | null;
  /** Local path of the uploaded image (local driver endpoints). */
  path: string | null;
  state: ImageUploadState;
  stateTime: Date;
  timestamp: Date;
  validated: boolean;
  lockHolder: string | null;
}

/** Quantize a relative priority as the reference does: exact below 10, tens below 100, hundreds above. */
export function quantizeRelativePriority(index: number): number {
  if (index < 10) {
    return index;
  }
  if (index < 100) {
    return Math.floor(index / 10) * 10;
  }
  return Math.floor(index / 100) * 100;
}
