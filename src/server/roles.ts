/**
 * The gating roles of `sluice serve` in one process: the engine over the LayoutManager's
 * layouts, the drivers' runtimes (src/server/driver-runtimes.ts: change sources, merges,
 * reporters, source intake such as git pollers and webhook deliveries), the executor worker
 * claiming `build_requests`, and the node side: the launcher loop for tenants whose layout has
 * providers, the built-in local node gateway for the others. Built next to the API in
 * `buildApp()` when a tenant file is configured; `start()` runs the background work of the roles
 * the process runs (docs/operations.md#roles): the schedulers and the drivers' intake with
 * `scheduler`, the worker with `executor`, the launcher loop with `launcher`. The engine object
 * itself is built in every process: an API process uses it to record management events and read
 * status from the store.
 */
import type { OidcService } from './oidc-service';
import { randomUUID } from 'node:crypto';
import { canonicalHostnameOf, type ServiceConfig } from '../config/service';
import { changeLinks } from '../config/ref-urls';
import type { LayoutManager } from '../config/layout-manager';
import type { Layout } from '../config/layout';
import type { Database } from '../store/database';
import { BuildRequestRepository } from '../store/repositories/build-requests';
import { Engine } from '../engine/engine';
import { BuildRequestExecutor } from '../executor/build-request-gateway';
import type { EngineEventBus } from '../engine/event-bus';
import { GitMergerGateway } from '../executor/merger-gateway';
import type { EngineLayout } from '../engine/ports/layout';
import type { TimerClock } from '../engine/ports/clock';
import { toEngineLayout } from '../engine/layout-adapter';
import { SpeculativeLayouts } from '../config/speculative-layouts';
import { LocalNodeGateway } from '../launcher/local-node-gateway';
import { toolchainWarnings } from '../executor/ansible/toolchain';
import { createExecutorServices, type ExecutorServices } from '../executor/executor-services';
import { createLauncher, type Launcher } from '../launcher/launcher';
import { StoreNodeLocker } from '../launcher/node-lock';
import { layoutUsesLauncher, TenantNodeGateway } from '../launcher/tenant-node-gateway';
import type { ConnectionSettings, DriverContext } from '../drivers/driver';
import type { GitProjectLocation } from '../sources/git-projects';
import {
  createDriverRuntimes,
  routingChangeSource,
  routingMerger,
  routingReporter,
  type DriverRuntimes,
} from './driver-runtimes';
import type { ProcessComponent } from './component-heartbeat';
import { LostWorkReclaimer } from './lost-work-reclaimer';
import type { SluiceMetrics } from './metrics/sluice-metrics';
import type { BuildCompletedPayload, BuildEventSubject } from '../model/build-request';
import type { Logger } from './logger';
import type { SecretsKeySource } from '../secrets/secret-data';
import { ALL_ROLES, type RoleSet } from '../model/roles';
import type { EventBus } from '../../subscriptions/bus/event-bus';
import { WakeSignals } from './wake-signals';
import { schedulerTimings } from './scheduler-timings';

export interface RolesOptions extends Pick<Parameters<typeof createExecutorServices>[1], 'toolchain'> {
  config: ServiceConfig;
  database: Database;
  layoutManager: LayoutManager;
  /** Where the engine publishes its deltas (`engineEventBusOver(bus)`). */
  engineBus: EngineEventBus;
  logger: Logger;
  now: () => Date;
  /** The timers of the drivers' own polls (default: the system clock). */
  timers?: TimerClock;
  /** The process environment; only allow-listed variables reach job steps. */
  environment: Record<string, string | undefined>;
  /** Projects' secrets keys, for the executor to decrypt the secrets of builds. */
  secretKeys?: () => Promise<SecretsKeySource>;
  /** The OIDC issuer: the executor's token source; the scheduler role rotates its keys. */
  oidc?: OidcService;
  /** Public URL prefix of build logs, read per build (`publicLogsUrl` in log-files.ts). */
  logsUrl?: () => string | undefined;
  /** The service's public URL, for links to its dashboard pages (`api.publicUrl`, else where it listens). */
  publicUrl?: () => string | undefined;
  /** Counts what these roles do (docs/operations.md#metrics). */
  metrics?: SluiceMetrics;
  /** The roles this process runs (default: all). */
  roles?: RoleSet;
  /** The service's event bus: wake-ups to the roles of other processes go over it (src/server/wake-signals.ts). */
  bus?: EventBus;
}

