/**
 * HTTP side of the metrics (docs/operations.md#metrics): the latency of every request by
 * method, route and status, and `GET /metrics` in the Prometheus text format. Routes are the
 * REST route table's patterns (set by rest-compat's router) or fixed names, never raw paths, so
 * the number of series stays bounded.
 */
import type Koa from 'koa';
import type { SluiceMetrics } from './sluice-metrics';

export const METRICS_PATH = '/metrics';

/** The route label of a request once it was answered. */
export function routeLabel(ctx: Koa.Context): string {
  const matched = (ctx.state as { route?: unknown }).route;
  if (typeof matched === 'string') {
    return matched;
  }
  const { path } = ctx;
  if (path === '/graphql' || path === METRICS_PATH || path === '/health/live' || path === '/health/ready') {
    return path;
  }
  if (path === '/api' || path.startsWith('/api/')) {
    return '/api (no route)';
  }
  if (path.startsWith('/logs/')) {
    return '/logs';
  }
  if (path.startsWith('/graphiql')) {
    return '/graphiql';
  }
  return 'web';
}

/** Times every request (first in the chain, so errors and every route count). */
export function httpMetrics(metrics: SluiceMetrics): Koa.Middleware {
  return async (ctx, next) => {
    const stop = metrics.httpDuration.startTimer();
    try {
      await next();
    } catch (err) {
      // Koa answers a thrown error after this middleware: record the status it will send.
      const status = (err as { status?: unknown }).status;
      stop({ method: ctx.method, route: routeLabel(ctx), status: String(typeof status === 'number' ? status : 500) });
      throw err;
    }
    stop({ method: ctx.method, route: routeLabel(ctx), status: String(ctx.status) });
  };
}

/** `GET /metrics`; with metrics disabled the path answers 404 (and is not taken by the dashboard). */
export function metricsRoute(metrics: SluiceMetrics, enabled: boolean): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH) {
      return next();
    }
    if (!enabled || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      ctx.status = enabled ? 405 : 404;
      if (enabled) {
        ctx.set('Allow', 'GET, HEAD');
      }
      ctx.type = 'text/plain';
      ctx.body = enabled ? 'Method Not Allowed\n' : 'Not Found\n';
      return;
    }
    const { contentType, body } = await metrics.scrape();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  };
}
