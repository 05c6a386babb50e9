/**
 * Assembles the Sluice service: Koa with GraphQL (HTTP and WebSocket on `/graphql`), the REST
 * compatibility layer on `/api`, health endpoints, request ids, access logs and graceful
 * shutdown. `buildApp()` returns an unstarted server so tests can boot it on port 0.
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { ServiceConfig } from '../config/service';
import { SLUICE_VERSION } from '../model/version';
import { openDatabase, type Database } from '../store/database';
import { migrateLatest } from '../store/migrate';
import { ComponentRepository } from '../store/repositories/components';
import type { Services, TenantCatalog } from '../../schema/context';
import type { TokenAuthenticator } from '../auth/authenticator';
import type { AccessPolicySource } from '../auth/gate';
import { defaultRealm } from '../auth/capabilities';
import { requestAuthFromHeader } from '../auth/gate';
import { assembleAuthServices, lazyKeyManager } from './auth-services';
import type { KeySizes } from '../auth/keys/key-manager';
import { parseAndValidateForSubscription, webSocketMaxPayload } from './graphql-hardening';
import type { ConsoleSource } from '../../schema/console-log';
import type { Engine } from '../engine/engine';
import { EngineStateRepository } from '../store/repositories/engine-state';
import { SystemEventRepository } from '../store/repositories/system-events';
import { createEventBus } from '../../subscriptions/bus';
import type { EventBus } from '../../subscriptions/bus/event-bus';
import { LiveHub, type LiveHubOptions } from '../../subscriptions/live/live-hub';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { attachConsoleStream, type ConsoleStreamServer } from '../../subscriptions/console-websocket';
import { LayoutManager } from '../config/layout-manager';
import { REST_ROUTES } from '../../rest-compat';
import { createOperationRunner } from '../../rest-compat/operation-runner';
import { restRouter } from '../../rest-compat/router';
import {
  attachGraphQLWebSocket,
  type GraphQLWebSocketServer,
  type WebSocketLimits,
} from '../../subscriptions/ws-server';
import { buildYoga, type SluiceYoga } from './yoga';
import { createLogger, type Logger } from './logger';
import { healthRoutes, type Readiness } from './health';
import { requestContext } from './request-context';
import { logFiles, logsMountPath } from './log-files';
import { createServiceRoles, type ServiceRoles } from './roles';
import { NO_REDACTION } from './secret-redaction';
import { ChangeSignal } from '../auth/change-signal';
import type { Redactor } from '../auth/redact';
import { consoleStreamAuthorizer } from './console-auth';
import { webRoutes } from './web';

export interface AppOptions {
  config: ServiceConfig;
  /** An already-open database (tests); otherwise one is opened from the configuration. */
  database?: Database;
  logger?: Logger;
  now?: () => Date;
  /** Heartbeat period of this process's component record, in ms. */
  heartbeatInterval?: number;
  /** Which tenants exist (tests); by default a LayoutManager loads the tenant file, if one is configured. */
  tenants?: TenantCatalog;
  /** The event bus (owned and closed by the app); defaults to `createEventBus(config)`. */
  bus?: EventBus;
  /** Where `consoleLog` finds build output (the executor's console resolver); defaults to this process's executor. */
  console?: ConsoleSource;
  /**
   * The gating engine, publishing its deltas to `engineEventBusOver(bus)`. When absent and a
   * tenant file is loaded, the app runs its own engine, executor worker and git pollers (roles.ts).
   */
  engine?: Engine;
  /** Environment passed (allow-listed) to job steps of the built-in executor; defaults to `process.env`. */
  environment?: Record<string, string | undefined>;
  /** Token verification; defaults to the authenticators of `config.auth`. */
  authenticator?: TokenAuthenticator;
  /** Access policies; default: the tenant file's rules (a reloading layout manager passes its own). */
  policies?: () => AccessPolicySource;
  /** Live fan-out tuning (status coalescing interval, replay and per-subscriber buffers). */
  live?: Partial<LiveHubOptions>;
  /** graphql-ws limits (keep-alive, init timeout, operations per connection, message size). */
  webSocket?: Partial<WebSocketLimits>;
  /** RSA sizes of keys created by this process (tests; default: the reference's sizes). */
  keySizes?: Partial<KeySizes>;
}

/** Background work that must stop on shutdown. */
export interface BackgroundTask {
  name: string;
  stop(): Promise<void>;
}

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
  /** Graceful shutdown: stop accepting, finish in-flight requests, close sockets and the database. */
  stop(): Promise<void>;
  addBackgroundTask(task: BackgroundTask): void;
  url(): string;
}

