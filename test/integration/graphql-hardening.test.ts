import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getIntrospectionQuery, type ExecutionArgs } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { createClient, type Client } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import WebSocket, { WebSocketServer } from 'ws';
import { serviceConfigSchema, type GraphQLHardeningConfig } from '../../src/config/service';
import {
  hardeningPlugins,
  parseAndValidateForSubscription,
  webSocketMaxPayload,
} from '../../src/server/graphql-hardening';

const DEFAULTS: GraphQLHardeningConfig = serviceConfigSchema.parse({}).graphql;

interface TreeNode {
  id: string;
}

const schema = createSchema({
  typeDefs: /* GraphQL */ `
    type Query {
      hello: String
      boom: String
      node: Node
      nodes: [Node]
      page(first: Int, last: Int): [Node]
    }
    type Node {
      id: ID
      name: String
      child: Node
      children: [Node]
    }
    type Subscription {
      ticks: Int
      pages(first: Int): [Node]
    }
  `,
  resolvers: {
    Query: {
      hello: () => 'world',
      boom: () => {
        throw new Error('database password is hunter2');
      },
      node: (): TreeNode => ({ id: '1' }),
      nodes: (): TreeNode[] => [{ id: '1' }, { id: '2' }],
      page: (): TreeNode[] => [{ id: '1' }],
    },
    Node: {
      name: (node: TreeNode) => `node ${node.id}`,
      child: (node: TreeNode): TreeNode => ({ id: `${node.id}.1` }),
      children: (node: TreeNode): TreeNode[] => [{ id: `${node.id}.1` }],
    },
    Subscription: {
      ticks: {
        subscribe: async function* () {
          yield { ticks: 1 };
          yield { ticks: 2 };
        },
      },
      pages: {
        subscribe: async function* () {
          yield { pages: [{ id: '1' }] };
        },
      },
    },
  },
});

function buildServer(config: GraphQLHardeningConfig) {
  const yoga = createYoga({ schema, plugins: hardeningPlugins(config), logging: false, graphiql: false });
  const server = http.createServer(yoga);
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: webSocketMaxPayload(config) });
  const disposable = useServer(
    {
      execute: (args) => (args as ExecutionArgs & { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) =>
        (args as ExecutionArgs & { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const env = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params });
        const checked = parseAndValidateForSubscription(env, params.query, config);
        if ('errors' in checked) {
          return checked.errors;
        }
        return {
          schema: env.schema,
          document: checked.document,
          operationName: params.operationName,
          variableValues: params.variables,
          contextValue: await env.contextFactory(),
          execute: env.execute,
          subscribe: env.subscribe,
        };
      },
    },
    wss,
  );
  return { yoga, server, wss, disposable };
}

