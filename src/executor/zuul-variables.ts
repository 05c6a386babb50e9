/**
 * The `zuul` variables of a build (docs/executor.md#the-zuul-variables): what playbooks get as
 * `zuul.*` and what `zuul-info/inventory.yaml` shows, in the reference's names.
 */
import os from 'node:os';
import path from 'node:path';
import type { BuildRequestParams, MergerItem } from '../model/build-request';
import type { WorkspaceProject } from './merger';

export interface ZuulVariablesInput {
  params: BuildRequestParams;
  logDir: string;
  logUrl: string | null;
  workspaceRoot: string;
  /** The prepared checkouts; null before the workspace is prepared (or when it could not be). */
  projects: WorkspaceProject[] | null;
  /** `major.minor` of the Ansible that runs the playbooks, when known. */
  ansibleVersion?: string;
}

/** Where the `zuul_return` results of a build go (`zuul.executor.result_data_file`). */
export function zuulReturnFile(workspaceRoot: string): string {
  return path.join(workspaceRoot, 'work', 'zuul-return.json');
}

const shortName = (project: string): string => project.slice(project.lastIndexOf('/') + 1);

/** `<hostname>/<project>` of a project the request names (its connection's name when unknown). */
export function canonicalNameOf(params: BuildRequestParams, project: string, connection: string): string {
  return params.zuul?.canonicalNames[project] ?? `${connection}/${project}`;
}

function projectVars(
  params: BuildRequestParams,
  project: string,
  connection: string,
  projects: WorkspaceProject[] | null,
): Record<string, unknown> {
  const canonicalName = canonicalNameOf(params, project, connection);
  const checkout = projects?.find((p) => p.project === project);
  return {
    name: project,
    short_name: shortName(project),
    canonical_hostname: canonicalName.slice(0, canonicalName.length - project.length - 1) || connection,
    canonical_name: canonicalName,
    ...(checkout ? { src_dir: `src/${checkout.relativePath}` } : {}),
  };
}

function refVars(
  params: BuildRequestParams,
  item: Omit<MergerItem, 'mergeMode'>,
  projects: WorkspaceProject[] | null,
  changeUrl: string | null,
): Record<string, unknown> {
  const tag = item.ref.startsWith('refs/tags/') ? item.ref.slice('refs/tags/'.length) : null;
  return {
    project: projectVars(params, item.project, item.connection, projects),
    branch: item.branch,
    ref: item.ref,
    ...(item.change !== null ? { change: String(item.change), patchset: item.patchset } : {}),
    ...(tag !== null ? { tag } : {}),
    ...(item.oldrev !== null ? { oldrev: item.oldrev } : {}),
    ...(item.newrev !== null ? { newrev: item.newrev, commit_id: item.newrev } : {}),
    ...(changeUrl !== null ? { change_url: changeUrl } : {}),
  };
}

/** The reference's `zuul` variables, as far as Sluice has them. */
export function zuulVariables(input: ZuulVariablesInput): Record<string, unknown> {
  const { params, projects } = input;
  const work = path.join(input.workspaceRoot, 'work');
  const required = new Set(params.projects.map((p) => p.project));
  const info = params.zuul;
  const itemRef = refVars(params, params.item, projects, info?.changeUrl ?? null);
  const items = params.mergerItems.map((item, index) =>
    refVars(params, item, projects, index === params.mergerItems.length - 1 ? (info?.changeUrl ?? null) : null),
  );
  const withSrcDir = (ref: Record<string, unknown>): Record<string, unknown> => {
    const project = ref.project as { src_dir?: string };
    return project.src_dir !== undefined ? { ...ref, src_dir: project.src_dir } : ref;
  };
  return {
    build: params.buildUuid,
    buildset: params.buildsetUuid,
    tenant: params.tenant,
    pipeline: params.pipeline,
    post_review: info?.postReview ?? false,
    job: params.job.name,
    voting: info?.voting ?? true,
    jobtags: info?.jobtags ?? [],
    _inheritance_path: info?.inheritancePath ?? [],
    child_jobs: info?.childJobs ?? [],
    event_id: params.eventId,
    attempts: params.attempt,
    max_attempts: params.job.attempts,
    timeout: params.job.timeout,
    pre_timeout: params.job.preTimeout ?? null,
    post_timeout: params.job.postTimeout,
    ...(params.job.overrideCheckout !== null ? { override_checkout: params.job.overrideCheckout } : {}),
    ...itemRef,
    items,
    buildset_refs: items.map(withSrcDir),
    build_refs: [withSrcDir(itemRef)],
    projects: Object.fromEntries(
      (projects ?? []).map((p) => {
        const vars = projectVars(params, p.project, p.connection, projects);
        return [
          vars.canonical_name as string,
          { ...vars, checkout: p.checkout, commit: p.head, required: required.has(p.project) },
        ];
      }),
    ),
    ...(params.artifacts.length > 0
      ? {
          artifacts: params.artifacts.map((artifact) => ({
            name: artifact.name,
            url: artifact.url,
            metadata: artifact.metadata ?? {},
            project: artifact.project,
            change: artifact.change === null ? null : String(artifact.change),
            patchset: artifact.patchset,
            job: artifact.job,
          })),
        }
      : {}),
    resources: {},
    ...(input.ansibleVersion !== undefined ? { ansible_version: input.ansibleVersion } : {}),
    log_url: input.logUrl,
    executor: {
      hostname: os.hostname(),
      src_root: path.join(input.workspaceRoot, 'src'),
      work_root: work,
      log_root: input.logDir,
      inventory_file: path.join(work, 'inventory.json'),
      result_data_file: zuulReturnFile(input.workspaceRoot),
    },
  };
}
