/**
 * The lines `sluice serve` prints once it listens: addresses that work from this machine and,
 * when the service listens on every interface, from others (docs/configuration.md#keys, `listen.host`).
 */
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from '../config/service';
import { SLUICE_VERSION } from '../model/version';
import { addressOf, urlOf } from './app-lifecycle';
import { publicLogsUrl } from './log-files';
import { describeRoles, ROLE_NAMES } from '../model/roles';

type Interfaces = ReturnType<typeof os.networkInterfaces>;

/** The start banner; `interfaces` is injectable for tests. */
export function startBanner(
  config: Pick<ServiceConfig, 'api' | 'logs'> & {
    web?: Pick<ServiceConfig['web'], 'dashboard'>;
    roles?: ServiceConfig['roles'];
  },
  address: Pick<AddressInfo, 'address' | 'port'>,
  interfaces: Interfaces = os.networkInterfaces(),
): string {
  const base = urlOf(addressOf(address.address, address.port));
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const roles = new Set(config.roles ?? ROLE_NAMES);
  const running = `Sluice ${SLUICE_VERSION} is running${roles.size < ROLE_NAMES.length ? ` (roles ${describeRoles(roles)})` : ''}`;
  const where = wildcard ? `port ${address.port} of every interface` : base;
  if (!roles.has('api')) {
    // Health and metrics only (docs/operations.md#roles).
    return [
      '',
      `${running}, listening on ${where}.`,
      `  Health:                              ${base}/health/ready`,
      `  Metrics:                             ${base}/metrics`,
      '',
    ].join('\n');
  }
  const lines = [
    '',
    `${running}, listening on ${where}.`,
    ...(config.web?.dashboard ? [`  Dashboard:                           ${base}/`] : []),
    `  GraphQL (and GraphiQL in a browser): ${base}/graphql`,
    `  REST API:                            ${base}/api/info`,
    `  Health:                              ${base}/health/ready`,
  ];
  const logs = publicLogsUrl(config, base);
  if (logs !== undefined) {
    lines.push(`  Build logs:                          ${logs}`);
  }
  if (config.api.publicUrl !== undefined) {
    lines.push(`  Public address (api.publicUrl):      ${config.api.publicUrl}`);
  } else if (wildcard) {
    const others = externalAddresses(interfaces, address.address === '::').map((host) =>
      urlOf(addressOf(host, address.port)),
    );
    if (others.length > 0) {
      lines.push(`  From other machines:                 ${others.join(', ')}`);
    }
  }
  lines.push('  Docs: README.md and docs/ in the source tree', '');
  return lines.join('\n') + '\n';
}

/** Non-loopback addresses of this host (IPv4; IPv6 too when bound to `::`). */
function externalAddresses(interfaces: Interfaces, includeIpv6: boolean): string[] {
  const found: string[] = [];
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (entry.internal || (entry.family !== 'IPv4' && !includeIpv6) || entry.address.startsWith('fe80:')) {
        continue;
      }
      found.push(entry.address);
    }
  }
  return found;
}
