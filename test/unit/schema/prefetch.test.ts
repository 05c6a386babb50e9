/**
 * Page prefetching (schema/infra/prefetch.ts, schema/infra/request-loader.ts) on a small schema run by
 * graphql-js and by graphql-jit (the REST runner's executor): the list resolver finds the
 * relations the query selects — directly, through `edges { node }`, fragments and inline
 * fragments — loads them in one batch each, and the relation fields then resolve
 * synchronously, without a promise per record.
 */
import {
  execute,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type DocumentNode,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { GraphQLContext } from '../../../schema/infra/context';
import { prefetchRelations } from '../../../schema/infra/prefetch';
import { requestLoader } from '../../../schema/infra/request-loader';

interface Row {
  id: number;
}

interface Probe {
  batches: number[][];
  /** Per relation field: how many times its loader answered synchronously / with a promise. */
  sync: number;
  async: number;
}

function fixture(options: { failing?: boolean } = {}) {
  const probe: Probe = { batches: [], sync: 0, async: 0 };
  const labels = requestLoader<number, string>(async (ids) => {
    probe.batches.push([...ids]);
    if (options.failing) {
      throw new Error('store unavailable');
    }
    return ids.map((id) => `label-${id}`);
  });
  const Item = new GraphQLObjectType<Row, GraphQLContext>({
    name: 'Item',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLInt) },
      label: {
        type: GraphQLString,
        resolve: (row, _args, ctx) => {
          const value = labels(ctx).load(row.id);
          probe[value instanceof Promise ? 'async' : 'sync'] += 1;
          return value;
        },
      },
    },
  });
  const Edge = new GraphQLObjectType({ name: 'ItemEdge', fields: { node: { type: Item } } });
  const Page = new GraphQLObjectType<{ rows: Row[] }>({
    name: 'ItemPage',
    fields: {
      nodes: { type: new GraphQLList(Item), resolve: (page) => page.rows },
      edges: { type: new GraphQLList(Edge), resolve: (page) => page.rows.map((node) => ({ node })) },
      total: { type: GraphQLInt, resolve: (page) => page.rows.length },
    },
  });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType<unknown, GraphQLContext>({
      name: 'Query',
      fields: {
        items: {
          type: Page,
          resolve: async (_root, _args, ctx, info) => {
            const rows = [1, 2, 3].map((id) => ({ id }));
            await prefetchRelations(ctx, info, rows, {
              label: (context, page) => labels(context).prefetch(page.map((row) => row.id)),
            });
            return { rows };
          },
        },
      },
    }),
  });
  return { schema, probe };
}

const executors: [string, (schema: GraphQLSchema, document: DocumentNode) => Promise<unknown>][] = [
  ['graphql-js', async (schema, document) => execute({ schema, document, contextValue: {} })],
  [
    'graphql-jit',
    async (schema, document) => {
      const compiled = compileQuery(schema, document);
      if (!isCompiledQuery(compiled)) {
        throw new Error(JSON.stringify(compiled.errors));
      }
      return compiled.query(undefined, {}, {});
    },
  ],
];

const SELECTIONS: [string, string][] = [
  ['nodes', '{ items { nodes { id label } } }'],
  ['edges { node }', '{ items { edges { node { label } } } }'],
  ['a fragment spread', '{ items { nodes { ...F } } } fragment F on Item { label }'],
  ['an inline fragment', '{ items { edges { node { ... on Item { label } } } } }'],
  ['a nested fragment', '{ items { ...P } } fragment P on ItemPage { nodes { ...F } } fragment F on Item { id label }'],
];

describe.each(executors)('on %s', (_name, run) => {
  it.each(SELECTIONS)(
    'prefetches a relation selected through %s, then resolves it synchronously',
    async (_how, source) => {
      const { schema, probe } = fixture();
      const result = (await run(schema, parse(source))) as { errors?: unknown; data: unknown };
      expect(result.errors).toBeUndefined();
      expect(probe.batches).toEqual([[1, 2, 3]]);
      expect(probe).toMatchObject({ sync: 3, async: 0 });
      expect(JSON.stringify(result.data)).toContain('label-3');
    },
  );

  it('loads nothing for relations the query does not select', async () => {
    const { schema, probe } = fixture();
    const result = (await run(schema, parse('{ items { total nodes { id } } }'))) as { errors?: unknown };
    expect(result.errors).toBeUndefined();
    expect(probe.batches).toEqual([]);
  });

  it('reports a failed prefetch on the fields that needed it', async () => {
    const { schema, probe } = fixture({ failing: true });
    const result = (await run(schema, parse('{ items { nodes { id label } } }'))) as {
      errors?: { message: string }[];
      data: unknown;
    };
    expect(result.errors?.map((error) => error.message)).toEqual([
      'store unavailable',
      'store unavailable',
      'store unavailable',
    ]);
    expect(probe.batches).toEqual([[1, 2, 3]]);
    expect(result.data).toEqual({
      items: {
        nodes: [
          { id: 1, label: null },
          { id: 2, label: null },
          { id: 3, label: null },
        ],
      },
    });
  });
});

describe('requestLoader', () => {
  it('fetches only the keys it does not have yet, once per request', async () => {
    const batches: number[][] = [];
    const loader = requestLoader<number, number>(async (ids) => {
      batches.push([...ids]);
      return ids.map((id) => id * 10);
    });
    const ctx = {} as GraphQLContext;
    await loader(ctx).prefetch([1, 2]);
    await loader(ctx).prefetch([2, 3]);
    expect(loader(ctx).load(2)).toBe(20);
    expect(await loader(ctx).load(4)).toBe(40);
    expect(loader(ctx).load(4)).toBe(40);
    expect(batches).toEqual([[1, 2], [3], [4]]);
    // Another request has its own loader.
    await loader({} as GraphQLContext).prefetch([1]);
    expect(batches).toHaveLength(4);
  });
});
