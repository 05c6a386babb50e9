/** What every part of the launcher shares: the store, the providers, the drivers and the clock. */
import type { Knex } from 'knex';
import type { Layout } from '../config/layout';
import type { ServiceConfig } from '../config/service';
import { EngineEventRepository } from '../store/repositories/engine-events';
import { ImageRepository } from '../store/repositories/images';
import { LauncherChangeRepository } from '../store/repositories/launcher-changes';
import { NodeRepository } from '../store/repositories/nodes';
import { NodesetRequestRepository } from '../store/repositories/nodeset-requests';
import { SystemEventRepository } from '../store/repositories/system-events';
import type { NodeDriver } from './drivers/driver';
import { LocalDriver } from './drivers/local';
import { StaticDriver } from './drivers/static';
import { tenantProviders, type LauncherDriver, type RuntimeProvider } from './providers';

/** The tenant layouts (the LayoutManager implements it). */
export interface LayoutSource {
  tenantNames(): readonly string[];
  layout(tenant: string): Layout | undefined;
}

export interface LauncherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LauncherRepositories {
  requests: NodesetRequestRepository;
  nodes: NodeRepository;
  images: ImageRepository;
  events: EngineEventRepository;
  systemEvents: SystemEventRepository;
  changes: LauncherChangeRepository;
}

export interface LauncherContext {
  knex: Knex;
  config: Pick<ServiceConfig, 'connections' | 'dataDir'>;
  layouts: LayoutSource;
  /** Identifies this launcher in `lock_holder` columns. */
  holder: string;
  now(): Date;
  uuid(): string;
  logger: LauncherLogger;
  repos: LauncherRepositories;
  drivers: Record<LauncherDriver, NodeDriver>;
}

export function createRepositories(knex: Knex): LauncherRepositories {
  return {
    requests: new NodesetRequestRepository(knex),
    nodes: new NodeRepository(knex),
    images: new ImageRepository(knex),
    events: new EngineEventRepository(knex),
    systemEvents: new SystemEventRepository(knex),
    changes: new LauncherChangeRepository(knex),
  };
}

export function defaultDrivers(): Record<LauncherDriver, NodeDriver> {
  return { local: new LocalDriver(), static: new StaticDriver() };
}

/** The launcher providers of one tenant (empty for unknown tenants). */
export function providersOf(ctx: Pick<LauncherContext, 'layouts' | 'config'>, tenant: string): RuntimeProvider[] {
  const layout = ctx.layouts.layout(tenant);
  return layout ? tenantProviders(layout, ctx.config) : [];
}

/** Every tenant's providers, keyed by tenant. */
export function allTenantProviders(ctx: Pick<LauncherContext, 'layouts' | 'config'>): Map<string, RuntimeProvider[]> {
  const result = new Map<string, RuntimeProvider[]>();
  for (const tenant of ctx.layouts.tenantNames()) {
    result.set(tenant, providersOf(ctx, tenant));
  }
  return result;
}

/** A provider by canonical name (the first tenant that has it; a provider's runtime is the same in each). */
export function providerByName(
  ctx: Pick<LauncherContext, 'layouts' | 'config'>,
  canonicalName: string,
): RuntimeProvider | undefined {
  for (const providers of allTenantProviders(ctx).values()) {
    const found = providers.find((p) => p.canonicalName === canonicalName);
    if (found) {
      return found;
    }
  }
  return undefined;
}
