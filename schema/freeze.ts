/**
 * Frozen job graphs: the jobs a change to a project branch would run in a pipeline, each with
 * every attribute resolved (file matchers are not evaluated: every job is included).
 */
import { freezeJobGraph, type FreezeError, type FrozenJob as FrozenJobValue } from '../src/config/freeze';
import type { ConfigError, Layout, LayoutProject } from '../src/config/layout';
import type { RefTarget } from '../src/config/regex';
import { builder } from './infra/builder';
import { ConflictError, ErrorInterface, InvalidInputError, NotFoundError } from './infra/errors';
import { frozenJobParameters } from './frozen-job-parameters';
import { JobDependencyRef, JobSemaphoreUse } from './job-variant';
import { tenantLayout } from './infra/layout-store';
import { Nodeset } from './nodeset';
import { requireProject } from './project';
import { SourceContext } from './source-context';
import { Tenant, type TenantRef } from './tenant';
import type { GraphQLContext } from './infra/context';

/** The job graph cannot be frozen because of configuration errors. */
export class JobGraphError extends Error {
  constructor(
    readonly problems: readonly FreezeError[],
    summary = 'The job graph has configuration errors',
  ) {
    super(`${summary}: ${problems.map((p) => p.message).join('; ')}`);
    this.name = 'JobGraphError';
  }
}

interface GraphView {
  jobs: FrozenJobValue[];
  debug: boolean;
  failFast: boolean;
  layout: Layout;
  project: LayoutProject;
  pipeline: string;
  branch: string;
}

interface FrozenJobView {
  job: FrozenJobValue;
  graph: GraphView;
}

const FreezeProblem = builder.objectRef<FreezeError>('FreezeProblem').implement({
  description: 'One configuration error met while freezing a job graph.',
  fields: (t) => ({
    job: t.string({ description: 'Job the problem belongs to, when there is one.', resolve: (p) => p.job ?? null }),
    message: t.exposeString('message', { nullable: false, description: 'What is wrong.' }),
  }),
});

builder.objectType(JobGraphError, {
  name: 'JobGraphError',
  description: 'The job graph could not be frozen because of configuration errors.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    problems: t.field({
      type: [FreezeProblem],
      nullable: false,
      description: 'Every problem found.',
      resolve: (e) => [...e.problems],
    }),
  }),
});

const FrozenJob = builder.objectRef<FrozenJobView>('FrozenJob').implement({
  description: 'A job of a frozen graph, with every attribute resolved through its parents and variants.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Name of the job.', resolve: (f) => f.job.name }),
    parent: t.string({ description: 'Parent job; null for base jobs.', resolve: (f) => f.job.parent }),
    description: t.string({ description: 'Description of the job.', resolve: (f) => f.job.description }),
    dependencies: t.field({
      type: [JobDependencyRef],
      nullable: false,
      description:
        'Jobs of this graph that run before this one (soft dependencies on jobs not in the graph are dropped).',
      resolve: (f) => f.job.dependencies,
    }),
    childJobs: t.stringList({
      nullable: false,
      description: 'Jobs of this graph that depend directly on this one.',
      resolve: (f) => f.graph.jobs.filter((j) => j.dependencies.some((d) => d.name === f.job.name)).map((j) => j.name),
    }),
    inheritancePath: t.stringList({
      nullable: false,
      description: 'The variants applied, base-most first.',
      resolve: (f) => f.job.inheritancePath,
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Context of the first variant of this job that applied.',
      resolve: (f) => f.job.sourceContext,
    }),
    voting: t.boolean({ nullable: false, description: 'Whether the result counts.', resolve: (f) => f.job.voting }),
    tags: t.stringList({ nullable: false, description: 'Tags.', resolve: (f) => f.job.tags }),
    semaphores: t.field({
      type: [JobSemaphoreUse],
      nullable: false,
      description: 'Semaphores acquired.',
      resolve: (f) => f.job.semaphores,
    }),
    timeout: t.int({ description: 'Seconds allowed for the run phase.', resolve: (f) => f.job.timeout }),
    attempts: t.int({ nullable: false, description: 'Attempts allowed.', resolve: (f) => f.job.attempts }),
    nodeset: t.field({
      type: Nodeset,
      nullable: false,
      description: 'The first nodeset alternative (empty when the job needs no nodes).',
      resolve: (f) => f.job.nodeset,
    }),
    parameters: t.field({
      type: 'JSON',
      nullable: false,
      description:
        'The parameter document an executor would receive, with placeholder build ids and every secret and SSH key replaced by "REDACTED".',
      resolve: (f) => frozenJobParameters(f.job, { ...f.graph, graph: f.graph.jobs }),
    }),
  }),
});

