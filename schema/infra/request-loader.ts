/**
 * Per-request batch loaders for relations that more than one resolver loads: the field that
 * resolves the relation, and the list resolver that prefetches it for a whole page
 * (schema/infra/prefetch.ts). They share one DataLoader, so the page's batch is fetched once, and
 * values already fetched are returned synchronously: GraphQL then completes a record without
 * waiting on a promise per field. Pothos' `t.loadableList` keeps its loader private to the field.
 */
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { GraphQLContext } from './context';
import { groupBy } from './group-by';

export interface BatchLoader<Key, Value> {
  /** The value, synchronously when a prefetch or earlier load already has it. */
  load(key: Key): Value | Promise<Value>;
  /** Loads `keys` in one batch and resolves once every value is available to `load`. */
  prefetch(keys: readonly Key[]): Promise<void>;
}

export type RequestLoader<Key, Value> = (ctx: GraphQLContext) => BatchLoader<Key, Value>;

/** A loader per request (per subscription event, as Pothos' own loaders) over `batch`. */
export function requestLoader<Key, Value>(
  batch: (keys: readonly Key[], ctx: GraphQLContext) => Promise<Value[]>,
): RequestLoader<Key, Value> {
  return createContextCache((ctx: GraphQLContext): BatchLoader<Key, Value> => {
    const loaded = new Map<Key, Value>();
    const loader = new DataLoader<Key, Value | Error>(async (keys) => {
      let values: Value[];
      try {
        values = await batch(keys, ctx);
      } catch (err) {
        // Kept as each key's result (DataLoader would drop a rejected batch from its cache and
        // let every field fetch again): the fields that need it report it, nothing is refetched.
        const error = err instanceof Error ? err : new Error(String(err));
        return keys.map(() => error);
      }
      keys.forEach((key, index) => loaded.set(key, values[index]));
      return values;
    });
    return {
      load: (key) => (loaded.has(key) ? (loaded.get(key) as Value) : (loader.load(key) as Promise<Value>)),
      prefetch: async (keys) => {
        const missing = keys.filter((key) => !loaded.has(key));
        if (missing.length > 0) {
          await loader.loadMany(missing); // errors stay in the loader for the fields to report
        }
      },
    };
  });
}

/**
 * A request loader of the rows that belong to each id (`[]` for an id with none), from one
 * query for every id of the batch: `keyOf` says which id a row belongs to, `itemOf` what of it to keep.
 */
export function groupedRequestLoader<Row, Item>(
  fetch: (ids: readonly number[], ctx: GraphQLContext) => Promise<readonly Row[]>,
  keyOf: (row: Row) => number,
  itemOf: (row: Row) => Item,
): RequestLoader<number, Item[]> {
  return requestLoader(async (ids, ctx) => groupBy(ids, await fetch(ids, ctx), keyOf, itemOf));
}
