/**
 * Tenant-admin control of the queues (docs/rest.md#enqueue-dequeue-and-promote, docs/rest.md#the-shape-rule,
 * docs/rest.md#deliberate-differences-from-the-reference): enqueue, dequeue and promote, each as POST with a JSON body
 * and as GET with the same fields as query parameters. The events are processed asynchronously; success is `true` once
 * the event is queued.
 */
import { RestDequeueDocument, RestEnqueueDocument, RestPromoteDocument } from '../generated/graphql';
import { badRequest } from '../errors';
import { arrayOf, bool, nullable, object, str } from '../json-schema';
import type { RestEndpoint, RestRequest, RestRoute } from '../route';
import { orTypedError } from '../wire';
import { single, text } from './params';

const INVALID_BODY = 'Invalid request body';
const ADMIN_ERRORS = { 401: 'No token', 403: 'Not a tenant admin', 415: 'Not JSON' } as const;
const TRUE_RESPONSE = { status: 200, schema: bool('Always true'), description: '`true`: the event is queued' } as const;

/** A body or query field as text; absent, null and non-scalar values count as missing. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  return typeof value === 'number' ? String(value) : undefined;
}

/**
 * The request's fields: the JSON body for POST, the query parameters for GET (docs/rest.md#the-shape-rule,
 * docs/rest.md#deliberate-differences-from-the-reference).
 */
function fields(req: RestRequest, names: string[]): Record<string, string | undefined> {
  return Object.fromEntries(
    names.map((name) => [name, req.method === 'GET' ? req.query.string(name) : textOf(req.body[name])]),
  );
}

/** Both methods of one control endpoint: POST with `bodySchema`, GET with `query`. */
function postAndGet(
  post: Omit<RestEndpoint, 'query'>,
  query: Record<string, ReturnType<typeof single>>,
): Partial<Record<'GET' | 'POST', RestEndpoint>> {
  const { body: _body, ...withoutBody } = post;
  return {
    POST: post,
    GET: {
      ...withoutBody,
      summary: `${post.summary} (query parameters instead of a body)`,
      query: { current: query, earlier: query },
    },
  };
}

export const enqueueRoute: RestRoute = {
  name: 'enqueue',
  pattern: 'tenant/{tenant_name}/project/{project_name:.*}/enqueue',
  endpoints: postAndGet(
    {
      summary: 'Enqueue a change (`change`) or a ref update (`ref`, `oldrev`, `newrev`) into a pipeline; `change` wins',
      auth: 'admin',
      operations: ['RestEnqueue'],
      body: {
        required: true,
        schema: object(
          {},
          {
            pipeline: str(),
            change: nullable(str('N,P')),
            ref: nullable(str()),
            oldrev: nullable(str()),
            newrev: nullable(str()),
            trigger: str('Ignored'),
          },
        ),
      },
      responses: { current: TRUE_RESPONSE, earlier: TRUE_RESPONSE },
      errors: { 400: `${INVALID_BODY}; Unknown pipeline`, ...ADMIN_ERRORS, 404: 'Tenant not found; Unknown project' },
      handler: async (req) => {
        const given = fields(req, ['pipeline', 'change', 'ref', 'oldrev', 'newrev']);
        const { pipeline } = given;
        if (pipeline === undefined) {
          throw badRequest(INVALID_BODY);
        }
        const refForm =
          given.change === undefined ? { ref: given.ref, oldrev: given.oldrev, newrev: given.newrev } : {};
        const data = await req.run(RestEnqueueDocument, {
          input: {
            tenant: req.params.tenant_name,
            project: req.params.project_name,
            pipeline,
            change: given.change,
            ...refForm,
          },
        });
        orTypedError(data.enqueue, 'Unknown project');
        return { body: true };
      },
    },
    {
      pipeline: single('Pipeline'),
      change: single('Change as N,P'),
      ref: single('Ref of a ref update'),
      oldrev: single('Old revision'),
      newrev: single('New revision'),
    },
  ),
};

export const dequeueRoute: RestRoute = {
  name: 'dequeue',
  pattern: 'tenant/{tenant_name}/project/{project_name:.*}/dequeue',
  endpoints: postAndGet(
    {
      summary: 'Remove a live change (`change`) or ref (`ref`) from a pipeline; exactly one of them',
      auth: 'admin',
      operations: ['RestDequeue'],
      body: {
        required: true,
        schema: object({}, { pipeline: str(), change: nullable(str('N,P')), ref: nullable(str()) }),
      },
      responses: { current: TRUE_RESPONSE, earlier: TRUE_RESPONSE },
      errors: { 400: `${INVALID_BODY}; Unknown pipeline`, ...ADMIN_ERRORS, 404: 'Tenant not found; Unknown project' },
      handler: async (req) => {
        const given = fields(req, ['pipeline', 'change', 'ref']);
        // docs/rest.md#enqueue-dequeue-and-promote: presence of the keys counts, not their values.
        const present = (name: string): boolean =>
          req.method === 'GET' ? req.query.has(name) : Object.hasOwn(req.body, name);
        if (given.pipeline === undefined || present('change') === present('ref')) {
          throw badRequest(INVALID_BODY);
        }
        const data = await req.run(RestDequeueDocument, {
          input: {
            tenant: req.params.tenant_name,
            project: req.params.project_name,
            pipeline: given.pipeline,
            change: given.change,
            ref: given.ref,
          },
        });
        orTypedError(data.dequeue, 'Unknown project');
        return { body: true };
      },
    },
    { pipeline: single('Pipeline'), change: single('Change as N,P'), ref: single('Ref') },
  ),
};

export const promoteRoute: RestRoute = {
  name: 'promote',
  pattern: 'tenant/{tenant_name}/promote',
  endpoints: postAndGet(
    {
      summary: 'Move changes to the head of their queue in the given order',
      auth: 'admin',
      operations: ['RestPromote'],
      body: { required: true, schema: object({}, { pipeline: str(), changes: arrayOf(str('N,P')) }) },
      responses: { current: TRUE_RESPONSE, earlier: TRUE_RESPONSE },
      errors: {
        400: 'Unknown pipeline; a change not in the pipeline',
        ...ADMIN_ERRORS,
        ...{ 404: 'Tenant not found' },
      },
      handler: async (req) => {
        const pipeline = req.method === 'GET' ? req.query.string('pipeline') : textOf(req.body.pipeline);
        if (pipeline === undefined) {
          throw badRequest('Unknown pipeline');
        }
        const listed = req.method === 'GET' ? (req.query.strings('changes') ?? []) : req.body.changes;
        const changes = Array.isArray(listed)
          ? listed.map(textOf).filter((change): change is string => change !== undefined)
          : [];
        const data = await req.run(RestPromoteDocument, {
          input: { tenant: req.params.tenant_name, pipeline, changes },
        });
        orTypedError(data.promote, 'Tenant not found');
        return { body: true };
      },
    },
    { pipeline: single('Pipeline'), changes: text('Change as N,P; repeat for several, in order') },
  ),
};
