/** Autohold requests (docs/rest.md#autohold): list, get, create (tenant admin), delete (tenant admin). */
import {
  RestAutoholdCreateDocument,
  RestAutoholdDeleteDocument,
  RestAutoholdDocument,
  RestAutoholdsDocument,
  type RestAutoholdFieldsFragment,
} from '../generated/graphql';
import { int32Problem } from '../../src/model/value-checks';
import { badRequest } from '../errors';
import { arrayOf, bool, int, nullable, num, object, str } from '../json-schema';
import type { RestEndpoint, RestRoute } from '../route';
import { orNotFound, orTypedError } from '../wire';
import { single } from './params';

const TENANT_404 = { 404: 'Tenant not found' };
const INVALID_BODY = 'Invalid request body';

const autoholdSchema = object({
  id: str('10-digit zero-padded id'),
  tenant: str(),
  project: str('Canonical project name'),
  job: str(),
  ref_filter: str('Regular expression'),
  max_count: int(),
  current_count: int(),
  reason: str(),
  node_expiration: int('Seconds; 0 = indefinitely'),
  expired: nullable(num('Epoch seconds when the request was exhausted')),
  nodes: arrayOf(object({ build: str(), nodes: arrayOf(str()) })),
});

/** The reference's hold-request object (docs/rest.md#autohold). */
function mapAutohold(record: RestAutoholdFieldsFragment): Record<string, unknown> {
  return {
    id: record.id,
    tenant: record.tenant,
    project: record.project,
    job: record.job,
    ref_filter: record.refFilter,
    max_count: record.maxCount,
    current_count: record.currentCount,
    reason: record.reason,
    node_expiration: record.nodeExpiration,
    expired: record.expired === null ? null : Date.parse(record.expired) / 1000,
    nodes: record.nodes.map((held) => ({ build: held.build, nodes: held.nodes })),
  };
}

/** The list of docs/rest.md#autohold, filtered by a project name suffix. */
function listEndpoint(
  summary: string,
  projectOf: (params: Record<string, string>, query: (name: string) => string | undefined) => string | undefined,
): RestEndpoint {
  return {
    summary,
    auth: 'public',
    operations: ['RestAutoholds'],
    responses: {
      current: { status: 200, schema: arrayOf(autoholdSchema), description: 'Autohold requests, oldest first' },
    },
    errors: TENANT_404,
    handler: async (req) => {
      const data = await req.run(RestAutoholdsDocument, {
        tenant: req.params.tenant_name,
        project: projectOf(req.params, (name) => req.query.string(name)),
      });
      return { body: orNotFound(data.tenant, 'Tenant not found').autoholds.map(mapAutohold) };
    },
  };
}

export const autoholdsRoute: RestRoute = {
  name: 'autohold_list',
  pattern: 'tenant/{tenant_name}/autohold',
  endpoints: {
    GET: {
      ...listEndpoint('Autohold requests of the tenant', (_params, query) => query('project')),
      query: { current: { project: single('Only requests whose canonical project name ends with this') } },
    },
  },
};

const REQUIRED_KEYS = ['job', 'count', 'reason', 'node_hold_expiration'];

/** A scalar body value as text (`change: 1` and `change: "1"` are the same change). */
function textOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') {
    return value;
  }
  return typeof value === 'number' ? String(value) : null;
}

