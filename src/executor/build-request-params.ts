/**
 * The engine's build parameters translated into the executor contract (src/model/build-request.ts):
 * job details come from the frozen job the engine passes along unread (`EngineJob.params`),
 * nodes from what the launcher provided, projects named as their connections know them.
 */
import type {
  BuildNode,
  BuildNodeset,
  BuildRequestParams,
  BuildRole,
  BuildSecret,
  BuildStep,
} from '../model/build-request';
import type { FrozenNodeset, FrozenPlaybook, FrozenRole, FrozenSecret } from '../model/frozen-job';
import type { BuildParams } from '../engine/ports/executor';
import { toMergerItem, type MergeItem } from '../model/changes';
import type { NodeInfo } from '../model/pipeline-state';
import { isPlainObject } from '../model/value-checks';

/** Maps a canonical project name to the name its connection uses for the repository. */
export type ProjectNameResolver = (tenant: string, canonicalName: string) => string;
/** The connection of a project by canonical name (null: unknown). */
export type ProjectConnectionResolver = (tenant: string, canonicalName: string) => string | null;

/** How the executor names the projects of one request. */
interface ProjectNaming {
  name(canonicalName: string): string;
  connection(canonicalName: string): string;
  /** Records the canonical name of every project named (`zuul.canonicalNames`). */
  canonicalNames: Record<string, string>;
}

function toBuildRole(role: FrozenRole, naming: ProjectNaming): BuildRole {
  if (role.type === 'galaxy') {
    return {
      type: 'galaxy',
      connection: '',
      project: role.projectCanonicalName,
      target: role.targetName,
      implicit: false,
    };
  }
  return {
    type: 'zuul',
    connection: naming.connection(role.projectCanonicalName),
    project: naming.name(role.projectCanonicalName),
    target: role.targetName,
    implicit: role.implicit,
  };
}

/**
 * The job's steps; each step lists the secrets bound to its script, added to `secrets` (the
 * job's still-encrypted secrets, each once) as they are first used.
 */
function steps(
  scripts: readonly FrozenPlaybook[],
  available: readonly FrozenSecret[],
  secrets: BuildSecret[],
  naming: ProjectNaming,
): BuildStep[] {
  return scripts.map((script): BuildStep => {
    const stepSecrets = script.secrets.flatMap((used) => {
      const frozen = available.find((secret) => secret.name === used.secretName);
      // An OIDC secret (data null) carries its settings: the executor issues its token.
      if (!frozen || (frozen.data === null && frozen.oidc === undefined)) {
        return [];
      }
      let index = secrets.findIndex((secret) => secret.name === frozen.name);
      if (index < 0) {
        const secret: BuildSecret = {
          name: frozen.name,
          project: frozen.projectCanonicalName,
          data: frozen.data ?? {},
        };
        index = secrets.push(frozen.oidc === undefined ? secret : { ...secret, oidc: frozen.oidc }) - 1;
      }
      return [{ alias: used.alias, secret: index }];
    });
    const context = script.sourceContext;
    if (context.projectCanonicalName !== undefined) {
      naming.canonicalNames[context.projectName] = context.projectCanonicalName;
    }
    const roles = (script.roles ?? []).map((role) => toBuildRole(role, naming));
    return {
      connection: context.connectionName,
      project: context.projectName,
      path: script.path,
      ...(stepSecrets.length > 0 ? { secrets: stepSecrets } : {}),
      ...(context.trusted !== undefined ? { trusted: context.trusted } : {}),
      ...(context.branch !== undefined ? { branch: context.branch } : {}),
      ...(script.cleanup === true ? { cleanup: true } : {}),
      ...(script.nestingLevel !== undefined ? { nestingLevel: script.nestingLevel } : {}),
      ...(roles.length > 0 ? { roles } : {}),
    };
  });
}

/**
 * Post-run entries with the deprecated `cleanup-run` ones among them: each goes before the first
 * post-run entry of a lower nesting level (a child's cleanup before its parents' post-run), else
 * last, and runs as a cleanup entry (docs/executor.md#results).
 */
