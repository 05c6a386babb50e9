/**
 * The services behind every endpoint of one process: database, tenants (the layout manager),
 * event bus and live fan-out, security, and the roles (engine, executor, pollers) the process
 * runs itself when no engine is given.
 */
import { OidcService } from './oidc-service';
import { existsSync } from 'node:fs';
import type { ServiceConfig } from '../config/service';
import { LayoutManager } from '../config/layout-manager';
import { ChangeSignal } from '../auth/change-signal';
import { SLUICE_VERSION } from '../model/version';
import type { Redactor } from '../secrets/redact';
import { openDatabase, type Database } from '../store/database';
import { missingPostgresDatabase } from '../store/ensure-database';
import { serviceTemplate } from '../store/shipped-template';
import { EngineStateRepository } from '../store/repositories/engine-state';
import { SystemEventRepository } from '../store/repositories/system-events';
import { LauncherChangeRepository } from '../store/repositories/launcher-changes';
import type { Services, TenantCatalog } from '../../schema/infra/context';
import { createEventBus } from '../../subscriptions/bus';
import { BusClosedError, type EventBus } from '../../subscriptions/bus/event-bus';
import { engineEventBusOver, type EngineEventBridge } from '../../subscriptions/live/engine-bridge';
import { LiveHub } from '../../subscriptions/live/live-hub';
import type { AppOptions } from './app-options';
import { assembleAuthServices, lazyKeyManager, type AssembledAuth } from './auth-services';
import { createLogger, type Logger } from './logger';
import { publicLogsUrl } from './log-files';
import { createServiceRoles, type ServiceRoles } from './roles';
import { SluiceMetrics } from './metrics/sluice-metrics';
import { NO_REDACTION } from './secret-redaction';
import { describeRoles, ROLE_NAMES, type RoleSet } from '../model/roles';

/** Everything `assembleServices` made, for the HTTP layer and the start and stop sequences. */
export interface AppServices {
  config: ServiceConfig;
  logger: Logger;
  database: Database;
  now: () => Date;
  layoutManager: LayoutManager | undefined;
  tenants: TenantCatalog;
  bus: EventBus;
  /** The engine's deltas on their way to the bus (flushed before the bus closes). */
  engineDeltas: EngineEventBridge;
  live: LiveHub;
  roles: ServiceRoles | undefined;
  /** The roles this process runs (`roles` key or `--roles`; docs/operations.md#roles). */
  runs: RoleSet;
  /**
   * The address the service listens on (set by `start`, before listening unless the port is 0):
   * build log URLs follow it when `logs.url` is not set (docs/configuration.md#keys, `logs.url`).
   */
  listening: { url: string | undefined };
  auth: AssembledAuth;
  /** Masks the decrypted values of every loaded tenant's secrets in whatever leaves the process. */
  secretRedactor: () => Redactor;
  /** What resolvers see (the GraphQL context's services). */
  services: Services;
  /** This process's metrics (docs/operations.md#metrics). */
  metrics: SluiceMetrics;
  /** The OIDC issuer: discovery routes, the executor's tokens, key rotation. */
  oidc: OidcService;
}

const NO_TENANTS: TenantCatalog = { tenantNames: () => [], layout: () => undefined };

/** Where the embedded store of a deployment without `database.url` lives. */
function embeddedStoreDirectory(config: ServiceConfig): string {
  return `${config.dataDir}/pgdata`;
}

/**
 * What is missing when the deployment's database does not exist yet (a PostgreSQL database, or
 * the embedded store's directory), for commands that must not create it; undefined when it exists.
 */
export async function missingDatabase(config: ServiceConfig): Promise<string | undefined> {
  if (config.database.url !== undefined) {
    return missingPostgresDatabase(config.database.url);
  }
  const directory = embeddedStoreDirectory(config);
  return existsSync(directory) ? undefined : `the embedded database ${directory} does not exist`;
}

export function databaseFor(config: ServiceConfig, logger?: Logger): Database {
  const log = logger && ((level: 'warn' | 'error', message: string) => logger[level]({ database: 'pool' }, message));
  return config.database.url
    ? openDatabase({
        kind: 'postgres',
        url: config.database.url,
        applicationName: config.database.applicationName,
        log,
      })
    : openDatabase({ kind: 'pglite', dataDir: embeddedStoreDirectory(config), template: serviceTemplate, log });
}

