/** Image build artifacts and image uploads (docs/launcher.md#image-states, docs/launcher.md#images). */
import type { Knex } from 'knex';
import type {
  ImageArtifactState,
  ImageBuildArtifactRecord,
  ImageUploadRecord,
  ImageUploadState,
} from '../../model/launcher';
import { pickFields } from '../row-fields';

interface ArtifactRow {
  id: number | string;
  uuid: string;
  tenant: string;
  canonical_name: string;
  name: string | null;
  project_canonical_name: string | null;
  project_branch: string | null;
  build_uuid: string | null;
  artifact_name: string | null;
  format: string;
  md5sum: string | null;
  sha256: string | null;
  url: string | null;
  state: ImageArtifactState | null;
  state_time: Date;
  timestamp: Date;
  validated: boolean;
  lock_holder: string | null;
}

interface UploadRow {
  id: number | string;
  uuid: string;
  artifact_uuid: string;
  canonical_name: string;
  endpoint_name: string;
  providers: string[];
  config_hash: string | null;
  external_id: string | null;
  path: string | null;
  state: ImageUploadState;
  state_time: Date;
  timestamp: Date;
  validated: boolean;
  lock_holder: string | null;
}

export interface NewImageBuildArtifact {
  uuid: string;
  tenant: string;
  canonicalName: string;
  name: string;
  projectCanonicalName: string | null;
  projectBranch: string | null;
  buildUuid: string;
  artifactName: string;
  format: string;
  md5sum: string;
  sha256: string;
  url: string;
  timestamp: Date;
  validated: boolean;
}

export interface NewImageUpload {
  uuid: string;
  artifactUuid: string;
  canonicalName: string;
  endpointName: string;
  providers: string[];
  configHash: string | null;
  validated: boolean;
}

/** The fields of an artifact's file and state, read by both artifact mappings. */
export const ARTIFACT_FILE_FIELDS = [
  'format',
  'md5sum',
  'sha256',
  'url',
  'state',
  'stateTime',
  'timestamp',
  'validated',
  'lockHolder',
] as const;

function artifactRecord(row: ArtifactRow): ImageBuildArtifactRecord {
  return {
    ...pickFields(row, [
      'id',
      'uuid',
      'tenant',
      'canonicalName',
      'name',
      'projectCanonicalName',
      'projectBranch',
      'buildUuid',
      'artifactName',
      ...ARTIFACT_FILE_FIELDS,
    ]),
    id: Number(row.id),
  };
}

function uploadRecord(row: UploadRow): ImageUploadRecord {
  return {
    ...pickFields(row, [
      'id',
      'uuid',
      'artifactUuid',
      'canonicalName',
      'endpointName',
      'providers',
      'configHash',
      'externalId',
      'path',
      'state',
      'stateTime',
      'timestamp',
      'validated',
      'lockHolder',
    ]),
    id: Number(row.id),
  };
}

/** A `zuul_image` artifact of a successful build that has no image build artifact record yet. */
export interface ReportedImageArtifact {
  artifactId: number;
  tenant: string;
  buildUuid: string;
  endTime: Date | null;
  name: string;
  url: string;
  metadata: Record<string, unknown>;
}

export class ImageRepository {
  constructor(private readonly knex: Knex) {}

  /** Record an artifact; idempotent by (build, format, image): returns null when it already exists. */
  async createArtifact(
    input: NewImageBuildArtifact,
    now: Date,
    trx: Knex = this.knex,
  ): Promise<ImageBuildArtifactRecord | null> {
    const rows: ArtifactRow[] = await trx('image_build_artifacts')
      .insert({
        uuid: input.uuid,
        tenant: input.tenant,
        canonical_name: input.canonicalName,
        name: input.name,
        project_canonical_name: input.projectCanonicalName,
        project_branch: input.projectBranch,
        build_uuid: input.buildUuid,
        artifact_name: input.artifactName,
        format: input.format,
        md5sum: input.md5sum,
        sha256: input.sha256,
        url: input.url,
        state: null,
        state_time: now,
        timestamp: input.timestamp,
        validated: input.validated,
      })
      .onConflict(['build_uuid', 'format', 'canonical_name'])
      .ignore()
      .returning('*');
    return rows[0] ? artifactRecord(rows[0]) : null;
  }

