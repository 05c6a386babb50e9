/**
 * Generic HTTP handling for the REST route table: path matching (greedy segments, repeated
 * slashes), CORS and preflight, method checks, shape selection, JSON errors. Route handlers
 * only map requests to GraphQL operations and results to the wire shapes.
 */
import type Koa from 'koa';
import type { GraphQLError } from 'graphql';
import { RestError, methodNotAllowed, notFound } from './errors';
import type { OperationRunner } from './operation-runner';
import type { BoundOperationRunner, HttpMethod, RestRoute } from './route';
import { SHAPE_HEADER, isRestShape, type RestShape } from './shape';

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
}

/** Koa middleware serving every route of the table below `/api`. */
export function restRouter(options: RestRouterOptions): Koa.Middleware {
  const compiled = options.routes.map(compileRoute);
  return async (ctx, next) => {
    if (ctx.path !== '/api' && !ctx.path.startsWith('/api/')) {
      return next();
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    const requested = headerValue(ctx.get(SHAPE_HEADER));
    try {
      if (requested !== '' && !isRestShape(requested)) {
        throw new RestError(400, 'BadRequest', `${SHAPE_HEADER} must be "current" or "earlier"`);
      }
      const subPath = ctx.path.replace(/\/{2,}/g, '/').replace(/^\/api\/?/, '').replace(/\/$/, '');
      const match = findRoute(compiled, subPath);
      if (!match) {
        throw notFound(`No API endpoint at ${ctx.path}`);
      }
      const { route, params } = match;
      const shape = route.shapes && !route.shapes.includes(requested || options.defaultShape) ? 'current' : (requested || options.defaultShape) as RestShape;
      ctx.set(SHAPE_HEADER, shape);
      const methods = Object.keys(route.handlers) as HttpMethod[];
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        ctx.set('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
        ctx.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
        ctx.set('Access-Control-Max-Age', '86400');
        return;
      }
      const method = (ctx.method === 'HEAD' ? 'GET' : ctx.method) as HttpMethod;
      const handler = route.handlers[method];
      if (!handler) {
        throw methodNotAllowed([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS']);
      }
      const serverContext = options.serverContext(ctx);
      const run: BoundOperationRunner = async (document, variables) => {
        const result = await options.run(document, variables, serverContext);
        if (result.errors && result.errors.length > 0) {
          throw restErrorFromGraphQL(result.errors[0]);
        }
        if (!result.data) {
          throw new RestError(500, 'InternalError', 'The operation returned no data');
        }
        return result.data;
      };
      const response = await handler({
        method,
        params,
        query: new URLSearchParams(ctx.querystring),
        shape,
        headers: ctx.headers,
        run,
      });
      ctx.status = response.status ?? 200;
      for (const [key, value] of Object.entries(response.headers ?? {})) {
        ctx.set(key, value);
      }
      if (response.contentType && response.contentType !== 'application/json') {
        ctx.type = response.contentType;
        ctx.body = response.body;
      } else if (ctx.status !== 204) {
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = JSON.stringify(response.body);
      }
    } catch (err) {
      const restError = err instanceof RestError ? err : internalError(ctx, err);
      ctx.status = restError.status;
      for (const [key, value] of Object.entries(restError.headers)) {
        ctx.set(key, value);
      }
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify(restError.body());
    }
  };
}

function headerValue(value: string): string {
  return value.trim().toLowerCase();
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

function findRoute(routes: CompiledRoute[], subPath: string): { route: RestRoute; params: Record<string, string> } | undefined {
  for (const { route, regex, names } of routes) {
    const m = regex.exec(subPath);
    if (m) {
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = m[i + 1];
      });
      return { route, params };
    }
  }
  return undefined;
}

/** Map a GraphQL error to a REST error by its `extensions.code`. */
export function restErrorFromGraphQL(error: GraphQLError | { message: string; extensions?: Record<string, unknown> }): RestError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : '';
  const status: Record<string, [number, string]> = {
    NOT_FOUND: [404, 'NotFound'],
    BAD_USER_INPUT: [400, 'BadRequest'],
    UNAUTHENTICATED: [401, 'Unauthorized'],
    FORBIDDEN: [403, 'Forbidden'],
    CONFLICT: [409, 'Conflict'],
  };
  const [httpStatus, name] = status[code] ?? [500, 'InternalError'];
  return new RestError(httpStatus, name, httpStatus === 500 ? 'Unexpected error.' : error.message);
}

function internalError(ctx: Koa.Context, err: unknown): RestError {
  ctx.app.emit('error', err, ctx);
  return new RestError(500, 'InternalError', 'Unexpected error.');
}
