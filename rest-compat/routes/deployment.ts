/**
 * `GET /api/components` and `GET /api/connections` (docs/rest.md#components-and-connections; earlier
 * docs/rest.md#earlier-shape-endpoints).
 */
import { RestComponentsDocument, RestConnectionsDocument } from '../generated/graphql';
import { arrayOf, object, str, type JsonSchema } from '../json-schema';
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

const connectionSchema: JsonSchema = object({ name: str(), driver: str(), baseurl: str(), canonical_hostname: str() });

export const connectionsRoute: RestRoute = {
  name: 'connections',
  pattern: 'connections',
  endpoints: {
    GET: {
      summary: 'Source connections in configuration order',
      auth: 'public',
      operations: ['RestConnections'],
      responses: {
        current: { status: 200, schema: arrayOf(connectionSchema), description: 'Connections' },
        earlier: { status: 200, schema: arrayOf(connectionSchema), description: 'Connections' },
      },
      errors: {},
      handler: async (req) => {
        const { connections } = await req.run(RestConnectionsDocument, {});
        return {
          body: connections.map((connection) => ({
            name: connection.name,
            driver: connection.driver,
            baseurl: connection.baseurl,
            canonical_hostname: connection.canonicalHostname,
          })),
        };
      },
    },
  },
};
