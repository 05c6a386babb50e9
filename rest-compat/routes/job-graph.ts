/**
 * Job and project configuration detail and frozen job graphs (docs/rest.md#project-detail, docs/rest.md#job-variants,
 * docs/rest.md#frozen-job-graphs, docs/rest.md#deliberate-differences-from-the-reference; earlier shape
 * docs/rest.md#earlier-shape-endpoints, docs/rest.md#job-variants): `T/job/{name}`, `T/project/{name}`, freeze-jobs,
 * freeze-job, freeze-pipeline.
 */
import {
  RestFreezeJobDocument,
  RestFreezeJobsDocument,
  RestFreezePipelineDocument,
  RestJobDocument,
  RestProjectDocument,
  type MergeMode,
} from '../generated/graphql';
import { badRequest } from '../errors';
import { arrayOf, bool, freeObject, nullable, object, str } from '../json-schema';
import { jobVariantSchema, mapJobVariant } from '../records/job-variant';
import type { RestRoute } from '../route';
import type { RestShape } from '../shape';
import { orNotFound, orTypedError } from '../wire';

/**
 * The reference unquote-plus decodes job names: `+` is a space and `%2F` a slash (docs/rest.md#paths-and-parameters).
 */
const jobNameFromPath = (value: string): string => value.replace(/\+/g, ' ').replace(/%2F/gi, '/');

/** `MERGE_RESOLVE` -> `merge-resolve`. */
const mergeModeName = (mode: MergeMode | null): string | null =>
  mode === null ? null : mode.toLowerCase().replace(/_/g, '-');

export const jobRoute: RestRoute = {
  name: 'job',
  pattern: 'tenant/{tenant_name}/job/{job_name}',
  endpoints: {
    GET: {
      summary: 'Every variant of one job, in layout order',
      auth: 'public',
      operations: ['RestJob'],
      responses: {
        current: { status: 200, schema: arrayOf(jobVariantSchema('current')), description: 'Job variants' },
        earlier: { status: 200, schema: arrayOf(jobVariantSchema('earlier')), description: 'Job variants (2019 keys)' },
      },
      errors: { 404: 'Tenant not found | Job not found' },
      handler: async (req) => {
        const data = await req.run(RestJobDocument, {
          tenant: req.params.tenant_name,
          name: jobNameFromPath(req.params.job_name),
        });
        const job = orNotFound(orNotFound(data.tenant, 'Tenant not found').job, 'Job not found');
        return { body: job.variants.map((variant) => mapJobVariant(variant, req.shape)) };
      },
    },
  },
};

const sourceContextSchema = object({ project: str(), branch: str(), path: str() });

function projectSchema(shape: RestShape) {
  const jobs = arrayOf(arrayOf(jobVariantSchema(shape)));
  const common = { name: str(), connection_name: str(), canonical_name: str() };
  if (shape === 'earlier') {
    return object({
      ...common,
      configs: arrayOf(
        object({
          default_branch: nullable(str()),
          merge_mode: nullable(str()),
          templates: arrayOf(str()),
          pipelines: arrayOf(object({ name: str(), queue_name: nullable(str()), jobs })),
        }),
      ),
    });
  }
  return object({
    ...common,
    metadata: freeObject('{is_template, default_branch, merge_mode, queue_name}; {} when no stanza applies'),
    configs: arrayOf(
      object({
        source_context: sourceContextSchema,
        is_template: bool(),
        templates: arrayOf(str()),
        default_branch: nullable(str()),
        queue_name: nullable(str()),
        merge_mode: nullable(str()),
        pipelines: arrayOf(object({ name: str(), jobs })),
      }),
    ),
  });
}