const JobGraph = builder.objectRef<GraphView>('JobGraph').implement({
  description: 'The jobs a change would run, in graph order.',
  fields: (t) => ({
    jobs: t.field({
      type: [FrozenJob],
      nullable: false,
      description: 'Frozen jobs in graph order; empty when the project does not run jobs in the pipeline.',
      resolve: (g) => g.jobs.map((job) => ({ job, graph: g })),
    }),
    debug: t.exposeBoolean('debug', {
      nullable: false,
      description: 'True when the project pipeline asks for debug reports.',
    }),
    failFast: t.exposeBoolean('failFast', {
      nullable: false,
      description: 'True when the first failure cancels the remaining jobs.',
    }),
  }),
});

interface FreezeArgs {
  pipeline: string;
  project: string;
  branch?: string | null;
}

/** Freeze the graph for the arguments; lookups and configuration errors become typed errors. */
function freezeGraph(tenant: TenantRef, args: FreezeArgs, ctx: GraphQLContext): GraphView {
  const layout = tenantLayout(ctx, tenant.name);
  const project = requireProject(layout, args.project);
  requirePipeline(layout, args.pipeline);
  const branch = args.branch != null && args.branch !== '' ? args.branch : project.metadata.defaultBranch;
  return freezeIn(layout, project, { pipeline: args.pipeline, branch, projectArg: args.project });
}

function requirePipeline(layout: Layout, pipeline: string): void {
  if (!layout.pipelines.has(pipeline)) {
    throw new NotFoundError('Pipeline', pipeline, 'Unknown pipeline');
  }
}

/** Freeze in `layout` (the current one, or a speculative one); `files` undefined = file matchers not evaluated. */
function freezeIn(
  layout: Layout,
  project: LayoutProject,
  args: { pipeline: string; branch: string; projectArg: string; files?: readonly string[]; ref?: RefTarget },
): GraphView {
  const base = { layout, project, pipeline: args.pipeline, branch: args.branch };
  const result = freezeJobGraph(layout, {
    pipeline: args.pipeline,
    project: project.canonicalName,
    branch: args.branch,
    files: args.files,
    ref: args.ref,
  });
  switch (result.status) {
    case 'ok':
      return { ...base, jobs: result.jobs, debug: result.debug, failFast: result.failFast };
    case 'not-in-pipeline':
      return { ...base, jobs: [], debug: false, failFast: false };
    case 'error':
      throw new JobGraphError(result.errors);
    case 'unknown-project':
      throw new NotFoundError('Project', args.projectArg, 'Unknown project');
    case 'unknown-pipeline':
      throw new NotFoundError('Pipeline', args.pipeline, 'Unknown pipeline');
  }
}

/** `org/project1 master .zuul.yaml line 3: ` for an error with a location. */
function whereOf(error: ConfigError): string {
  const context = error.sourceContext;
  if (context === undefined) {
    return '';
  }
  const parts = [
    context.projectName,
    context.branch,
    context.path,
    error.line === undefined ? undefined : `line ${error.line}`,
  ].filter((p) => p !== undefined);
  return `${parts.join(' ')}: `;
}

interface FreezePipelineArgs {
  project: string;
  pipeline: string;
  ref: string;
}

