/**
 * Who may read a console stream (compat.md §2.35, §6.3): the same read decision as the tenant's
 * REST reads, with the token taken from the stream's first message. A refusal closes the socket
 * with 4000 and the auth error name (`MissingAuthError`, `TokenExpiredError`, ...), or
 * `Authorization error` when the token is valid but may not read the tenant.
 */
import type { AuthServices } from '../../schema/infra/context';
import { requestAuthFromConnectionParams } from '../auth/gate';
import type { ConsoleAuthorization } from '../../subscriptions/console-websocket';

export function consoleStreamAuthorizer(
  auth: AuthServices,
): (tenant: string, token: string | undefined) => Promise<ConsoleAuthorization> {
  return async (tenant, token) => {
    const policies = auth.policies();
    if (policies.tenantPolicy(tenant) === undefined) {
      // Unknown tenant: nothing to protect; the build lookup answers `Build not found`.
      return { ok: true };
    }
    const request = await requestAuthFromConnectionParams(
      await auth.authenticator(),
      token === undefined ? {} : { token },
      policies,
    );
    const result = request.check('public', tenant);
    if (result.allowed) {
      return { ok: true };
    }
    return { ok: false, reason: result.status === 401 ? result.failure.errorName : 'Authorization error' };
  };
}