describe('GraphQL hardening', () => {
  let built: ReturnType<typeof buildServer>;
  let url: string;

  beforeAll(async () => {
    built = buildServer(DEFAULTS);
    await new Promise<void>((resolve) => built.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(built.server.address() as AddressInfo).port}/graphql`;
  });

  afterAll(async () => {
    await built.disposable.dispose();
    await new Promise<void>((resolve) => built.server.close(() => resolve()));
  });

  async function post(
    query: string,
    headers: Record<string, string> = {},
    variables?: Record<string, unknown>,
  ): Promise<{
    status: number;
    body: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
  }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as never };
  }

  const messages = (result: Awaited<ReturnType<typeof post>>) => (result.body.errors ?? []).map((e) => e.message);
  /** `node { child { ... id } }` with `id` at the given depth. */
  const chain = (depth: number): string => `node { ${'child { '.repeat(depth - 2)}id${' }'.repeat(depth - 1)}`;

  it('answers ordinary queries', async () => {
    expect(await post('{ hello node { id child { name } } }')).toEqual({
      status: 200,
      body: { data: { hello: 'world', node: { id: '1', child: { name: 'node 1.1' } } } },
    });
  });

  it('refuses queries deeper than the limit, counting fields not fragments', async () => {
    expect((await post(`{ ${chain(12)} }`)).body.errors).toBeUndefined();
    const started = Date.now();
    const deep = await post(`{ ${chain(13)} }`);
    expect(messages(deep)).toEqual(['Syntax Error: Query depth limit of 12 exceeded, found 13.']);
    expect(deep.body.data).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
    // A fragment spread does not add a level.
    expect(
      (await post(`{ node { ...F } } fragment F on Node { ${'child { '.repeat(10)}id${' }'.repeat(10)} }`)).body.errors,
    ).toBeUndefined();
  });

  it('refuses queries whose estimated cost is over the limit', async () => {
    const fragment = `fragment F on Node { id name ${'child { id name '.repeat(7)}${' }'.repeat(7)} }`;
    const spreads = 'children { ...F ...F ...F ...F ...F ...F ...F ...F }';
    expect((await post(`{ nodes { ${spreads} children { ${spreads} } } } ${fragment}`)).body.errors).toBeUndefined();
    const costly = await post(`{ page(first: 20) { ${spreads} children { ${spreads} } } } ${fragment}`);
    expect(messages(costly)).toEqual([
      expect.stringMatching(/^Syntax Error: Query Cost limit of 50000 exceeded, found \d+/),
    ]);
  });

  it('multiplies the cost by page sizes passed as variables, as by literal ones', async () => {
    // 2 + 1.5 x (2 + 1.5 x 16 scalars) = 41 per node of the page.
    const fields = Array.from({ length: 16 }, () => 'name').join(' ');
    const literal = (size: number) => post(`{ page(first: ${size}) { child { ${fields} } } }`);
    const variable = (size: unknown) =>
      post(`query ($n: Int) { page(first: $n) { child { ${fields} } } }`, {}, { n: size });
    const over = /^Syntax Error: Query Cost limit of 50000 exceeded, found \d+/;
    expect((await literal(1000)).body.errors).toBeUndefined();
    expect(messages(await literal(2000))).toEqual([expect.stringMatching(over)]);
    expect((await variable(1000)).body.errors).toBeUndefined();
    const refused = await variable(2000);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      errors: [
        expect.objectContaining({
          message: expect.stringMatching(over),
          extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
        }),
      ],
    });
    // The same figure as for the literal: one rule judges both.
    expect(messages(refused)).toEqual(messages(await literal(2000)));
    // A declared default counts when the variable is not given; `last` counts as `first` does.
    expect(messages(await post(`query ($n: Int = 2000) { page(last: $n) { child { ${fields} } } }`))).toEqual([
      expect.stringMatching(over),
    ]);
    // Null or a non-integer leaves the size to the resolver's coercion (no multiplier).
    expect((await variable(null)).body.errors).toBeUndefined();
  });

  it('refuses too many aliases', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: hello`).join(' ');
    expect(messages(await post(`{ ${aliases} }`))).toEqual(['Syntax Error: Aliases limit of 15 exceeded, found 16.']);
    expect(
      (await post(`{ ${Array.from({ length: 15 }, (_, i) => `a${i}: hello`).join(' ')} }`)).body.errors,
    ).toBeUndefined();
  });

  it('refuses documents with too many tokens', async () => {
    const result = await post(`{ ${'hello '.repeat(2100)} }`);
    expect(messages(result)).toEqual(['Syntax Error: Token limit of 2000 exceeded.']);
  });

  it('refuses documents nested deeper than the limit before parsing them (400, no stack overflow)', async () => {
    const list = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
    for (const depth of [65, 5000, 100_000]) {
      const refused = await post(`{ page(first: ${list(depth)}) { id } }`);
      expect({ status: refused.status, messages: messages(refused) }).toEqual({
        status: 400,
        messages: ['Syntax Error: Nesting limit of 64 exceeded.'],
      });
    }
    // 64 levels pass the guard (and then fail as an ordinary type error).
    const allowed = await post(`{ page(first: ${list(62)}) { id } }`);
    expect(messages(allowed)).toEqual([expect.stringMatching(/^Int cannot represent non-integer value/)]);
    expect((await post(`{ hello } # ${'['.repeat(500)}`)).body).toEqual({ data: { hello: 'world' } });
  });

  it('refuses oversized bodies with 413, whether or not Content-Length is given', async () => {
    const padding = ' '.repeat(DEFAULTS.maxBodyBytes + 10);
    const declared = await post(`{ hello }${padding}`);
    expect(declared.status).toBe(413);
    expect(messages(declared)).toEqual([`Request body is larger than the limit of ${DEFAULTS.maxBodyBytes} bytes`]);

    const encoder = new TextEncoder();
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Never-ending stream: the server must stop reading it on its own.
        sent += 64 * 1024;
        controller.enqueue(
          encoder.encode(
            sent === 64 * 1024 ? `{"query": "{ hello }", "x": "${' '.repeat(64 * 1024 - 30)}` : ' '.repeat(64 * 1024),
          ),
        );
      },
    });
    const chunked = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    // The body never ends, so an answer at all proves the server stopped reading at the limit.
    expect(chunked.status).toBe(413);
    expect(sent).toBeGreaterThan(DEFAULTS.maxBodyBytes);
  });

  it('masks unexpected errors', async () => {
    const result = await post('{ boom }');
    expect(messages(result)).toEqual(['Unexpected error.']);
    expect(JSON.stringify(result.body)).not.toContain('hunter2');
  });

  it('requires a preflight-forcing header on GET (CSRF) but not on JSON POST', async () => {
    const get = await fetch(`${url}?query=${encodeURIComponent('{ hello }')}`);
    expect(get.status).toBe(403);
    expect(await get.json()).toEqual({
      errors: [expect.objectContaining({ message: 'Required CSRF header(s) not present' })],
    });
    const form = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=%7B%20hello%20%7D',
    });
    expect(form.status).toBe(403);
    const withHeader = await fetch(`${url}?query=${encodeURIComponent('{ hello }')}`, {
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(await withHeader.json()).toEqual({ data: { hello: 'world' } });
    const withToken = await fetch(`${url}?query=${encodeURIComponent('{ hello }')}`, {
      headers: { authorization: 'Bearer x' },
    });
    expect(withToken.status).toBe(200);
  });

  it('allows the standard introspection query but refuses circular introspection', async () => {
    expect((await post(getIntrospectionQuery())).body.errors).toBeUndefined();
    const circular = await post(
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
    );
    expect(messages(circular)).toEqual(['Maximum introspection depth exceeded']);
  });

  it('applies the same limits to graphql-ws operations and keeps the socket usable', async () => {
    let connections = 0;
    built.wss.on('connection', () => connections++);
    const client: Client = createClient({
      url: url.replace('http', 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
    });
    const run = (query: string) =>
      new Promise<{ data?: unknown; errors?: unknown[] }>((resolve) => {
        const results: unknown[] = [];
        client.subscribe(
          { query },
          {
            next: (value) => results.push(value),
            error: (errors) => resolve({ errors: Array.isArray(errors) ? errors : [errors] }),
            complete: () => resolve({ data: results }),
          },
        );
      });
    try {
      expect(await run(`{ ${chain(13)} }`)).toEqual({
        errors: [expect.objectContaining({ message: 'Syntax Error: Query depth limit of 12 exceeded, found 13.' })],
      });
      expect(await run(`{ ${'hello '.repeat(2100)} }`)).toEqual({
        errors: [expect.objectContaining({ message: 'Syntax Error: Token limit of 2000 exceeded.' })],
      });
      expect(await run(`{ page(first: ${'['.repeat(5000)}1${']'.repeat(5000)}) { id } }`)).toEqual({
        errors: [expect.objectContaining({ message: 'Syntax Error: Nesting limit of 64 exceeded.' })],
      });
      expect(await run(`{ ${Array.from({ length: 16 }, (_, i) => `a${i}: hello`).join(' ')} }`)).toEqual({
        errors: [expect.objectContaining({ message: 'Syntax Error: Aliases limit of 15 exceeded, found 16.' })],
      });
      expect(await run('subscription { ticks }')).toEqual({ data: [{ data: { ticks: 1 } }, { data: { ticks: 2 } }] });
      const pages = (size: number) =>
        run(
          `subscription { pages(first: ${size}) { ${'child { name name name name name name name name } '.repeat(4)} } }`,
        );
      expect(await pages(10)).toEqual({ data: [{ data: { pages: [expect.any(Object)] } }] });
      const variablePages = (size: number) =>
        new Promise<{ data?: unknown; errors?: unknown[] }>((resolve) => {
          const results: unknown[] = [];
          client.subscribe(
            {
              query: `subscription ($n: Int) { pages(first: $n) { ${'child { name name name name name name name name } '.repeat(4)} } }`,
              variables: { n: size },
            },
            {
              next: (value) => results.push(value),
              error: (errors) => resolve({ errors: Array.isArray(errors) ? errors : [errors] }),
              complete: () => resolve({ data: results }),
            },
          );
        });
      expect(await variablePages(10)).toEqual({ data: [{ data: { pages: [expect.any(Object)] } }] });
      const refused = await variablePages(10_000);
      expect(JSON.stringify(refused)).toMatch(/Query Cost limit of 50000 exceeded/);
      // Every refusal came back on the one socket: none of them closed it.
      expect(connections).toBe(1);
    } finally {
      await client.dispose();
    }
  });
});

describe('GraphQL hardening with introspection off', () => {
  const config: GraphQLHardeningConfig = { ...DEFAULTS, introspection: false };
  const { yoga } = buildServer(config);

  it('refuses introspection over HTTP and hides field suggestions', async () => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
    });
    const body = (await response.json()) as { errors: Array<{ message: string }> };
    expect(body.errors[0].message).toContain('GraphQL introspection has been disabled');
    const typo = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ helo }' }),
    });
    const typoBody = (await typo.json()) as { errors: Array<{ message: string }> };
    expect(typoBody.errors[0].message).not.toContain('Did you mean');
  });

  it('refuses introspection over WebSocket parsing too', () => {
    const env = yoga.getEnveloped({});
    const checked = parseAndValidateForSubscription(env, '{ __type(name: "Query") { name } }', config);
    expect('errors' in checked && checked.errors[0].message).toContain('GraphQL introspection has been disabled');
    const typename = parseAndValidateForSubscription(env, '{ __typename }', config);
    expect('document' in typename).toBe(true);
  });
});