/** The graph `ref` would get: its proposed configuration applied, file matchers against its changed files. */
async function freezePipeline(tenant: TenantRef, args: FreezePipelineArgs, ctx: GraphQLContext): Promise<GraphView> {
  const layout = tenantLayout(ctx, tenant.name);
  const project = requireProject(layout, args.project);
  requirePipeline(layout, args.pipeline);
  const catalog = ctx.services.tenants;
  if (catalog.proposedLayout === undefined) {
    throw new InvalidInputError('This server reads no repositories: refs cannot be resolved', 'ref');
  }
  const proposed = await catalog.proposedLayout(layout, project, args.ref);
  switch (proposed.status) {
    case 'invalid-ref':
      throw new InvalidInputError(proposed.message, 'ref');
    case 'unknown-ref':
      throw new NotFoundError('Ref', args.ref, proposed.message);
    case 'conflict':
      throw new ConflictError(proposed.message);
    case 'ok':
      break;
  }
  if (proposed.newErrors.length > 0) {
    const problems = proposed.newErrors.map((e) => ({ message: `${whereOf(e)}${e.shortError}` }));
    throw new JobGraphError(problems, `The configuration proposed by ${args.ref} has errors`);
  }
  const speculativeProject = proposed.layout.projects.get(project.canonicalName) ?? project;
  const files = proposed.ref.kind === 'change' ? proposed.ref.files : undefined;
  // A tag is matched on its ref and the branches containing its commit (docs/project-configuration.md#jobs).
  const ref =
    proposed.ref.kind === 'tag'
      ? { ref: proposed.ref.ref, containingBranches: proposed.ref.containingBranches }
      : undefined;
  return freezeIn(proposed.layout, speculativeProject, {
    pipeline: args.pipeline,
    branch: proposed.ref.branch,
    projectArg: args.project,
    files,
    ref,
  });
}

builder.objectFields(Tenant, (t) => ({
  freezePipeline: t.field({
    type: JobGraph,
    description:
      'The job graph a branch, tag or change ref of a project would get in a pipeline: for a change of an untrusted project, the configuration it proposes is applied speculatively and file matchers are evaluated against its changed files; a branch gets the current configuration with file matchers not evaluated; a tag too, its branch matchers matching its ref or the branches containing its commit.',
    args: {
      project: t.arg.string({ required: true, description: 'Short or canonical project name.' }),
      pipeline: t.arg.string({ required: true, description: 'Name of the pipeline.' }),
      ref: t.arg.string({
        required: true,
        description:
          'A branch (`master` or `refs/heads/master`), a tag `refs/tags/<tag>` or a change ref `refs/changes/NN/N/P`.',
      }),
    },
    errors: { types: [NotFoundError, InvalidInputError, JobGraphError, ConflictError], directResult: true },
    resolve: (tenant, args, ctx) => freezePipeline(tenant, args, ctx),
  }),
  freezeJobs: t.field({
    type: JobGraph,
    description:
      'The job graph a change to a project branch would get in a pipeline (file matchers ignored, secrets redacted).',
    args: {
      pipeline: t.arg.string({ required: true, description: 'Name of the pipeline.' }),
      project: t.arg.string({ required: true, description: 'Short or canonical project name.' }),
      branch: t.arg.string({ description: "Branch; the project's default branch when absent or empty." }),
    },
    errors: { types: [NotFoundError, InvalidInputError, JobGraphError], directResult: true },
    resolve: (tenant, args, ctx) => freezeGraph(tenant, args, ctx),
  }),
  freezeJob: t.field({
    type: FrozenJob,
    description:
      'One job of the graph `freezeJobs` computes, with its parameter document; `Job not found` when the job is not in the graph.',
    args: {
      pipeline: t.arg.string({ required: true, description: 'Name of the pipeline.' }),
      project: t.arg.string({ required: true, description: 'Short or canonical project name.' }),
      branch: t.arg.string({ description: "Branch; the project's default branch when absent or empty." }),
      job: t.arg.string({ required: true, description: 'Name of the job.' }),
    },
    errors: { types: [NotFoundError, InvalidInputError, JobGraphError], directResult: true },
    resolve: (tenant, args, ctx) => {
      const graph = freezeGraph(tenant, args, ctx);
      const job = graph.jobs.find((j) => j.name === args.job);
      if (job === undefined) {
        throw new NotFoundError('Job', args.job, 'Job not found');
      }
      return { job, graph };
    },
  }),
}));
