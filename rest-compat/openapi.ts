/**
 * OpenAPI 3.1 documents generated from the route table, one per shape, so the documentation
 * cannot drift from the code. Response schemas are the same objects the contract tests use.
 */
import { authErrorBody, errorBody, type JsonSchema } from './json-schema';
import type { HttpMethod, RestEndpoint, RestRoute } from './route';
import type { RestShape } from './shape';

type OpenApiDocument = Record<string, unknown>;

const ERROR_TEXTS: Record<number, string> = {
  400: 'Bad request (parameter or body named in the description)',
  401: 'Missing or invalid token',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Method not allowed (see the Allow header)',
  409: 'Conflict with the current state',
  415: 'Body is not application/json',
  422: 'The job graph cannot be frozen (configuration errors)',
};

/** Path parameter names differ in the earlier shape's documentation (docs/rest.md#endpoints-and-what-is-served). */
function paramName(name: string, shape: RestShape): string {
  if (shape === 'earlier' && (name === 'tenant_name' || name === 'project_name')) {
    return name.replace('_name', '');
  }
  return name;
}

/** `/api/` + the pattern with `{x:.*}` written as `{x}`. */
export function openApiPath(route: RestRoute, shape: RestShape): string {
  const path = route.pattern.replace(
    /\{([a-z_]+)(?::\.\*)?\}/gi,
    (_all, name: string) => `{${paramName(name, shape)}}`,
  );
  return path === '' ? '/api' : `/api/${path}`;
}

function pathParameters(route: RestRoute, shape: RestShape): JsonSchema[] {
  const names = [...route.pattern.matchAll(/\{([a-z_]+)(:\.\*)?\}/gi)];
  return names.map((match) => ({
    name: paramName(match[1], shape),
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(match[2] ? { description: 'May contain slashes (sent unencoded)' } : {}),
  }));
}

function operation(
  route: RestRoute,
  method: HttpMethod,
  endpoint: RestEndpoint,
  shape: RestShape,
): JsonSchema | undefined {
  const response = endpoint.responses[shape];
  if (!response) {
    return undefined;
  }
  const query = Object.entries(endpoint.query?.[shape] ?? {}).map(([name, spec]) => ({
    name,
    in: 'query',
    required: false,
    description: spec.description,
    ...(spec.repeated ? { explode: true, schema: { type: 'array', items: { type: 'string' } } } : {}),
    ...(!spec.repeated
      ? {
          schema: {
            type: spec.type === 'integer' ? 'integer' : 'string',
            ...(spec.type === 'integer' ? { minimum: 0 } : {}),
            ...(spec.default !== undefined ? { default: spec.default } : {}),
            ...(spec.maximum !== undefined ? { 'x-clamped-to': spec.maximum } : {}),
            ...(spec.type === 'flag' ? { enum: ['1', '0', 'true', 'false'] } : {}),
          },
        }
      : {}),
  }));
  const contentType = response.contentType ?? 'application/json';
  const success = {
    description: response.description,
    ...(response.status === 204
      ? {}
      : {
          content: {
            [contentType === 'application/json' ? 'application/json' : contentType]: {
              schema: response.schema ?? { type: 'string' },
            },
          },
        }),
  };
  const errors: Record<string, unknown> = {};
  for (const [status, text] of Object.entries(endpoint.errors)) {
    errors[status] = {
      description: `${ERROR_TEXTS[Number(status)] ?? 'Error'}: ${text}`,
      content: { 'application/json': { schema: errorBody } },
    };
  }
  if (endpoint.auth === 'token' || endpoint.auth === 'admin') {
    errors['401'] = { description: ERROR_TEXTS[401], content: { 'application/json': { schema: authErrorBody } } };
    errors['403'] = { description: ERROR_TEXTS[403], content: { 'application/json': { schema: errorBody } } };
  }
  return {
    operationId: `${route.name}_${method.toLowerCase()}`,
    summary: endpoint.summary,
    'x-sluice-auth': endpoint.auth,
    'x-sluice-graphql-operations': endpoint.operations,
    parameters: [...pathParameters(route, shape), ...query],
    ...(endpoint.body
      ? {
          requestBody: {
            required: endpoint.body.required,
            content: { 'application/json': { schema: endpoint.body.schema } },
          },
        }
      : {}),
    responses: { [String(response.status)]: success, ...errors },
    ...(endpoint.auth === 'token' || endpoint.auth === 'admin' ? { security: [{ bearer: [] }] } : {}),
  };
}

/** The OpenAPI 3.1 document of `shape`; `version` is the service version. */
export function openApiDocument(routes: readonly RestRoute[], shape: RestShape, version: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const [method, endpoint] of Object.entries(route.endpoints) as [HttpMethod, RestEndpoint][]) {
      const op =
        operation(route, method, endpoint, shape) ??
        (shape === 'earlier' ? operation(route, method, endpoint, 'current') : undefined);
      if (!op) {
        continue;
      }
      const path = openApiPath(route, shape);
      paths[path] = { ...paths[path], [method.toLowerCase()]: op };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `Sluice REST compatibility API (${shape} shape)`,
      version,
      description:
        'Generated from the route table (rest-compat/). Select the shape with the X-Sluice-Api-Shape request header; ' +
        'paths that exist only in the current shape are served in the current shape. Errors are JSON {error, description}; ' +
        '401 is {description, error, realm} with WWW-Authenticate. See docs/rest.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