/** Background work of the roles, stopped in reverse order on shutdown. */
export interface RoleTask {
  name: string;
  /** `deadline`: when the whole shutdown must be over (epoch milliseconds). */
  stop(deadline: number): Promise<void>;
}

/**
 * What a shutdown keeps for after the executor: stopping and handing back the builds still
 * running (the kill grace and a write) and the rest of the stop (docs/operations.md#shutdown).
 * Never more than half of what is left.
 */
export function buildsFinishBy(deadline: number, killGraceMs: number, now = Date.now()): number {
  const reserve = Math.min(killGraceMs + HAND_BACK_RESERVE_MS, (deadline - now) / 2);
  return deadline - reserve;
}

const HAND_BACK_RESERVE_MS = 2000;

/**
 * Until when a shutdown waits for the schedulers' passes and engine work calls under way
 * (docs/operations.md#shutdown): what comes after them (the bus, the component records, the
 * store) keeps this reserve, never more than half of what is left.
 */
export function engineStopBy(deadline: number, now = Date.now()): number {
  return deadline - Math.min(ENGINE_STOP_RESERVE_MS, Math.max(0, deadline - now) / 2);
}

const ENGINE_STOP_RESERVE_MS = 1500;

export interface ServiceRoles {
  engine: Engine;
  executor: ExecutorServices;
  /** Serves the node requests of tenants with providers (docs/launcher.md). */
  launcher: Launcher;
  /** The drivers' runtimes (docs/development.md#drivers): change sources, merges, reports, source intake. */
  drivers: DriverRuntimes;
  /** Stored webhook deliveries become trigger events (docs/github.md#webhooks): look now, or wait until none waits. */
  connectionEvents: { wake(): void; idle(): Promise<void> };
  /** The component records of these roles (docs/operations.md#lost-work). */
  components: ProcessComponent[];
  /** Ends the builds of executors that stopped heartbeating (docs/operations.md#lost-work). */
  reclaimer: LostWorkReclaimer;
  /** Start what this process's roles run: tenant schedulers and pollers, executor worker, launcher loop, reclaimer. */
  start(): Promise<RoleTask[]>;
}

/**
 * Milliseconds between launcher passes while nothing wakes it: new requests, returned nodes and
 * cancels wake it at once; the interval covers min-ready, ageing, images and other processes.
 */
const LAUNCHER_IDLE_INTERVAL_MS = 5000;

/** Canonical names and repository locations of the projects of every loaded tenant. */
function projectDirectory(
  config: ServiceConfig,
  layoutManager: LayoutManager,
): DriverContext<ConnectionSettings>['projects'] {
  const layouts = (): Layout[] => layoutManager.tenantNames().flatMap((tenant) => layoutManager.layout(tenant) ?? []);
  return {
    locate(canonicalName: string): GitProjectLocation | null {
      for (const layout of layouts()) {
        const project = layout.projects.get(canonicalName);
        if (project) {
          return {
            connection: project.connectionName,
            name: project.name,
            defaultBranch: project.metadata.defaultBranch,
          };
        }
      }
      return null;
    },
    canonicalName(connection: string, name: string): string {
      return `${canonicalHostnameOf(connection, config.connections[connection])}/${name}`;
    },
    projectsOf(connection: string): string[] {
      const names = new Set<string>();
      for (const layout of layouts()) {
        for (const project of layout.projects.values()) {
          if (project.connectionName === connection) {
            names.add(project.name);
          }
        }
      }
      return [...names];
    },
    triggerFiltersOf(connection: string): Array<Record<string, unknown>> {
      return layouts().flatMap((layout) =>
        [...layout.pipelines.values()].flatMap((pipeline) =>
          pipeline.triggers
            .filter((trigger) => trigger.connection === connection)
            .flatMap((trigger) => trigger.filters),
        ),
      );
    },
    tenantsOf(canonicalName: string): string[] {
      return layouts()
        .filter((layout) => layout.projects.has(canonicalName))
        .map((layout) => layout.tenantName);
    },
    protectedBranchesOf(tenant: string, canonicalName: string): readonly string[] | undefined {
      const project = layoutManager.layout(tenant)?.projects.get(canonicalName);
      return project?.protectedBranches;
    },
  };
}

