/**
 * Projects of a tenant and their configuration: the `project` stanzas that apply to each one, in
 * layout order, with the job variants each pipeline lists.
 */
import { type Layout, type LayoutProject, type ProjectPipelineConfig, type ProjectStanza } from '../src/config/layout';
import { MERGE_MODES, type MergeMode } from '../src/model/merge-modes';
import { builder } from './infra/builder';
import { InvalidInputError, NotFoundError } from './infra/errors';
import { JobVariant, type JobVariantView } from './job-variant';
import { tenantLayout } from './infra/layout-store';
import { SourceContext } from './source-context';
import { Tenant } from './tenant';

interface ProjectView {
  project: LayoutProject;
  layout: Layout;
}

interface ProjectConfigView {
  stanza: ProjectStanza;
  layout: Layout;
}

interface ProjectPipelineView {
  name: string;
  config: ProjectPipelineConfig;
  stanza: ProjectStanza;
  layout: Layout;
}

interface ProjectPipelineJobView {
  name: string;
  variants: JobVariantView[];
}

const MERGE_MODE_DESCRIPTIONS: Record<MergeMode, string> = {
  merge: 'A merge commit (fast-forward when possible is not attempted).',
  'merge-resolve': 'A merge with the "resolve" strategy.',
  'cherry-pick': 'Each commit is cherry-picked onto the branch.',
  'squash-merge': 'All commits are squashed into one on the branch.',
  rebase: 'The commits are rebased onto the branch.',
  'merge-recursive': 'A merge with the "recursive" strategy.',
  'merge-ort': 'A merge with the "ort" strategy.',
};

export const MergeModeEnum = builder.enumType('MergeMode', {
  description:
    'How changes of a project are merged for testing and submission; the REST API spells them in lower case with dashes.',
  values: Object.fromEntries(
    MERGE_MODES.map((mode) => [
      mode.toUpperCase().replace(/-/g, '_'),
      { value: mode, description: MERGE_MODE_DESCRIPTIONS[mode] },
    ]),
  ),
});

export const ProjectType = builder.enumType('ProjectType', {
  description: 'Trust level of a project in the tenant.',
  values: {
    CONFIG: {
      value: 'config',
      description: 'A config (trusted) project: its configuration is applied only after merge.',
    },
    UNTRUSTED: {
      value: 'untrusted',
      description: 'An untrusted project: proposed configuration is tested speculatively.',
    },
  } as const,
});

const ProjectMetadata = builder.objectRef<ProjectView>('ProjectMetadata').implement({
  description: 'Project settings computed from all stanzas that apply to the project.',
  fields: (t) => ({
    mergeMode: t.field({
      type: MergeModeEnum,
      nullable: false,
      description: 'Effective merge mode.',
      resolve: (p) => p.project.metadata.mergeMode,
    }),
    defaultBranch: t.string({
      nullable: false,
      description: 'Effective default branch.',
      resolve: (p) => p.project.metadata.defaultBranch,
    }),
    queueName: t.string({
      description: 'Shared change queue the project belongs to; null when none.',
      resolve: (p) => p.project.metadata.queueName ?? null,
    }),
  }),
});

const ProjectPipelineJob = builder.objectRef<ProjectPipelineJobView>('ProjectPipelineJob').implement({
  description: 'A job listed in a project pipeline, with the variants written for it there.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the job.' }),
    variants: t.field({
      type: [JobVariant],
      nullable: false,
      description:
        'The variants this stanza writes for the job (one per entry; an entry without attributes is a variant without attributes).',
      resolve: (job) => job.variants,
    }),
  }),
});

const ProjectPipeline = builder.objectRef<ProjectPipelineView>('ProjectPipeline').implement({
  description: 'The jobs one project stanza runs in one pipeline.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the pipeline.' }),
    debug: t.boolean({
      nullable: false,
      description: 'True when reports include debug information.',
      resolve: (p) => p.config.debug === true,
    }),
    failFast: t.boolean({
      description: 'True when the first failing job cancels the others; null when not set.',
      resolve: (p) => p.config.failFast ?? null,
    }),
    jobs: t.field({
      type: [ProjectPipelineJob],
      nullable: false,
      description: 'Jobs in written order; repeated entries of one job are grouped.',
      resolve: (p) => pipelineJobs(p),
    }),
  }),
});

