/**
 * The job graph of a change (docs/project-configuration.md#freezing-one-job step 8,
 * docs/project-configuration.md#graph-completion): which jobs match the files it touches, and the graph the matching
 * jobs and their hard dependencies form.
 */
import type { FreezeError, FrozenJob } from './freeze';
import { cachedRegex, type RegexSpec } from './regex';

/**
 * docs/project-configuration.md#freezing-one-job step 8: `files` needs any changed file to match; `irrelevant-files`
 * excludes the job when every changed file matches. A change without files (besides /COMMIT_MSG) always
 * matches `files` and never matches `irrelevant-files`.
 */
export function matchesFiles(
  files: readonly RegexSpec[],
  irrelevant: readonly RegexSpec[],
  changed: readonly string[],
): boolean {
  const real = changed.filter((f) => f !== '/COMMIT_MSG');
  if (real.length === 0) {
    return true;
  }
  if (files.length > 0 && !real.some((f) => files.some((r) => cachedRegex(r).test(f)))) {
    return false;
  }
  if (irrelevant.length > 0 && real.every((f) => irrelevant.some((r) => cachedRegex(r).test(f)))) {
    return false;
  }
  return true;
}

/**
 * docs/project-configuration.md#graph-completion: force hard dependencies of matching jobs, drop non-matching jobs,
 * check dependencies and cycles.
 */
export function completeGraph(jobs: FrozenJob[], errors: FreezeError[]): FrozenJob[] {
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const force = (job: FrozenJob, seen: Set<string>): void => {
    for (const dep of job.dependencies) {
      const target = byName.get(dep.name);
      if (dep.soft || target === undefined || seen.has(dep.name)) {
        continue;
      }
      seen.add(dep.name);
      target.matchesChange = true;
      force(target, seen);
    }
  };
  for (const job of jobs.filter((j) => j.matchesChange)) {
    force(job, new Set([job.name]));
  }
  const graph = jobs.filter((j) => j.matchesChange);
  const present = new Set(graph.map((j) => j.name));
  for (const job of graph) {
    for (const dep of job.dependencies) {
      if (!present.has(dep.name) && !dep.soft) {
        errors.push({ message: `Job ${job.name} depends on ${dep.name} which was not run.`, job: job.name });
      }
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): boolean => {
    const s = state.get(name);
    if (s === 'done') {
      return true;
    }
    if (s === 'visiting') {
      return false;
    }
    state.set(name, 'visiting');
    const job = byName.get(name);
    for (const dep of job?.dependencies ?? []) {
      if (present.has(dep.name) && !visit(dep.name)) {
        return false;
      }
    }
    state.set(name, 'done');
    return true;
  };
  for (const job of graph) {
    state.clear();
    if (!visit(job.name)) {
      errors.push({ message: `Dependency cycle detected in job ${job.name}`, job: job.name });
      break;
    }
  }
  // Soft dependencies that did not run are dropped from the frozen record.
  return graph.map((j) => ({ ...j, dependencies: j.dependencies.filter((d) => present.has(d.name)) }));
}