/** The engine's deltas, counted on their way to the bus (each scheduler counts its own). */
function countedDeltas(bus: EngineEventBus, metrics: SluiceMetrics | undefined): EngineEventBus {
  if (!metrics) {
    return bus;
  }
  return {
    publish: (delta) => {
      metrics.observeDelta(delta);
      bus.publish(delta);
    },
    subscribe: (tenant, listener) => bus.subscribe(tenant, listener),
  };
}

/** Build (but do not start) the gating roles of this process. */
export function createServiceRoles(options: RolesOptions): ServiceRoles {
  const { config, database, layoutManager, logger, metrics } = options;
  const signals = options.bus
    ? new WakeSignals(options.bus, (err, kind) => logger.warn({ err, kind }, 'wake-up not sent to other processes'))
    : null;
  const directory = projectDirectory(config, layoutManager);
  const publicUrl = (config.api.publicUrl ?? '').replace(/\/+$/, '');
  const drivers = createDriverRuntimes(config.connections, {
    dataDir: config.dataDir,
    knex: database.knex,
    projects: directory,
    triggers: {
      record: async (tenant, event, trx) => {
        await engine.recordTrigger(tenant, event, trx);
      },
      wake: (tenant) => engine.wake(tenant),
    },
    buildsetUrl: (tenant, uuid) => `${publicUrl}/t/${tenant}/buildset/${uuid}`,
    now: options.now,
    timers: options.timers,
    reloadTenants: (tenants) => {
      layoutManager
        .reconfigure(tenants)
        .catch((err: unknown) =>
          logger.error({ err, tenants }, 'tenant reload after a branch protection change failed'),
        );
    },
    gitMirrors: () => executor.merger.cache.mirrors,
    log: logger,
  });
  const repository = new BuildRequestRepository(database.knex);
  const executor = createExecutorServices(config, {
    repository,
    environment: options.environment,
    toolchain: options.toolchain,
    logger,
    now: options.now,
    nodeLocker: new StoreNodeLocker(database.knex, options.now),
    secretKeys: options.secretKeys,
    oidc: options.oidc?.tokenSource(),
    logsUrl: options.logsUrl,
    extraConnections: Object.fromEntries(
      [...drivers.byDriver.values()].flatMap((runtime) => [...(runtime.repositories ?? [])]),
    ),
  });

  // The engine reads layouts on every pass, so a reloaded tenant is seen without a restart.
  const engineLayouts = new Map<string, { source: Layout; adapted: EngineLayout }>();
  const layouts = (tenant: string): EngineLayout | null => {
    const layout = layoutManager.layout(tenant);
    if (!layout) {
      return null;
    }
    const cached = engineLayouts.get(tenant);
    if (cached?.source === layout) {
      return cached.adapted;
    }
    // Items that change configuration get speculative layouts built from the same inputs (docs/gating.md#speculative-layouts).
    const input = layoutManager.inputOf(layout);
    const speculative =
      input === undefined
        ? undefined
        : new SpeculativeLayouts(layout, input, undefined, (redactor) =>
            layoutManager.addSpeculativeRedactor(redactor),
          );
    const adapted = toEngineLayout(layout, speculative);
    engineLayouts.set(tenant, { source: layout, adapted });
    return adapted;
  };

  const launcher = createLauncher({
    config,
    knex: database.knex,
    layouts: layoutManager,
    logger: logger.child({ component: 'launcher' }),
    now: options.now,
    intervalMs: LAUNCHER_IDLE_INTERVAL_MS,
    onResult: (tenant) => engine.wake(tenant),
    onRequested: () => signals?.launchers(),
  });
  const nodes = new TenantNodeGateway(
    launcher.gateway,
    new LocalNodeGateway((tenant, event) => engine.submitResult(tenant, event)),
    (tenant) => layoutUsesLauncher(layoutManager.layout(tenant)),
  );

  const engine: Engine = new Engine({
    database,
    layouts,
    gateways: {
      changes: routingChangeSource(directory, drivers),
      merger: routingMerger(
        directory,
        drivers,
        (onMerged) =>
          new GitMergerGateway(executor.merger, directory, async (connection, project, branch, newrev, oldrev) => {
            // A merged configuration change is loaded before its update is announced (docs/gating.md#speculative-layouts).
            await layoutManager
              .reconfigureForUpdate({ connection, project, branch, newrev })
              .catch((err: unknown) => logger.error({ err, project, branch }, 'reconfiguration after a merge failed'));
            onMerged(connection, project, branch, newrev, oldrev);
          }),
      ),
      reporter: routingReporter(drivers),
      configuration: layoutManager,
      executor: new BuildRequestExecutor(
        database.knex,
        (_tenant, canonicalName) => directory.locate(canonicalName)?.name ?? canonicalName,
        options.now,
        (_tenant, canonicalName) => directory.locate(canonicalName)?.connection ?? null,
        () => {
          // An idle worker here claims it at once; others hear of it over the bus.
          executor.worker.wake();
          signals?.executors();
        },
      ),
      nodes,
    },
    bus: countedDeltas(options.engineBus, metrics),
    clock: { now: options.now },
    ...schedulerTimings(config.scheduler),
    wakeElsewhere: (tenant) => signals?.scheduler(tenant),
    logger: { error: (message, err) => logger.error({ err }, message) },
    warn: (message) => logger.warn(message),
    onLeadershipChange: (change) => {
      // The leadership gauge (docs/operations.md#metrics) and a log line.
      metrics?.setLeadership(change.tenant, change.leading);
      logger.info(
        { tenant: change.tenant, epoch: change.epoch, reason: change.reason },
        change.leading ? 'leading tenant' : 'no longer leading tenant',
      );
    },
    changeLink: changeLinks(config, (tenant) => layoutManager.layout(tenant), options.publicUrl ?? (() => undefined)),
  });
  if (metrics) {
    executor.worker.events.on('completed', (payload: BuildCompletedPayload) => metrics.observeBuild(payload));
  }
  // A build's start, pause and result are result events: its tenant's scheduler acts on them at once.
  for (const stored of ['started', 'paused', 'completed']) {
    executor.worker.events.on(stored, (payload: BuildEventSubject) => engine.wake(payload.tenant));
  }

  const roles = options.roles ?? ALL_ROLES;
  const components: ProcessComponent[] = [
    ...(roles.has('scheduler') ? [{ kind: 'scheduler' as const, id: randomUUID() }] : []),
    ...(roles.has('executor') ? [{ kind: 'executor' as const, id: executor.worker.id }] : []),
    ...(roles.has('launcher') ? [{ kind: 'launcher' as const, id: launcher.id }] : []),
  ];
  const reclaimer = new LostWorkReclaimer({
    knex: database.knex,
    now: options.now,
    expiryMs: config.components.expiry * 1000,
    intervalMs: config.components.heartbeatInterval * 1000,
    logger,
    own: () => components.map((component) => component.id),
    onReclaimed: (builds) => {
      builds.forEach((build) => metrics?.lostBuilds.inc({ tenant: build.tenant }));
      new Set(builds.map((build) => build.tenant)).forEach((tenant) => engine.wake(tenant));
    },
  });

  return {
    engine,
    executor,
    launcher,
    drivers,
    connectionEvents: {
      wake: () => {
        drivers.wake();
        signals?.intake();
      },
      idle: () => drivers.idle(),
    },
    components,
    reclaimer,
    start: async () => {
      const tasks: RoleTask[] = [];
      if (signals) {
        // Wake-ups from other processes, for the roles this one runs (stopped last).
        const stopListening = signals.listen({
          scheduler: roles.has('scheduler') ? (tenant) => engine.wakeHere(tenant) : undefined,
          intake: roles.has('scheduler') ? () => drivers.wake() : undefined,
          executor: roles.has('executor') ? () => executor.worker.wake() : undefined,
          launcher: roles.has('launcher') ? () => launcher.wake() : undefined,
        });
        tasks.push({
          name: 'wake-signals',
          stop: () => {
            stopListening();
            signals.close();
            return Promise.resolve();
          },
        });
      }
      if (roles.has('scheduler')) {
        tasks.push(await startSchedulers(engine, layoutManager, logger));
        // docs/security.md#oidc-tokens
        tasks.push(...(options.oidc ? [options.oidc.startRotation()] : []));
      }
      // The drivers' work of the roles this process runs: source intake (git polls, stored webhook
      // deliveries) with `scheduler`. Awaited before the process listens: a git poller has then
      // recorded its first-poll baselines, so a push after the start is reported
      // (docs/operations.md#durable-source-state). The executor's tools are probed meanwhile.
      const probing = roles.has('executor') ? executor.toolchain.probe() : undefined;
      const starting: Array<void | Promise<void>> = [];
      for (const task of [...drivers.byDriver.values()].flatMap((runtime) => runtime.tasks)) {
        if (roles.has(task.role)) {
          starting.push(task.start());
          tasks.push({ name: task.name, stop: () => task.stop() });
        }
      }
      await Promise.all(starting);
      if (probing) {
        // Said at start which playbooks this executor can run (docs/executor.md#ansible-on-the-executor).
        const tools = await probing;
        for (const warning of toolchainWarnings(tools)) {
          logger.warn({ ansible: tools.ansible, sandbox: tools.sandbox }, `executor: ${warning}`);
        }
        if (tools.ansible.available) {
          logger.info(
            {
              ansible: tools.ansible.version,
              sandbox: tools.sandbox.available ? tools.sandbox.version : tools.sandbox.mode,
            },
            'executor: playbooks run with ansible-playbook',
          );
        }
        executor.worker.start();
        tasks.push({
          name: 'executor-worker',
          stop: (deadline) =>
            executor.worker.stop({ finishBy: buildsFinishBy(deadline, config.executor.killGracePeriod * 1000) }),
        });
      }
      if (roles.has('launcher')) {
        launcher.start();
        tasks.push({ name: 'launcher', stop: () => launcher.stop() });
      }
      if (components.length === 0) {
        return tasks; // an API process holds no work to judge others by
      }
      reclaimer.start();
      tasks.push({ name: 'lost-work-reclaimer', stop: () => reclaimer.stop() });
      return tasks;
    },
  };
}

