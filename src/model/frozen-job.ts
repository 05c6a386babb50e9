/**
 * The part of a frozen job (src/config/freeze.ts `FrozenJob`, which extends it) that only the
 * executor reads: the engine keeps it with the job's state, unread, and its executor gateway
 * turns it into the build request (src/model/build-request.ts). Plain data, persisted with the
 * pipeline state.
 */
import type { WorkspaceScheme } from './build-request';

/** Where a frozen script comes from: the project (and its connection) whose repository holds it. */
export interface FrozenSourceContext {
  connectionName: string;
  projectName: string;
}

/** A secret a variant binds to its scripts: the alias the scripts see it as, and the secret's name. */
export interface FrozenSecretBinding {
  alias: string;
  secretName: string;
}

/** A role of a playbook: a project holding roles (`zuul`), or a galaxy role (refused by the executor). */
export interface FrozenRole {
  type: 'zuul' | 'galaxy';
  targetName: string;
  /** Canonical name of the role's project (galaxy: the galaxy name). */
  projectCanonicalName: string;
  implicit: boolean;
}

/** A `pre-run`, `run`, `post-run` or `cleanup-run` entry as frozen with the job. */
export interface FrozenPlaybook {
  /** Path of the script or playbook inside its project's checkout. */
  path: string;
  sourceContext: FrozenSourceContext & { projectCanonicalName?: string; branch?: string; trusted?: boolean };
  /** Secrets bound to the variant that added the script. */
  secrets: FrozenSecretBinding[];
  /** `cleanup: true` (post-run). Absent in states frozen before Sluice ran playbooks. */
  cleanup?: boolean;
  nestingLevel?: number;
  roles?: FrozenRole[];
}

/** A secret as a job carries it to the executor: never decrypted before it reaches the executor. */
export interface FrozenSecret {
  name: string;
  /** The project that defines the secret; its key decrypts the data. */
  projectCanonicalName: string;
  /** The data with encrypted values as `{encrypted, chunks}`; null for OIDC secrets. */
  data: Record<string, unknown> | null;
  /** An `oidc` secret's settings (docs/security.md#oidc-tokens); absent for data secrets. */
  oidc?: { ttl: number; iss?: string; algorithm?: string; claims: Record<string, unknown> };
}

/** A project the job needs checked out (`required-projects`). */
export interface FrozenRequiredProject {
  projectCanonicalName: string;
  overrideCheckout?: string;
}

/** One concrete nodeset alternative: node names (with aliases) and groups, in node order. */
export interface FrozenNodeset {
  /** Empty for anonymous nodesets. */
  name: string;
  nodes: Array<{ name: string; aliases: string[]; label: string }>;
  groups: Array<{ name: string; nodes: string[] }>;
}

/** What the executor needs of a frozen job beyond what the engine schedules by (`EngineJob`). */
export interface FrozenJobExecution {
  /** Seconds for each post-run step; null = no limit. */
  postTimeout: number | null;
  workspaceScheme: WorkspaceScheme;
  overrideCheckout: string | null;
  extraVars: Record<string, unknown>;
  /** `host-vars` / `group-vars`: variables per node name / nodeset group (entries that are not mappings are ignored). */
  hostVars: Record<string, unknown>;
  groupVars: Record<string, unknown>;
  preRun: FrozenPlaybook[];
  run: FrozenPlaybook[];
  postRun: FrozenPlaybook[];
  /** The deprecated `cleanup-run` entries (absent in states frozen before). */
  cleanupRun?: FrozenPlaybook[];
  /** Seconds for the pre-run phase; null = no own limit. */
  preTimeout?: number | null;
  ansibleSplitStreams?: boolean | null;
  tags?: string[];
  inheritancePath?: string[];
  requiredProjects: FrozenRequiredProject[];
  /** The secrets the job's scripts use, still encrypted (docs/security.md#secrets). */
  frozenSecrets: FrozenSecret[];
  /** All concrete nodeset alternatives in order (none when the job has no nodeset). */
  nodesetAlternatives: FrozenNodeset[];
}

/** The executor part of a frozen job (the job's own object may carry more). */
export function frozenJobExecution(job: FrozenJobExecution): FrozenJobExecution {
  return {
    postTimeout: job.postTimeout,
    workspaceScheme: job.workspaceScheme,
    overrideCheckout: job.overrideCheckout,
    extraVars: job.extraVars,
    hostVars: job.hostVars,
    groupVars: job.groupVars,
    preRun: job.preRun.map(frozenPlaybook),
    run: job.run.map(frozenPlaybook),
    postRun: job.postRun.map(frozenPlaybook),
    cleanupRun: (job.cleanupRun ?? []).map(frozenPlaybook),
    preTimeout: job.preTimeout ?? null,
    ansibleSplitStreams: job.ansibleSplitStreams ?? null,
    tags: [...(job.tags ?? [])],
    inheritancePath: [...(job.inheritancePath ?? [])],
    requiredProjects: job.requiredProjects.map((project) => ({
      projectCanonicalName: project.projectCanonicalName,
      ...(project.overrideCheckout !== undefined ? { overrideCheckout: project.overrideCheckout } : {}),
    })),
    frozenSecrets: job.frozenSecrets,
    nodesetAlternatives: job.nodesetAlternatives.map((nodeset) => ({
      name: nodeset.name,
      nodes: nodeset.nodes.map((node) => ({ name: node.name, aliases: node.aliases, label: node.label })),
      groups: nodeset.groups.map((group) => ({ name: group.name, nodes: group.nodes })),
    })),
  };
}

function frozenPlaybook(playbook: FrozenPlaybook): FrozenPlaybook {
  const context = playbook.sourceContext;
  return {
    path: playbook.path,
    sourceContext: {
      connectionName: context.connectionName,
      projectName: context.projectName,
      ...(context.projectCanonicalName !== undefined ? { projectCanonicalName: context.projectCanonicalName } : {}),
      ...(context.branch !== undefined ? { branch: context.branch } : {}),
      ...(context.trusted !== undefined ? { trusted: context.trusted } : {}),
    },
    secrets: playbook.secrets.map((secret) => ({ alias: secret.alias, secretName: secret.secretName })),
    cleanup: playbook.cleanup ?? false,
    nestingLevel: playbook.nestingLevel ?? 0,
    roles: (playbook.roles ?? []).map((role) => ({
      type: role.type,
      targetName: role.targetName,
      projectCanonicalName: role.projectCanonicalName,
      implicit: role.implicit,
    })),
  };
}
