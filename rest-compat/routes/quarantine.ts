/**
 * The quarantine list (docs/rest.md#quarantine), a Sluice extension served in the current shape:
 * list (public), add (tenant admin), remove (tenant admin). Both edits are audited with a
 * `quarantine-changed` system event by the GraphQL mutations they run.
 */
import {
  RestQuarantineAddDocument,
  RestQuarantineDocument,
  RestQuarantineRemoveDocument,
  type RestQuarantineFieldsFragment,
} from '../generated/graphql';
import { badRequest } from '../errors';
import { arrayOf, nullable, num, object, str } from '../json-schema';
import type { RestRoute } from '../route';
import { orNotFound, orTypedError } from '../wire';
import { single } from './params';

const entrySchema = object({
  job: str(),
  project: nullable(str('Canonical project name; null for every project of the tenant')),
  reason: str(),
  added_by: nullable(str()),
  added_at: num('Epoch seconds'),
});

function mapEntry(entry: RestQuarantineFieldsFragment): Record<string, unknown> {
  return {
    job: entry.job,
    project: entry.project ?? null,
    reason: entry.reason,
    added_by: entry.addedBy ?? null,
    added_at: Date.parse(entry.addedAt) / 1000,
  };
}

const ADMIN_ERRORS = { 401: 'No token', 403: 'Not a tenant admin' };

export const quarantineRoute: RestRoute = {
  name: 'quarantine',
  pattern: 'tenant/{tenant_name}/quarantine',
  endpoints: {
    GET: {
      summary: 'Sluice: the quarantine list (jobs whose failures are reported but do not fail their item)',
      auth: 'public',
      operations: ['RestQuarantine'],
      responses: { current: { status: 200, schema: arrayOf(entrySchema), description: 'By job, then project' } },
      errors: { 404: 'Tenant not found' },
      handler: async (req) => {
        const data = await req.run(RestQuarantineDocument, { tenant: req.params.tenant_name });
        return { body: orNotFound(data.tenant, 'Tenant not found').quarantine.map(mapEntry) };
      },
    },
    POST: {
      summary: 'Sluice: quarantine a job, for one project or every project',
      auth: 'admin',
      operations: ['RestQuarantineAdd'],
      body: {
        required: true,
        freeText: ['reason'],
        schema: object(
          {},
          {
            job: str('Required'),
            reason: str('Required'),
            project: nullable(str('Project (short or canonical name); every project when absent')),
          },
        ),
      },
      responses: { current: { status: 200, schema: entrySchema, description: 'The entry' } },
      errors: {
        400: 'Invalid request body; job and reason must not be empty',
        ...ADMIN_ERRORS,
        404: 'Tenant not found; Unknown project',
        415: 'Not JSON',
      },
      handler: async (req) => {
        const { body } = req;
        const project = body.project ?? null;
        if (
          typeof body.job !== 'string' ||
          typeof body.reason !== 'string' ||
          (project !== null && typeof project !== 'string')
        ) {
          throw badRequest('Invalid request body');
        }
        const data = await req.run(RestQuarantineAddDocument, {
          input: { tenant: req.params.tenant_name, job: body.job, reason: body.reason, project },
        });
        return { body: mapEntry(orTypedError(data.quarantineAdd, 'Tenant not found')) };
      },
    },
  },
};

export const quarantineJobRoute: RestRoute = {
  name: 'quarantine_job',
  pattern: 'tenant/{tenant_name}/quarantine/{job}',
  endpoints: {
    DELETE: {
      summary: 'Sluice: take a job off the quarantine list',
      auth: 'admin',
      operations: ['RestQuarantineRemove'],
      query: {
        current: { project: single('The project of the entry (short or canonical name); absent: every project') },
      },
      responses: { current: { status: 200, schema: entrySchema, description: 'The entry removed' } },
      errors: {
        ...ADMIN_ERRORS,
        404: 'Tenant not found; Unknown project; The job is not in the quarantine list',
      },
      handler: async (req) => {
        const data = await req.run(RestQuarantineRemoveDocument, {
          input: { tenant: req.params.tenant_name, job: req.params.job, project: req.query.string('project') ?? null },
        });
        return { body: mapEntry(orTypedError(data.quarantineRemove, 'Tenant not found')) };
      },
    },
  },
};