function withCleanupRun(postRun: readonly FrozenPlaybook[], cleanupRun: readonly FrozenPlaybook[]): FrozenPlaybook[] {
  const ordered = [...postRun];
  for (const cleanup of cleanupRun) {
    const entry = { ...cleanup, cleanup: true };
    const index = ordered.findIndex((post) => (entry.nestingLevel ?? 0) > (post.nestingLevel ?? 0));
    ordered.splice(index < 0 ? ordered.length : index, 0, entry);
  }
  return ordered;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The executor's view of a node the launcher provided (docs/launcher.md), or null for nodes the
 * executor has nothing to do with (the built-in local gateway's: steps run in its own workspace).
 */
export function toBuildNode(info: NodeInfo): BuildNode | null {
  const connectionType = info.connectionType;
  if (connectionType !== 'local' && connectionType !== 'ssh') {
    return null;
  }
  return {
    id: info.id,
    label: info.label,
    connectionType,
    connection: text(info.connection),
    provider: text(info.provider),
    interfaceIp: text(info.interfaceIp),
    host: text(info.host),
    port: typeof info.port === 'number' ? info.port : null,
    username: text(info.username),
    path: text(info.path),
    hostKeys: Array.isArray(info.hostKeys)
      ? info.hostKeys.filter((line): line is string => typeof line === 'string')
      : [],
  };
}

/** `host-vars` / `group-vars`: name -> mapping of variables (other entries are dropped). */
function variablesByName(value: Record<string, unknown>): Record<string, Record<string, unknown>> | undefined {
  const entries = Object.entries(value).filter(([, vars]) => isPlainObject(vars));
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as Record<string, Record<string, unknown>>);
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** A frozen nodeset alternative as the executor sees it: every node and group named, no empty names. */
function toBuildNodeset(nodeset: FrozenNodeset): BuildNodeset {
  const named = (names: readonly string[]) => names.filter((name) => name !== '');
  return {
    name: nodeset.name,
    nodes: nodeset.nodes.map((node, index) => ({
      name: node.name === '' ? `node${index + 1}` : node.name,
      aliases: named(node.aliases),
      label: node.label,
    })),
    groups: nodeset.groups
      .filter((group) => group.name !== '')
      .map((group) => ({ name: group.name, nodes: named(group.nodes) })),
  };
}

/**
 * The nodeset alternative the nodes were provided for: the one the launcher names
 * (`nodesetIndex` of its node infos) when its labels match, else the first alternative with the
 * nodes' labels in order; nodes without one are named `node1`, `node2`, ...
 */
export function nodesetOfNodes(
  alternatives: readonly FrozenNodeset[] | undefined,
  nodes: readonly NodeInfo[],
): BuildNodeset | undefined {
  if (nodes.length === 0) {
    return undefined;
  }
  const labels = nodes.map((node) => node.label);
  const candidates = (alternatives ?? []).map(toBuildNodeset);
  const matches = (nodeset: BuildNodeset | undefined): nodeset is BuildNodeset =>
    nodeset !== undefined &&
    nodeset.nodes.length === labels.length &&
    nodeset.nodes.every((node, index) => node.label === labels[index]);
  const index = nodes[0].nodesetIndex;
  const named = typeof index === 'number' ? candidates[index] : undefined;
  const chosen = matches(named) ? named : candidates.find(matches);
  return (
    chosen ?? {
      name: '',
      nodes: labels.map((label, index) => ({ name: `node${index + 1}`, aliases: [], label })),
      groups: [],
    }
  );
}

/** Translate the engine's build parameters into the executor contract (src/model/build-request.ts). */
export function toBuildRequestParams(
  params: BuildParams,
  projectName: ProjectNameResolver,
  projectConnection?: ProjectConnectionResolver,
): BuildRequestParams {
  const frozen = params.job.params;
  const change = params.changes[0];
  const last = params.mergeItems[params.mergeItems.length - 1];
  const naming: ProjectNaming = {
    canonicalNames: {},
    name(canonicalName) {
      const name = projectName(params.tenant, canonicalName);
      this.canonicalNames[name] = canonicalName;
      return name;
    },
    connection: (canonicalName) => projectConnection?.(params.tenant, canonicalName) ?? last?.connection ?? '',
  };
  const mergeItem = (item: MergeItem) =>
    toMergerItem(item, { connection: item.connection, project: naming.name(item.project) });
  const secrets: BuildSecret[] = [];
  const preRun = steps(frozen.preRun, frozen.frozenSecrets, secrets, naming);
  const run = steps(frozen.run, frozen.frozenSecrets, secrets, naming);
  const postRun = steps(withCleanupRun(frozen.postRun, frozen.cleanupRun ?? []), frozen.frozenSecrets, secrets, naming);
  const nodes = params.nodes.flatMap((info) => toBuildNode(info) ?? []);
  const nodeset = nodesetOfNodes(frozen.nodesetAlternatives, params.nodes);
  return {
    buildUuid: params.buildUuid,
    buildsetUuid: params.buildsetUuid,
    tenant: params.tenant,
    pipeline: params.pipeline,
    attempt: params.attempt,
    job: {
      name: params.job.name,
      timeout: params.job.timeout,
      postTimeout: frozen.postTimeout,
      ...(frozen.preTimeout !== undefined && frozen.preTimeout !== null ? { preTimeout: frozen.preTimeout } : {}),
      ...(frozen.ansibleSplitStreams === true ? { ansibleSplitStreams: true } : {}),
      attempts: params.job.attempts,
      workspaceScheme: frozen.workspaceScheme,
      overrideCheckout: frozen.overrideCheckout,
      vars: params.job.vars,
      extraVars: frozen.extraVars,
      ...optional('hostVars', variablesByName(frozen.hostVars)),
      ...optional('groupVars', variablesByName(frozen.groupVars)),
      preRun,
      run,
      postRun,
      ...(secrets.length > 0 ? { secrets } : {}),
    },
    item: {
      connection: last?.connection ?? '',
      project: naming.name(change.project),
      branch: change.branch,
      ref: change.ref,
      change: change.number,
      patchset: change.patchset,
      oldrev: change.oldrev,
      newrev: change.newrev,
    },
    mergerItems: params.mergeItems.map(mergeItem),
    ...(params.repoState ? { repoState: repoStateOf(params.repoState) } : {}),
    projects: frozen.requiredProjects.map((required) => ({
      connection: naming.connection(required.projectCanonicalName),
      project: naming.name(required.projectCanonicalName),
      overrideCheckout: required.overrideCheckout ?? null,
    })),
    parentData: params.parentData,
    artifacts: params.artifacts.map((artifact) => ({
      ...artifact,
      project: projectName(params.tenant, artifact.project),
    })),
    eventId: params.eventId ?? null,
    ...(nodes.length > 0 ? { nodes } : {}),
    ...(nodeset ? { nodeset } : {}),
    zuul: {
      voting: params.job.voting,
      jobtags: [...(frozen.tags ?? [])].sort(),
      inheritancePath: frozen.inheritancePath ?? [],
      childJobs: params.childJobs ?? [],
      postReview: params.postReview ?? false,
      changeUrl: change.url ?? null,
      canonicalNames: naming.canonicalNames,
    },
  };
}

/** The pinned branch heads of a speculative merge, as the build request stores them (strings only). */
function repoStateOf(state: Record<string, unknown>): Record<string, Record<string, string>> {
  const pinned: Record<string, Record<string, string>> = {};
  for (const [project, branches] of Object.entries(state)) {
    if (branches !== null && typeof branches === 'object') {
      pinned[project] = Object.fromEntries(
        Object.entries(branches).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    }
  }
  return pinned;
}
