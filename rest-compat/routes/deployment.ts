/**
 * `GET /api/components` and `GET /api/connections` (docs/rest.md#components-and-connections; earlier
 * docs/rest.md#earlier-shape-endpoints).
 */
import { RestComponentsDocument, RestConnectionsDocument, type RestConnectionsQuery } from '../generated/graphql';
import { arrayOf, int, nullable, object, str, type JsonSchema } from '../json-schema';
import type { RestRoute } from '../route';

const componentSchema = object({ hostname: str(), state: str(), version: str() });

/** Sluice's `api` role is the reference's `web` component; other roles keep their names. */
const referenceKind = (kind: string): string => (kind === 'api' ? 'web' : kind);

export const componentsRoute: RestRoute = {
  name: 'components',
  pattern: 'components',
  endpoints: {
    GET: {
      summary: 'Live Sluice processes by kind (web, scheduler, executor, launcher)',
      auth: 'public',
      operations: ['RestComponents'],
      responses: {
        current: {
          status: 200,
          schema: {
            type: 'object',
            additionalProperties: arrayOf(componentSchema),
            description: 'kind -> components; a kind appears only when one is alive',
          },
          description: 'Components',
        },
      },
      errors: {},
      handler: async (req) => {
        const { components } = await req.run(RestComponentsDocument, {});
        const byKind: Record<string, Record<string, string>[]> = {};
        for (const component of components) {
          const kind = referenceKind(component.kind);
          byKind[kind] = [
            ...(byKind[kind] ?? []),
            { hostname: component.hostname, state: component.state, version: component.version },
          ];
        }
        return { body: byKind };
      },
    },
  },
};

/** A connection's entry: `{name, driver}` and its driver's keys (docs/rest.md#components-and-connections). */
const connectionSchema = (current: boolean): JsonSchema =>
  object(
    { name: str(), driver: str() },
    {
      baseurl: str(),
      canonical_hostname: str(),
      server: str(),
      port: int('Gerrit SSH port'),
      ...(current ? { ssh_server: str('Gerrit SSH host'), repo_cache: nullable(str('GitHub: always null')) } : {}),
    },
  );

type ConnectionEntry = RestConnectionsQuery['connections'][number];

/**
 * The reference's entry of a connection: gerrit adds `baseurl`, `canonical_hostname`, `server`,
 * `ssh_server` (current shape only) and `port`; github `baseurl`, `canonical_hostname`, `server`,
 * `repo_cache` (current shape only; Sluice has no repository cache, so null); git `baseurl`,
 * `canonical_hostname`; other drivers (gitlab) nothing more.
 */
function connectionEntry(connection: ConnectionEntry, current: boolean): Record<string, unknown> {
  const entry: Record<string, unknown> = { name: connection.name, driver: connection.driver };
  const base = { baseurl: connection.baseurl, canonical_hostname: connection.canonicalHostname };
  switch (connection.driver) {
    case 'git':
      return { ...entry, ...base };
    case 'gerrit':
      return {
        ...entry,
        ...base,
        server: connection.server,
        ...(current ? { ssh_server: connection.sshServer } : {}),
        port: connection.port,
      };
    case 'github':
      return { ...entry, ...base, server: connection.server, ...(current ? { repo_cache: null } : {}) };
    default:
      return entry;
  }
}

export const connectionsRoute: RestRoute = {
  name: 'connections',
  pattern: 'connections',
  endpoints: {
    GET: {
      summary: 'Source connections in configuration order',
      auth: 'public',
      operations: ['RestConnections'],
      responses: {
        current: { status: 200, schema: arrayOf(connectionSchema(true)), description: 'Connections' },
        earlier: { status: 200, schema: arrayOf(connectionSchema(false)), description: 'Connections' },
      },
      errors: {},
      handler: async (req) => {
        const { connections } = await req.run(RestConnectionsDocument, {});
        return {
          body: connections.map((connection) => connectionEntry(connection, req.shape === 'current')),
        };
      },
    },
  },
};
