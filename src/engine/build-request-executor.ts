/**
 * The production ExecutorGateway: builds become rows of `build_requests` that executor workers
 * claim (src/executor/worker.ts); their `build-started` / `build-paused` / `build-completed`
 * result events come back through `engine_events`. Job details are taken from the frozen job that the layout
 * adapter passes along in `EngineJob.params`.
 */
import type { Knex } from 'knex';
import type {
  BuildNode,
  BuildNodeset,
  BuildRequestParams,
  BuildSecret,
  BuildStep,
  MergeMode,
  WorkspaceScheme,
} from '../model/build-request';
import { MERGE_MODES } from '../model/build-request';
import { isPlainObject as isRecord } from '../model/value-checks';
import { BuildRequestRepository } from '../store/repositories/build-requests';
import type { BuildParams, ExecutorGateway, MergeItem, NodeInfo } from './interfaces';

/** Maps a canonical project name to the name its connection uses for the repository. */
export type ProjectNameResolver = (tenant: string, canonicalName: string) => string;

interface FrozenPlaybook {
  path?: unknown;
  sourceContext?: { connectionName?: unknown; projectName?: unknown };
  secrets?: Array<{ alias?: unknown; secretName?: unknown }>;
}

interface FrozenSecretFields {
  name?: unknown;
  projectCanonicalName?: unknown;
  data?: unknown;
}

interface FrozenJobFields {
  postTimeout?: unknown;
  workspaceScheme?: unknown;
  overrideCheckout?: unknown;
  extraVars?: unknown;
  hostVars?: unknown;
  groupVars?: unknown;
  preRun?: unknown;
  run?: unknown;
  postRun?: unknown;
  requiredProjects?: unknown;
  frozenSecrets?: unknown;
  nodesetAlternatives?: unknown;
}

/**
 * The job's steps; each step lists the secrets bound to its playbook, added to `secrets` (the
 * job's still-encrypted secrets, each once) as they are first used.
 */
function steps(value: unknown, available: FrozenSecretFields[], secrets: BuildSecret[]): BuildStep[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.flatMap((entry: FrozenPlaybook): BuildStep[] => {
    const connection = entry.sourceContext?.connectionName;
    const project = entry.sourceContext?.projectName;
    if (typeof entry.path !== 'string' || typeof connection !== 'string' || typeof project !== 'string') {
      return [];
    }
    const stepSecrets = (entry.secrets ?? []).flatMap((used) => {
      const frozen = available.find((s) => s.name === used.secretName);
      // OIDC secrets (data null) are not delivered.
      if (
        typeof used.alias !== 'string' ||
        typeof frozen?.name !== 'string' ||
        typeof frozen.projectCanonicalName !== 'string' ||
        !isRecord(frozen.data)
      ) {
        return [];
      }
      let index = secrets.findIndex((s) => s.name === frozen.name);
      if (index < 0) {
        index = secrets.push({ name: frozen.name, project: frozen.projectCanonicalName, data: frozen.data }) - 1;
      }
      return [{ alias: used.alias, secret: index }];
    });
    return [
      stepSecrets.length > 0
        ? { connection, project, path: entry.path, secrets: stepSecrets }
        : { connection, project, path: entry.path },
    ];
  });
}

function mergeMode(value: string): MergeMode {
  return (MERGE_MODES as readonly string[]).includes(value) ? (value as MergeMode) : 'merge';
}

function workspaceScheme(value: unknown): WorkspaceScheme {
  return value === 'flat' || value === 'unique' ? value : 'golang';
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
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
function variablesByName(value: unknown): Record<string, Record<string, unknown>> | undefined {
  const entries = Object.entries(record(value)).filter(
    ([, vars]) => typeof vars === 'object' && vars !== null && !Array.isArray(vars),
  );
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as Record<string, Record<string, unknown>>);
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string' && entry !== '')
    : [];
}

/** A frozen nodeset alternative (src/config/layout.ts `Nodeset`) as the executor sees it. */
function toBuildNodeset(value: unknown): BuildNodeset {
  const nodeset = record(value);
  const nodes = Array.isArray(nodeset.nodes) ? nodeset.nodes.map(record) : [];
  const groups = Array.isArray(nodeset.groups) ? nodeset.groups.map(record) : [];
  return {
    name: typeof nodeset.name === 'string' ? nodeset.name : '',
    nodes: nodes.map((node, index) => ({
      name: text(node.name) ?? `node${index + 1}`,
      aliases: strings(node.aliases),
      label: typeof node.label === 'string' ? node.label : '',
    })),
    groups: groups.flatMap((group) =>
      text(group.name) === null ? [] : [{ name: String(group.name), nodes: strings(group.nodes) }],
    ),
  };
}

