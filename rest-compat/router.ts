/**
 * Generic HTTP handling for the REST route table: path matching (greedy segments, repeated
 * slashes), CORS and preflight, method checks, shape selection, auth requirement, query and
 * body validation, content types and JSON errors. Route handlers only map requests to GraphQL
 * operations and results to the wire shapes.
 */
import type Koa from 'koa';
import type { GraphQLError } from 'graphql';
import { deniedResponse, type DeniedResponse, type RequestAuth } from '../src/auth/gate';
import { ROOT_SCOPE } from '../src/auth/rules';
import { stringProblem, tenantNameProblem } from '../src/model/value-checks';
import {
  RestAuthError,
  RestDeniedError,
  RestError,
  badRequest,
  databaseUnavailable,
  methodNotAllowed,
  notFound,
} from './errors';
import { isConnectionError } from '../src/store/links';
import { RestTenantExistsDocument } from './generated/graphql';
import type { OperationRunner } from './operation-runner';
import { parseQuery } from './query-params';
import { readJsonBody } from './request-body';
import { SerializedJson, type BoundOperationRunner, type HttpMethod, type RestEndpoint, type RestRoute } from './route';
import { SHAPE_HEADER, isRestShape, type RestShape } from './shape';
import type { Redactor } from '../src/secrets/redact';

const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, X-Requested-With';

interface CompiledRoute {
  route: RestRoute;
  regex: RegExp;
  names: string[];
}

export interface RestRouterOptions {
  routes: RestRoute[];
  run: OperationRunner;
  defaultShape: RestShape;
  /** Builds the yoga server context for in-process operations from the Koa context. */
  serverContext: (ctx: Koa.Context) => Record<string, unknown>;
  /** Realm named in 401 answers the REST layer gives itself (missing header); null when none. */
  defaultRealm?: () => string | null;
  /**
   * How the request authenticated (docs/security.md#who-may-do-what-rules); with it every endpoint's `auth`
   * requirement is checked here, after the tenant exists and before query and body.
   */
  requestAuth?: (ctx: Koa.Context) => Promise<RequestAuth>;
  /** Masks secret values in every response body, errors included (docs/security.md#secrets). */
  redactor?: () => Redactor;
}

/** Bodies serialised once per key (the most recent `SERIALIZED_KEYS` kept). */
const SERIALIZED_KEYS = 32;

class SerializedBodies {
  private readonly entries = new Map<string, { redactor: unknown; json: Promise<SerializedJson> }>();

  constructor(private readonly redactor: RestRouterOptions['redactor']) {}

  get(key: string, body: () => Promise<unknown>): Promise<SerializedJson> {
    const redactor = this.redactor?.();
    const cached = this.entries.get(key);
    if (cached && cached.redactor === redactor) {
      return cached.json;
    }
    const json = body().then((value) => new SerializedJson(JSON.stringify(redactor?.redactJson(value) ?? value)));
    this.entries.delete(key);
    this.entries.set(key, { redactor, json });
    json.catch(() => this.entries.delete(key));
    if (this.entries.size > SERIALIZED_KEYS) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
    return json;
  }
}