const NO_TENANTS: TenantCatalog = { tenantNames: () => [], layout: () => undefined };

export function databaseFor(config: ServiceConfig): Database {
  return config.database.url
    ? openDatabase({ kind: 'postgres', url: config.database.url })
    : openDatabase({ kind: 'pglite', dataDir: `${config.dataDir}/pgdata` });
}

export function buildApp(options: AppOptions): SluiceApp {
  const { config } = options;
  const logger = options.logger ?? createLogger();
  const database = options.database ?? databaseFor(config);
  const now = options.now ?? (() => new Date());
  // One key manager for the key endpoints, secret decryption at layout load and the executor.
  const keys = lazyKeyManager(config, database.knex, logger, options.keySizes);
  const layoutManager =
    options.tenants === undefined && config.tenantConfig !== undefined
      ? new LayoutManager({ config, knex: database.knex, logger, now, secretKeys: keys })
      : undefined;
  const tenants: TenantCatalog = options.tenants ?? layoutManager ?? NO_TENANTS;
  const bus = options.bus ?? createEventBus(config);
  const engineState = new EngineStateRepository(database.knex);
  const roles =
    layoutManager && options.engine === undefined
      ? createServiceRoles({
          config,
          database,
          layoutManager,
          engineBus: engineEventBusOver(bus, (err, delta) =>
            logger.warn({ err, tenant: delta.tenant }, 'engine delta not published'),
          ),
          logger,
          now,
          environment: options.environment ?? process.env,
          secretKeys: keys,
        })
      : undefined;
  // Open subscriptions re-check read access whenever a reconfiguration loads new rules.
  const policyChanges = new ChangeSignal();
  layoutManager?.onLayout(() => policyChanges.fire());
  const live = new LiveHub(
    bus,
    {
      committedSequence: async (tenant) => (await engineState.loadTenant(tenant)).busSequence,
      systemEvents: new SystemEventRepository(database.knex),
    },
    options.live,
    Date.now,
    (err) => logger.warn({ err }, 'reading system events for live subscribers failed'),
  );
  const auth = assembleAuthServices({
    config,
    knex: database.knex,
    tenants,
    logger,
    now,
    authenticator: options.authenticator,
    abide: () => layoutManager?.abide(),
    policies: options.policies,
    keys,
    policyChanges,
  });
  // Masks the decrypted values of every loaded tenant's secrets in whatever leaves the process.
  const secretRedactor = (): Redactor => layoutManager?.secretRedactor() ?? NO_REDACTION;
  const services: Services = {
    config,
    knex: database.knex,
    tenants,
    version: SLUICE_VERSION,
    now,
    engine: options.engine ?? roles?.engine ?? null,
    live,
    auth: auth.services,
    console: options.console ?? roles?.executor.resolveConsole ?? null,
    secretRedactor,
  };
  const yoga = buildYoga(services, logger);
  const readiness: Readiness = { migrated: false, shuttingDown: false };
  const tasks: BackgroundTask[] = [];
  const componentId = randomUUID();
  const components = new ComponentRepository(database.knex);

  const koa = new Koa({ proxy: false });
  koa.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') {
      return; // a client went away mid-response
    }
    logger.error({ err }, 'unhandled request error');
  });
  const inFlight = { count: 0, drained: new Set<() => void>() };
  koa.use(requestContext(logger, inFlight));
  koa.use(healthRoutes(database, readiness));
  const logsMount = logsMountPath(config);
  if (logsMount !== null && config.logs.dir !== undefined) {
    koa.use(logFiles({ dir: config.logs.dir, mountPath: logsMount }));
  }
  koa.use(async (ctx, next) => {
    if (ctx.path !== yoga.graphqlEndpoint) {
      return next();
    }
    const response = await yoga.handleNodeRequestAndResponse(ctx.request, ctx.res, {
      koa: ctx,
      requestId: ctx.state.requestId,
    });
    ctx.status = response.status;
    response.headers.forEach((value, key) => {
      ctx.append(key, value);
    });
    ctx.body = response.body;
  });
  koa.use(
    restRouter({
      routes: REST_ROUTES,
      run: createOperationRunner(yoga),
      defaultShape: config.api.restShape,
      serverContext: (ctx) => ({ koa: ctx, requestId: ctx.state.requestId }),
      defaultRealm: () => defaultRealm(config.auth, services.auth.policies().rootPolicy().authenticationRealm),
      requestAuth: async (ctx) =>
        requestAuthFromHeader(await services.auth.authenticator(), ctx.get('authorization'), services.auth.policies()),
      redactor: secretRedactor,
    }),
  );
  webRoutes(config).forEach((route) => koa.use(route)); // GraphiQL assets, web.sites, the dashboard at /

  const httpServer = http.createServer(koa.callback());
  let ws: GraphQLWebSocketServer | undefined;
  let consoleStream: ConsoleStreamServer | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let address: AddressInfo | undefined;
  let stopping: Promise<void> | undefined;

  const app: SluiceApp = {
    koa,
    httpServer,
    yoga,
    services,
    bus,
    live,
    database,
    logger,
    layoutManager,
    roles,
    addBackgroundTask: (task) => {
      tasks.push(task);
    },
    url: () => {
      if (!address) {
        throw new Error('server is not listening');
      }
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
    },
    start: async (port = config.listen.port, host = config.listen.host) => {
      await auth.ready; // a missing authenticator key file fails the start, not the first request
      const applied = await migrateLatest(database.knex);
      if (applied.length > 0) {
        logger.info({ migrations: applied, database: database.describe }, 'migrations applied');
      }
      readiness.migrated = true;
      if (layoutManager) {
        // Layouts load before listening so the first request already sees every tenant.
        await layoutManager.start();
        tasks.push({ name: 'layout-manager', stop: () => layoutManager.stop() });
      }
      const started = now();
      await components.register({
        id: componentId,
        kind: 'api',
        hostname: os.hostname(),
        pid: process.pid,
        state: 'running',
        version: SLUICE_VERSION,
        started,
        heartbeat: started,
      });
      heartbeat = setInterval(() => {
        components
          .heartbeat(componentId, now())
          .catch((err: unknown) => logger.warn({ err }, 'component heartbeat failed'));
      }, options.heartbeatInterval ?? 30_000);
      heartbeat.unref();
      for (const tenant of tenants.tenantNames()) {
        live.watch(tenant); // resumable feeds: buffer deltas even before anyone subscribes
      }
      await bus.ready();
      if (roles) {
        tasks.push(...(await roles.start()));
      }
      ws = attachGraphQLWebSocket(
        httpServer,
        yoga,
        yoga.graphqlEndpoint,
        { maxPayloadBytes: webSocketMaxPayload(config.graphql), ...options.webSocket },
        (env, query) => parseAndValidateForSubscription(env, query, config.graphql),
      );
      if (roles) {
        consoleStream = attachConsoleStream(httpServer, {
          resolveBuild: roles.executor.resolveConsole,
          authorize: consoleStreamAuthorizer(services.auth),
          accessChanges:
            auth.services.policyChanges === undefined
              ? undefined
              : () => auth.services.policyChanges?.next() ?? Promise.resolve(),
          redact: () => secretRedactor().redact,
        });
      }
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      address = httpServer.address() as AddressInfo;
      logger.info({ address: app.url(), database: database.describe }, 'sluice listening');
      return address;
    },
    stop: () => {
      stopping ??= shutdown();
      return stopping;
    },
  };

  async function shutdown(): Promise<void> {
    readiness.shuttingDown = true;
    const deadline = Date.now() + config.shutdownTimeout * 1000;
    logger.info('shutting down');
    const closed = new Promise<void>((resolve) => {
      if (!httpServer.listening) {
        resolve();
        return;
      }
      httpServer.close(() => resolve());
    });
    httpServer.closeIdleConnections();
    live.close(); // completes every subscription before the sockets close
    await ws?.close();
    await consoleStream?.close();
    await waitForDrain(inFlight, deadline);
    httpServer.closeAllConnections();
    await closed;
    if (heartbeat) {
      clearInterval(heartbeat);
    }
    for (const task of tasks.reverse()) {
      await task
        .stop()
        .catch((err: unknown) => logger.error({ err, task: task.name }, 'background task failed to stop'));
    }
    await bus.close().catch((err: unknown) => logger.warn({ err }, 'event bus failed to close'));
    if (readiness.migrated) {
      await components.heartbeat(componentId, now(), 'stopped').catch(() => undefined);
    }
    await database.close();
    logger.info('stopped');
  }

  return app;
}

function waitForDrain(inFlight: { count: number; drained: Set<() => void> }, deadline: number): Promise<void> {
  if (inFlight.count === 0) {
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
    function finish(): void {
      clearTimeout(timer);
      inFlight.drained.delete(finish);
      resolve();
    }
    inFlight.drained.add(finish);
  });
}