/**
 * Start a scheduler for every loaded tenant (leading or standing by); new layouts start and
 * reconfigure the tenant's scheduler in the background, and stopping waits for that work, so
 * none of it touches the database after it is closed.
 */
async function startSchedulers(engine: Engine, layoutManager: LayoutManager, logger: Logger): Promise<RoleTask> {
  for (const tenant of layoutManager.tenantNames()) {
    if (!(await engine.startTenant(tenant))) {
      logger.info({ tenant }, 'another process leads this tenant; standing by');
    }
  }
  const reconfiguring = new Set<Promise<void>>();
  let stopping = false;
  const unsubscribe = layoutManager.onLayout((layout) => {
    const work = engine
      .startTenant(layout.tenantName)
      .then(async () => {
        if (!stopping) {
          await engine.reconfigure(layout.tenantName);
        }
      })
      .catch((err: unknown) => {
        if (!stopping) {
          logger.error({ err, tenant: layout.tenantName }, 'engine reconfiguration failed');
        } // else left at shutdown, failing as the database closes
      });
    reconfiguring.add(work);
    void work.then(() => reconfiguring.delete(work));
  });
  return {
    name: 'engine',
    stop: async (deadline) => {
      stopping = true;
      unsubscribe();
      const until = engineStopBy(deadline);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(reconfiguring),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, until - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      await engine.stop(until);
    },
  };
}