/** Koa middleware serving every route of the table below `/api`. */
export function restRouter(options: RestRouterOptions): Koa.Middleware {
  const compiled = options.routes.map(compileRoute);
  const serialized = new SerializedBodies(options.redactor);
  return async (ctx, next) => {
    if (ctx.path !== '/api' && !ctx.path.startsWith('/api/')) {
      return next();
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    try {
      await serve(ctx, compiled, options, serialized);
    } catch (err) {
      const restError = err instanceof RestError ? err : internalError(ctx, err);
      ctx.status = restError.status;
      for (const [key, value] of Object.entries(restError.headers)) {
        ctx.set(key, value);
      }
      const body = restError.body();
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify(options.redactor?.().redactJson(body) ?? body);
    }
  };
}

async function serve(
  ctx: Koa.Context,
  compiled: CompiledRoute[],
  options: RestRouterOptions,
  serialized: SerializedBodies,
): Promise<void> {
  const requested = ctx.get(SHAPE_HEADER).trim().toLowerCase();
  if (requested !== '' && !isRestShape(requested)) {
    throw new RestError(400, 'BadRequest', `${SHAPE_HEADER} must be "current" or "earlier"`);
  }
  const selected: RestShape = isRestShape(requested) ? requested : options.defaultShape;
  // Paths keep `%2F` encoded (docs/rest.md#paths-and-parameters): only the route's own segments are decoded.
  const subPath = ctx.path
    .replace(/\/{2,}/g, '/')
    .replace(/^\/api\/?/, '')
    .replace(/\/$/, '');
  const match = findRoute(compiled, subPath);
  if (!match) {
    throw notFound(`No API endpoint at ${ctx.path}`);
  }
  const { route, params } = match;
  // The route's pattern labels the request's latency (docs/operations.md#metrics).
  ctx.state.route = `/api/${route.pattern}`;
  const methods = Object.keys(route.endpoints) as HttpMethod[];
  if (ctx.method === 'OPTIONS') {
    ctx.set(SHAPE_HEADER, selected);
    ctx.status = 204;
    ctx.set('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
    ctx.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
    ctx.set('Access-Control-Max-Age', '86400');
    return;
  }
  const method = (ctx.method === 'HEAD' ? 'GET' : ctx.method) as HttpMethod;
  const endpoint = route.endpoints[method];
  if (!endpoint) {
    ctx.set(SHAPE_HEADER, selected);
    throw methodNotAllowed([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS']);
  }
  const shape = endpointShape(endpoint, selected);
  ctx.set(SHAPE_HEADER, shape);
  checkPathParameters(params);
  if (endpoint.auth === 'admin' && params.tenant_name !== undefined) {
    // A write names a tenant: an invalid name is refused before the lookup (docs/rest.md#input-rules).
    const problem = tenantNameProblem(params.tenant_name);
    if (problem !== null) {
      throw badRequest(problem);
    }
  }
  const response = endpoint.responses[shape];
  if (!response) {
    throw new RestError(500, 'InternalError', 'Unexpected error.');
  }
  const serverContext = options.serverContext(ctx);
  // Unexpected GraphQL errors answer 500 `Unexpected error.`; the original goes to the log.
  const run = boundRunner(options.run, serverContext, (err) => ctx.app.emit('error', err, ctx));

  // Order as in the reference (docs/rest.md#request-order-and-bodies): tenant, then auth, then query and body.
  if (options.requestAuth !== undefined) {
    const auth = await checkAuth(ctx, endpoint, params, run, options.requestAuth);
    // The operations reuse it instead of authenticating the header again.
    serverContext.requestAuth = auth;
  } else if (endpoint.auth === 'token' || endpoint.auth === 'admin') {
    if (params.tenant_name !== undefined) {
      await requireTenant(run, params.tenant_name);
    }
    requireBearerHeader(ctx, options.defaultRealm?.() ?? null);
  }
  const query = parseQuery(new URLSearchParams(ctx.querystring), endpoint.query?.[shape] ?? {});
  const body = await readJsonBody(ctx, endpoint.body);
  const result = await endpoint.handler({
    method,
    params,
    query,
    body,
    shape,
    headers: ctx.headers,
    run,
    serialized: (key, build) => serialized.get(key, build),
  });

  ctx.status = result.status ?? response.status;
  for (const [key, value] of Object.entries({ ...endpoint.headers, ...result.headers })) {
    ctx.set(key, value);
  }
  if (ctx.status === 204) {
    ctx.body = null;
    return;
  }
  const contentType = response.contentType ?? 'application/json';
  const redactor = options.redactor?.();
  if (result.body instanceof SerializedJson) {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = result.body.text;
  } else if (contentType === 'application/json') {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(redactor?.redactJson(result.body) ?? result.body);
  } else {
    ctx.type = `${contentType}; charset=utf-8`;
    ctx.body = redactor?.redact(String(result.body)) ?? String(result.body);
  }
}

/** The requested shape when the endpoint has it; otherwise the one shape it exists in (docs/rest.md#the-shape-rule). */
function endpointShape(endpoint: RestEndpoint, selected: RestShape): RestShape {
  if (endpoint.responses[selected]) {
    return selected;
  }
  return endpoint.responses.current ? 'current' : 'earlier';
}

function boundRunner(
  run: OperationRunner,
  serverContext: Record<string, unknown>,
  logInternal: (err: unknown) => void,
): BoundOperationRunner {
  return async (document, variables) => {
    const result = await run(document, variables, serverContext);
    if (result.errors?.some((error) => isConnectionError(error.originalError))) {
      throw databaseUnavailable();
    }
    if (result.errors && result.errors.length > 0 && result.data === undefined && !result.errors[0].extensions?.code) {
      // A request error: the variables did not coerce (an Int out of range, a wrong type). REST
      // checks its parameters first, so this is a backstop with GraphQL's wording.
      throw badRequest(result.errors[0].message);
    }
    if (result.errors && result.errors.length > 0) {
      const [first] = result.errors;
      const restError = restErrorFromGraphQL(first);
      if (restError.status === 500) {
        logInternal(first.originalError ?? first);
      }
      throw restError;
    }
    if (!result.data) {
      throw new RestError(500, 'InternalError', 'The operation returned no data');
    }
    return result.data;
  };
}

/**
 * 404 for an unknown tenant, then the endpoint's gate on its tenant (`*` for root endpoints);
 * resolves with how the request authenticated (undefined for endpoints that never check).
 */
async function checkAuth(
  ctx: Koa.Context,
  endpoint: RestEndpoint,
  params: Record<string, string>,
  run: BoundOperationRunner,
  requestAuth: (ctx: Koa.Context) => Promise<RequestAuth>,
): Promise<RequestAuth | undefined> {
  if (endpoint.auth === 'none') {
    return undefined;
  }
  const auth = await requestAuth(ctx);
  const tenant = params.tenant_name ?? ROOT_SCOPE;
  // `*` is the root's scope, never a tenant: `tenant/*/...` is looked up like any unknown name.
  if (!auth.knowsTenant(tenant) || params.tenant_name === ROOT_SCOPE) {
    await requireTenant(run, tenant);
    throw notFound('Tenant not found');
  }
  const result = auth.check(endpoint.auth, tenant);
  if (!result.allowed) {
    throw new RestDeniedError(deniedResponse(result));
  }
  return auth;
}

async function requireTenant(run: BoundOperationRunner, tenant: string): Promise<void> {
  const data = await run(RestTenantExistsDocument, { tenant });
  if (data.tenant?.__typename === 'NotFoundError') {
    throw notFound(data.tenant.errorMessage);
  }
}

/** Path parameters are strings of outside input too (docs/rest.md#input-rules). */
function checkPathParameters(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    const problem = stringProblem(value);
    if (problem !== null) {
      throw badRequest(`Path parameter ${name} ${problem}`);
    }
  }
}

/** The REST layer's own part of auth: a bearer header must be present; the schema checks the token. */
function requireBearerHeader(ctx: Koa.Context, realm: string | null): void {
  const header = ctx.get('Authorization');
  if (header === '') {
    throw new RestAuthError('MissingAuthError', 'Missing "Authorization" header', realm);
  }
  if (!/^bearer /i.test(header)) {
    throw new RestAuthError('InvalidAuthFormat', '"Authorization" header must start with "Bearer"', realm);
  }
}

function compileRoute(route: RestRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split(/(\{[a-z_]+(?::\.\*)?\})/i)
    .map((part) => {
      const param = /^\{([a-z_]+)(:\.\*)?\}$/i.exec(part);
      if (!param) {
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      names.push(param[1]);
      return param[2] ? '(.+)' : '([^/]+)';
    })
    .join('');
  return { route, regex: new RegExp(`^${source}$`), names };
}

function findRoute(
  routes: CompiledRoute[],
  subPath: string,
): { route: RestRoute; params: Record<string, string> } | undefined {
  for (const { route, regex, names } of routes) {
    const m = regex.exec(subPath);
    if (m) {
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = decodePathSegment(m[i + 1]);
      });
      return { route, params };
    }
  }
  return undefined;
}

/** Decodes `%XX` except `%2F`, which stays literal as in the reference (docs/rest.md#paths-and-parameters). */
function decodePathSegment(value: string): string {
  return value.replace(/(%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run).replace(/\//g, '%2F');
    } catch {
      return run;
    }
  });
}

/** Map a GraphQL error to a REST error by its `extensions.code` (auth errors keep their names). */
export function restErrorFromGraphQL(
  error: GraphQLError | { message: string; extensions?: Record<string, unknown> },
): RestError {
  const extensions = error.extensions ?? {};
  const code = typeof extensions.code === 'string' ? extensions.code : '';
  const denied = deniedFromExtensions(error.message, extensions);
  if (denied !== null) {
    return new RestDeniedError(denied);
  }
  if (code === 'RATE_LIMITED') {
    const retryAfter = typeof extensions.retryAfter === 'number' ? String(extensions.retryAfter) : '60';
    return new RestError(429, 'TooManyRequests', error.message, { 'Retry-After': retryAfter });
  }
  if (code === 'UNAUTHENTICATED') {
    const name = typeof extensions.authError === 'string' ? extensions.authError : 'AuthTokenUnauthorizedException';
    const realm = typeof extensions.realm === 'string' ? extensions.realm : null;
    return new RestAuthError(name, error.message, realm);
  }
  const status: Record<string, [number, string]> = {
    NOT_FOUND: [404, 'NotFound'],
    BAD_USER_INPUT: [400, 'BadRequest'],
    FORBIDDEN: [403, 'Forbidden'],
    CONFLICT: [409, 'Conflict'],
  };
  const [httpStatus, name] = status[code] ?? [500, 'InternalError'];
  return new RestError(httpStatus, name, httpStatus === 500 ? 'Unexpected error.' : error.message);
}

/** The security core's refusal carried by a GraphQL error (UNAUTHENTICATED with `auth`, or FORBIDDEN). */
function deniedFromExtensions(message: string, extensions: Record<string, unknown>): DeniedResponse | null {
  if (extensions.code === 'FORBIDDEN') {
    return deniedResponse({ allowed: false, status: 403 });
  }
  const auth = extensions.auth;
  if (extensions.code !== 'UNAUTHENTICATED' || typeof auth !== 'object' || auth === null) {
    return null;
  }
  const http = extensions.http as { headers?: Record<string, string> } | undefined;
  const body = auth as DeniedResponse['body'];
  return {
    status: 401,
    message,
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers: http?.headers ?? {} } },
    headers: http?.headers ?? {},
    body,
  };
}

function internalError(ctx: Koa.Context, err: unknown): RestError {
  if (isConnectionError(err)) {
    return databaseUnavailable();
  }
  ctx.app.emit('error', err, ctx);
  return new RestError(500, 'InternalError', 'Unexpected error.');
}
