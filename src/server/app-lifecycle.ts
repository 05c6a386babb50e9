/**
 * The start and stop sequences of one process. Start: authenticators ready, migrations, layouts,
 * component record, live feeds, bus, roles; then the caller attaches WebSockets and listens.
 * Stop: refuse new work, complete subscriptions, drain requests, stop background work, close the
 * bus and the database.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { migrateLatest } from '../store/migrate';
import { reconcileProjectNames } from '../store/repositories/project-names';
import type { BackgroundTask } from './app-options';
import type { AppServices } from './app-services';
import type { ApiComponentHeartbeat } from './component-heartbeat';
import type { Readiness } from './health';
import { waitForDrain, type InFlightRequests } from './request-context';
import type { WebSockets } from './websockets';

/** What the sequences act on; `webSockets` is set once they are attached. */
export interface AppRuntime {
  app: AppServices;
  readiness: Readiness;
  heartbeat: ApiComponentHeartbeat;
  tasks: BackgroundTask[];
  httpServer: http.Server;
  inFlight: InFlightRequests;
  webSockets?: WebSockets;
}

/** Everything that must run before the process accepts connections. */
export async function startServices(runtime: AppRuntime): Promise<void> {
  const { app, readiness, tasks } = runtime;
  const { database, layoutManager, logger } = app;
  await app.auth.ready; // a missing authenticator key file fails the start, not the first request
  const applied = await migrateLatest(database.knex);
  if (applied.length > 0) {
    logger.info({ migrations: applied, database: database.describe }, 'migrations applied');
  }
  readiness.migrated = true;
  if (layoutManager) {
    // Layouts load before listening so the first request already sees every tenant.
    await layoutManager.start();
    tasks.push({ name: 'layout-manager', stop: () => layoutManager.stop() });
    // History rows migrated before their host names were known (docs/gating.md#project-names-in-history).
    const projects = layoutManager
      .tenantNames()
      .flatMap((tenant) => [...(layoutManager.layout(tenant)?.projects.values() ?? [])]);
    const renamed = await reconcileProjectNames(database.knex, projects);
    if (renamed > 0) {
      logger.info({ rows: renamed }, 'short project names of build history corrected from the configuration');
    }
  }
  await runtime.heartbeat.start();
  for (const tenant of app.tenants.tenantNames()) {
    app.live.watch(tenant); // resumable feeds: buffer deltas even before anyone subscribes
  }
  await app.bus.ready();
  if (app.roles) {
    tasks.push(...(await app.roles.start()));
  }
}

export function listen(httpServer: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise<AddressInfo>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => {
      httpServer.off('error', reject);
      resolve(httpServer.address() as AddressInfo);
    });
  });
}

/** The address `host` and `port` name, as `httpServer.address()` would report it. */
export function addressOf(host: string, port: number): AddressInfo {
  return { address: host, port, family: host.includes(':') ? 'IPv6' : 'IPv4' };
}

/** The URL clients on this host reach a bound address at (wildcard addresses become loopback). */
export function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}

/** Graceful shutdown within the configured `shutdownTimeout`. */
export async function shutdown(runtime: AppRuntime): Promise<void> {
  const { app, readiness, httpServer } = runtime;
  const { logger, database } = app;
  readiness.shuttingDown = true;
  const deadline = Date.now() + app.config.shutdownTimeout * 1000;
  logger.info('shutting down');
  const closed = new Promise<void>((resolve) => {
    if (!httpServer.listening) {
      resolve();
      return;
    }
    httpServer.close(() => resolve());
  });
  httpServer.closeIdleConnections();
  app.live.close(); // completes every subscription before the sockets close
  await runtime.webSockets?.close();
  await waitForDrain(runtime.inFlight, deadline);
  httpServer.closeAllConnections();
  await closed;
  runtime.heartbeat.stopBeating();
  for (const task of runtime.tasks.reverse()) {
    await task.stop().catch((err: unknown) => logger.error({ err, task: task.name }, 'background task failed to stop'));
  }
  await app.bus.close().catch((err: unknown) => logger.warn({ err }, 'event bus failed to close'));
  if (readiness.migrated) {
    await runtime.heartbeat.markStopped();
  }
  await database.close();
  logger.info('stopped');
}
