/**
 * The image life cycle (docs/launcher.md#images) for launcher drivers that store images (`local`):
 * 1. report: `zuul_image` artifacts of successful builds become image build artifacts (checksums
 *    computed from the produced file and checked against what the job claimed) with one upload
 *    per (endpoint, image configuration) of the providers that use the image in that format;
 * 2. upload: pending uploads are copied into the endpoint's image directory (`ready`, external id);
 * 3. retention and deletion: superseded uploads and those marked `deleting` are removed once no
 *    node uses them; artifacts without uploads that are `deleting` go too;
 * 4. missing images: a zuul image that a provider needs and that has no artifact in its format
 *    gets one `image-build` trigger event;
 * 5. validation: an upload that becomes ready unvalidated gets one `image-validate` trigger event
 *    in its artifact's build tenant.
 */
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import type { ImageBuildArtifactRecord, ImageUploadRecord } from '../model/launcher';
import type { LauncherContext } from './context';
import { allTenantProviders } from './context';
import { digestUrl, downloadTo } from './image-files';
import { uploadPermitted } from './node-processor';
import type { RuntimeImage, RuntimeProvider } from './providers';

/** Validated ready uploads kept per provider and image (plus anything newer). */
const KEEP_VALIDATED = 2;

function stringField(metadata: Record<string, unknown>, key: string): string | null {
  const value = metadata[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Providers (all tenants, deduplicated) with the image, keyed by provider canonical name. */
function providersWithImage(
  ctx: LauncherContext,
  canonicalName: string,
): Array<{ provider: RuntimeProvider; image: RuntimeImage }> {
  const found = new Map<string, { provider: RuntimeProvider; image: RuntimeImage }>();
  for (const providers of allTenantProviders(ctx).values()) {
    for (const provider of providers) {
      if (provider.driver !== 'local') {
        continue;
      }
      for (const image of provider.images.values()) {
        if (image.canonicalName === canonicalName && image.type === 'zuul' && !found.has(provider.canonicalName)) {
          found.set(provider.canonicalName, { provider, image });
        }
      }
    }
  }
  return [...found.values()];
}

export class ImageManager {
  /** Reported artifacts that could not be recorded (bad metadata, checksum mismatch): not retried. */
  private readonly rejected = new Set<number>();
  /** Images whose missing-artifact build was requested by this launcher. */
  private readonly buildsRequested = new Set<string>();

  constructor(private readonly ctx: LauncherContext) {}

  /** Step 1: record reported image artifacts and create their uploads. */
  async recordReportedArtifacts(): Promise<void> {
    const { ctx } = this;
    for (const reported of await ctx.repos.images.unrecordedImageArtifacts(50)) {
      if (this.rejected.has(reported.artifactId)) {
        continue;
      }
      const reject = (reason: string): void => {
        this.rejected.add(reported.artifactId);
        ctx.logger.warn({ build: reported.buildUuid, artifact: reported.name, reason }, 'image artifact not recorded');
      };
      const imageName = stringField(reported.metadata, 'image_name');
      const format = stringField(reported.metadata, 'format');
      const image = imageName === null ? undefined : ctx.layouts.layout(reported.tenant)?.images.get(imageName);
      if (imageName === null || format === null || !image || image.type !== 'zuul') {
        reject(`metadata must name a zuul image of tenant ${reported.tenant} (image_name) and its format`);
        continue;
      }
      let digest;
      try {
        digest = await digestUrl(reported.url);
      } catch (err) {
        reject(`unable to read ${reported.url}: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      const claimedSha = stringField(reported.metadata, 'sha256');
      const claimedMd5 = stringField(reported.metadata, 'md5sum');
      if (
        (claimedSha !== null && claimedSha !== digest.sha256) ||
        (claimedMd5 !== null && claimedMd5 !== digest.md5sum)
      ) {
        reject('the file does not match the checksums the job reported');
        continue;
      }
      await ctx.knex.transaction(async (trx) => {
        const artifact = await ctx.repos.images.createArtifact(
          {
            uuid: ctx.uuid(),
            tenant: reported.tenant,
            canonicalName: image.canonicalName,
            name: image.name,
            projectCanonicalName: image.sourceContext.projectCanonicalName,
            projectBranch: image.sourceContext.branch,
            buildUuid: reported.buildUuid,
            artifactName: reported.name,
            format,
            md5sum: digest.md5sum,
            sha256: digest.sha256,
            url: reported.url,
            timestamp: reported.endTime ?? ctx.now(),
            validated: reported.metadata.validated === true,
          },
          ctx.now(),
          trx,
        );
        if (!artifact) {
          return;
        }
        const groups = new Map<string, { endpoint: string; configHash: string; providers: string[] }>();
        for (const { provider, image: providerImage } of providersWithImage(ctx, image.canonicalName)) {
          if (providerImage.format !== format) {
            continue;
          }
          const key = `${provider.endpoint}\n${providerImage.configHash}`;
          const group = groups.get(key) ?? {
            endpoint: provider.endpoint,
            configHash: providerImage.configHash,
            providers: [],
          };
          group.providers.push(provider.canonicalName);
          groups.set(key, group);
        }
        for (const group of groups.values()) {
          await ctx.repos.images.createUpload(
            {
              uuid: ctx.uuid(),
              artifactUuid: artifact.uuid,
              canonicalName: image.canonicalName,
              endpointName: group.endpoint,
              providers: group.providers,
              configHash: group.configHash,
              validated: artifact.validated,
            },
            ctx.now(),
            trx,
          );
        }
        await ctx.repos.images.setArtifactState(artifact.uuid, 'ready', ctx.now(), trx);
      });
    }
  }

  /**
   * An upload left `uploading` by a launcher that crashed mid-copy goes back to `pending`
   * (docs/launcher.md#images step 4); run when a launcher starts. Only holders known to be gone count.
   */
  async recoverAbandonedUploads(): Promise<void> {
    const { ctx } = this;
    for (const stale of await ctx.repos.images.uploadsInStates(['uploading'])) {
      if (!launcherIsGone(stale.lockHolder)) {
        continue;
      }
      await ctx.knex.transaction(async (trx) => {
        const upload = await ctx.repos.images.lockUpload(stale.uuid, trx, { skipLocked: true });
        if (upload && upload.state === 'uploading' && upload.lockHolder === stale.lockHolder) {
          ctx.logger.warn(
            { upload: upload.uuid, holder: upload.lockHolder },
            'upload abandoned by a crashed launcher; queued again',
          );
          await ctx.repos.images.updateUpload(upload.uuid, { state: 'pending', lockHolder: null }, ctx.now(), trx);
        }
      });
    }
  }

  /** Step 2: perform pending uploads into each endpoint's image directory. */
  async performUploads(): Promise<void> {
    const { ctx } = this;
    for (const pending of await ctx.repos.images.uploadsInStates(['pending'])) {
      const claimed = await ctx.knex.transaction(async (trx) => {
        const upload = await ctx.repos.images.lockUpload(pending.uuid, trx, { skipLocked: true });
        if (!upload || upload.state !== 'pending') {
          return null;
        }
        await ctx.repos.images.updateUpload(
          upload.uuid,
          { state: 'uploading', lockHolder: ctx.holder },
          ctx.now(),
          trx,
        );
        return upload;
      });
      if (claimed) {
        await this.upload(claimed);
      }
    }
  }

  private endpointRoot(upload: ImageUploadRecord): string | null {
    for (const providers of allTenantProviders(this.ctx).values()) {
      for (const provider of providers) {
        if (provider.endpoint === upload.endpointName && provider.root !== null) {
          return provider.root;
        }
      }
    }
    return null;
  }

  private async upload(upload: ImageUploadRecord): Promise<void> {
    const { ctx } = this;
    const artifact = await ctx.repos.images.getArtifact(upload.artifactUuid);
    const root = this.endpointRoot(upload);
    try {
      if (!artifact || artifact.url === null) {
        throw new Error('its image build artifact is gone');
      }
      if (root === null) {
        throw new Error(`no provider serves endpoint ${upload.endpointName}`);
      }
      const destination = path.join(root, 'images', `${upload.uuid}.${artifact.format}`);
      const digest = await downloadTo(artifact.url, destination);
      if (artifact.sha256 !== null && digest.sha256 !== artifact.sha256) {
        await rm(destination, { force: true });
        throw new Error('the downloaded file does not match the artifact sha256');
      }
      await ctx.knex.transaction(async (trx) => {
        await ctx.repos.images.updateUpload(
          upload.uuid,
          {
            state: 'ready',
            externalId: `${artifact.name ?? 'image'}-${upload.uuid}`,
            path: destination,
            lockHolder: null,
          },
          ctx.now(),
          trx,
        );
        // An unvalidated upload boots no normal node until a validation pipeline passes it (docs/launcher.md#images
        // step 5).
        if (
          !upload.validated &&
          artifact.name !== null &&
          artifact.projectCanonicalName !== null &&
          artifact.projectBranch !== null
        ) {
          await emitImageValidate(
            ctx,
            artifact.tenant,
            artifact.projectCanonicalName,
            artifact.projectBranch,
            artifact.name,
            upload.uuid,
            trx,
          );
        }
      });
    } catch (err) {
      ctx.logger.warn({ upload: upload.uuid, err }, 'image upload failed; a new upload is queued');
      await ctx.knex.transaction(async (trx) => {
        await ctx.repos.images.updateUpload(upload.uuid, { state: 'deleting', lockHolder: null }, ctx.now(), trx);
        if (artifact && artifact.state !== 'deleting') {
          await ctx.repos.images.createUpload(
            {
              uuid: ctx.uuid(),
              artifactUuid: upload.artifactUuid,
              canonicalName: upload.canonicalName,
              endpointName: upload.endpointName,
              providers: upload.providers,
              configHash: upload.configHash,
              validated: upload.validated,
            },
            ctx.now(),
            trx,
          );
        }
      });
    }
  }

  /** Step 3a: mark uploads beyond the retention (two newest validated ready ones per provider and image) `deleting`. */
  async applyRetention(): Promise<void> {
    const { ctx } = this;
    const keep = new Set<string>();
    const candidates = new Map<string, ImageUploadRecord>();
    for (const providers of allTenantProviders(ctx).values()) {
      for (const provider of providers) {
        for (const image of provider.images.values()) {
          if (image.type !== 'zuul' || image.canonicalName === null) {
            continue;
          }
          const uploads = (await ctx.repos.images.readyUploads(image.canonicalName)).filter((u) =>
            uploadPermitted(u, provider, image),
          );
          let validated = 0;
          for (const upload of uploads) {
            if (validated < KEEP_VALIDATED) {
              keep.add(upload.uuid);
            } else {
              candidates.set(upload.uuid, upload);
            }
            if (upload.validated) {
              validated += 1;
            }
          }
        }
      }
    }
    for (const upload of candidates.values()) {
      if (!keep.has(upload.uuid)) {
        await ctx.repos.images.updateUpload(upload.uuid, { state: 'deleting' }, ctx.now());
      }
    }
  }

  /** Step 3b: remove `deleting` uploads and artifacts that no node uses any more. */
  async removeDeleted(): Promise<void> {
    const { ctx } = this;
    const deletingArtifacts = await ctx.repos.images.listArtifacts({ states: ['deleting'] });
    const doomed = new Map<string, ImageUploadRecord>();
    for (const upload of await ctx.repos.images.uploadsInStates(['deleting'])) {
      doomed.set(upload.uuid, upload);
    }
    for (const upload of await ctx.repos.images.uploadsOfArtifacts(deletingArtifacts.map((a) => a.uuid))) {
      if (upload.state !== 'uploading') {
        doomed.set(upload.uuid, upload);
      }
    }
    for (const upload of doomed.values()) {
      await ctx.knex.transaction(async (trx) => {
        const locked = await ctx.repos.images.lockUpload(upload.uuid, trx, { skipLocked: true });
        if (!locked || (await ctx.repos.nodes.countUsingUploads([locked.uuid], trx)) > 0) {
          return;
        }
        if (locked.path !== null) {
          await rm(locked.path, { force: true });
        }
        await ctx.repos.images.deleteUpload(locked.uuid, trx);
      });
    }
    for (const artifact of deletingArtifacts) {
      await this.removeArtifactIfEmpty(artifact);
    }
  }

  private async removeArtifactIfEmpty(artifact: ImageBuildArtifactRecord): Promise<void> {
    const { ctx } = this;
    await ctx.knex.transaction(async (trx) => {
      const locked = await ctx.repos.images.lockArtifact(artifact.uuid, trx);
      if (!locked || (await ctx.repos.images.uploadsOfArtifacts([locked.uuid], trx)).length > 0) {
        return;
      }
      await ctx.repos.images.deleteArtifact(locked.uuid, trx);
    });
  }

  /** Step 4: request a build of every zuul image a provider needs that has no artifact in the provider's format. */
  async requestMissingImages(): Promise<void> {
    const { ctx } = this;
    for (const [tenant, providers] of allTenantProviders(ctx)) {
      for (const provider of providers) {
        if (provider.driver !== 'local') {
          continue;
        }
        for (const image of provider.images.values()) {
          if (
            image.type !== 'zuul' ||
            image.canonicalName === null ||
            image.projectCanonicalName === null ||
            image.branch === null
          ) {
            continue;
          }
          const key = `${tenant}\n${image.canonicalName}\n${image.format}`;
          if (
            this.buildsRequested.has(key) ||
            (await ctx.repos.images.hasArtifact(image.canonicalName, image.format))
          ) {
            continue;
          }
          this.buildsRequested.add(key);
          if (await ctx.repos.events.hasPendingImageBuild(tenant, image.name)) {
            continue;
          }
          await emitImageBuild(ctx, tenant, image.projectCanonicalName, image.branch, [image.name]);
          ctx.logger.info(
            { tenant, image: image.name, format: image.format },
            'image has no artifact; build requested',
          );
        }
      }
    }
  }
}

/**
 * Whether the launcher holding a lock is gone: no holder at all, or a default holder id
 * (`<hostname>-<pid>-<8 hex digits>`) of this host whose process no longer exists. Holders on
 * other hosts (and custom ids) cannot be checked and count as alive.
 */
export function launcherIsGone(holder: string | null): boolean {
  if (holder === null) {
    return true;
  }
  const match = /^(.+)-(\d+)-[0-9a-f]{8}$/.exec(holder);
  if (!match || match[1] !== os.hostname()) {
    return false;
  }
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Append a zuul-driver `image-build` trigger event (docs/launcher.md#images step 1). */
export async function emitImageBuild(
  ctx: LauncherContext,
  tenant: string,
  project: string,
  branch: string,
  imageNames: string[],
): Promise<number> {
  return ctx.repos.events.append({
    tenant,
    event: {
      type: 'image-build',
      project,
      ref: `refs/heads/${branch}`,
      branch,
      imageNames,
      timestamp: ctx.now().toISOString(),
    },
    created: ctx.now(),
  });
}

/**
 * Append a zuul-driver `image-validate` trigger event for a ready, unvalidated upload (docs/launcher.md#images step 4).
 */
export async function emitImageValidate(
  ctx: LauncherContext,
  tenant: string,
  project: string,
  branch: string,
  imageName: string,
  uploadUuid: string,
  trx?: Knex,
): Promise<number> {
  return ctx.repos.events.append(
    {
      tenant,
      event: {
        type: 'image-validate',
        project,
        ref: `refs/heads/${branch}`,
        branch,
        imageNames: [imageName],
        imageUploadUuid: uploadUuid,
        timestamp: ctx.now().toISOString(),
      },
      created: ctx.now(),
    },
    trx,
  );
}
