/** `GET /api/info` (compat.md §2.2; earlier shape §3). */
import { RestInfoDocument, type RestInfoQuery } from '../generated/graphql';
import type { RestRoute } from '../route';
import type { RestShape } from '../shape';

type Info = RestInfoQuery['info'];

export const infoRoute: RestRoute = {
  name: 'info',
  pattern: 'info',
  handlers: {
    GET: async (req) => {
      const { info } = await req.run(RestInfoDocument, {});
      return { body: mapInfo(info, req.shape), headers: { 'Cache-Control': 'public, max-age=3600' } };
    },
  },
};

export function mapInfo(info: Info, shape: RestShape): { info: Record<string, unknown> } {
  const sluice = { version: info.version, rest_shape: info.restShape };
  const common = { stats: { url: null, prefix: null, type: 'graphite' }, websocket_url: info.websocketUrl, sluice };
  if (shape === 'earlier') {
    return { info: { capabilities: { job_history: info.capabilities.jobHistory }, ...common } };
  }
  const auth = info.capabilities.auth;
  const realms = Object.fromEntries(
    auth.realms.map((r) => [
      r.name,
      {
        authority: r.authority,
        client_id: r.clientId,
        type: 'JWT',
        driver: r.driver,
        ...(r.scope !== null ? { scope: r.scope } : {}),
      },
    ]),
  );
  return {
    info: {
      capabilities: {
        job_history: info.capabilities.jobHistory,
        auth: { realms, default_realm: auth.defaultRealm, read_protected: auth.readProtected, auth_log_file_requests: false },
      },
      ...common,
    },
  };
}
