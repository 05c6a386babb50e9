/**
 * A tenant's keyset-paged list field (builds, buildsets, system events, nodes, nodeset requests):
 * the connection with its `filter` and `offset` arguments, its counted connection type, and the
 * resolver that turns the filter input into repository conditions, pages by database id and
 * prefetches the relations the query selects (docs/rest.md#overhead).
 */
import type { ObjectRef, InputObjectRef } from '@pothos/core';
import type { KeysetPage } from '../../src/store/repositories/history-query';
import type { SchemaTypes } from './builder';
import type { GraphQLContext } from './context';
import { filterConditions, type FilterConditions } from './filter-input';
import { countedConnectionTypes, NON_NULL_CONNECTION, OFFSET_ARG_DESCRIPTION } from './keyset-connection';
import { PAGINATION_DESCRIPTION, resolveIdConnection } from './pagination';
import { prefetchRelations, type RelationPrefetch } from './prefetch';

type Types = PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>;

/** Where a page of the list and its count come from, for one tenant and one filter. */
export interface TenantRows<Row> {
  list: (page: KeysetPage<number>) => Promise<Row[]>;
  count: () => Promise<number>;
}

export interface TenantListSpec<Row extends { id: number }, Filter extends object> {
  /** The node type; the connection and edge types are named after `name` (`BuildConnection`). */
  name: string;
  /** The node type: an object type of `Row`, or a loadable node type (its values may be ids too). */
  type: NoInfer<ObjectRef<Types, Row | number, Row> | ObjectRef<Types, Row>>;
  filter: InputObjectRef<Types, Filter>;
  texts: {
    /** The field's description; the pagination text follows it. */
    field: string;
    /** The filter argument's description. */
    filter: string;
    /** The connection type's description. */
    page: string;
    /** One node, for the edge's description ("A build"). */
    item: string;
    totalCount: string;
  };
  rows: (ctx: GraphQLContext, tenant: string, filter: FilterConditions<Filter>) => TenantRows<Row>;
  /** Relations loaded for a whole page when the query selects them (schema/infra/prefetch.ts). */
  relations?: Readonly<Record<string, RelationPrefetch<Row>>>;
}

/** The list field on a type whose values name a tenant (`Tenant`). */
export function tenantListField<Row extends { id: number }, Filter extends object>(
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, { name: string }>,
  spec: TenantListSpec<Row, Filter>,
) {
  const { relations } = spec;
  return t.connection(
    {
      ...NON_NULL_CONNECTION,
      type: spec.type,
      description: `${spec.texts.field} ${PAGINATION_DESCRIPTION}`,
      args: {
        filter: t.arg({ type: spec.filter, description: spec.texts.filter }),
        offset: t.arg.int({ description: OFFSET_ARG_DESCRIPTION }),
      },
      resolve: (tenant, args, ctx, info) => {
        const { filter } = args as { filter?: Filter | null };
        const rows = spec.rows(ctx, tenant.name, filterConditions(filter));
        return resolveIdConnection<Row>(args, {
          fetch: rows.list,
          count: rows.count,
          prefetch: relations && ((page) => prefetchRelations(ctx, info, page, relations)),
        });
      },
    },
    ...countedConnectionTypes(spec.name, spec.texts),
  );
}