  async getArtifact(uuid: string, trx: Knex = this.knex): Promise<ImageBuildArtifactRecord | null> {
    const row: ArtifactRow | undefined = await trx('image_build_artifacts').where({ uuid }).first();
    return row ? artifactRecord(row) : null;
  }

  async lockArtifact(uuid: string, trx: Knex.Transaction): Promise<ImageBuildArtifactRecord | null> {
    const row: ArtifactRow | undefined = await trx('image_build_artifacts').where({ uuid }).forUpdate().first();
    return row ? artifactRecord(row) : null;
  }

  async setArtifactState(uuid: string, state: ImageArtifactState, now: Date, trx: Knex = this.knex): Promise<void> {
    await trx('image_build_artifacts').where({ uuid }).update({ state, state_time: now });
  }

  async deleteArtifact(uuid: string, trx: Knex = this.knex): Promise<void> {
    await trx('image_build_artifacts').where({ uuid }).delete();
  }

  /** Whether an artifact exists for this build and image (the image reporter ran already). */
  async hasArtifactForBuild(buildUuid: string, canonicalName: string, trx: Knex = this.knex): Promise<boolean> {
    const row = await trx('image_build_artifacts')
      .where({ build_uuid: buildUuid, canonical_name: canonicalName })
      .first('id');
    return row !== undefined;
  }

  /** Artifacts of images, newest first; `states` may include null (just recorded). */
  async listArtifacts(
    filter: { canonicalNames?: readonly string[]; states?: ReadonlyArray<ImageArtifactState | null> },
    trx: Knex = this.knex,
  ): Promise<ImageBuildArtifactRecord[]> {
    const query = trx('image_build_artifacts');
    if (filter.canonicalNames) {
      query.whereIn('canonical_name', filter.canonicalNames);
    }
    if (filter.states) {
      const states = filter.states.filter((s): s is ImageArtifactState => s !== null);
      const withNull = filter.states.includes(null);
      query.where((q) => {
        q.whereIn('state', states);
        if (withNull) {
          q.orWhereNull('state');
        }
      });
    }
    const rows: ArtifactRow[] = await query.orderBy('id', 'desc');
    return rows.map(artifactRecord);
  }

  async createUpload(input: NewImageUpload, now: Date, trx: Knex = this.knex): Promise<ImageUploadRecord> {
    const [row]: UploadRow[] = await trx('image_uploads')
      .insert({
        uuid: input.uuid,
        artifact_uuid: input.artifactUuid,
        canonical_name: input.canonicalName,
        endpoint_name: input.endpointName,
        providers: JSON.stringify(input.providers),
        config_hash: input.configHash,
        state: 'pending',
        state_time: now,
        timestamp: now,
        validated: input.validated,
      })
      .returning('*');
    return uploadRecord(row);
  }

  async getUpload(uuid: string, trx: Knex = this.knex): Promise<ImageUploadRecord | null> {
    const row: UploadRow | undefined = await trx('image_uploads').where({ uuid }).first();
    return row ? uploadRecord(row) : null;
  }

  async lockUpload(
    uuid: string,
    trx: Knex.Transaction,
    options: { skipLocked?: boolean } = {},
  ): Promise<ImageUploadRecord | null> {
    const query = trx('image_uploads').where({ uuid }).forUpdate();
    if (options.skipLocked) {
      query.skipLocked();
    }
    const row: UploadRow | undefined = await query.first();
    return row ? uploadRecord(row) : null;
  }

