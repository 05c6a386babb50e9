/** `GET /api/info` and `GET T/info` (docs/rest.md#info; earlier shape docs/rest.md#earlier-shape-endpoints). */
import { RestInfoDocument, RestTenantInfoDocument, type RestInfoQuery } from '../generated/graphql';
import { bool, freeObject, nullable, object, str, type JsonSchema } from '../json-schema';
import type { RestRoute } from '../route';
import type { RestShape } from '../shape';

type Info = RestInfoQuery['info'];

const INFO_CACHE = { 'Cache-Control': 'public, max-age=3600' };

const statsSchema = object({ url: nullable(str()), prefix: nullable(str()), type: str() });
const sluiceSchema = object({ version: str(), rest_shape: str('Deployment default REST shape: current or earlier') });
const authSchema = object(
  {
    realms: freeObject(
      'Realm name -> {authority, client_id, type, driver, scope?, load_user_info?} (the last two for OpenIDConnect)',
    ),
    default_realm: nullable(str()),
  },
  {
    read_protected: bool(),
    auth_log_file_requests: bool(),
    niz: bool('Tenant info only: the tenant has launcher providers'),
  },
);

function infoSchema(shape: RestShape, tenant: boolean): JsonSchema {
  const capabilities =
    shape === 'earlier' ? object({ job_history: bool() }) : object({ job_history: bool(), auth: authSchema });
  const fields: Record<string, JsonSchema> = {
    capabilities,
    stats: statsSchema,
    websocket_url: nullable(str()),
    sluice: sluiceSchema,
  };
  return object({ info: object(tenant ? { ...fields, tenant: str() } : fields) });
}

/** The info document; `tenantKnown` adds the tenant-specific auth keys (absent for unknown tenants). */
export function mapInfo(info: Info, shape: RestShape, tenantKnown = true): { info: Record<string, unknown> } {
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
        ...(r.loadUserInfo !== null ? { load_user_info: r.loadUserInfo } : {}),
      },
    ]),
  );
  const tenantAuth = tenantKnown ? { read_protected: auth.readProtected, auth_log_file_requests: false } : {};
  return {
    info: {
      capabilities: {
        job_history: info.capabilities.jobHistory,
        auth: { realms, default_realm: auth.defaultRealm, ...tenantAuth },
      },
      ...common,
    },
  };
}

export const infoRoute: RestRoute = {
  name: 'info',
  pattern: 'info',
  endpoints: {
    GET: {
      summary: 'Service information and how to authenticate',
      auth: 'none',
      operations: ['RestInfo'],
      responses: {
        current: { status: 200, schema: infoSchema('current', false), description: 'Info document' },
        earlier: { status: 200, schema: infoSchema('earlier', false), description: 'Info document' },
      },
      errors: {},
      headers: INFO_CACHE,
      handler: async (req) => {
        const { info } = await req.run(RestInfoDocument, {});
        return { body: mapInfo(info, req.shape) };
      },
    },
  },
};

export const tenantInfoRoute: RestRoute = {
  name: 'tenant_info',
  pattern: 'tenant/{tenant_name}/info',
  endpoints: {
    GET: {
      summary: 'Service information for one tenant (never 404: any name is echoed)',
      auth: 'none',
      operations: ['RestTenantInfo'],
      responses: {
        current: { status: 200, schema: infoSchema('current', true), description: 'Info document with tenant' },
        earlier: { status: 200, schema: infoSchema('earlier', true), description: 'Info document with tenant' },
      },
      errors: {},
      headers: INFO_CACHE,
      handler: async (req) => {
        const data = await req.run(RestTenantInfoDocument, { tenant: req.params.tenant_name });
        const tenant = data.tenantInfo ?? null;
        const { info } = mapInfo(data.info, req.shape, tenant !== null);
        if (tenant === null || req.shape === 'earlier') {
          return { body: { info: { ...info, tenant: req.params.tenant_name } } };
        }
        // docs/rest.md#info: the tenant's realm, read protection and launcher flag replace the root values
        // (an api-root realm does not apply to tenants).
        const capabilities = info.capabilities as { job_history: boolean; auth: Record<string, unknown> };
        const auth = {
          ...capabilities.auth,
          default_realm: tenant.defaultRealm,
          read_protected: tenant.readProtected,
          niz: tenant.niz,
        };
        return { body: { info: { ...info, capabilities: { ...capabilities, auth }, tenant: req.params.tenant_name } } };
      },
    },
  },
};
