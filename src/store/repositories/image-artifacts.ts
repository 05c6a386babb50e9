/**
 * Read side of image build artifacts and their uploads to provider endpoints (tables
 * `image_build_artifacts` and `image_uploads`). The launcher writes them.
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';
import { ARTIFACT_FILE_FIELDS } from './images';

export interface ImageUploadRecord {
  uuid: string;
  artifactUuid: string;
  canonicalName: string;
  endpointName: string;
  externalId: string | null;
  state: string;
  stateTime: Date;
  timestamp: Date;
  validated: boolean;
  lockHolder: string | null;
}

export interface ImageBuildArtifactRecord {
  uuid: string;
  /** Tenant whose image-build job produced the artifact. */
  tenant: string;
  /** Canonical name of the image. */
  canonicalName: string;
  buildUuid: string | null;
  format: string;
  md5sum: string | null;
  sha256: string | null;
  url: string | null;
  state: string | null;
  stateTime: Date;
  timestamp: Date;
  validated: boolean;
  lockHolder: string | null;
  /** Uploads of this artifact, oldest first. */
  uploads: ImageUploadRecord[];
}

interface ArtifactRow {
  id: number;
  uuid: string;
  tenant: string;
  canonical_name: string;
  build_uuid: string | null;
  format: string;
  md5sum: string | null;
  sha256: string | null;
  url: string | null;
  state: string | null;
  state_time: Date;
  timestamp: Date;
  validated: boolean;
  lock_holder: string | null;
}

interface UploadRow {
  id: number;
  uuid: string;
  artifact_uuid: string;
  canonical_name: string;
  endpoint_name: string;
  external_id: string | null;
  state: string;
  state_time: Date;
  timestamp: Date;
  validated: boolean;
  lock_holder: string | null;
}

export class ImageArtifactRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * The build artifacts of each image (by image canonical name), oldest first, each with its
   * uploads. Two queries whatever the number of images.
   */
  async byImage(canonicalNames: readonly string[]): Promise<Map<string, ImageBuildArtifactRecord[]>> {
    const result = new Map<string, ImageBuildArtifactRecord[]>(canonicalNames.map((name) => [name, []]));
    if (canonicalNames.length === 0) {
      return result;
    }
    const artifacts: ArtifactRow[] = await this.knex<ArtifactRow>('image_build_artifacts')
      .whereIn('canonical_name', [...canonicalNames])
      .orderBy('id');
    const uploads: UploadRow[] =
      artifacts.length === 0
        ? []
        : await this.knex<UploadRow>('image_uploads')
            .whereIn(
              'artifact_uuid',
              artifacts.map((a) => a.uuid),
            )
            .orderBy('id');
    const uploadsByArtifact = new Map<string, ImageUploadRecord[]>();
    for (const row of uploads) {
      const list = uploadsByArtifact.get(row.artifact_uuid) ?? [];
      list.push(toUpload(row));
      uploadsByArtifact.set(row.artifact_uuid, list);
    }
    for (const row of artifacts) {
      result.get(row.canonical_name)?.push(toArtifact(row, uploadsByArtifact.get(row.uuid) ?? []));
    }
    return result;
  }
}

function toUpload(row: UploadRow): ImageUploadRecord {
  return pickFields(row, [
    'uuid',
    'artifactUuid',
    'canonicalName',
    'endpointName',
    'externalId',
    'state',
    'stateTime',
    'timestamp',
    'validated',
    'lockHolder',
  ]);
}

function toArtifact(row: ArtifactRow, uploads: ImageUploadRecord[]): ImageBuildArtifactRecord {
  return {
    ...pickFields(row, ['uuid', 'tenant', 'canonicalName', 'buildUuid', ...ARTIFACT_FILE_FIELDS]),
    uploads,
  };
}
