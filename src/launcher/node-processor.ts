/**
 * The node life cycle on the launcher side (docs/launcher.md#node-life-cycle): launch `requested` nodes when their
 * provider has quota (a static node first gets a free host), age out idle ready nodes
 * (max-ready-age), expire held nodes, keep min-ready pools, and delete used, failed and outdated
 * nodes. Every change happens under the node's row lock (`FOR UPDATE SKIP LOCKED`).
 */
import type { Knex } from 'knex';
import type { ImageUploadRecord, NodeRecord } from '../model/launcher';
import type { LauncherContext } from './context';
import { allTenantProviders, providerByName } from './context';
import type { BootImage } from './drivers/driver';
import type { RuntimeImage, RuntimeProvider } from './providers';

/** States in which a node occupies quota once launched. */
const LAUNCHED_STATES = ['building', 'ready', 'in-use', 'used', 'outdated', 'hold'] as const;

/** Whether an upload may be used by a provider (docs/launcher.md#images). */
export function uploadPermitted(upload: ImageUploadRecord, provider: RuntimeProvider, image: RuntimeImage): boolean {
  return (
    upload.providers.includes(provider.canonicalName) ||
    (upload.configHash === image.configHash && upload.endpointName === provider.endpoint)
  );
}

/** The upload a node of this provider and image boots from: the newest validated ready one (or the requested one). */
async function bootImage(
  ctx: LauncherContext,
  trx: Knex,
  node: NodeRecord,
  provider: RuntimeProvider,
  image: RuntimeImage,
): Promise<BootImage | null> {
  if (image.canonicalName === null) {
    return null;
  }
  const uploads = await ctx.repos.images.readyUploads(image.canonicalName, trx);
  const usable = uploads.filter((u) => u.path !== null && uploadPermitted(u, provider, image));
  const chosen =
    node.imageUploadUuid !== null
      ? usable.find((u) => u.uuid === node.imageUploadUuid)
      : usable.find((u) => u.validated);
  if (!chosen || chosen.path === null) {
    return null;
  }
  return { uploadUuid: chosen.uuid, format: image.format, path: chosen.path };
}

async function assignStaticHost(
  ctx: LauncherContext,
  trx: Knex.Transaction,
  node: NodeRecord,
  provider: RuntimeProvider,
): Promise<string | null> {
  const taken = await ctx.repos.nodes.externalIdsInUse(provider.canonicalName, trx);
  const free = provider.hosts.find((host) => host.labels.includes(node.label) && !taken.has(host.name));
  if (!free) {
    return null;
  }
  // The partial unique index (provider, external_id) rejects a host another launcher just took.
  await trx.raw('SAVEPOINT assign_host');
  try {
    await ctx.repos.nodes.update(node.uuid, { externalId: free.name }, ctx.now(), trx);
    await trx.raw('RELEASE SAVEPOINT assign_host');
    return free.name;
  } catch {
    await trx.raw('ROLLBACK TO SAVEPOINT assign_host');
    return null;
  }
}

/** Launch one `requested` node if its provider has room; leaves it `requested` otherwise. */
export async function launchNode(ctx: LauncherContext, uuid: string): Promise<void> {
  await ctx.knex.transaction(async (trx) => {
    const node = await ctx.repos.nodes.lock(uuid, trx, { skipLocked: true });
    if (!node || node.state !== 'requested' || node.provider === null) {
      return;
    }
    const fail = async (reason: string): Promise<void> => {
      ctx.logger.warn({ node: node.uuid, reason }, 'node launch failed');
      await ctx.repos.nodes.update(node.uuid, { state: 'failed', comment: reason }, ctx.now(), trx);
    };
    const provider = providerByName(ctx, node.provider);
    const label = provider?.labels.get(node.label);
    if (!provider || !label) {
      await fail(`Provider ${node.provider} or its label ${node.label} no longer exists`);
      return;
    }
    const usage = (await ctx.repos.nodes.countByProvider(LAUNCHED_STATES, trx)).get(provider.canonicalName) ?? 0;
    if (provider.instances !== null && usage >= provider.instances) {
      return;
    }
    let current = node;
    if (provider.driver === 'static' && node.externalId === null) {
      const host = await assignStaticHost(ctx, trx, node, provider);
      if (host === null) {
        return;
      }
      current = { ...node, externalId: host };
    }
    let image: BootImage | null = null;
    if (provider.driver === 'local') {
      const providerImage = provider.images.get(label.image);
      if (providerImage?.type === 'zuul') {
        image = await bootImage(ctx, trx, current, provider, providerImage);
        if (image === null) {
          await fail(`No image found for label ${label.name} (image ${label.image})`);
          return;
        }
      }
    }
    await ctx.repos.nodes.update(node.uuid, { state: 'building' }, ctx.now(), trx);
    const outcome = await ctx.drivers[provider.driver].launch(
      { ...current, state: 'building' },
      provider,
      label,
      image,
    );
    if (outcome.kind === 'failed') {
      ctx.logger.warn({ node: node.uuid, reason: outcome.reason }, 'node launch failed');
      await ctx.repos.nodes.update(
        node.uuid,
        { state: outcome.temporary ? 'tempfailed' : 'failed', comment: outcome.reason },
        ctx.now(),
        trx,
      );
      return;
    }
    await ctx.repos.nodes.update(
      node.uuid,
      {
        ...outcome.attributes,
        state: 'ready',
        readyTime: ctx.now(),
        imageUploadUuid: image?.uploadUuid ?? current.imageUploadUuid,
      },
      ctx.now(),
      trx,
    );
  });
}

