/**
 * Job variants: one definition of a job as written in configuration (`T/job/{name}` and the job
 * lists of `T/project/{p}`). Attributes a variant does not set show their defaults.
 */
import type {
  IncludeVars,
  JobDependency,
  JobRole,
  JobSecret,
  JobSemaphore,
  JobVariant as JobVariantValue,
  Layout,
  Nodeset as NodesetValue,
  Playbook as PlaybookValue,
  RequiredProject,
} from '../src/config/layout';
import { resolveJobNodeset } from '../src/config/nodeset-resolution';
import { builder } from './infra/builder';
import { Nodeset } from './nodeset';
import { SourceContext } from './source-context';

/** A variant together with the layout it belongs to (needed for defaults and nodeset lookups). */
export interface JobVariantView {
  variant: JobVariantValue;
  layout: Layout;
}

export const JobSemaphoreUse = builder.objectRef<JobSemaphore>('JobSemaphoreUse').implement({
  description: 'A semaphore a job acquires.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the semaphore.' }),
    resourcesFirst: t.exposeBoolean('resourcesFirst', {
      nullable: false,
      description: 'True when nodes are requested before the semaphore is acquired.',
    }),
  }),
});

export const JobDependencyRef = builder.objectRef<JobDependency>('JobDependency').implement({
  description: 'A job that must run (and succeed) before this one.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the job depended on.' }),
    soft: t.exposeBoolean('soft', {
      nullable: false,
      description: 'True when the dependency only applies if that job runs at all.',
    }),
  }),
});

export const JobRoleType = builder.enumType('JobRoleType', {
  description: 'Where a role comes from.',
  values: {
    ZUUL: { value: 'zuul', description: 'A role from a project known to the tenant.' },
    GALAXY: { value: 'galaxy', description: 'A role from an external role registry.' },
  } as const,
});

export const JobRoleRef = builder.objectRef<JobRole>('JobRole').implement({
  description: "A role (a repository of reusable steps) made available to a job's scripts.",
  fields: (t) => ({
    targetName: t.exposeString('targetName', { nullable: false, description: 'Name the role is installed as.' }),
    type: t.field({
      type: JobRoleType,
      nullable: false,
      description: 'Where the role comes from.',
      resolve: (r) => r.type,
    }),
    projectCanonicalName: t.exposeString('projectCanonicalName', {
      nullable: false,
      description: 'Canonical name of the project holding the role.',
    }),
    implicit: t.exposeBoolean('implicit', {
      nullable: false,
      description: 'True for the implicit role of the project defining the job.',
    }),
  }),
});

const PlaybookSecret = builder.objectRef<JobSecret>('PlaybookSecret').implement({
  description: 'A secret bound to a script: only its name and alias, never its value.',
  fields: (t) => ({
    name: t.exposeString('secretName', { nullable: false, description: 'Name of the secret object.' }),
    alias: t.exposeString('alias', { nullable: false, description: 'Variable name the secret is exposed as.' }),
    passToParent: t.exposeBoolean('passToParent', {
      nullable: false,
      description: "True when parent jobs' scripts also receive it.",
    }),
  }),
});

export const Playbook = builder.objectRef<PlaybookValue>('Playbook').implement({
  description: 'A script a job runs in one of its phases (pre-run, run, post-run, cleanup-run).',
  fields: (t) => ({
    path: t.exposeString('path', { nullable: false, description: 'Path of the script in its project.' }),
    roles: t.field({
      type: [JobRoleRef],
      nullable: false,
      description: 'Roles available to the script.',
      resolve: (p) => p.roles,
    }),
    secrets: t.field({
      type: [PlaybookSecret],
      nullable: false,
      description: 'Secrets bound to the script (names only).',
      resolve: (p) => p.secrets,
    }),
    semaphores: t.exposeStringList('semaphores', {
      nullable: false,
      description: 'Semaphores held while the script runs.',
    }),
    cleanup: t.exposeBoolean('cleanup', {
      nullable: false,
      description: 'True for cleanup scripts (run even after cancellation).',
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'The job definition that added the script.',
      resolve: (p) => p.sourceContext,
    }),
  }),
});