export const projectRoute: RestRoute = {
  name: 'project',
  pattern: 'tenant/{tenant_name}/project/{project_name:.*}',
  endpoints: {
    GET: {
      summary: 'One project (short or canonical name, slashes unencoded) with its configuration stanzas',
      auth: 'public',
      operations: ['RestProject'],
      responses: {
        current: { status: 200, schema: projectSchema('current'), description: 'Project' },
        earlier: { status: 200, schema: projectSchema('earlier'), description: 'Project (2019 keys)' },
      },
      errors: { 400: 'Ambiguous short project name', 404: 'Tenant not found | Unknown project' },
      handler: async (req) => {
        const data = await req.run(RestProjectDocument, {
          tenant: req.params.tenant_name,
          name: req.params.project_name,
        });
        const project = orTypedError(orNotFound(data.tenant, 'Tenant not found').project, 'Unknown project');
        const byName = <T extends { name: string }>(items: readonly T[]): T[] =>
          [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const common = {
          name: project.name,
          connection_name: project.connectionName,
          canonical_name: project.canonicalName,
        };
        if (req.shape === 'earlier') {
          const configs = project.configs.map((config) => ({
            default_branch: config.defaultBranch,
            merge_mode: mergeModeName(config.mergeMode),
            templates: config.templates,
            pipelines: byName(config.pipelines).map((pipeline) => ({
              name: pipeline.name,
              queue_name: config.queueName,
              jobs: pipeline.jobs.map((job) => job.variants.map((variant) => mapJobVariant(variant, 'earlier'))),
            })),
          }));
          return { body: { ...common, configs } };
        }
        const configs = project.configs.map((config) => ({
          source_context: {
            project: config.sourceContext.project,
            branch: config.sourceContext.branch,
            path: config.sourceContext.path,
          },
          is_template: config.isTemplate,
          templates: config.templates,
          default_branch: config.defaultBranch,
          queue_name: config.queueName,
          merge_mode: mergeModeName(config.mergeMode),
          pipelines: byName(config.pipelines).map((pipeline) => ({
            name: pipeline.name,
            jobs: pipeline.jobs.map((job) => job.variants.map((variant) => mapJobVariant(variant, 'current'))),
          })),
        }));
        const metadata =
          configs.length === 0
            ? {}
            : {
                is_template: false,
                default_branch: project.metadata.defaultBranch,
                merge_mode: mergeModeName(project.metadata.mergeMode),
                queue_name: project.metadata.queueName,
              };
        return { body: { ...common, metadata, configs } };
      },
    },
  },
};

const GRAPH_ERRORS = {
  400: 'Invalid input',
  404: 'Tenant not found | Unknown project | Unknown pipeline | Job not found',
  422: 'The job graph cannot be frozen',
} as const;

/** A job graph record of freeze-jobs and freeze-pipeline (docs/rest.md#frozen-job-graphs). */
const graphRecordSchema = arrayOf(
  object({ name: str(), dependencies: arrayOf(object({ name: str(), soft: bool() })) }),
);

interface GraphJob {
  name: string;
  dependencies: ReadonlyArray<{ name: string; soft: boolean }>;
}

const graphRecords = (jobs: readonly GraphJob[]) =>
  jobs.map((job) => ({ name: job.name, dependencies: job.dependencies.map((d) => ({ name: d.name, soft: d.soft })) }));

const freezeBase = 'tenant/{tenant_name}/pipeline/{pipeline_name}/project/{project_name:.*}/branch/{branch_name:.*}';

export const freezeJobsRoute: RestRoute = {
  name: 'freeze_jobs',
  pattern: `${freezeBase}/freeze-jobs`,
  endpoints: {
    GET: {
      summary: 'The job graph a change to project/branch would get in the pipeline (file matchers ignored)',
      auth: 'public',
      operations: ['RestFreezeJobs'],
      responses: {
        current: { status: 200, schema: graphRecordSchema, description: 'Jobs in graph order' },
        earlier: { status: 200, schema: graphRecordSchema, description: 'Jobs in graph order' },
      },
      errors: { 400: GRAPH_ERRORS[400], 404: GRAPH_ERRORS[404], 422: GRAPH_ERRORS[422] },
      handler: async (req) => {
        const data = await req.run(RestFreezeJobsDocument, {
          tenant: req.params.tenant_name,
          pipeline: req.params.pipeline_name,
          project: req.params.project_name,
          branch: req.params.branch_name,
        });
        const graph = orTypedError(orNotFound(data.tenant, 'Tenant not found').freezeJobs, 'Unknown project');
        return { body: graphRecords(graph.jobs) };
      },
    },
  },
};

export const freezeJobRoute: RestRoute = {
  name: 'freeze_job',
  pattern: `${freezeBase}/freeze-job/{job_name}`,
  endpoints: {
    GET: {
      summary: 'The frozen parameters of one job of that graph, secrets redacted',
      auth: 'public',
      operations: ['RestFreezeJob'],
      responses: {
        current: {
          status: 200,
          schema: freeObject('Frozen job parameters (job, timeout, nodeset, playbooks, vars, zuul, ...)'),
          description: 'Frozen job',
        },
      },
      errors: { 400: GRAPH_ERRORS[400], 404: GRAPH_ERRORS[404], 422: GRAPH_ERRORS[422] },
      handler: async (req) => {
        const data = await req.run(RestFreezeJobDocument, {
          tenant: req.params.tenant_name,
          pipeline: req.params.pipeline_name,
          project: req.params.project_name,
          branch: req.params.branch_name,
          job: jobNameFromPath(req.params.job_name),
        });
        const frozen = orTypedError(orNotFound(data.tenant, 'Tenant not found').freezeJob, 'Job not found');
        return { body: frozen.parameters };
      },
    },
  },
};

export const freezePipelineRoute: RestRoute = {
  name: 'freeze_pipeline',
  pattern: 'tenant/{tenant_name}/project/{project_name:.*}/freeze-pipeline',
  endpoints: {
    POST: {
      summary:
        'The job graph a branch, tag or change ref would get in the pipeline (a tag matched on the branches containing its commit): a change of an untrusted project with its proposed configuration applied and file matchers evaluated against its changed files (Sluice, A4)',
      auth: 'public',
      operations: ['RestFreezePipeline'],
      body: {
        required: true,
        schema: object({
          ref: str('A branch, refs/heads/<branch>, refs/tags/<tag> or refs/changes/NN/N/P'),
          pipeline: str(),
        }),
      },
      responses: {
        current: { status: 200, schema: graphRecordSchema, description: 'Jobs in graph order' },
        earlier: { status: 200, schema: graphRecordSchema, description: 'Jobs in graph order' },
      },
      errors: {
        400: 'Invalid request body | Invalid ref',
        404: 'Tenant not found | Unknown project | Unknown pipeline | Unknown ref',
        409: 'The change does not merge into its branch',
        415: 'Not JSON',
        422: 'The proposed configuration has errors, or the job graph cannot be frozen',
      },
      handler: async (req) => {
        const { ref, pipeline } = req.body;
        if (typeof ref !== 'string' || typeof pipeline !== 'string') {
          throw badRequest('Invalid request body: ref and pipeline must be strings');
        }
        const data = await req.run(RestFreezePipelineDocument, {
          tenant: req.params.tenant_name,
          project: req.params.project_name,
          pipeline,
          ref,
        });
        const graph = orTypedError(orNotFound(data.tenant, 'Tenant not found').freezePipeline, 'Unknown project');
        return { body: graphRecords(graph.jobs) };
      },
    },
  },
};
