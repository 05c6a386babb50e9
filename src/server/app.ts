/**
 * Assembles the Sluice service: Koa with GraphQL (HTTP and WebSocket on `/graphql`), the REST
 * compatibility layer on `/api`, health endpoints, request ids, access logs and graceful
 * shutdown. `buildApp()` returns an unstarted server so tests can boot it on port 0.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { LayoutManager } from '../config/layout-manager';
import type { Database } from '../store/database';
import type { Services } from '../../schema/infra/context';
import type { EventBus } from '../../subscriptions/bus/event-bus';
import type { LiveHub } from '../../subscriptions/live/live-hub';
import { addressOf, checkListenable, listen, shutdown, startServices, urlOf, type AppRuntime } from './app-lifecycle';
import type { AppOptions, BackgroundTask } from './app-options';
import { assembleServices } from './app-services';
import { ComponentHeartbeat } from './component-heartbeat';
import { createHttpApp } from './http-app';
import { registerRuntimeGauges } from './metrics/runtime-gauges';
import type { Logger } from './logger';
import type { ServiceRoles } from './roles';
import { attachWebSockets, sendLimitsOf } from './websockets';
import { buildYoga, type SluiceYoga } from './yoga';

/** How long an idle keep-alive connection stays open: longer than clients keep theirs (see below). */
const KEEP_ALIVE_MS = 65_000;

export type { AppOptions, BackgroundTask } from './app-options';
export { databaseFor } from './app-services';

export interface SluiceApp {
  koa: Koa;
  httpServer: http.Server;
  yoga: SluiceYoga;
  services: Services;
  bus: EventBus;
  live: LiveHub;
  database: Database;
  logger: Logger;
  /** Loads and reloads tenant layouts; undefined when `options.tenants` was given or no tenant file is configured. */
  layoutManager: LayoutManager | undefined;
  /** The engine, executor and pollers this process runs; undefined when `options.engine` was given or there is no tenant file. */
  roles: ServiceRoles | undefined;
  /** Run migrations, start background work and listen; resolves with the bound address. */
  start(port?: number, host?: string): Promise<AddressInfo>;
  /**
   * Graceful shutdown within `shutdownTimeout`: stop accepting, finish in-flight requests, close
   * sockets and the database. Resolves true when every step finished in time (docs/operations.md#shutdown).
   */
  stop(): Promise<boolean>;
  addBackgroundTask(task: BackgroundTask): void;
  url(): string;
}

export function buildApp(options: AppOptions): SluiceApp {
  const app = assembleServices(options);
  const { config, logger, database } = app;
  const yoga = buildYoga(app.services, logger);
  const readiness = { migrated: false, shuttingDown: false };
  const { roles } = app;
  // Health names the tenants only of a process running schedulers; metrics count only a running executor's slots.
  const leadership = roles && app.runs.has('scheduler') ? () => roles.engine.leadership() : undefined;
  const { koa, inFlight } = createHttpApp({
    ...app,
    readiness,
    yoga,
    sendLimits: sendLimitsOf(app, options.webSocket, 'Server-sent events'),
    leadership,
    executorTools: roles && app.runs.has('executor') ? () => roles.executor.toolchain.current() : undefined,
    api: app.runs.has('api'),
    onConnectionEvent: () => roles?.connectionEvents.wake(),
  });
  const httpServer = http.createServer(koa.callback());
  // Node closes an idle keep-alive socket after 5 s, about when clients (undici: 4 s) still reuse
  // it: a request sent as the server closes gets ECONNRESET (seen under load). Idle sockets are
  // kept longer than clients and proxies keep theirs; shutdown closes them at once anyway.
  httpServer.keepAliveTimeout = KEEP_ALIVE_MS;
  httpServer.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const heartbeat = new ComponentHeartbeat(
    database,
    app.now,
    logger,
    options.heartbeatInterval ?? config.components.heartbeatInterval * 1000,
    app.roles?.components ?? [],
    app.runs.has('api'),
  );
  const runtime: AppRuntime = {
    app,
    readiness,
    heartbeat,
    tasks: [],
    httpServer,
    inFlight,
    timers: options.timers,
  };
  registerRuntimeGauges(app.metrics, {
    knex: database.knex,
    now: app.now,
    tenants: () => app.tenants.tenantNames(),
    componentExpiryMs: config.components.expiry * 1000,
    subscribers: () => app.live.stats(),
    executor: app.runs.has('executor') ? app.roles?.executor.worker : undefined,
    webSockets: () => runtime.webSockets?.connections(),
  });
  let address: AddressInfo | undefined;
  let stopping: Promise<boolean> | undefined;

  const url = (): string => {
    if (!address) {
      throw new Error('server is not listening');
    }
    return urlOf(address);
  };
  return {
    koa,
    httpServer,
    yoga,
    services: app.services,
    bus: app.bus,
    live: app.live,
    database,
    logger,
    layoutManager: app.layoutManager,
    roles: app.roles,
    addBackgroundTask: (task) => {
      runtime.tasks.push(task);
    },
    url,
    start: async (port = config.listen.port, host = config.listen.host) => {
      // Builds may start before the listener is up; their log URLs need the address already.
      app.listening.url = port === 0 ? undefined : urlOf(addressOf(host, port));
      await checkListenable(port, host);
      await startServices(runtime);
      if (app.runs.has('api')) {
        runtime.webSockets = attachWebSockets(httpServer, yoga, app, options.webSocket);
      }
      address = await listen(httpServer, port, host);
      app.listening.url = url();
      logger.info({ address: url(), database: database.describe }, 'sluice listening');
      return address;
    },
    stop: () => {
      stopping ??= shutdown(runtime);
      return stopping;
    },
  };
}