  async updateUpload(
    uuid: string,
    changes: Partial<Pick<ImageUploadRecord, 'state' | 'externalId' | 'path' | 'validated' | 'lockHolder'>>,
    now: Date,
    trx: Knex = this.knex,
  ): Promise<void> {
    const row: Record<string, unknown> = {};
    if (changes.state !== undefined) {
      row.state = changes.state;
      row.state_time = now;
    }
    if (changes.externalId !== undefined) {
      row.external_id = changes.externalId;
    }
    if (changes.path !== undefined) {
      row.path = changes.path;
    }
    if (changes.validated !== undefined) {
      row.validated = changes.validated;
    }
    if (changes.lockHolder !== undefined) {
      row.lock_holder = changes.lockHolder;
    }
    await trx('image_uploads').where({ uuid }).update(row);
  }

  async deleteUpload(uuid: string, trx: Knex = this.knex): Promise<void> {
    await trx('image_uploads').where({ uuid }).delete();
  }

  async uploadsOfArtifacts(artifactUuids: readonly string[], trx: Knex = this.knex): Promise<ImageUploadRecord[]> {
    if (artifactUuids.length === 0) {
      return [];
    }
    const rows: UploadRow[] = await trx('image_uploads').whereIn('artifact_uuid', artifactUuids).orderBy('id', 'desc');
    return rows.map(uploadRecord);
  }

  async uploadsInStates(states: readonly ImageUploadState[], trx: Knex = this.knex): Promise<ImageUploadRecord[]> {
    const rows: UploadRow[] = await trx('image_uploads').whereIn('state', states).orderBy('id');
    return rows.map(uploadRecord);
  }

  /** Ready uploads of an image, newest first (node boot and retention). */
  async readyUploads(canonicalName: string, trx: Knex = this.knex): Promise<ImageUploadRecord[]> {
    const rows: UploadRow[] = await trx('image_uploads')
      .where({ canonical_name: canonicalName, state: 'ready' })
      .orderBy('id', 'desc');
    return rows.map(uploadRecord);
  }

  /** Whether any artifact of the image exists in the format (missing-image check). */
  async hasArtifact(canonicalName: string, format: string, trx: Knex = this.knex): Promise<boolean> {
    const row = await trx('image_build_artifacts')
      .where({ canonical_name: canonicalName, format })
      .whereNot('state', 'deleting')
      .orWhere((q) => q.where({ canonical_name: canonicalName, format }).whereNull('state'))
      .first('id');
    return row !== undefined;
  }

  /**
   * Artifacts of successful builds whose metadata says `type: zuul_image` and that were not recorded
   * as image build artifacts yet (the image reporter's input, docs/launcher.md#images step 3).
   */
  async unrecordedImageArtifacts(limit: number, trx: Knex = this.knex): Promise<ReportedImageArtifact[]> {
    const rows: Array<{
      artifact_id: number | string;
      tenant: string;
      build_uuid: string;
      end_time: Date | null;
      name: string;
      url: string;
      metadata: Record<string, unknown>;
    }> = await trx('artifacts as a')
      .join('builds as b', 'b.id', 'a.build_id')
      .where('b.result', 'SUCCESS')
      .whereRaw("a.metadata->>'type' = 'zuul_image'")
      .whereNotExists(function unrecorded() {
        this.select(trx.raw('1'))
          .from('image_build_artifacts as i')
          .whereRaw('i.build_uuid = b.uuid')
          .whereRaw('i.artifact_name = a.name');
      })
      .orderBy('a.id')
      .limit(limit)
      .select('a.id as artifact_id', 'b.tenant', 'b.uuid as build_uuid', 'b.end_time', 'a.name', 'a.url', 'a.metadata');
    return rows.map((row) => ({
      ...pickFields(row, ['artifactId', 'tenant', 'buildUuid', 'endTime', 'name', 'url', 'metadata']),
      artifactId: Number(row.artifact_id),
    }));
  }
}
