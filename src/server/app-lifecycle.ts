/**
 * The start and stop sequences of one process. Start: authenticators ready, migrations, layouts,
 * component record, live feeds, bus, roles; then the caller attaches WebSockets and listens.
 * Stop: refuse new work, complete subscriptions, drain requests, stop background work, close the
 * bus and the database.
 */
import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { TimerClock } from '../engine/ports/clock';
import { migrateLatest } from '../store/migrate';
import { reconcileProjectNames } from '../store/repositories/project-names';
import type { BackgroundTask } from './app-options';
import type { AppServices } from './app-services';
import { EmbeddedVacuum } from './embedded-vacuum';
import { DequeuedItemRetention } from './dequeued-item-retention';
import { EngineEventRetention } from './engine-event-retention';
import type { ComponentHeartbeat } from './component-heartbeat';
import type { Readiness } from './health';
import { waitForDrain, type InFlightRequests } from './request-context';
import type { WebSockets } from './websockets';

/** What the sequences act on; `webSockets` is set once they are attached. */
export interface AppRuntime {
  app: AppServices;
  readiness: Readiness;
  heartbeat: ComponentHeartbeat;
  tasks: BackgroundTask[];
  httpServer: http.Server;
  inFlight: InFlightRequests;
  webSockets?: WebSockets;
  /** The timers of background loops (tests move them on); default: the system clock. */
  timers?: TimerClock;
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
  if (database.kind === 'pglite') {
    // PGlite has no autovacuum (docs/configuration.md#vacuum-of-the-embedded-store).
    const vacuum = new EmbeddedVacuum({ knex: database.knex, logger, timers: runtime.timers });
    vacuum.start();
    tasks.push({ name: 'embedded vacuum', stop: () => vacuum.stop() });
  }
  if (app.runs.has('scheduler')) {
    // Processed engine events are deleted after a day (docs/gating.md#what-is-kept-of-engine-events).
    const retention = new EngineEventRetention({ knex: database.knex, now: app.now, logger, timers: runtime.timers });
    retention.start();
    tasks.push({ name: 'engine event retention', stop: () => retention.stop() });
    // Dequeued items are deleted after 14 days (docs/gating.md#what-is-kept-of-dequeued-items).
    const dequeued = new DequeuedItemRetention({ knex: database.knex, now: app.now, logger, timers: runtime.timers });
    dequeued.start();
    tasks.push({ name: 'dequeued item retention', stop: () => dequeued.stop() });
  }
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
  if (app.runs.has('api')) {
    for (const tenant of app.tenants.tenantNames()) {
      app.live.watch(tenant); // resumable feeds: buffer deltas even before anyone subscribes
    }
  }
  await app.bus.ready();
  if (app.roles) {
    tasks.push(...(await app.roles.start()));
  }
}

/** The listener could not bind its address (in use, or not this host's). */
export class ListenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`cannot listen on ${host}:${port}: ${reason}`);
    this.name = 'ListenError';
  }
}

function listenError(err: NodeJS.ErrnoException, host: string, port: number): ListenError {
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the address is in use by another process (listen.port or PORT chooses another port)',
    EADDRNOTAVAIL: "the address is not one of this host's (listen.host)",
    EACCES: 'permission denied (ports below 1024 need privileges)',
  };
  return new ListenError(host, port, err.code, reasons[err.code ?? ''] ?? err.message);
}

export function listen(httpServer: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise<AddressInfo>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException): void => reject(listenError(err, host, port));
    httpServer.once('error', failed);
    httpServer.listen(port, host, () => {
      httpServer.off('error', failed);
      resolve(httpServer.address() as AddressInfo);
    });
  });
}

/**
 * Bind and release the address before the start does any work, so a process whose port is taken
 * fails at once instead of after migrations and with its roles already running
 * (docs/operations.md#one-process-per-embedded-store). The real bind at the end of the start can
 * still lose a race; it fails the same way.
 */
export async function checkListenable(port: number, host: string): Promise<void> {
  if (port === 0) {
    return;
  }
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, port)));
    probe.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
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

/**
 * Graceful shutdown within the configured `shutdownTimeout` (docs/operations.md#shutdown), in
 * every state of the database: in-flight requests get the first half of it, background work,
 * the bus and the store the rest. A step still running at the deadline is abandoned (logged);
 * the command then exits (src/server/cli.ts). Resolves true when every step finished in time.
 */
export async function shutdown(runtime: AppRuntime): Promise<boolean> {
  const { app, readiness, httpServer } = runtime;
  const { logger, database } = app;
  readiness.shuttingDown = true;
  const started = Date.now();
  const timeoutMs = app.config.shutdownTimeout * 1000;
  const deadline = started + timeoutMs;
  let abandoned: string[] = [];
  const step = async (what: string, work: () => Promise<unknown>): Promise<void> => {
    const finished = await withinDeadline(
      work().catch((err: unknown) => logger.error({ err, step: what }, 'shutdown step failed')),
      deadline,
    );
    if (!finished) {
      abandoned = [...abandoned, what];
    }
  };
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
  await step('websockets', async () => runtime.webSockets?.close());
  await waitForDrain(runtime.inFlight, Math.min(deadline, started + timeoutMs / 2));
  httpServer.closeAllConnections();
  await step('http server', () => closed);
  await step('component heartbeat', () => runtime.heartbeat.stopBeating());
  for (const task of runtime.tasks.reverse()) {
    await step(task.name, () => task.stop(deadline));
  }
  // Deltas of the last passes still on their way: published before the bus closes.
  await step('engine deltas', () => app.engineDeltas.flush());
  await step('event bus', () => app.bus.close());
  if (readiness.migrated) {
    await step('component record', () => runtime.heartbeat.markStopped());
  }
  await step('database', () => database.close());
  if (abandoned.length > 0) {
    logger.error({ abandoned, shutdownTimeout: app.config.shutdownTimeout }, 'shutdown timed out; abandoned the rest');
    return false;
  }
  logger.info('stopped');
  return true;
}

/** Resolves true when `work` settles before `deadline` (epoch ms), false at the deadline; `work` is never awaited past it. */
export function withinDeadline(work: Promise<unknown>, deadline: number): Promise<boolean> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) {
    return Promise.resolve(false);
  }
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), remaining);
    const settled = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    work.then(settled, settled);
  });
}
