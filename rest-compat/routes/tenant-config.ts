/**
 * Tenant configuration reads (docs/rest.md#tenant-configuration-reads; earlier
 * shape docs/rest.md#earlier-shape-endpoints): tenant-status, pipelines, projects, jobs, semaphores, config-errors.
 */
import {
  RestConfigErrorsDocument,
  RestJobsDocument,
  RestPipelinesDocument,
  RestProjectsDocument,
  RestSemaphoresDocument,
  RestTenantStatusDocument,
  type ConfigErrorSeverity,
  type RestJobsQuery,
} from '../generated/graphql';
import { badRequest } from '../errors';
import { arrayOf, bool, int, nullable, object, str } from '../json-schema';
import type { RestRoute } from '../route';
import { orNotFound } from '../wire';
import { paging, single } from './params';

const TENANT_404 = { 404: 'Tenant not found' };

export const tenantStatusRoute: RestRoute = {
  name: 'tenant_status',
  pattern: 'tenant/{tenant_name}/tenant-status',
  endpoints: {
    GET: {
      summary: 'Number of configuration errors and warnings of the tenant',
      auth: 'public',
      operations: ['RestTenantStatus'],
      responses: {
        current: { status: 200, schema: object({ config_error_count: int() }), description: 'Tenant status' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const data = await req.run(RestTenantStatusDocument, { tenant: req.params.tenant_name });
        return { body: { config_error_count: orNotFound(data.tenant, 'Tenant not found').configErrorCount } };
      },
    },
  },
};

export const pipelinesRoute: RestRoute = {
  name: 'pipelines',
  pattern: 'tenant/{tenant_name}/pipelines',
  endpoints: {
    GET: {
      summary: 'Pipelines of the tenant, in layout order',
      auth: 'public',
      operations: ['RestPipelines'],
      responses: {
        current: {
          status: 200,
          schema: arrayOf(object({ name: str(), triggers: arrayOf(object({ name: str(), driver: str() })) })),
          description: 'Pipelines with their triggers',
        },
        earlier: { status: 200, schema: arrayOf(object({ name: str() })), description: 'Pipeline names' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const data = await req.run(RestPipelinesDocument, { tenant: req.params.tenant_name });
        const pipelines = orNotFound(data.tenant, 'Tenant not found').pipelines;
        if (req.shape === 'earlier') {
          return { body: pipelines.map((pipeline) => ({ name: pipeline.name })) };
        }
        return {
          body: pipelines.map((pipeline) => ({
            name: pipeline.name,
            triggers: pipeline.triggers.map((trigger) => ({ name: trigger.name, driver: trigger.driver })),
          })),
        };
      },
    },
  },
};

const projectSchema = object({
  name: str(),
  connection_name: str(),
  canonical_name: str(),
  type: str('config or untrusted'),
});

export const projectsRoute: RestRoute = {
  name: 'projects',
  pattern: 'tenant/{tenant_name}/projects',
  endpoints: {
    GET: {
      summary: 'Projects of the tenant, sorted by name',
      auth: 'public',
      operations: ['RestProjects'],
      responses: {
        current: { status: 200, schema: arrayOf(projectSchema), description: 'Projects' },
        earlier: { status: 200, schema: arrayOf(projectSchema), description: 'Projects' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const data = await req.run(RestProjectsDocument, { tenant: req.params.tenant_name });
        const projects = [...orNotFound(data.tenant, 'Tenant not found').projects].sort((a, b) =>
          a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
        );
        return {
          body: projects.map((project) => ({
            name: project.name,
            connection_name: project.connectionName,
            canonical_name: project.canonicalName,
            type: project.type === 'CONFIG' ? 'config' : 'untrusted',
          })),
        };
      },
    },
  },
};

type Job = Extract<RestJobsQuery['tenant'], { __typename: 'Tenant' }>['jobs'][number];

/** docs/rest.md#tenant-configuration-reads: `description`, `variants` and `tags` are absent when empty. */
function mapJob(job: Job, shape: 'current' | 'earlier'): Record<string, unknown> {
  const description = job.description !== null ? { description: job.description } : {};
  if (shape === 'earlier') {
    return { name: job.name, ...description };
  }
  const variants = job.variants
    .map((variant) => ({
      ...(variant.parent !== null ? { parent: variant.parent } : {}),
      ...(variant.branches !== null && variant.branches.length > 0 ? { branches: variant.branches } : {}),
    }))
    .filter((variant) => Object.keys(variant).length > 0);
  return {
    name: job.name,
    ...description,
    ...(variants.length > 0 ? { variants } : {}),
    ...(job.tags.length > 0 ? { tags: job.tags } : {}),
  };
}

export const jobsRoute: RestRoute = {
  name: 'jobs',
  pattern: 'tenant/{tenant_name}/jobs',
  endpoints: {
    GET: {
      summary: 'Jobs of the tenant, sorted by name',
      auth: 'public',
      operations: ['RestJobs'],
      responses: {
        current: {
          status: 200,
          schema: arrayOf(
            object(
              { name: str() },
              {
                description: str(),
                tags: arrayOf(str()),
                variants: arrayOf(object({}, { parent: str(), branches: arrayOf(str()) })),
              },
            ),
          ),
          description: 'Job summaries; description/variants/tags absent when empty',
        },
        earlier: {
          status: 200,
          schema: arrayOf(object({ name: str() }, { description: str() })),
          description: 'Job names and descriptions',
        },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const data = await req.run(RestJobsDocument, { tenant: req.params.tenant_name });
        return { body: orNotFound(data.tenant, 'Tenant not found').jobs.map((job) => mapJob(job, req.shape)) };
      },
    },
  },
};

const semaphoreSchema = object({
  name: str(),
  global: bool(),
  max: int(),
  holders: object({
    count: int(),
    this_tenant: arrayOf(object({ buildset_uuid: str(), job_name: str() })),
    other_tenants: int(),
  }),
});

export const semaphoresRoute: RestRoute = {
  name: 'semaphores',
  pattern: 'tenant/{tenant_name}/semaphores',
  endpoints: {
    GET: {
      summary: 'Semaphores visible in the tenant with their holders, sorted by name',
      auth: 'public',
      operations: ['RestSemaphores'],
      responses: {
        current: { status: 200, schema: arrayOf(semaphoreSchema), description: 'Semaphores' },
        earlier: { status: 200, schema: arrayOf(semaphoreSchema), description: 'Semaphores' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const data = await req.run(RestSemaphoresDocument, { tenant: req.params.tenant_name });
        const semaphores = [...orNotFound(data.tenant, 'Tenant not found').semaphores].sort((a, b) =>
          a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
        );
        return {
          body: semaphores.map((semaphore) => ({
            name: semaphore.name,
            global: semaphore.global,
            max: semaphore.max,
            holders: {
              count: semaphore.holders.count,
              this_tenant: semaphore.holders.thisTenant.map((holder) => ({
                buildset_uuid: holder.buildsetUuid,
                job_name: holder.jobName,
              })),
              other_tenants: semaphore.holders.otherTenants,
            },
          })),
        };
      },
    },
  },
};

const sourceContextSchema = nullable(object({ project: str(), branch: str(), path: str() }));

function severity(value: string | undefined): ConfigErrorSeverity | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (value !== 'error' && value !== 'warning') {
    throw badRequest('Query parameter severity must be error or warning');
  }
  return value === 'error' ? 'ERROR' : 'WARNING';
}

export const configErrorsRoute: RestRoute = {
  name: 'config_errors',
  pattern: 'tenant/{tenant_name}/config-errors',
  endpoints: {
    GET: {
      summary: 'Configuration errors and warnings of the tenant, in layout order',
      auth: 'public',
      operations: ['RestConfigErrors'],
      query: {
        current: {
          project: single('Project (short name) of the error source'),
          branch: single('Branch of the error source'),
          severity: single('error or warning'),
          name: single('Error name, e.g. Unknown'),
          ...paging,
        },
      },
      responses: {
        current: {
          status: 200,
          schema: arrayOf(
            object({
              source_context: sourceContextSchema,
              error: str(),
              short_error: str(),
              severity: str(),
              name: str(),
            }),
          ),
          description: 'Configuration errors',
        },
        earlier: {
          status: 200,
          schema: arrayOf(object({ source_context: sourceContextSchema, error: str() })),
          description: 'Configuration errors (all)',
        },
      },
      errors: { 400: 'Bad query parameter', ...TENANT_404 },
      handler: async (req) => {
        const earlier = req.shape === 'earlier';
        const data = await req.run(RestConfigErrorsDocument, {
          tenant: req.params.tenant_name,
          filter: earlier
            ? {}
            : {
                project: req.query.string('project'),
                branch: req.query.string('branch'),
                severity: severity(req.query.string('severity')),
                name: req.query.string('name'),
              },
          // The earlier shape had no paging: it listed every error.
          first: earlier ? 1000 : req.query.integer('limit'),
          offset: earlier ? 0 : req.query.integer('skip'),
        });
        const errors = orNotFound(data.tenant, 'Tenant not found').configErrors.nodes;
        return {
          body: errors.map((error) => {
            const sourceContext = error.sourceContext
              ? {
                  project: error.sourceContext.project,
                  branch: error.sourceContext.branch,
                  path: error.sourceContext.path,
                }
              : null;
            if (earlier) {
              return { source_context: sourceContext, error: error.error };
            }
            return {
              source_context: sourceContext,
              error: error.error,
              short_error: error.shortError,
              severity: error.severity.toLowerCase(),
              name: error.name,
            };
          }),
        };
      },
    },
  },
};
