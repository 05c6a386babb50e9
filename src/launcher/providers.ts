/**
 * Runtime providers (docs/launcher.md#providers-and-drivers): each tenant's flattened `provider` objects whose
 * connection uses a launcher driver (`local` or `static`), with their labels, images, quota and hosts.
 * Providers of other drivers (cloud drivers) parse in the layout but have no runtime here.
 */
import path from 'node:path';
import type { Layout, Provider } from '../config/layout';
import { providerImageFormat } from '../config/provider-flatten';
import type { ServiceConfig } from '../config/service';
import { isPlainObject } from '../model/value-checks';

export type LauncherDriver = 'local' | 'static';

export interface RuntimeLabel {
  name: string;
  canonicalName: string | null;
  image: string;
  flavor: string;
  configHash: string;
  minReady: number;
  maxReadyAge: number;
  /** Seconds to wait for a node to become reachable. */
  bootTimeout: number;
  hostKeyChecking: boolean;
}

export interface RuntimeImage {
  name: string;
  canonicalName: string | null;
  type: 'zuul' | 'cloud';
  /** Image file format this provider boots (`image-format`, default `tar` for local). */
  format: string;
  configHash: string;
  projectCanonicalName: string | null;
  branch: string | null;
}

export interface StaticHost {
  name: string;
  labels: string[];
  port: number;
  username: string | null;
  hostKeyChecking: boolean;
}

export interface RuntimeProvider {
  tenant: string;
  name: string;
  canonicalName: string;
  connection: string;
  driver: LauncherDriver;
  /** Shared by providers that upload to the same place (`<connection>/<region or name>`). */
  endpoint: string;
  launchAttempts: number;
  /** Seconds from launch start to ready; null = no limit. */
  launchTimeout: number | null;
  /** Maximum nodes at once (`resource-limits.instances`; static: number of hosts); null = unlimited. */
  instances: number | null;
  labels: ReadonlyMap<string, RuntimeLabel>;
  images: ReadonlyMap<string, RuntimeImage>;
  hosts: readonly StaticHost[];
  /** Local driver: directory of node workspaces and uploaded images. */
  root: string | null;
}

const DEFAULT_LAUNCH_ATTEMPTS = 3;
const DEFAULT_BOOT_TIMEOUT = 300;

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function stringOr(value: unknown, fallback: string | null): string | null {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

function staticHosts(config: Record<string, unknown>): StaticHost[] {
  const nodes = Array.isArray(config.nodes) ? config.nodes : [];
  const topUser = stringOr(config.username, null);
  return nodes.flatMap((entry): StaticHost[] => {
    const node = record(entry);
    const name = stringOr(node.name, null);
    if (name === null) {
      return [];
    }
    const labels = Array.isArray(node.labels)
      ? node.labels.filter((l): l is string => typeof l === 'string')
      : typeof node.labels === 'string'
        ? [node.labels]
        : [];
    return [
      {
        name,
        labels,
        port: numberOr(node['connection-port'], 22),
        username: stringOr(node.username, topUser),
        hostKeyChecking: node['host-key-checking'] !== false && config['host-key-checking'] !== false,
      },
    ];
  });
}

/** The runtime form of one layout provider, or null when its connection is not a launcher driver. */
export function runtimeProvider(
  tenant: string,
  provider: Provider,
  layout: Layout,
  config: Pick<ServiceConfig, 'connections' | 'dataDir'>,
): RuntimeProvider | null {
  const connectionName = provider.connection;
  if (connectionName === undefined) {
    return null;
  }
  const connection = config.connections[connectionName];
  if (connection === undefined || (connection.driver !== 'local' && connection.driver !== 'static')) {
    return null;
  }
  const driver = connection.driver;
  const flat = provider.config;
  const labels = new Map<string, RuntimeLabel>();
  for (const entry of provider.labels) {
    labels.set(entry.name, {
      name: entry.name,
      canonicalName: layout.labels.get(entry.name)?.canonicalName ?? null,
      image: String(entry.image ?? ''),
      flavor: String(entry.flavor ?? ''),
      configHash: entry.config_hash,
      minReady: numberOr(entry['min-ready'], 0),
      maxReadyAge: numberOr(entry['max-ready-age'], 0),
      bootTimeout: numberOr(entry['boot-timeout'] ?? flat['boot-timeout'], DEFAULT_BOOT_TIMEOUT),
      hostKeyChecking: (entry['host-key-checking'] ?? flat['host-key-checking']) !== false,
    });
  }
  const images = new Map<string, RuntimeImage>();
  for (const entry of provider.images) {
    images.set(entry.name, {
      name: entry.name,
      canonicalName: layout.images.get(entry.name)?.canonicalName ?? null,
      type: entry.type === 'zuul' ? 'zuul' : 'cloud',
      format: providerImageFormat(provider, entry),
      configHash: entry.config_hash,
      projectCanonicalName: stringOr(entry.project_canonical_name, null),
      branch: stringOr(entry.branch, null),
    });
  }
  const hosts = driver === 'static' ? staticHosts(flat) : [];
  const limits = record(flat['resource-limits']);
  const instances = driver === 'static' ? hosts.length : typeof limits.instances === 'number' ? limits.instances : null;
  const launchTimeout = flat['launch-timeout'];
  return {
    tenant,
    name: provider.name,
    canonicalName: provider.canonicalName,
    connection: connectionName,
    driver,
    endpoint: `${connectionName}/${stringOr(flat.region, provider.name) ?? provider.name}`,
    launchAttempts: numberOr(flat['launch-attempts'], DEFAULT_LAUNCH_ATTEMPTS),
    launchTimeout: typeof launchTimeout === 'number' ? launchTimeout : null,
    instances,
    labels,
    images,
    hosts,
    root:
      connection.driver === 'local' ? (connection.root ?? path.join(config.dataDir, 'launcher', connectionName)) : null,
  };
}

/** Every launcher provider of a tenant layout, in layout order. */
export function tenantProviders(
  layout: Layout,
  config: Pick<ServiceConfig, 'connections' | 'dataDir'>,
): RuntimeProvider[] {
  const result: RuntimeProvider[] = [];
  for (const provider of layout.providers.values()) {
    const runtime = runtimeProvider(layout.tenantName, provider, layout, config);
    if (runtime !== null) {
      result.push(runtime);
    }
  }
  return result;
}