/** Delete one node (driver cleanup, then the record) if nothing holds it. */
export async function deleteNode(ctx: LauncherContext, uuid: string): Promise<void> {
  await ctx.knex.transaction(async (trx) => {
    const node = await ctx.repos.nodes.lock(uuid, trx, { skipLocked: true });
    if (!node || !['failed', 'tempfailed', 'used', 'outdated'].includes(node.state)) {
      return;
    }
    if (node.requestUuid !== null) {
      const request = await ctx.repos.requests.get(node.requestUuid, trx);
      if (request && (request.state === 'requested' || request.state === 'accepted')) {
        // Still referenced by an open request; its check detaches the node first.
        return;
      }
    }
    const provider = node.provider === null ? undefined : providerByName(ctx, node.provider);
    if (provider) {
      try {
        await ctx.drivers[provider.driver].cleanup(node);
      } catch (err) {
        ctx.logger.warn({ err, node: node.uuid }, 'node cleanup failed; removing the record anyway');
      }
    }
    await ctx.repos.nodes.delete(node.uuid, trx);
  });
}

/** Move idle ready nodes past their max-ready-age (or whose label config is gone) to `outdated`; expire held nodes. */
export async function ageNodes(ctx: LauncherContext): Promise<void> {
  const now = ctx.now();
  const liveHashes = new Set<string>();
  for (const providers of allTenantProviders(ctx).values()) {
    for (const provider of providers) {
      for (const label of provider.labels.values()) {
        liveHashes.add(`${provider.canonicalName}\n${label.name}\n${label.configHash}`);
      }
    }
  }
  for (const node of await ctx.repos.nodes.listByStates(['ready', 'hold'])) {
    if (node.state === 'hold') {
      const expiration = node.holdExpiration ?? 0;
      if (expiration > 0 && node.holdTime !== null && now.getTime() - node.holdTime.getTime() >= expiration * 1000) {
        await ctx.repos.nodes.update(node.uuid, { state: 'used', requestUuid: null }, now, ctx.knex, 'hold');
      }
      continue;
    }
    if (node.requestUuid !== null) {
      continue;
    }
    const aged =
      node.maxReadyAge !== null &&
      node.maxReadyAge > 0 &&
      node.readyTime !== null &&
      now.getTime() - node.readyTime.getTime() >= node.maxReadyAge * 1000;
    const gone = !liveHashes.has(`${node.provider ?? ''}\n${node.label}\n${node.labelConfigHash ?? ''}`);
    if (aged || gone) {
      await ctx.knex.transaction(async (trx) => {
        const locked = await ctx.repos.nodes.lock(node.uuid, trx, { skipLocked: true });
        if (locked && locked.state === 'ready' && locked.requestUuid === null) {
          await ctx.repos.nodes.update(node.uuid, { state: 'outdated' }, now, trx);
        }
      });
    }
  }
}

/** Keep `min-ready` unassigned nodes per label (and label configuration). */
export async function maintainMinReady(ctx: LauncherContext): Promise<void> {
  const seen = new Set<string>();
  for (const providers of allTenantProviders(ctx).values()) {
    for (const provider of providers) {
      for (const label of provider.labels.values()) {
        const key = `${label.name}\n${label.configHash}`;
        if (label.minReady <= 0 || seen.has(key)) {
          continue;
        }
        seen.add(key);
        const offering = providers.filter((p) => p.labels.get(label.name)?.configHash === label.configHash);
        await ctx.knex.transaction(async (trx) => {
          // Serialise min-ready top-ups of one label across launchers.
          await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`sluice-min-ready:${key}`]);
          const have = await ctx.repos.nodes.countUnassigned(label.name, [label.configHash], trx);
          for (let i = have; i < label.minReady; i += 1) {
            const target = offering[i % offering.length];
            await ctx.repos.nodes.create(
              {
                uuid: ctx.uuid(),
                tenant: null,
                provider: target.canonicalName,
                connection: target.connection,
                label: label.name,
                labelConfigHash: label.configHash,
                requestUuid: null,
                maxReadyAge: label.maxReadyAge > 0 ? label.maxReadyAge : null,
                created: ctx.now(),
              },
              ctx.now(),
              trx,
            );
          }
        });
      }
    }
  }
}

/** Nodes whose request vanished (canceled or deleted): reusable when ready, otherwise deleted. */
export async function reclaimOrphans(ctx: LauncherContext): Promise<void> {
  const now = ctx.now();
  for (const node of await ctx.repos.nodes.listByStates(['requested', 'building', 'ready'])) {
    if (node.requestUuid === null) {
      continue;
    }
    const request = await ctx.repos.requests.get(node.requestUuid);
    if (request) {
      continue;
    }
    await ctx.knex.transaction(async (trx) => {
      const locked = await ctx.repos.nodes.lock(node.uuid, trx, { skipLocked: true });
      if (!locked || locked.requestUuid !== node.requestUuid) {
        return;
      }
      if (locked.state === 'ready') {
        await ctx.repos.nodes.update(node.uuid, { requestUuid: null, tenant: null }, now, trx);
      } else if (locked.state === 'requested') {
        await ctx.repos.nodes.delete(node.uuid, trx);
      } else {
        await ctx.repos.nodes.update(node.uuid, { state: 'used', requestUuid: null }, now, trx);
      }
    });
  }
}
