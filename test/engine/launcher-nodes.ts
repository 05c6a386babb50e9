/**
 * The launcher over a test database as an engine harness's node gateway: engine tests that need
 * real nodeset requests, quotas and node states (src/launcher/) instead of nodes given at once.
 */
import type { Knex } from 'knex';
import type { Layout } from '../../src/config/layout';
import type { ServiceConfig } from '../../src/config/service';
import type { NodeGateway } from '../../src/engine/ports/nodes';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import { TestLayouts } from '../helpers/launcher-layout';
import type { EngineHarness } from './harness';

/**
 * A launcher with the `local` driver (data under `root`) on the harness's clock, serving `layout`;
 * the harness's node requests, cancels, returns and holds go to it (`cancelRequest` through
 * `cancel` when given, so a test can lose some).
 */
export function launcherNodes(
  h: EngineHarness,
  knex: Knex,
  layout: Layout,
  root: string,
  cancel?: (gateway: NodeGateway, tenant: string, requestId: string) => Promise<void>,
): Launcher {
  const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = {
    dataDir: root,
    connections: { local: { driver: 'local' } },
  };
  const launcher = createLauncher({ config, knex, layouts: new TestLayouts(layout), now: h.clock.now.bind(h.clock) });
  const gateway: NodeGateway = launcher.gateway;
  Object.assign(h.nodes, {
    requestNodes: gateway.requestNodes.bind(gateway),
    cancelRequest: (tenant: string, requestId: string) =>
      cancel ? cancel(gateway, tenant, requestId) : gateway.cancelRequest(tenant, requestId),
    returnNodes: gateway.returnNodes.bind(gateway),
    holdNodes: gateway.holdNodes.bind(gateway),
  });
  return launcher;
}
