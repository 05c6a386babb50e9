/**
 * The parts every keyset-paged list field shares (builds, buildsets, build times, system events,
 * nodes, nodeset requests): non-null edges and nodes, the REST-style `offset` argument, and a
 * `<Name>Connection` type whose `totalCount` is counted only when selected.
 */
import type { SchemaTypes } from './builder';
import type { KeysetConnection } from './pagination';

/** Field options: a list that is never null and never holds null edges or nodes. */
export const NON_NULL_CONNECTION = {
  nullable: false,
  edgesNullable: { list: false, items: false },
  nodeNullable: false,
} as const;

export const OFFSET_ARG_DESCRIPTION = 'Rows to skip after the cursor position (REST `skip`); prefer cursors.';

type CountedShape = Pick<KeysetConnection<unknown>, 'totalCount'>;

/**
 * The connection and edge type options of a counted list, in the order `t.connection` takes them.
 * `page` describes the connection type, `item` names one node for the edge ("A build").
 */
export function countedConnectionTypes(name: string, texts: { page: string; item: string; totalCount: string }) {
  return [
    {
      name: `${name}Connection`,
      description: texts.page,
      // Generic over the connection shape Pothos infers per field; every resolver of these fields
      // returns `resolveKeysetConnection(...)`, which carries `totalCount`.
      fields: <Shape extends object>(
        tc: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>, Shape>,
      ) => ({
        totalCount: tc.int({
          nullable: false,
          description: texts.totalCount,
          resolve: (connection) => (connection as unknown as CountedShape).totalCount(),
        }),
      }),
    },
    { name: `${name}Edge`, description: `${texts.item} and its cursor.` },
  ] as const;
}