const ProjectConfig = builder.objectRef<ProjectConfigView>('ProjectConfig').implement({
  description: 'One `project` stanza that applies to a project, as written (templates are not expanded).',
  fields: (t) => ({
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Where the stanza is written.',
      resolve: (c) => c.stanza.sourceContext,
    }),
    isTemplate: t.boolean({
      nullable: false,
      description: 'True for a project template.',
      resolve: (c) => c.stanza.kind === 'project-template',
    }),
    name: t.string({
      nullable: false,
      description: 'Project name or regular expression as written.',
      resolve: (c) => c.stanza.name,
    }),
    branches: t.stringList({
      description: 'Explicit branch matchers of the stanza; null when none.',
      resolve: (c) =>
        c.stanza.branchMatcher?.kind === 'explicit' ? c.stanza.branchMatcher.regexes.map((r) => r.pattern) : null,
    }),
    description: t.string({
      description: 'Description written in the stanza.',
      resolve: (c) => c.stanza.description ?? null,
    }),
    templates: t.stringList({
      nullable: false,
      description: 'Names of the project templates the stanza applies.',
      resolve: (c) => c.stanza.templates,
    }),
    defaultBranch: t.string({
      description: 'Default branch written in this stanza; null when not set here.',
      resolve: (c) => c.stanza.defaultBranch ?? null,
    }),
    mergeMode: t.field({
      type: MergeModeEnum,
      description: 'Merge mode written in this stanza; null when not set here.',
      resolve: (c) => c.stanza.mergeMode ?? null,
    }),
    queueName: t.string({
      description: 'Queue written in this stanza; null when not set here.',
      resolve: (c) => c.stanza.queue ?? null,
    }),
    variables: t.field({
      type: 'JSON',
      nullable: false,
      description: 'Project variables written in this stanza.',
      resolve: (c) => ({ ...c.stanza.vars }),
    }),
    pipelines: t.field({
      type: [ProjectPipeline],
      nullable: false,
      description: 'Pipelines the stanza configures, sorted by name.',
      resolve: (c) =>
        [...c.stanza.pipelines.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, config]) => ({ name, config, stanza: c.stanza, layout: c.layout })),
    }),
  }),
});

export const Project = builder.objectRef<ProjectView>('Project').implement({
  description: 'A project (repository) of the tenant.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Short name (`org/project`).', resolve: (p) => p.project.name }),
    canonicalName: t.string({
      nullable: false,
      description: 'Canonical name (`hostname/org/project`).',
      resolve: (p) => p.project.canonicalName,
    }),
    connectionName: t.string({
      nullable: false,
      description: 'Connection the project belongs to.',
      resolve: (p) => p.project.connectionName,
    }),
    type: t.field({
      type: ProjectType,
      nullable: false,
      description: 'Config (trusted) or untrusted project.',
      resolve: (p) => (p.project.trusted ? 'config' : 'untrusted'),
    }),
    branches: t.stringList({
      nullable: false,
      description: 'Branches whose configuration was loaded, default branch first.',
      resolve: (p) => p.project.branches,
    }),
    metadata: t.field({
      type: ProjectMetadata,
      nullable: false,
      description: 'Settings computed from every stanza of the project.',
      resolve: (p) => p,
    }),
    configs: t.field({
      type: [ProjectConfig],
      nullable: false,
      description: 'The project stanzas that apply to the project, in layout order; empty when the tenant has none.',
      resolve: (p) =>
        (p.layout.projectConfigs.get(p.project.canonicalName) ?? []).map((stanza) => ({ stanza, layout: p.layout })),
    }),
  }),
});

/**
 * A project by short or canonical name. Unknown -> NotFoundError (`Unknown project`); a short
 * name shared by projects on two connections -> InvalidInputError asking for the canonical name.
 */
export function requireProject(layout: Layout, name: string): LayoutProject {
  const direct = layout.projects.get(name);
  if (direct) {
    return direct;
  }
  const matches = [...layout.projects.values()].filter((p) => p.name === name);
  if (matches.length === 0) {
    throw new NotFoundError('Project', name, 'Unknown project');
  }
  if (matches.length > 1) {
    throw new InvalidInputError(`Project name ${name} is ambiguous; use the canonical name`, 'project');
  }
  return matches[0];
}

function pipelineJobs(p: ProjectPipelineView): ProjectPipelineJobView[] {
  const byName = new Map<string, ProjectPipelineJobView>();
  for (const entry of p.config.jobs) {
    const variant = entry.variant ?? {
      // An entry without attributes still stands for a (plain) variant of the job; like written
      // inline variants it has no branch matcher of its own (the stanza's applies).
      name: entry.name,
      sourceContext: p.stanza.sourceContext,
      line: p.stanza.line,
      projectPipelineVariant: true,
      attributes: {},
      overrideControl: {},
    };
    const group = byName.get(entry.name) ?? { name: entry.name, variants: [] };
    group.variants.push({ variant, layout: p.layout });
    byName.set(entry.name, group);
  }
  return [...byName.values()];
}

builder.objectFields(Tenant, (t) => ({
  projects: t.field({
    type: [Project],
    nullable: false,
    description: 'Every project of the tenant, sorted by short name.',
    resolve: (tenant, _args, ctx) => {
      const layout = tenantLayout(ctx, tenant.name);
      return [...layout.projects.values()]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.canonicalName < b.canonicalName ? -1 : 1))
        .map((project) => ({ project, layout }));
    },
  }),
  project: t.field({
    type: Project,
    description: 'One project by short (`org/project`) or canonical (`hostname/org/project`) name.',
    args: { name: t.arg.string({ required: true, description: 'Short or canonical project name.' }) },
    errors: { types: [NotFoundError, InvalidInputError], directResult: true },
    resolve: (tenant, { name }, ctx) => {
      const layout = tenantLayout(ctx, tenant.name);
      return { project: requireProject(layout, name), layout };
    },
  }),
}));
