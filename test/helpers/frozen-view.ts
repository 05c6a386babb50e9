/** A compact, readable projection of a frozen job for fixture expectations. */
import type { FrozenJob } from '../../src/config/freeze';

export interface FrozenJobView {
  name: string;
  parent: string | null;
  voting: boolean;
  timeout: number | null;
  vars: Record<string, unknown>;
  tags: string[];
  files: string[];
  preRun: string[];
  run: string[];
  postRun: string[];
  nodeset: string;
  alternatives: string[];
  dependencies: string[];
  postReview: boolean;
  allowedProjects: string[] | null;
  requiredProjects: string[];
  inheritanceDepth: number;
}

/** Playbooks as `path@nestingLevel` (with `(cleanup)` for cleanup post-run entries). */
export function frozenView(job: FrozenJob): FrozenJobView {
  return {
    name: job.name,
    parent: job.parent,
    voting: job.voting,
    timeout: job.timeout,
    vars: job.vars,
    tags: job.tags,
    files: job.files.map((f) => f.pattern),
    preRun: job.preRun.map((p) => `${p.path}@${p.nestingLevel ?? 0}`),
    run: job.run.map((p) => `${p.path}@${p.nestingLevel ?? 0}`),
    postRun: job.postRun.map((p) => `${p.path}${p.cleanup ? '(cleanup)' : ''}@${p.nestingLevel ?? 0}`),
    nodeset: job.nodeset.name,
    alternatives: job.nodesetAlternatives.map((n) => n.name || n.nodes.map((x) => x.label).join('+')),
    dependencies: job.dependencies.map((d) => `${d.name}${d.soft ? ' (soft)' : ''}`),
    postReview: job.postReview,
    allowedProjects: job.allowedProjects,
    requiredProjects: job.requiredProjects.map((r) => r.projectCanonicalName),
    inheritanceDepth: job.inheritancePath.length,
  };
}