export function assembleServices(options: AppOptions): AppServices {
  const { config } = options;
  const logger = options.logger ?? createLogger();
  const database = options.database ?? databaseFor(config, logger);
  const now = options.now ?? (() => new Date());
  // One key manager for the key endpoints, secret decryption at layout load and the executor.
  const keys = lazyKeyManager(config, database.knex, logger, options.keySizes);
  const layoutManager =
    options.tenants === undefined && config.tenantConfig !== undefined
      ? new LayoutManager({ config, knex: database.knex, logger, now, secretKeys: keys })
      : undefined;
  const tenants: TenantCatalog = options.tenants ?? layoutManager ?? NO_TENANTS;
  const bus =
    options.bus ??
    createEventBus(config, {
      onError: (err, link) => logger.warn({ err, link }, 'event bus connection problem'),
    });
  const listening: AppServices['listening'] = { url: undefined };
  const runs: RoleSet = new Set(config.roles);
  const apiAddress = (): string | undefined => (runs.has('api') ? listening.url : undefined);
  const metrics = new SluiceMetrics();
  const oidc = new OidcService({
    config,
    keys,
    layout: (tenant) => tenants.layout(tenant),
    tenantNames: () => [...tenants.tenantNames()],
    publicUrl: () => config.api.publicUrl ?? apiAddress(),
    logger,
    timers: options.timers,
  });
  const engineDeltas = engineEventBusOver(bus, (err, delta) => {
    // A pass abandoned by a shutdown may still publish: live views resync from the store.
    if (err instanceof BusClosedError) {
      logger.debug({ tenant: delta.tenant }, 'engine delta after the event bus closed: dropped');
    } else {
      logger.warn({ err, tenant: delta.tenant }, 'engine delta not published');
    }
  });
  const roles =
    layoutManager && options.engine === undefined
      ? createServiceRoles({
          config,
          database,
          layoutManager,
          engineBus: engineDeltas,
          logger,
          now,
          timers: options.timers,
          environment: options.environment ?? process.env,
          toolchain: options.toolchain,
          secretKeys: keys,
          oidc,
          // Links point at an API process: this one when it runs the api role, else `api.publicUrl`
          // or `logs.url` (docs/operations.md#which-configuration-each-role-needs).
          logsUrl: () => publicLogsUrl(config, apiAddress()),
          publicUrl: () => config.api.publicUrl ?? apiAddress(),
          metrics,
          roles: runs,
          bus,
        })
      : undefined;
  if (roles && runs.has('executor') && !runs.has('api') && publicLogsUrl(config, undefined) === undefined) {
    logger.warn(
      'this executor process runs no api role and neither logs.url nor api.publicUrl is set: its builds get no log links',
    );
  }
  if (runs.size < ROLE_NAMES.length && config.database.url === undefined) {
    logger.warn(
      { roles: describeRoles(runs) },
      'the embedded store serves one process: the roles this process does not run cannot run anywhere else',
    );
  }
  // Open subscriptions re-check read access whenever a reconfiguration loads new rules.
  const policyChanges = new ChangeSignal();
  layoutManager?.onLayout(() => policyChanges.fire());
  const live = liveHubOver(bus, database, logger, options);
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
  return {
    config,
    logger,
    database,
    now,
    layoutManager,
    tenants,
    bus,
    live,
    roles,
    engineDeltas,
    runs,
    listening,
    auth,
    secretRedactor,
    services,
    metrics,
    oidc,
  };
}

function liveHubOver(bus: EventBus, database: Database, logger: Logger, options: AppOptions): LiveHub {
  const engineState = new EngineStateRepository(database.knex);
  return new LiveHub(
    bus,
    {
      committedSequence: async (tenant) => (await engineState.loadTenant(tenant)).busSequence,
      systemEvents: new SystemEventRepository(database.knex),
      launcherChanges: new LauncherChangeRepository(database.knex),
    },
    options.live,
    Date.now,
    (err) => logger.warn({ err }, 'reading system events or launcher changes for live subscribers failed'),
  );
}
