/** The git driver's pollers in a server's roles: tests poll at once instead of waiting for the interval. */
import type { GitPoller } from '../../src/drivers/git/poller';
import type { GitDriverRuntime } from '../../src/drivers/git/runtime';
import type { ServiceRoles } from '../../src/server/roles';

/** The poller of a git connection, or undefined when the roles run none. */
export function gitPoller(roles: ServiceRoles | undefined, connection: string): GitPoller | undefined {
  const runtime = roles?.drivers.byDriver.get('git') as GitDriverRuntime | undefined;
  return runtime?.pollers.get(connection);
}