export const projectAutoholdRoute: RestRoute = {
  name: 'autohold',
  pattern: 'tenant/{tenant_name}/project/{project_name:.*}/autohold',
  endpoints: {
    GET: listEndpoint(
      'Autohold requests of one project (suffix match on the canonical name)',
      (params) => params.project_name,
    ),
    POST: {
      summary: 'Hold the nodes of the next failing builds of a job',
      auth: 'admin',
      operations: ['RestAutoholdCreate'],
      body: {
        required: true,
        freeText: ['reason'],
        schema: object(
          {},
          {
            job: str('Required'),
            count: int('Required; 0 or more'),
            reason: str('Required'),
            node_hold_expiration: nullable(int('Required (may be null): seconds; null = deployment default')),
            change: nullable(str('Change number')),
            ref: nullable(str('Ref regular expression')),
            trigger: str('Ignored'),
          },
        ),
      },
      responses: { current: { status: 200, schema: bool('Always true'), description: '`true`' } },
      errors: {
        400: `change and ref are mutually exclusive; ${INVALID_BODY}; Count must be greater than 0; argument is not a valid regular expression`,
        401: 'No token',
        403: 'Not a tenant admin',
        404: 'Tenant not found; Unknown project',
        415: 'Not JSON',
      },
      handler: async (req) => {
        const { body } = req;
        const change = textOrNull(body.change);
        const ref = textOrNull(body.ref);
        if (change !== null && ref !== null) {
          throw badRequest('change and ref are mutually exclusive');
        }
        if (
          !REQUIRED_KEYS.every((key) => Object.hasOwn(body, key)) ||
          typeof body.job !== 'string' ||
          typeof body.reason !== 'string'
        ) {
          throw badRequest(INVALID_BODY);
        }
        const { count } = body;
        // The reference compares `count` as a number; anything else is not a count.
        if (typeof count !== 'number' || !Number.isInteger(count)) {
          throw badRequest(INVALID_BODY);
        }
        if (count < 0) {
          throw badRequest('Count must be greater than 0');
        }
        const expiration = body.node_hold_expiration;
        if (expiration !== null && (typeof expiration !== 'number' || !Number.isInteger(expiration))) {
          throw badRequest(INVALID_BODY);
        }
        // Both become GraphQL `Int`s (docs/rest.md#input-rules).
        for (const [key, value] of [
          ['count', count],
          ['node_hold_expiration', expiration],
        ] as const) {
          const problem = value === null ? null : int32Problem(value);
          if (problem !== null) {
            throw badRequest(`Body field ${key} ${problem}`);
          }
        }
        const data = await req.run(RestAutoholdCreateDocument, {
          input: {
            tenant: req.params.tenant_name,
            project: req.params.project_name,
            job: body.job,
            count,
            reason: body.reason,
            nodeHoldExpiration: expiration,
            change,
            ref,
          },
        });
        orTypedError(data.autoholdCreate, 'Unknown project');
        return { body: true };
      },
    },
  },
};

export const autoholdRoute: RestRoute = {
  name: 'autohold_by_request_id',
  pattern: 'tenant/{tenant_name}/autohold/{request_id}',
  endpoints: {
    GET: {
      summary: 'One autohold request (the id may omit its zero padding)',
      auth: 'public',
      operations: ['RestAutohold'],
      responses: { current: { status: 200, schema: autoholdSchema, description: 'Autohold request' } },
      errors: { 404: 'Tenant not found; Hold request {id} not found.' },
      handler: async (req) => {
        const data = await req.run(RestAutoholdDocument, { tenant: req.params.tenant_name, id: req.params.request_id });
        const record = orNotFound(
          orNotFound(data.tenant, 'Tenant not found').autohold,
          `Hold request ${req.params.request_id} not found.`,
        );
        return { body: mapAutohold(record) };
      },
    },
    DELETE: {
      summary: 'Delete an autohold request',
      auth: 'admin',
      operations: ['RestAutoholdDelete'],
      responses: { current: { status: 204, description: 'Deleted' } },
      errors: { 401: 'No token', 403: 'Not a tenant admin', 404: 'Tenant not found; Hold request {id} not found.' },
      handler: async (req) => {
        const data = await req.run(RestAutoholdDeleteDocument, {
          input: { tenant: req.params.tenant_name, id: req.params.request_id },
        });
        orTypedError(data.autoholdDelete, `Hold request ${req.params.request_id} not found.`);
        return { status: 204, body: null };
      },
    },
  },
};
