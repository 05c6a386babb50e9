/**
 * The job graph of an item: its change's jobs, or, for an item holding a dependency cycle, the
 * jobs of each member, with the jobs that are the same across members run once
 * (docs/gating.md#dependency-cycles, the job `deduplicate` attribute).
 */
import type { EngineJob, ItemState } from '../../model/pipeline-state';
import type { EngineLayout } from '../ports/layout';

/** A job of the graph and which of the item's changes it runs for. */
export interface ItemJob {
  job: EngineJob;
  change: number;
  otherChanges: number[];
}

export type ItemJobGraph =
  | { status: 'ok'; jobs: ItemJob[]; failFast: boolean }
  | { status: 'not-in-pipeline' }
  | { status: 'error'; message: string };

/**
 * Freeze the graph of every change of the item. A change whose project is not in the pipeline
 * adds nothing; the item is not in the pipeline when none is. The speculative merge tells the
 * files of the item's last change only: the other members of a cycle freeze without file
 * matchers (every job matches). `freezer`: the item's speculative layout, else `layout`.
 */
export function freezeItemJobs(
  layout: EngineLayout,
  freezer: Pick<EngineLayout, 'freezeJobGraph'>,
  pipeline: string,
  item: ItemState,
  files: readonly string[] | undefined,
): ItemJobGraph {
  const jobs: ItemJob[] = [];
  let failFast = false;
  let inPipeline = false;
  for (const [index, change] of item.changes.entries()) {
    const branch = change.branch ?? layout.projects.get(change.project)?.defaultBranch ?? 'master';
    const last = index === item.changes.length - 1;
    // A tag is matched by its ref and the branches containing its commit, another ref that is no
    // branch by its ref only (docs/project-configuration.md#jobs).
    const ref =
      change.kind === 'tag' || change.kind === 'ref'
        ? { ref: change.ref, containingBranches: change.kind === 'tag' ? (item.buildset.containingBranches ?? []) : [] }
        : undefined;
    const frozen = freezer.freezeJobGraph(pipeline, change.project, branch, last ? files : undefined, {
      imageNames: item.imageNames ?? undefined,
      ...(ref ? { ref } : {}),
    });
    if (frozen.status === 'not-in-pipeline') {
      continue;
    }
    if (frozen.status === 'error') {
      const where = item.changes.length > 1 ? ` (change ${change.number ?? change.ref} of ${change.project})` : '';
      return { status: 'error', message: `${frozen.message}${where}` };
    }
    inPipeline = true;
    failFast = failFast || frozen.failFast;
    for (const job of frozen.jobs) {
      const same = jobs.find(
        (kept) =>
          kept.job.name === job.name && deduplicates(kept, job, item.changes[kept.change].project, change.project),
      );
      if (same) {
        same.otherChanges.push(index);
      } else {
        jobs.push({ job, change: index, otherChanges: [] });
      }
    }
  }
  return inPipeline ? { status: 'ok', jobs, failFast } : { status: 'not-in-pipeline' };
}

/**
 * Whether a job of another member of the cycle is run by `kept` instead (as the reference
 * does): never with `deduplicate: false`; otherwise only when the two frozen jobs are the same
 * (their inheritance path aside), and with `auto` only when the job names required projects or
 * both changes are in one project.
 */
function deduplicates(kept: ItemJob, job: EngineJob, keptProject: string, project: string): boolean {
  const mode = job.deduplicate ?? 'auto';
  if (mode === false || (kept.job.deduplicate ?? 'auto') === false) {
    return false;
  }
  if (comparable(kept.job) !== comparable(job)) {
    return false;
  }
  return mode === true || job.params.requiredProjects.length > 0 || keptProject === project;
}

function comparable(job: EngineJob): string {
  return JSON.stringify({ ...job, params: { ...job.params, inheritancePath: undefined } });
}
