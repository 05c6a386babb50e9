/**
 * The Koa application: request context (ids, access log, in-flight count), health, metrics,
 * then, in a process running the `api` role, build logs, GraphQL over HTTP, the REST layer and
 * the browser-facing routes (GraphiQL assets, static sites and the dashboard), in that order.
 */
import Koa from 'koa';
import type { ServiceConfig } from '../config/service';
import type { Redactor } from '../secrets/redact';
import type { Database } from '../store/database';
import type { Services } from '../../schema/infra/context';
import { graphqlRoute } from './graphql-route';
import type { LinkState } from '../store/links';
import { healthRoutes, type HealthSources, type Readiness } from './health';
import { logFiles, logsMountPath } from './log-files';
import { httpMetrics, metricsRoute } from './metrics/http-metrics';
import type { SluiceMetrics } from './metrics/sluice-metrics';
import type { Logger } from './logger';
import { requestContext, type InFlightRequests } from './request-context';
import { connectionWebhooks } from './connection-webhooks';
import { restRoute } from './rest-route';
import { webRoutes } from './web';
import type { SluiceYoga } from './yoga';
import type { SendLimits } from '../../subscriptions/slow-consumer';

export interface HttpAppOptions {
  config: ServiceConfig;
  logger: Logger;
  database: Database;
  readiness: Readiness;
  /** The event bus's links, for `/health/ready`. */
  bus: { links(): LinkState[] };
  /** The tenants whose schedulers run in this process (undefined when it runs none). */
  leadership?: HealthSources['leadership'];
  /** The executor's tools (undefined in a process without the executor role). */
  executorTools?: HealthSources['executorTools'];
  yoga: SluiceYoga;
  /** Limits of GraphQL over server-sent events, the WebSockets' (docs/live.md#slow-consumers). */
  sendLimits: SendLimits;
  services: Services;
  secretRedactor: () => Redactor;
  metrics: SluiceMetrics;
  /**
   * Whether this process runs the `api` role: without it only health and metrics are served
   * (docs/operations.md#roles), every other path answers 404.
   */
  api?: boolean;
  now: () => Date;
  /** A webhook delivery was stored (wakes the processing of connection events). */
  onConnectionEvent?: () => void;
  /** The OIDC discovery and JWKS routes (docs/rest.md#oidc-discovery). */
  oidc?: { routes(): Koa.Middleware };
}

export interface HttpApp {
  koa: Koa;
  inFlight: InFlightRequests;
}

/** What a process without the `api` role answers outside health and metrics. */
const notAnApiProcess: Koa.Middleware = (ctx) => {
  ctx.status = 404;
  ctx.body = { error: 'Not Found', description: 'this Sluice process does not run the api role' };
};

/** Client disconnects mid-response: not errors of the service. */
const CLIENT_WENT_AWAY = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { config, logger, yoga } = options;
  const koa = new Koa({ proxy: false });
  koa.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== undefined && CLIENT_WENT_AWAY.has(err.code)) {
      return;
    }
    logger.error({ err }, 'unhandled request error');
  });
  const inFlight: InFlightRequests = { count: 0, drained: new Set() };
  koa.use(requestContext(logger, inFlight));
  koa.use(httpMetrics(options.metrics));
  koa.use(
    healthRoutes({
      database: options.database,
      readiness: options.readiness,
      links: () => options.bus.links(),
      leadership: options.leadership,
      executorTools: options.executorTools,
    }),
  );
  koa.use(metricsRoute(options.metrics, config.metrics.enabled));
  if (options.api === false) {
    koa.use(notAnApiProcess);
    return { koa, inFlight };
  }
  const logsMount = logsMountPath(config);
  if (logsMount !== null && config.logs.dir !== undefined) {
    koa.use(logFiles({ dir: config.logs.dir, mountPath: logsMount }));
  }
  koa.use(graphqlRoute(yoga, options.sendLimits));
  koa.use(
    connectionWebhooks({
      config,
      database: options.database,
      now: options.now,
      onStored: () => options.onConnectionEvent?.(),
    }),
  );
  if (options.oidc) {
    koa.use(options.oidc.routes());
  }
  koa.use(restRoute({ config, yoga, services: options.services, redactor: options.secretRedactor }));
  webRoutes(config).forEach((route) => koa.use(route)); // GraphiQL assets, web.sites, the dashboard at /
  return { koa, inFlight };
}