const RequiredProjectRef = builder.objectRef<RequiredProject>('RequiredProject').implement({
  description: "A project a job needs checked out besides the change's own project.",
  fields: (t) => ({
    projectName: t.exposeString('projectName', {
      nullable: false,
      description: 'Project name as written in configuration (short or canonical).',
    }),
    projectCanonicalName: t.exposeString('projectCanonicalName', {
      nullable: false,
      description: 'Canonical name of the project.',
    }),
    overrideBranch: t.string({
      description: 'Branch to check out instead of the default choice.',
      resolve: (r) => r.overrideBranch ?? null,
    }),
    overrideCheckout: t.string({
      description: 'Branch or tag to check out instead of the default choice.',
      resolve: (r) => r.overrideCheckout ?? null,
    }),
  }),
});

const IncludeVarsRef = builder.objectRef<IncludeVars>('IncludeVars').implement({
  description: 'A variables file read from a project at run time.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Path of the file.' }),
    projectName: t.string({
      description: "Project to read it from; null for the job's own project or the change's project.",
      resolve: (i) => i.projectName ?? null,
    }),
    zuulProject: t.exposeBoolean('zuulProject', {
      nullable: false,
      description: 'True when the file is read from the project of the change under test.',
    }),
    required: t.exposeBoolean('required', { nullable: false, description: 'True when a missing file fails the job.' }),
    useRef: t.exposeBoolean('useRef', {
      nullable: false,
      description: "True when the file is read at the change's ref rather than the branch tip.",
    }),
  }),
});

export const JobDeduplication = builder.enumType('JobDeduplication', {
  description: 'Whether identical builds of this job are shared between items of a dependency cycle.',
  values: {
    AUTO: { value: 'auto', description: 'Deduplicate when the frozen jobs are identical (the default).' },
    ALWAYS: { value: 'always', description: 'Always deduplicate.' },
    NEVER: { value: 'never', description: 'Never deduplicate.' },
  } as const,
});

export const WorkspaceScheme = builder.enumType('WorkspaceScheme', {
  description: 'How project repositories are laid out in the job workspace.',
  values: {
    GOLANG: { value: 'golang', description: '`src/<canonical hostname>/<project name>` (the default).' },
    FLAT: { value: 'flat', description: '`src/<project short name>`.' },
    UNIQUE: { value: 'unique', description: 'A unique directory per project, safe for names that collide.' },
  } as const,
});

export const WorkspaceCheckout = builder.enumType('WorkspaceCheckout', {
  description: 'Whether project repositories are checked out in the workspace.',
  values: {
    ALWAYS: { value: 'always', description: 'Check out every project (the default).' },
    NEVER: { value: 'never', description: 'Prepare repositories without a checkout.' },
    AUTO: { value: 'auto', description: 'Check out only when the nodes need it.' },
  } as const,
});

/** Enum value of a `true | false | 'auto'` setting. */
export function tristate(value: boolean | 'auto'): 'always' | 'never' | 'auto' {
  if (value === 'auto') {
    return 'auto';
  }
  return value ? 'always' : 'never';
}

/** The concrete nodesets a variant's nodeset attribute stands for; [] when unset or unresolvable. */
export function variantNodesets(view: JobVariantView): NodesetValue[] {
  const ref = view.variant.attributes.nodeset;
  if (ref === undefined) {
    return [];
  }
  try {
    return resolveJobNodeset(ref, view.layout.nodesets);
  } catch {
    // An unresolvable nodeset is already a configuration error of the layout.
    return [];
  }
}

/** The variant's parent as shown to users: explicit, or the tenant's default base job. */
export function variantParent(view: JobVariantView): string | null {
  const { variant, layout } = view;
  const parent = variant.attributes.parent;
  if (parent !== undefined) {
    return parent;
  }
  if (variant.builtin === true || variant.name === layout.tenant.defaultParent) {
    return null;
  }
  return layout.tenant.defaultParent;
}

/** Branches of an explicit branch matcher; null when the variant has none. */
export function variantBranches(variant: JobVariantValue): string[] | null {
  return variant.branchMatcher?.kind === 'explicit' ? variant.branchMatcher.regexes.map((r) => r.pattern) : null;
}

