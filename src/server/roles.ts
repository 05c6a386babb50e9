/**
 * The gating roles of `sluice serve` in one process: the engine over the LayoutManager's
 * layouts, the git driver (change source, merger gateway, pollers feeding trigger events), the
 * executor worker claiming `build_requests`, and the node side: the launcher loop for tenants
 * whose layout has providers, the built-in local node gateway for the others. Built next to the
 * API in `buildApp()` when a tenant file is configured; `start()` runs the background work of
 * the roles the process runs (docs/operations.md#roles): the schedulers and git pollers with
 * `scheduler`, the worker with `executor`, the launcher loop with `launcher`. The engine object
 * itself is built in every process: an API process uses it to record management events and read
 * status from the store.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ServiceConfig } from '../config/service';
import { canonicalHostnameOf } from '../config/service';
import { changeLinks } from '../config/ref-urls';
import type { LayoutManager } from '../config/layout-manager';
import type { Layout } from '../config/layout';
import type { Database } from '../store/database';
import type { Knex } from 'knex';
import { BuildRequestRepository } from '../store/repositories/build-requests';
import { EngineEventRepository } from '../store/repositories/engine-events';
import { Engine } from '../engine/engine';
import { BuildRequestExecutor } from '../executor/build-request-gateway';
import type { EngineEventBus } from '../engine/event-bus';
import { GitChangeSource, type GitProjectLocation, type GitProjects } from '../drivers/git/change-source';
import { GitMergerGateway } from '../executor/merger-gateway';
import type { EngineLayout } from '../engine/ports/layout';
import { toEngineLayout } from '../engine/layout-adapter';
import { LocalNodeGateway } from '../launcher/local-node-gateway';
import type { TriggerEvent } from '../model/engine-events';
import { toolchainWarnings } from '../executor/ansible/toolchain';
import { createExecutorServices, type ExecutorServices } from '../executor/executor-services';
import { GitMirrors } from '../sources/git-mirror';
import type { GitPoller, GitTriggerEvent } from '../drivers/git/poller';
import { createGitPollers } from '../drivers/git/pollers';
import { DurablePollerState } from '../drivers/git/poller-state';
import { createLauncher, type Launcher } from '../launcher/launcher';
import { StoreNodeLocker } from '../launcher/node-lock';
import { layoutUsesLauncher, TenantNodeGateway } from '../launcher/tenant-node-gateway';
import {
  connectionEventProcessor,
  githubConnections,
  githubReporter,
  routingChangeSource,
  routingMerger,
  type ConnectionEventProcessor,
} from '../drivers/github/roles';
import type { GitHubConnection } from '../drivers/github/connection';
import type { ProcessComponent } from './component-heartbeat';
import { LostWorkReclaimer } from './lost-work-reclaimer';
import type { SluiceMetrics } from './metrics/sluice-metrics';
import type { BuildCompletedPayload } from '../model/build-request';
import type { Logger } from './logger';
import type { SecretsKeySource } from '../secrets/secret-data';
import { ALL_ROLES, type RoleSet } from '../model/roles';

export interface RolesOptions {
  config: ServiceConfig;
  database: Database;
  layoutManager: LayoutManager;
  /** Where the engine publishes its deltas (`engineEventBusOver(bus)`). */
  engineBus: EngineEventBus;
  logger: Logger;
  now: () => Date;
  /** The process environment; only allow-listed variables reach job steps. */
  environment: Record<string, string | undefined>;
  /** Projects' secrets keys, for the executor to decrypt the secrets of builds. */
  secretKeys?: () => Promise<SecretsKeySource>;
  /** Public URL prefix of build logs, read per build (`publicLogsUrl` in log-files.ts). */
  logsUrl?: () => string | undefined;
  /** The service's public URL, for links to its dashboard pages (`api.publicUrl`, else where it listens). */
  publicUrl?: () => string | undefined;
  /** Counts what these roles do (docs/operations.md#metrics). */
  metrics?: SluiceMetrics;
  /** The roles this process runs (default: all). */
  roles?: RoleSet;
}

