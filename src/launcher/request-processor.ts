/**
 * Processing one nodeset request (docs/launcher.md#nodeset-requests) inside a transaction that holds its row lock:
 * accept (choose providers, claim ready nodes or create new ones, or wait for quota) and check
 * (replace failed nodes on providers that have launch attempts left; fulfil when every node is
 * ready; fail, or fall back to the next nodeset alternative, when a label has no provider left).
 */
import type { Knex } from 'knex';
import type { NodeInfo } from '../model/pipeline-state';
import { QUOTA_STATES, type NodeRecord, type NodesetRequestRecord, type ProviderNodeData } from '../model/launcher';
import type { LauncherContext } from './context';
import { providersOf } from './context';
import type { RuntimeProvider } from './providers';

/** Thrown inside the request transaction to undo a partial accept while quota is short. */
class DeferRequest extends Error {}

type Selection = { ok: true; providers: RuntimeProvider[] } | { ok: false; reason: string };

/** Engine-facing description of a node (the `nodes` of a nodes-provisioned event and of build params). */
export function nodeInfo(node: NodeRecord): NodeInfo {
  return {
    id: node.uuid,
    label: node.label,
    provider: node.provider,
    connection: node.connection,
    connectionType: node.connectionType,
    host: node.host,
    interfaceIp: node.interfaceIp,
    port: node.port,
    username: node.username,
    path: typeof node.data.path === 'string' ? node.data.path : null,
    hostKeys: Array.isArray(node.data.hostKeys) ? node.data.hostKeys : [],
  };
}

function failures(data: ProviderNodeData, provider: string): number {
  return data.failed_providers.filter((p) => p === provider).length;
}

/** Utilisation of a provider's instance quota, 0..1 (unlimited = 0). */
function utilisation(provider: RuntimeProvider, usage: ReadonlyMap<string, number>): number {
  if (provider.instances === null) {
    return 0;
  }
  if (provider.instances === 0) {
    return 1;
  }
  return Math.min(1, (usage.get(provider.canonicalName) ?? 0) / provider.instances);
}

