/**
 * The parameter document of a frozen job as an executor would receive it, for display (REST
 * `freeze-job`): no build or buildset exists, so ids are placeholders, and every secret and SSH
 * key is the literal "REDACTED". Secret values are never read here: only secret names and aliases
 * reach this module.
 */
import type { FrozenJob } from '../src/config/freeze';
import type { JobRole, Layout, LayoutProject, Nodeset, Playbook } from '../src/config/layout';

export const REDACTED = 'REDACTED';
/** Build uuid shown for a job that is not running. */
export const PLACEHOLDER_BUILD_UUID = '0'.repeat(32);

export interface FrozenJobContext {
  layout: Layout;
  project: LayoutProject;
  pipeline: string;
  branch: string;
  /** The whole graph, to list the jobs that depend on this one. */
  graph: readonly FrozenJob[];
}

type Json = Record<string, unknown>;

function nodesetDocument(nodeset: Nodeset): Json {
  return {
    name: nodeset.name,
    nodes: nodeset.nodes.map((n) => ({ name: n.name, aliases: n.aliases, label: n.label })),
    groups: nodeset.groups.map((g) => ({ name: g.name, nodes: g.nodes })),
    alternatives: [],
  };
}

function roleDocument(role: JobRole, layout: Layout): Json {
  const project = layout.projects.get(role.projectCanonicalName);
  return {
    target_name: role.targetName,
    type: role.type,
    project_canonical_name: role.projectCanonicalName,
    implicit: role.implicit,
    project_default_branch: project?.metadata.defaultBranch ?? null,
    connection: project?.connectionName ?? null,
    project: project?.name ?? null,
  };
}

function playbookDocument(playbook: Playbook, layout: Layout): Json {
  return {
    cleanup: playbook.cleanup,
    nesting_level: playbook.nestingLevel ?? 0,
    connection: playbook.sourceContext.connectionName,
    project: playbook.sourceContext.projectName,
    branch: playbook.sourceContext.branch,
    trusted: playbook.sourceContext.trusted,
    roles: playbook.roles.map((r) => roleDocument(r, layout)),
    secrets: Object.fromEntries(playbook.secrets.map((s) => [s.alias, REDACTED])),
    semaphores: playbook.semaphores,
    path: playbook.path,
  };
}

/** `hostname` of a canonical name `hostname/short/name`. */
function canonicalHostname(project: LayoutProject): string {
  const suffix = `/${project.name}`;
  return project.canonicalName.endsWith(suffix)
    ? project.canonicalName.slice(0, -suffix.length)
    : project.canonicalName;
}

/** The parameter document of `job`, with secrets and keys redacted. */
export function frozenJobParameters(job: FrozenJob, context: FrozenJobContext): Json {
  const { layout, project, pipeline, branch } = context;
  const playbooks =
    job.name === 'noop'
      ? {}
      : {
          playbooks: job.run.map((p) => playbookDocument(p, layout)),
          pre_playbooks: job.preRun.map((p) => playbookDocument(p, layout)),
          post_playbooks: job.postRun.map((p) => playbookDocument(p, layout)),
          cleanup_playbooks: job.cleanupRun.map((p) => playbookDocument(p, layout)),
        };
  return {
    job: job.name,
    ansible_split_streams: job.ansibleSplitStreams,
    ansible_version: job.ansibleVersion,
    timeout: job.timeout,
    pre_timeout: job.preTimeout,
    post_timeout: job.postTimeout,
    items: [],
    projects: [],
    branch,
    override_branch: null,
    override_checkout: job.overrideCheckout,
    merge_repo_state_ref: null,
    extra_repo_state_ref: null,
    repo_state_keys: [],
    nodeset: nodesetDocument(job.nodeset),
    ...playbooks,
    ssh_keys: [REDACTED],
    vars: job.vars,
    extra_vars: job.extraVars,
    host_vars: job.hostVars,
    group_vars: job.groupVars,
    secret_vars: null,
    failure_output: job.failureOutput,
    workspace_scheme: job.workspaceScheme,
    workspace_checkout: job.workspaceCheckout,
    zuul: {
      _inheritance_path: job.inheritancePath,
      build: PLACEHOLDER_BUILD_UUID,
      buildset: null,
      branch,
      ref: `refs/heads/${branch}`,
      build_refs: [],
      buildset_refs: [],
      pipeline,
      post_review: job.postReview,
      job: job.name,
      voting: job.voting,
      project: {
        name: project.name,
        short_name: project.name.split('/').pop() ?? project.name,
        canonical_hostname: canonicalHostname(project),
        canonical_name: project.canonicalName,
        src_dir: `src/${project.canonicalName}`,
      },
      tenant: layout.tenantName,
      timeout: job.timeout,
      post_timeout: job.postTimeout,
      jobtags: job.tags,
      projects: {},
      items: [],
      change_url: null,
      child_jobs: context.graph.filter((j) => j.dependencies.some((d) => d.name === job.name)).map((j) => j.name),
      event_id: null,
      include_vars: job.includeVars.map((i) => ({
        name: i.name,
        project: i.projectName ?? null,
        required: i.required,
        use_ref: i.useRef,
        zuul_project: i.zuulProject,
      })),
    },
  };
}