/** Background work of the roles, stopped in reverse order on shutdown. */
export interface RoleTask {
  name: string;
  stop(): Promise<void>;
}

export interface ServiceRoles {
  engine: Engine;
  executor: ExecutorServices;
  /** Serves the node requests of tenants with providers (docs/launcher.md). */
  launcher: Launcher;
  pollers: ReadonlyMap<string, GitPoller>;
  /** Turns stored webhook deliveries into trigger events (docs/github.md#webhooks). */
  connectionEvents: ConnectionEventProcessor;
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
  github: ReadonlyMap<string, GitHubConnection>,
): GitProjects & { projectsOf(connection: string): string[]; tenantsOf(canonicalName: string): string[] } {
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
      const settings = config.connections[connection];
      const hub = github.get(connection);
      if (hub) {
        return `${hub.canonicalHostname}/${name}`;
      }
      return `${canonicalHostnameOf(connection, settings?.driver === 'git' ? settings : undefined)}/${name}`;
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
    tenantsOf(canonicalName: string): string[] {
      return layouts()
        .filter((layout) => layout.projects.has(canonicalName))
        .map((layout) => layout.tenantName);
    },
  };
}

/** The engine's trigger payload for a git poller event. */
export function triggerPayload(event: GitTriggerEvent, canonicalName: string): TriggerEvent {
  if (event.type === 'patchset-created') {
    return {
      type: 'patchset-created',
      project: canonicalName,
      change: event.change,
      patchset: String(event.patchset),
      ref: event.ref,
      branch: event.branch,
      newrev: event.newrev,
      timestamp: event.timestamp.toISOString(),
    };
  }
  return {
    type: 'ref-updated',
    project: canonicalName,
    ref: event.ref,
    branch: event.branch ?? undefined,
    oldrev: event.oldrev,
    newrev: event.newrev,
    own: event.own,
    timestamp: event.timestamp.toISOString(),
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
  const github = githubConnections(config);
  const directory = projectDirectory(config, layoutManager, github);
  const githubRepositories = Object.fromEntries(
    [...github].map(([name, hub]) => [
      name,
      {
        baseurl: (project: string) => hub.gitBaseUrl(project),
        canonicalHostname: hub.canonicalHostname,
        prepare: (project: string) => hub.prepareGit(project),
      },
    ]),
  );
  const repository = new BuildRequestRepository(database.knex);
  const executor = createExecutorServices(config, {
    repository,
    environment: options.environment,
    logger,
    now: options.now,
    nodeLocker: new StoreNodeLocker(database.knex, options.now),
    secretKeys: options.secretKeys,
    logsUrl: options.logsUrl,
    extraConnections: githubRepositories,
  });
  const baseUrls = (connection: string): string => {
    const settings = config.connections[connection];
    if (settings?.driver !== 'git') {
      throw new Error(`connection ${connection} is not a git connection`);
    }
    return settings.baseurl;
  };

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
    const adapted = toEngineLayout(layout);
    engineLayouts.set(tenant, { source: layout, adapted });
    return adapted;
  };

  // A poll's trigger rows commit with the refs it saw (docs/operations.md#durable-source-state).
  const triggerEvents = new EngineEventRepository(database.knex);
  const recordTriggers = async (trx: Knex.Transaction, events: readonly GitTriggerEvent[]): Promise<void> => {
    for (const event of events) {
      const canonicalName = directory.canonicalName(event.connection, event.project);
      for (const tenant of directory.tenantsOf(canonicalName)) {
        await triggerEvents.append(
          { tenant, event: triggerPayload(event, canonicalName), created: options.now() },
          trx,
        );
      }
    }
  };
  const pollers = createGitPollers(config, {
    projects: (connection) => directory.projectsOf(connection),
    // Saved already: the schedulers of the tenants holding the project look now.
    onEvent: (event) => {
      for (const tenant of directory.tenantsOf(directory.canonicalName(event.connection, event.project))) {
        engine.wake(tenant);
      }
    },
    onError: (err, connection, project) => logger.warn({ err, connection, project }, 'git poll failed'),
    state: (connection) => new DurablePollerState(database.knex, connection, recordTriggers, options.now),
  });

  const launcher = createLauncher({
    config,
    knex: database.knex,
    layouts: layoutManager,
    logger: logger.child({ component: 'launcher' }),
    now: options.now,
    intervalMs: LAUNCHER_IDLE_INTERVAL_MS,
    onResult: (tenant) => engine.wake(tenant),
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
      changes: routingChangeSource(
        github,
        directory,
        new GitChangeSource(new GitMirrors(path.join(config.dataDir, 'engine', 'mirrors'), baseUrls), directory),
      ),
      merger: routingMerger(
        github,
        directory,
        new GitMergerGateway(executor.merger, directory, (connection, project, branch, newrev, oldrev) => {
          // Announced so the poller reports the merge once, as Sluice's own ref-updated. The merge
          // runs inside a scheduler pass, which holds a database connection (PGlite has only one):
          // the pass does not wait for the poller's save.
          void pollers.get(connection)?.expectOwnUpdate(project, branch, newrev, oldrev);
          return Promise.resolve();
        }),
      ),
      reporter: github.size > 0 ? githubReporter(github, config, database, options.now, logger) : undefined,
      executor: new BuildRequestExecutor(
        database.knex,
        (_tenant, canonicalName) => directory.locate(canonicalName)?.name ?? canonicalName,
        options.now,
        (_tenant, canonicalName) => directory.locate(canonicalName)?.connection ?? null,
      ),
      nodes,
    },
    bus: countedDeltas(options.engineBus, metrics),
    clock: { now: options.now },
    logger: { error: (message, err) => logger.error({ err }, message) },
    warn: (message) => logger.warn(message),
    leadership: { ttlMs: config.scheduler.leaseTimeout * 1000 },
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

  const connectionEvents = connectionEventProcessor({
    database,
    github,
    tenantsOf: (canonicalName) => directory.tenantsOf(canonicalName),
    protectedBranchesOf: (tenant, canonicalName) => {
      const project = layoutManager.layout(tenant)?.projects.get(canonicalName);
      return project?.protectedBranchesOnly ? project.branches : undefined;
    },
    record: async (tenant, event, trx) => {
      await engine.recordTrigger(tenant, event, trx);
    },
    wake: (tenant) => engine.wake(tenant),
    now: options.now,
    logger,
  });

  return {
    engine,
    executor,
    launcher,
    pollers,
    connectionEvents,
    components,
    reclaimer,
    start: async () => {
      const tasks: RoleTask[] = [];
      if (roles.has('scheduler')) {
        tasks.push(await startSchedulers(engine, layoutManager, logger));
        // Source intake feeding the schedulers: stored webhook deliveries and git polls.
        connectionEvents.start();
        tasks.push({ name: 'connection-events', stop: () => connectionEvents.stop() });
        for (const [connection, poller] of pollers) {
          poller.start();
          tasks.push({ name: `git-poller:${connection}`, stop: () => poller.stop() });
        }
      }
      if (roles.has('executor')) {
        // Said at start which playbooks this executor can run (docs/executor.md#ansible-on-the-executor).
        const tools = await executor.toolchain.probe();
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
        tasks.push({ name: 'executor-worker', stop: () => executor.worker.stop() });
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
      .catch((err: unknown) => logger.error({ err, tenant: layout.tenantName }, 'engine reconfiguration failed'));
    reconfiguring.add(work);
    void work.then(() => reconfiguring.delete(work));
  });
  return {
    name: 'engine',
    stop: async () => {
      stopping = true;
      unsubscribe();
      await Promise.all(reconfiguring);
      await engine.stop();
    },
  };
}