const vars = (value: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> => ({ ...(value ?? {}) });

export const JobVariant = builder.objectRef<JobVariantView>('JobVariant').implement({
  description:
    'One definition of a job (a top-level `job` or an inline variant in a project pipeline), as written; unset attributes show their defaults.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Name of the job.', resolve: (v) => v.variant.name }),
    parent: t.string({
      description: "Parent job; null for base jobs, the tenant's default base job when not written.",
      resolve: variantParent,
    }),
    description: t.string({
      description: 'Description of the job.',
      resolve: (v) => v.variant.attributes.description ?? null,
    }),
    variantDescription: t.string({
      nullable: false,
      description: 'What distinguishes this variant; defaults to its branch matchers joined by spaces ("" when none).',
      resolve: (v) => v.variant.attributes.variantDescription ?? (variantBranches(v.variant) ?? []).join(' '),
    }),
    sourceContext: t.field({
      type: SourceContext,
      description: 'Where the variant is defined; null for built-in jobs (`noop`).',
      resolve: (v) => (v.variant.builtin === true ? null : v.variant.sourceContext),
    }),
    branches: t.stringList({
      description: 'Explicit branch matchers (regular expressions); null when the variant has none.',
      resolve: (v) => variantBranches(v.variant),
    }),
    impliedBranches: t.stringList({
      description:
        'Branches implied by where the variant is defined (untrusted project branches) when no explicit matcher is written; null otherwise.',
      resolve: (v) =>
        v.variant.branchMatcher?.kind === 'implied' ? v.variant.branchMatcher.regexes.map((r) => r.pattern) : null,
    }),
    overrideCheckout: t.string({
      description: "Branch or tag to check out instead of the change's branch.",
      resolve: (v) => v.variant.attributes.overrideCheckout ?? null,
    }),
    files: t.stringList({
      nullable: false,
      description: 'The job runs only when a changed file matches one of these expressions.',
      resolve: (v) => (v.variant.attributes.files ?? []).map((r) => r.pattern),
    }),
    irrelevantFiles: t.stringList({
      nullable: false,
      description: 'The job is skipped when every changed file matches one of these expressions.',
      resolve: (v) => (v.variant.attributes.irrelevantFiles ?? []).map((r) => r.pattern),
    }),
    requiredProjects: t.field({
      type: [RequiredProjectRef],
      nullable: false,
      description: "Projects checked out besides the change's own.",
      resolve: (v) => v.variant.attributes.requiredProjects ?? [],
    }),
    semaphores: t.field({
      type: [JobSemaphoreUse],
      nullable: false,
      description: 'Semaphores the job acquires.',
      resolve: (v) => v.variant.attributes.semaphores ?? [],
    }),
    variables: t.field({
      type: 'JSON',
      nullable: false,
      description: 'Variables (`vars`).',
      resolve: (v) => vars(v.variant.attributes.vars),
    }),
    extraVariables: t.field({
      type: 'JSON',
      nullable: false,
      description: 'Extra variables (highest precedence).',
      resolve: (v) => vars(v.variant.attributes.extraVars),
    }),
    hostVariables: t.field({
      type: 'JSON',
      nullable: false,
      description: 'Variables per host name.',
      resolve: (v) => vars(v.variant.attributes.hostVars),
    }),
    groupVariables: t.field({
      type: 'JSON',
      nullable: false,
      description: 'Variables per node group.',
      resolve: (v) => vars(v.variant.attributes.groupVars),
    }),
    final: t.boolean({
      nullable: false,
      description: 'True when the job may not be varied or inherited from.',
      resolve: (v) => v.variant.attributes.final ?? false,
    }),
    abstract: t.boolean({
      nullable: false,
      description: 'True when the job may only be inherited from, not run.',
      resolve: (v) => v.variant.attributes.abstract ?? false,
    }),
    intermediate: t.boolean({
      nullable: false,
      description: 'True when only abstract jobs may inherit from it.',
      resolve: (v) => v.variant.attributes.intermediate ?? false,
    }),
    protected: t.boolean({
      description: 'True when only jobs of the same project may inherit from it; null when not set.',
      resolve: (v) => v.variant.attributes.protected ?? null,
    }),
    voting: t.boolean({
      nullable: false,
      description: "False when the job's result does not count towards the item's result.",
      resolve: (v) => v.variant.attributes.voting ?? true,
    }),
    preTimeout: t.int({
      description: 'Seconds allowed for the pre-run phase.',
      resolve: (v) => v.variant.attributes.preTimeout ?? null,
    }),
    timeout: t.int({
      description: 'Seconds allowed for the run phase.',
      resolve: (v) => v.variant.attributes.timeout ?? null,
    }),
    postTimeout: t.int({
      description: 'Seconds allowed for the post-run phase.',
      resolve: (v) => v.variant.attributes.postTimeout ?? null,
    }),
    tags: t.stringList({
      nullable: false,
      description: 'Free-form tags.',
      resolve: (v) => v.variant.attributes.tags ?? [],
    }),
    provides: t.stringList({
      nullable: false,
      description: 'Artifacts the job provides to later changes.',
      resolve: (v) => v.variant.attributes.provides ?? [],
    }),
    requires: t.stringList({
      nullable: false,
      description: 'Artifacts the job requires from changes ahead.',
      resolve: (v) => v.variant.attributes.requires ?? [],
    }),
    dependencies: t.field({
      type: [JobDependencyRef],
      nullable: false,
      description: 'Jobs that run before this one.',
      resolve: (v) => v.variant.attributes.dependencies ?? [],
    }),
    attempts: t.int({
      nullable: false,
      description: 'How often the job is tried when it fails for infrastructure reasons (default 3).',
      resolve: (v) => v.variant.attributes.attempts ?? 3,
    }),
    roles: t.field({
      type: [JobRoleRef],
      nullable: false,
      description: 'Roles made available to the scripts.',
      resolve: (v) => v.variant.attributes.roles ?? [],
    }),
    preRun: t.field({
      type: [Playbook],
      nullable: false,
      description: 'Scripts run before the main phase.',
      resolve: (v) => v.variant.attributes.preRun ?? [],
    }),
    run: t.field({
      type: [Playbook],
      nullable: false,
      description: 'Scripts of the main phase.',
      resolve: (v) => v.variant.attributes.run ?? [],
    }),
    postRun: t.field({
      type: [Playbook],
      nullable: false,
      description: 'Scripts run after the main phase.',
      resolve: (v) => v.variant.attributes.postRun ?? [],
    }),
    cleanupRun: t.field({
      type: [Playbook],
      nullable: false,
      description: 'Scripts run last, even after cancellation.',
      resolve: (v) => v.variant.attributes.cleanupRun ?? [],
    }),
    postReview: t.boolean({
      description: 'True when the job may only run in post-review pipelines; null when not set.',
      resolve: (v) => v.variant.attributes.postReview ?? null,
    }),
    matchOnConfigUpdates: t.boolean({
      nullable: false,
      description: "True when a change to the job's configuration runs it regardless of file matchers.",
      resolve: (v) => v.variant.attributes.matchOnConfigUpdates ?? true,
    }),
    deduplicate: t.field({
      type: JobDeduplication,
      nullable: false,
      description: 'Build sharing inside dependency cycles.',
      resolve: (v) => tristate(v.variant.attributes.deduplicate ?? 'auto'),
    }),
    failureOutput: t.stringList({
      nullable: false,
      description: 'Expressions that mark output lines as failure evidence.',
      resolve: (v) => v.variant.attributes.failureOutput ?? [],
    }),
    imageBuildName: t.string({
      description: 'Image this job builds, for image-build jobs.',
      resolve: (v) => v.variant.attributes.imageBuildName ?? null,
    }),
    includeVars: t.field({
      type: [IncludeVarsRef],
      nullable: false,
      description: 'Variables files read at run time.',
      resolve: (v) => v.variant.attributes.includeVars ?? [],
    }),
    nodeset: t.field({
      type: Nodeset,
      description: 'The nodeset when the variant resolves to exactly one non-empty nodeset; null otherwise.',
      resolve: (v) => {
        const alternatives = variantNodesets(v);
        return alternatives.length === 1 && alternatives[0].nodes.length > 0 ? alternatives[0] : null;
      },
    }),
    nodesetAlternatives: t.field({
      type: [Nodeset],
      nullable: false,
      description: 'The alternatives, in order, when the nodeset has several; empty otherwise.',
      resolve: (v) => {
        const alternatives = variantNodesets(v);
        return alternatives.length > 1 ? alternatives : [];
      },
    }),
    ansibleSplitStreams: t.boolean({
      description: 'True when script output keeps stdout and stderr apart; null when not set.',
      resolve: (v) => v.variant.attributes.ansibleSplitStreams ?? null,
    }),
    ansibleVersion: t.string({
      description: 'Runner version requested by the variant; null when not set.',
      resolve: (v) => v.variant.attributes.ansibleVersion ?? null,
    }),
    workspaceScheme: t.field({
      type: WorkspaceScheme,
      nullable: false,
      description: 'Workspace layout.',
      resolve: (v) => v.variant.attributes.workspaceScheme ?? 'golang',
    }),
    workspaceCheckout: t.field({
      type: WorkspaceCheckout,
      nullable: false,
      description: 'Whether repositories are checked out.',
      resolve: (v) => tristate(v.variant.attributes.workspaceCheckout ?? true),
    }),
  }),
});
