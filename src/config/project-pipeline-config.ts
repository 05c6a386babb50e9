/**
 * The configuration a project has for one pipeline on one branch
 * (docs/project-configuration.md#project-pipeline-config): its stanzas and templates that apply to the branch, merged
 * into the job entries (with their variants) and variables that job freezing starts from.
 */
import { deepMerge } from './apply-variant';
import type { JobVariant, Layout, LayoutProject, ProjectStanza } from './layout';
import { matchesBranch, type BranchTarget } from './regex';

/** One job of a project-pipeline configuration with the variants that name it, in order. */
export interface PpcEntry {
  name: string;
  variants: Array<{ variant: JobVariant; trusted: boolean; stanza: ProjectStanza }>;
}

export interface ProjectPipelineConfigResult {
  jobs: PpcEntry[];
  vars: Record<string, unknown>;
  debug: boolean;
  failFast?: boolean;
}

/** Find a project of the layout by short or canonical name (undefined when unknown or ambiguous). */
export function findLayoutProject(layout: Layout, name: string): LayoutProject | undefined {
  const direct = layout.projects.get(name);
  if (direct) {
    return direct;
  }
  const matches = [...layout.projects.values()].filter((p) => p.name === name);
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * docs/project-configuration.md#project-pipeline-config: the project's stanzas and templates that apply to the branch
 * (or the tag, docs/project-configuration.md#jobs), merged for one pipeline.
 */
export function projectPipelineConfig(
  layout: Layout,
  project: LayoutProject,
  pipeline: string,
  branch: BranchTarget,
): ProjectPipelineConfigResult | undefined {
  const stanzas = layout.projectConfigs.get(project.canonicalName) ?? [];
  // A stanza (on any branch) naming a template that does not exist leaves the project in no
  // pipeline, as in the reference (docs/project-configuration.md#project-pipeline-config).
  if (stanzas.some((stanza) => stanza.templates.some((name) => !layout.projectTemplates.has(name)))) {
    return undefined;
  }
  const order: string[] = [];
  const entries = new Map<string, PpcEntry>();
  let vars: Record<string, unknown> = {};
  let debug = false;
  let failFast: boolean | undefined;
  let contributed = false;
  const addEntry = (
    stanza: ProjectStanza,
    config: NonNullable<ReturnType<ProjectStanza['pipelines']['get']>>,
  ): void => {
    contributed = true;
    debug = debug || config.debug === true;
    failFast = failFast ?? config.failFast;
    for (const job of config.jobs) {
      let entry = entries.get(job.name);
      if (entry === undefined) {
        entry = { name: job.name, variants: [] };
        entries.set(job.name, entry);
        order.push(job.name);
      }
      const variant: JobVariant = job.variant ?? {
        name: job.name,
        sourceContext: stanza.sourceContext,
        line: stanza.line,
        projectPipelineVariant: true,
        attributes: {},
        overrideControl: {},
      };
      if (!entry.variants.some((v) => v.variant === variant)) {
        entry.variants.push({ variant, trusted: stanza.sourceContext.trusted, stanza });
      }
    }
  };
  for (const stanza of stanzas) {
    if (!matchesBranch(stanza.branchMatcher, branch)) {
      continue;
    }
    for (const templateName of stanza.templates) {
      for (const template of layout.projectTemplates.get(templateName) ?? []) {
        if (!matchesBranch(template.branchMatcher, branch)) {
          continue;
        }
        vars = deepMerge(vars, template.vars);
        const config = template.pipelines.get(pipeline);
        if (config !== undefined) {
          addEntry(template, config);
        }
      }
    }
    vars = deepMerge(vars, stanza.vars);
    const own = stanza.pipelines.get(pipeline);
    if (own !== undefined) {
      addEntry(stanza, own);
    }
  }
  if (!contributed) {
    return undefined;
  }
  return {
    jobs: order.map((n) => entries.get(n)).filter((e): e is PpcEntry => e !== undefined),
    vars,
    debug,
    failFast,
  };
}