/** Choose a provider per label index (docs/launcher.md#nodeset-requests). */
export function selectProviders(
  request: Pick<NodesetRequestRecord, 'labels' | 'preferredProvider'>,
  data: readonly ProviderNodeData[],
  providers: readonly RuntimeProvider[],
  usage: ReadonlyMap<string, number>,
  currentProviders: ReadonlyArray<string | null> = [],
): Selection {
  if (providers.length === 0) {
    return { ok: false, reason: 'No provider found' };
  }
  const sorted = [...providers].sort((a, b) => utilisation(a, usage) - utilisation(b, usage));
  const candidates: RuntimeProvider[][] = [];
  for (const [index, label] of request.labels.entries()) {
    const entry = data[index] ?? { uuid: null, executor_zone: null, failed_providers: [] };
    const list = sorted.filter(
      (p) => p.labels.has(label) && p.instances !== 0 && failures(entry, p.canonicalName) < p.launchAttempts,
    );
    if (list.length === 0) {
      return { ok: false, reason: `No provider found for label ${label}` };
    }
    candidates.push(list);
  }
  const servesAll = sorted.filter((p) => candidates.every((list) => list.includes(p)));
  // Keep the nodes of a request together: the provider most nodes already use, else the preferred one.
  const counts = new Map<string, number>();
  for (const name of currentProviders) {
    if (name !== null) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  const byUse = [...servesAll].sort((a, b) => (counts.get(b.canonicalName) ?? 0) - (counts.get(a.canonicalName) ?? 0));
  const main =
    (counts.size > 0 ? byUse[0] : undefined) ??
    servesAll.find((p) => p.canonicalName === request.preferredProvider) ??
    servesAll[0];
  return { ok: true, providers: candidates.map((list) => main ?? list[0]) };
}

/** Append a nodes-provisioned result event for the engine (same transaction as the state change). */
async function notifyEngine(
  ctx: LauncherContext,
  trx: Knex,
  request: NodesetRequestRecord,
  fulfilled: boolean,
  nodes: NodeInfo[],
): Promise<void> {
  await ctx.repos.events.append(
    {
      tenant: request.tenant,
      event: { type: 'nodes-provisioned', requestId: request.uuid, fulfilled, nodes },
      created: ctx.now(),
    },
    trx,
  );
}

/**
 * Detach a request's nodes: ready nodes become reusable (unassigned), nodes not launched yet are
 * removed, launched-but-unready and failed nodes are left for deletion.
 */
export async function releaseRequestNodes(ctx: LauncherContext, trx: Knex, requestUuid: string): Promise<void> {
  const now = ctx.now();
  for (const node of await ctx.repos.nodes.listByRequest(requestUuid, trx)) {
    switch (node.state) {
      case 'ready':
        await ctx.repos.nodes.update(node.uuid, { requestUuid: null, tenant: null }, now, trx);
        break;
      case 'requested':
        await ctx.repos.nodes.delete(node.uuid, trx);
        break;
      case 'building':
      case 'in-use':
        await ctx.repos.nodes.update(node.uuid, { state: 'used', requestUuid: null, lockHolder: null }, now, trx);
        break;
      case 'hold':
        break;
      default:
        await ctx.repos.nodes.update(node.uuid, { requestUuid: null }, now, trx);
    }
  }
}

/** Fail the current alternative: move on to the next one, or fail the request. True when the request failed (the engine was told). */
async function failRequest(
  ctx: LauncherContext,
  trx: Knex,
  request: NodesetRequestRecord,
  reason: string,
): Promise<boolean> {
  await releaseRequestNodes(ctx, trx, request.uuid);
  const next = request.alternativeIndex + 1;
  const alternative = request.alternatives[next];
  if (alternative !== undefined && alternative.length > 0) {
    ctx.logger.info(
      { request: request.uuid, reason, alternative: next },
      'nodeset alternative failed; trying the next one',
    );
    await ctx.repos.requests.update(
      request.uuid,
      {
        state: 'requested',
        labels: alternative,
        alternativeIndex: next,
        providerNodeData: alternative.map(() => ({ uuid: null, executor_zone: null, failed_providers: [] })),
        failureReason: reason,
      },
      ctx.now(),
      trx,
    );
    return false;
  }
  ctx.logger.info({ request: request.uuid, reason }, 'nodeset request failed');
  await ctx.repos.requests.update(
    request.uuid,
    { state: 'failed', failureReason: reason, providerNodeData: request.providerNodeData },
    ctx.now(),
    trx,
  );
  await notifyEngine(ctx, trx, request, false, []);
  return true;
}

async function createNode(
  ctx: LauncherContext,
  trx: Knex,
  request: NodesetRequestRecord,
  provider: RuntimeProvider,
  label: string,
): Promise<NodeRecord> {
  const providerLabel = provider.labels.get(label);
  const node = await ctx.repos.nodes.create(
    {
      uuid: ctx.uuid(),
      tenant: request.tenant,
      provider: provider.canonicalName,
      connection: provider.connection,
      label,
      labelConfigHash: providerLabel?.configHash ?? null,
      requestUuid: request.uuid,
      maxReadyAge: providerLabel && providerLabel.maxReadyAge > 0 ? providerLabel.maxReadyAge : null,
      created: ctx.now(),
    },
    ctx.now(),
    trx,
  );
  if (request.imageUploadUuid !== null) {
    await ctx.repos.nodes.update(node.uuid, { imageUploadUuid: request.imageUploadUuid }, ctx.now(), trx);
  }
  return node;
}

function hasCapacity(provider: RuntimeProvider, usage: ReadonlyMap<string, number>): boolean {
  return provider.instances === null || (usage.get(provider.canonicalName) ?? 0) < provider.instances;
}

/** Accept a `requested` request; true when it also reached a final state (the engine was told). */
async function accept(
  ctx: LauncherContext,
  trx: Knex.Transaction,
  request: NodesetRequestRecord,
  providers: RuntimeProvider[],
): Promise<boolean> {
  const usage = await ctx.repos.nodes.countByProvider(QUOTA_STATES, trx);
  const selection = selectProviders(request, request.providerNodeData, providers, usage);
  if (!selection.ok) {
    return failRequest(ctx, trx, request, selection.reason);
  }
  const data = request.labels.map(
    (_, index) => request.providerNodeData[index] ?? { uuid: null, executor_zone: null, failed_providers: [] },
  );
  let placed = 0;
  for (const [index, label] of request.labels.entries()) {
    const provider = selection.providers[index];
    const providerLabel = provider.labels.get(label);
    const claimed =
      request.imageUploadUuid === null && providerLabel
        ? await ctx.repos.nodes.claimReady(
            {
              label,
              providers: [provider.canonicalName],
              labelConfigHashes: [providerLabel.configHash],
              tenant: request.tenant,
              requestUuid: request.uuid,
            },
            ctx.now(),
            trx,
          )
        : null;
    if (claimed) {
      data[index] = { ...data[index], uuid: claimed.uuid };
      placed += 1;
      continue;
    }
    if (placed === 0 && !hasCapacity(provider, usage)) {
      // Wait for quota: nothing of this request may stay claimed meanwhile.
      throw new DeferRequest();
    }
    const node = await createNode(ctx, trx, request, provider, label);
    usage.set(provider.canonicalName, (usage.get(provider.canonicalName) ?? 0) + 1);
    data[index] = { ...data[index], uuid: node.uuid };
    placed += 1;
  }
  await ctx.repos.requests.update(request.uuid, { state: 'accepted', providerNodeData: data }, ctx.now(), trx);
  return checkFulfilment(ctx, trx, { ...request, state: 'accepted', providerNodeData: data }, providers);
}

/** Replace failed nodes, fulfil when all are ready; true when the request reached a final state (the engine was told). */
async function checkFulfilment(
  ctx: LauncherContext,
  trx: Knex.Transaction,
  request: NodesetRequestRecord,
  providers: RuntimeProvider[],
): Promise<boolean> {
  const data = request.providerNodeData.map((entry) => ({ ...entry, failed_providers: [...entry.failed_providers] }));
  const nodes = new Map(
    (
      await ctx.repos.nodes.getMany(
        data.flatMap((d) => (d.uuid === null ? [] : [d.uuid])),
        trx,
      )
    ).map((n) => [n.uuid, n]),
  );
  const replace: number[] = [];
  for (const [index, entry] of data.entries()) {
    const node = entry.uuid === null ? undefined : nodes.get(entry.uuid);
    if (node && node.state !== 'failed' && node.state !== 'tempfailed') {
      continue;
    }
    if (node?.state === 'failed' && node.provider !== null) {
      entry.failed_providers.push(node.provider);
    }
    if (node) {
      // The failed node is deleted by the cleanup once nothing references it.
      await ctx.repos.nodes.update(node.uuid, { requestUuid: null }, ctx.now(), trx);
    }
    entry.uuid = null;
    replace.push(index);
  }
  if (replace.length > 0) {
    const usage = await ctx.repos.nodes.countByProvider(QUOTA_STATES, trx);
    const current = data.map((entry) => (entry.uuid === null ? null : (nodes.get(entry.uuid)?.provider ?? null)));
    const selection = selectProviders(request, data, providers, usage, current);
    if (!selection.ok) {
      return failRequest(ctx, trx, { ...request, providerNodeData: data }, selection.reason);
    }
    for (const index of replace) {
      const node = await createNode(ctx, trx, request, selection.providers[index], request.labels[index]);
      data[index].uuid = node.uuid;
      nodes.set(node.uuid, node);
    }
    await ctx.repos.requests.update(request.uuid, { providerNodeData: data }, ctx.now(), trx);
    return false;
  }
  const all = data.map((entry) => (entry.uuid === null ? undefined : nodes.get(entry.uuid)));
  if (all.every((node): node is NodeRecord => node !== undefined && node.state === 'ready')) {
    // The nodes stay `ready` (assigned to the request) until the executor locks them for the build.
    await ctx.repos.requests.update(request.uuid, { state: 'fulfilled' }, ctx.now(), trx);
    // The alternative's index tells the executor the nodes' names and groups (toBuildRequestParams).
    await notifyEngine(
      ctx,
      trx,
      request,
      true,
      all.map((node) => ({ ...nodeInfo(node), nodesetIndex: request.alternativeIndex })),
    );
    return true;
  }
  return false;
}

/**
 * Handle one open request if no other launcher holds it. Resolves with the request's tenant
 * when the request was fulfilled or failed (a nodes-provisioned event is committed), else null.
 */
export async function processRequest(ctx: LauncherContext, uuid: string): Promise<string | null> {
  try {
    return await ctx.knex.transaction(async (trx) => {
      const request = await ctx.repos.requests.lockOpen(uuid, ctx.holder, trx);
      if (!request) {
        return null;
      }
      const providers = providersOf(ctx, request.tenant);
      const settled =
        request.state === 'requested'
          ? await accept(ctx, trx, request, providers)
          : await checkFulfilment(ctx, trx, request, providers);
      return settled ? request.tenant : null;
    });
  } catch (err) {
    if (!(err instanceof DeferRequest)) {
      throw err;
    }
    return null;
  }
}