/**
 * The nodeset alternative the nodes were provided for: the one the launcher names
 * (`nodesetIndex` of its node infos) when its labels match, else the first alternative with the
 * nodes' labels in order; nodes without one are named `node1`, `node2`, ...
 */
export function nodesetOfNodes(alternatives: unknown, nodes: readonly NodeInfo[]): BuildNodeset | undefined {
  if (nodes.length === 0) {
    return undefined;
  }
  const labels = nodes.map((node) => node.label);
  const candidates = (Array.isArray(alternatives) ? alternatives : []).map(toBuildNodeset);
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
export function toBuildRequestParams(params: BuildParams, projectName: ProjectNameResolver): BuildRequestParams {
  const frozen = params.job.params as FrozenJobFields;
  const change = params.changes[0];
  const mergeItem = (item: MergeItem) => ({
    connection: item.connection,
    project: projectName(params.tenant, item.project),
    branch: item.branch,
    ref: item.ref,
    change: item.number,
    patchset: item.patchset,
    oldrev: item.oldrev,
    newrev: item.newrev,
    mergeMode: mergeMode(item.mergeMode),
  });
  const last = params.mergeItems[params.mergeItems.length - 1];
  const available = Array.isArray(frozen.frozenSecrets) ? (frozen.frozenSecrets as FrozenSecretFields[]) : [];
  const secrets: BuildSecret[] = [];
  const preRun = steps(frozen.preRun, available, secrets);
  const run = steps(frozen.run, available, secrets);
  const postRun = steps(frozen.postRun, available, secrets);
  const requiredProjects = Array.isArray(frozen.requiredProjects)
    ? (frozen.requiredProjects as Array<{ projectCanonicalName?: unknown; overrideCheckout?: unknown }>)
    : [];
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
      postTimeout: typeof frozen.postTimeout === 'number' ? frozen.postTimeout : null,
      attempts: params.job.attempts,
      workspaceScheme: workspaceScheme(frozen.workspaceScheme),
      overrideCheckout: typeof frozen.overrideCheckout === 'string' ? frozen.overrideCheckout : null,
      vars: params.job.vars,
      extraVars: record(frozen.extraVars),
      ...optional('hostVars', variablesByName(frozen.hostVars)),
      ...optional('groupVars', variablesByName(frozen.groupVars)),
      preRun,
      run,
      postRun,
      ...(secrets.length > 0 ? { secrets } : {}),
    },
    item: {
      connection: last?.connection ?? '',
      project: projectName(params.tenant, change.project),
      branch: change.branch,
      ref: change.ref,
      change: change.number,
      patchset: change.patchset,
      oldrev: change.oldrev,
      newrev: change.newrev,
    },
    mergerItems: params.mergeItems.map(mergeItem),
    projects: requiredProjects.flatMap((required) =>
      typeof required.projectCanonicalName === 'string'
        ? [
            {
              connection: last?.connection ?? '',
              project: projectName(params.tenant, required.projectCanonicalName),
              overrideCheckout: typeof required.overrideCheckout === 'string' ? required.overrideCheckout : null,
            },
          ]
        : [],
    ),
    parentData: params.parentData,
    artifacts: params.artifacts.map((artifact) => ({
      ...artifact,
      project: projectName(params.tenant, artifact.project),
    })),
    eventId: null,
    ...(nodes.length > 0 ? { nodes } : {}),
    ...(nodeset ? { nodeset } : {}),
  };
}

export class BuildRequestExecutor implements ExecutorGateway {
  private readonly requests: BuildRequestRepository;

  constructor(
    knex: Knex,
    private readonly projectName: ProjectNameResolver,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.requests = new BuildRequestRepository(knex);
  }

  /** Insert the build request unless it exists (a restart re-submits builds without a result). */
  async startBuild(params: BuildParams): Promise<void> {
    if (await this.requests.get(params.buildUuid)) {
      return;
    }
    await this.requests.create(toBuildRequestParams(params, this.projectName), {
      precedence: params.precedence,
      now: this.now(),
    });
  }

  /** Unclaimed requests complete at once as CANCELED; running ones are stopped and end ABORTED. */
  async cancelBuild(_tenant: string, buildUuid: string): Promise<void> {
    await this.requests.requestCancel(buildUuid, 'ABORTED', this.now());
  }

  /** A paused request is flagged; an executor holding its workspace continues it. */
  async resumeBuild(_tenant: string, buildUuid: string): Promise<void> {
    await this.requests.requestResume(buildUuid, this.now());
  }
}
